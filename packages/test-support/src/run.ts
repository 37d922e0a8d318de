// Nothing a test starts outlives it. What a test starts in a process group of its own (a relay
// `startRelay` spawns detached with its workers; a PostgreSQL cluster, whose `pg_ctl` puts the
// postmaster in a new session; the docs' `serve.mjs`) is tracked with `trackProcessGroup` and killed
// when the process that started it exits or is interrupted (SIGINT, SIGTERM, SIGHUP), not only when
// a test stops it.
//
// Inside a test run that has the global setup (`@neutral/test-support/global-setup`), every group
// is also written down in the run's directory, so the main vitest process kills what its workers
// started even when a worker itself was killed first, and then removes the run's temp dir.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The variable naming the run's directory (set by the global setup; every temp dir of the run is inside it). */
export const RUN_DIR_VARIABLE = "NEUTRAL_TEST_RUN_DIR";

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** Process groups this process started that are still running. */
const groups = new Set<number>();
/** Synchronous clean-ups to run at exit or on a signal, in reverse order of registration. */
const hooks = new Set<() => void>();
let installed = false;

function registryDir(): string | undefined {
  const runDir = process.env[RUN_DIR_VARIABLE];
  return runDir ? path.join(runDir, "process-groups") : undefined;
}

/** SIGKILLs a process group; quiet if it is gone already. */
export function killProcessGroup(pgid: number, signal: NodeJS.Signals = "SIGKILL"): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // gone
  }
}

/** Whether any process of the group still exists (zombies included: they are reaped by their parent or init). */
export function processGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether a process is running (not gone, not a zombie). */
export function processAlive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/** Blocks the thread for `ms` (exit and signal handlers cannot wait asynchronously). */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Waits (blocking, at most `timeoutMs`) until none of `pgids` has a process left. */
export function waitForGroupsGone(pgids: Iterable<number>, timeoutMs = 3_000): void {
  const pending = [...pgids];
  const deadline = Date.now() + timeoutMs;
  while (pending.some(processGroupAlive) && Date.now() < deadline) sleepSync(20);
}

/**
 * Records a process group (the pid of a child spawned `detached`, or of a daemon in its own session)
 * to be SIGKILLed when this process exits or is interrupted. Returns the function that forgets it
 * (call it once the group has exited).
 */
export function trackProcessGroup(pgid: number): () => void {
  install();
  groups.add(pgid);
  const dir = registryDir();
  const file = dir && path.join(dir, String(pgid));
  if (file) {
    try {
      // Not `recursive`: a worker still starting something while the run is being reaped would
      // make the run's directory again, after its removal, and leave it behind.
      mkdirSync(dir!);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        // The run dir is gone: the run is ending. The group is still killed when this process exits.
        return () => void groups.delete(pgid);
      }
    }
    try {
      writeFileSync(file, `${process.pid}\n`);
    } catch {
      // the run dir went meanwhile
    }
  }
  return () => {
    groups.delete(pgid);
    if (file) rmSync(file, { force: true });
  };
}

/** Runs `cleanup` (synchronously) when this process exits or is interrupted. Returns the function that cancels it. */
export function onExitOrSignal(cleanup: () => void): () => void {
  install();
  hooks.add(cleanup);
  return () => hooks.delete(cleanup);
}

/** This process's children (a vitest main process's pool workers, for one). */
export function childProcesses(pid = process.pid): number[] {
  try {
    return readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .filter((name) => {
        try {
          return Number(readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1]!.split(" ")[1]) === pid;
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return []; // no /proc
  }
}

/** Kills every process group this process started (and is still tracking), then runs the clean-ups. */
export function cleanUpNow(): void {
  const killed = [...groups];
  for (const pgid of killed) killProcessGroup(pgid);
  groups.clear();
  waitForGroupsGone(killed);
  for (const hook of [...hooks].reverse()) {
    hooks.delete(hook);
    try {
      hook();
    } catch {
      // best effort: the others still run
    }
  }
}

/** The process groups written down in a run's directory and in the runs nested in it (a test that runs vitest). */
function recordedGroups(runDir: string): number[] {
  let entries: string[] = [];
  try {
    entries = readdirSync(runDir);
  } catch {
    return [];
  }
  const nested = entries.filter((name) => name.startsWith(RUN_DIR_PREFIX)).flatMap((name) => recordedGroups(path.join(runDir, name)));
  let own: number[] = [];
  try {
    own = readdirSync(path.join(runDir, "process-groups")).map(Number);
  } catch {
    // none recorded
  }
  return [...nested, ...own].filter((pgid) => Number.isInteger(pgid) && pgid > 1);
}

/** How the global setup names a run's directory. */
export const RUN_DIR_PREFIX = "neutral-test-run-";

/**
 * Kills every process group written down in a run's directory (by whichever process of the run
 * started it, in a nested run too), waits for them to go, and removes the directory with everything
 * in it.
 */
export function reapRunDir(runDir: string): void {
  const pgids = recordedGroups(runDir);
  for (const pgid of pgids) killProcessGroup(pgid);
  waitForGroupsGone(pgids);
  rmSync(runDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}

function onSignal(signal: NodeJS.Signals): void {
  cleanUpNow();
  // Alone, this listener would keep the process alive: die of the signal, as without it. With other
  // listeners (vitest's own), they decide how the process ends.
  if (process.listenerCount(signal) === 1) {
    for (const name of SIGNALS) process.off(name, onSignal);
    process.kill(process.pid, signal);
  }
}

// Prepended, so they run before anyone else's: vitest's own SIGINT/SIGTERM handler exits the process
// at once, and its "exit" listener calls process.exit() again, which ends the process before any
// listener registered after it runs.
function install(): void {
  if (installed) return;
  installed = true;
  process.prependListener("exit", cleanUpNow);
  for (const signal of SIGNALS) process.prependListener(signal, onSignal);
}
