// How the root's scripts run turbo (scripts/test-lanes.mjs, scripts/build-quietly.mjs): its path,
// the repository's root, and children that stop when the script is told to stop.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

export const turbo = createRequire(import.meta.url).resolve("turbo/bin/turbo");
export const root = fileURLToPath(new URL("..", import.meta.url));

/** Spawns `node <turbo> args…` at the repository's root. */
export const spawnTurbo = (args, options = {}) => spawn(process.execPath, [turbo, ...args], { cwd: root, ...options });

/**
 * On SIGINT, SIGTERM or SIGHUP, calls `onStop(signal)` and stops every child in `children` (any
 * iterable, read when the signal comes) with SIGTERM, whatever the signal was: turbo's npm wrapper
 * passes SIGTERM on to turbo, but ignores SIGINT, which it leaves to a terminal's Ctrl-C reaching
 * the whole process group. A SIGINT sent to the script alone would leave turbo running.
 */
export function stopOnSignals(children, onStop = () => {}) {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      onStop(signal);
      for (const child of children) child.kill("SIGTERM");
    });
  }
}
