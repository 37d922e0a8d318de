// A vitest global setup (`globalSetup: ["@neutral/test-support/global-setup"]`) that leaves nothing
// behind: the run gets a directory of its own (on a RAM file system when there is one, see runBase)
// and `TMPDIR` points into it, so every temp dir of the run (a relay's data dir, a PostgreSQL cluster, a test's own `mkdtemp`,
// a failed test's included) is inside it. At the end of the run, and when the run is interrupted
// (SIGINT, SIGTERM, SIGHUP: vitest then exits without its teardowns), the relays and clusters any
// process of the run started are killed and the directory is removed; when vitest is killed
// outright (SIGKILL), a watchdog process does the same (watchdog.ts).
import { spawn } from "node:child_process";
import { accessSync, chmodSync, constants, mkdtempSync, rmSync, statfsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { childProcesses, onExitOrSignal, reapRunDir, RUN_DIR_PREFIX, RUN_DIR_VARIABLE } from "./run.js";

const TMPFS_MAGIC = 0x01021994;
const RAM_DIR = "/dev/shm";

/**
 * Where a run makes its directory. A run inside another (a test that runs vitest, a second project's
 * setup) stays inside the outer run's directory, where TMPDIR points. The outermost run goes to a RAM
 * file system when the machine has one: SQLite and PostgreSQL sync every commit to disk, which on
 * this machine's disk was most of a store test's time, and on tmpfs costs nothing. The files are as
 * real; what a RAM file system cannot show (a power cut) no test shows. NEUTRAL_TEST_TMPDIR chooses.
 */
export function runBase(env: NodeJS.ProcessEnv = process.env): string {
  if (env[RUN_DIR_VARIABLE] !== undefined) return env.TMPDIR || os.tmpdir();
  const chosen = env.NEUTRAL_TEST_TMPDIR;
  if (chosen) return chosen;
  try {
    accessSync(RAM_DIR, constants.W_OK);
    if (statfsSync(RAM_DIR).type === TMPFS_MAGIC) return RAM_DIR;
  } catch {
    // no such file system here
  }
  return os.tmpdir();
}

export default function setup(project?: Pick<TestProject, "tmpDir">): () => void {
  const runDir = mkdtempSync(path.join(runBase(), RUN_DIR_PREFIX));
  // Others may pass through (not list): a PostgreSQL cluster in it runs as the postgres user when the run is root's.
  chmodSync(runDir, 0o711);
  const saved = { runDir: process.env[RUN_DIR_VARIABLE], tmpdir: process.env.TMPDIR };
  // Set before vitest starts its workers: they, and every process they start, inherit both.
  process.env[RUN_DIR_VARIABLE] = runDir;
  process.env.TMPDIR = runDir;
  // Killed outright (SIGKILL: turbo's "force killed", an OOM kill), vitest runs nothing of its own:
  // the watchdog, in a session of its own, then reaps the run and vitest's temp dir (made before this
  // setup ran, so outside the run's directory).
  const watchdog = spawn(process.execPath, [fileURLToPath(new URL("./watchdog.js", import.meta.url)), runDir, ...(project?.tmpDir ? [project.tmpDir] : [])], {
    detached: true,
    stdio: "ignore",
  });
  watchdog.unref();
  const stopWatchdog = () => {
    try {
      watchdog.kill("SIGKILL");
    } catch {
      // gone
    }
  };
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
    // vitest removes its own temp dir only when it closes normally.
    if (project?.tmpDir) rmSync(project.tmpDir, { recursive: true, force: true });
    stopWatchdog();
  });
  return () => {
    cancel();
    reapRunDir(runDir);
    stopWatchdog();
    for (const [name, value] of [[RUN_DIR_VARIABLE, saved.runDir], ["TMPDIR", saved.tmpdir]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
