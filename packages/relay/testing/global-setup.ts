// A vitest global setup (`globalSetup: ["@neutral/relay/testing/global-setup"]`) that leaves nothing
// behind: the run gets a directory of its own in the system temp dir and `TMPDIR` points into it,
// so every temp dir of the run (a relay's data dir, a PostgreSQL cluster, a test's own `mkdtemp`,
// a failed test's included) is inside it. At the end of the run, and when the run is interrupted
// (SIGINT, SIGTERM, SIGHUP: vitest then exits without its teardowns), the relays and clusters any
// process of the run started are killed and the directory is removed.
import { chmodSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { childProcesses, onExitOrSignal, reapRunDir, RUN_DIR_PREFIX, RUN_DIR_VARIABLE } from "./cleanup.js";

export default function setup(): () => void {
  const runDir = mkdtempSync(path.join(os.tmpdir(), RUN_DIR_PREFIX));
  // Others may pass through (not list): a PostgreSQL cluster in it runs as the postgres user when the run is root's.
  chmodSync(runDir, 0o711);
  const saved = { runDir: process.env[RUN_DIR_VARIABLE], tmpdir: process.env.TMPDIR };
  // Set before vitest starts its workers: they, and every process they start, inherit both.
  process.env[RUN_DIR_VARIABLE] = runDir;
  process.env.TMPDIR = runDir;
  // Interrupted, vitest exits without stopping its pool: its workers (which start the relays) go
  // first, then every process group the run wrote down, then the directory.
  const cancel = onExitOrSignal(() => {
    for (const pid of childProcesses()) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    reapRunDir(runDir);
  });
  return () => {
    cancel();
    reapRunDir(runDir);
    for (const [name, value] of [[RUN_DIR_VARIABLE, saved.runDir], ["TMPDIR", saved.tmpdir]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
