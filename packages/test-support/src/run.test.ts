// The run's registry of process groups (run.ts): written inside the run's directory, and never
// the cause of that directory coming back once the run has removed it (a worker still starting a
// relay while the run is reaped: the leftover `neutral-test-run-*` folders of interrupted runs).
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killProcessGroup, reapRunDir, RUN_DIR_VARIABLE, trackProcessGroup } from "./run.js";

const saved = process.env[RUN_DIR_VARIABLE];
const started: number[] = [];
afterEach(() => {
  for (const pgid of started.splice(0)) killProcessGroup(pgid);
  if (saved === undefined) delete process.env[RUN_DIR_VARIABLE];
  else process.env[RUN_DIR_VARIABLE] = saved;
});

/** A process in a group of its own that would outlive the test. */
function sleeper(): ChildProcess {
  const child = spawn("sleep", ["60"], { detached: true, stdio: "ignore" });
  started.push(child.pid!);
  return child;
}

describe("trackProcessGroup inside a run", () => {
  it("writes the group down in the run's directory; reaping the run kills it and removes the directory", { timeout: 20_000 }, async () => {
    const runDir = mkdtempSync(path.join(tmpdir(), "neutral-run-registry-"));
    process.env[RUN_DIR_VARIABLE] = runDir;
    const child = sleeper();
    const exited = once(child, "exit");
    const untrack = trackProcessGroup(child.pid!);
    expect(readdirSync(path.join(runDir, "process-groups"))).toEqual([String(child.pid)]);
    reapRunDir(runDir);
    expect(existsSync(runDir)).toBe(false);
    expect(await exited).toEqual([null, "SIGKILL"]);
    untrack();
  });

  it("does not make the run's directory again once the run has removed it", () => {
    const runDir = mkdtempSync(path.join(tmpdir(), "neutral-run-registry-"));
    process.env[RUN_DIR_VARIABLE] = runDir;
    rmSync(runDir, { recursive: true });
    const untrack = trackProcessGroup(sleeper().pid!);
    expect(existsSync(runDir)).toBe(false);
    untrack();
    expect(existsSync(runDir)).toBe(false);
  });
});
