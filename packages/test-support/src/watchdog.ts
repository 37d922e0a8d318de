// The run's last resort, started by the global setup as a process of its own (its own session, so
// that a kill of the test run's process group misses it): when the vitest process that started it
// is gone without having cleaned up (SIGKILL, as turbo's "force killed" does, or a crash), it kills
// the process groups the run wrote down, removes the run's directory and vitest's own temp dir,
// and exits. A run that ends normally stops it first.
//
// Usage: node watchdog.js <runDir> [<more dirs to remove>…]
import { rmSync } from "node:fs";
import { reapRunDir } from "./run.js";

const [runDir, ...dirs] = process.argv.slice(2);
if (!runDir) throw new Error("usage: watchdog.js <runDir> [dirs…]");
const parent = process.ppid;

// process.ppid is read afresh on every access: once the parent dies, this process is re-parented
// (to init or a subreaper), which no reuse of the parent's pid can fake.
const timer = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(timer);
  reapRunDir(runDir);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}, 200);
