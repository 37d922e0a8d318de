// Nothing survives an interrupted run. A vitest run of its own (test/interrupt/) brings up relays
// (one with two workers, one on the run's PostgreSQL cluster), the cluster and a temp dir, and is
// then interrupted: SIGINT to its whole process group (Ctrl-C in a terminal), SIGTERM to the
// vitest process alone (what CI does to a task it stops), or SIGKILL to its process group (what
// turbo does to a task that has not stopped soon enough: "Force killed Turborepo tasks"). Afterwards no process of it
// remains (by pid and by process group) and none of its temp dirs does.
import { execFile, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { processAlive, processGroupAlive, trackProcessGroup } from "@neutral/test-support/run";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const VITEST = path.join(path.dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");

interface HoldReport {
  worker: number;
  runDir: string;
  dir: string;
  relays: { pid: number; dataDir: string }[];
  postgres: { dir: string; pid: number; version: string };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function children(pid: number): Promise<number[]> {
  const { stdout } = await promisify(execFile)("pgrep", ["-P", String(pid)]).catch(() => ({ stdout: "" }));
  return stdout.split("\n").filter(Boolean).map(Number);
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(100)) if (condition()) return true;
  return condition();
}

async function interruptRun(signal: "SIGINT" | "SIGTERM" | "SIGKILL", target: "process group" | "vitest process") {
  const work = mkdtempSync(path.join(os.tmpdir(), "neutral-interrupt-"));
  chmodSync(work, 0o711); // the run's PostgreSQL cluster, inside, runs as the postgres user when the run is root's
  const reportFile = path.join(work, "report.json");
  // The run's system temp dir is `work`: whatever the run makes outside its own run dir (vitest's
  // temp dir) must be gone afterwards too.
  const env: NodeJS.ProcessEnv = { ...process.env, NEUTRAL_HOLD_REPORT: reportFile, TMPDIR: work };
  delete env.NEUTRAL_TEST_DATABASE_URL; // the run starts a cluster of its own
  const run = spawn(process.execPath, [VITEST, "run", "--config", "test/interrupt/vitest.config.ts"], {
    cwd: packageDir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // a process group of its own, like a task turbo runs
  });
  const untrack = trackProcessGroup(run.pid!); // if this test fails, its run still goes
  let output = "";
  run.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  run.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let ended: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    run.on("exit", (code, exitSignal) => resolve((ended = { code, signal: exitSignal }))),
  );
  try {
    // Up: the relays listen, the cluster runs, the temp dir holds a file (on a loaded 2-core
    // machine: vitest, initdb and three relays take a while).
    expect(await until(() => existsSync(reportFile) || ended !== undefined, 120_000), `no report from the run:\n${output}`).toBe(true);
    expect(ended, `the run ended early:\n${output}`).toBeUndefined();
    const report = JSON.parse(readFileSync(reportFile, "utf8")) as HoldReport;
    const relayWorkers = (await Promise.all(report.relays.map((relay) => children(relay.pid)))).flat();
    const vitestWorkers = await children(run.pid!);
    const pids = [run.pid!, ...vitestWorkers, report.worker, ...report.relays.map((relay) => relay.pid), ...relayWorkers, report.postgres.pid];
    const groups = [run.pid!, ...report.relays.map((relay) => relay.pid), report.postgres.pid];
    const dirs = [report.runDir, report.dir, ...report.relays.map((relay) => relay.dataDir), report.postgres.dir];
    expect(relayWorkers).toHaveLength(2); // the relay with two workers (with one, the primary serves)
    expect(pids.filter((pid) => !processAlive(pid))).toEqual([]);
    expect(dirs.filter((dir) => !existsSync(dir))).toEqual([]);
    for (const dir of dirs) expect(dir.startsWith(report.runDir), `${dir} is in the run's dir`).toBe(true);

    if (target === "process group") process.kill(-run.pid!, signal);
    else run.kill(signal);
    const timer = setTimeout(() => run.kill("SIGKILL"), 60_000);
    const result = await exited;
    clearTimeout(timer);
    if (signal !== "SIGKILL") expect(result.signal, `vitest had to be killed:\n${output}`).not.toBe("SIGKILL");

    // Gone: every process (a killed group can take a moment to be reaped), every group, every dir
    // (after a SIGKILL, the watchdog's work: it looks every 200 ms).
    await until(() => !pids.some(processAlive) && !groups.some(processGroupAlive) && !dirs.some((dir) => existsSync(dir)), 10_000);
    expect(pids.filter(processAlive), `processes left after ${signal}:\n${output}`).toEqual([]);
    expect(groups.filter(processGroupAlive), `process groups left after ${signal}`).toEqual([]);
    expect(dirs.filter((dir) => existsSync(dir)), `temp dirs left after ${signal}`).toEqual([]);
    await until(() => readdirSync(work).length === 1, 5_000);
    expect(readdirSync(work), `left in the run's system temp dir after ${signal}`).toEqual(["report.json"]);
  } finally {
    if (ended === undefined) {
      // This test failed with the run still up: stop it the way that cleans up, else kill it (the
      // run's reaper then gets what it had started).
      run.kill("SIGTERM");
      const timer = setTimeout(() => process.kill(-run.pid!, "SIGKILL"), 30_000);
      await exited;
      clearTimeout(timer);
    }
    untrack();
    rmSync(work, { recursive: true, force: true });
  }
}

describe("an interrupted test run leaves nothing behind", () => {
  it("SIGINT to the run's process group (Ctrl-C): relays, their workers, the PostgreSQL cluster and the temp dirs are gone", async () => {
    await interruptRun("SIGINT", "process group");
  }, 240_000);

  it("SIGTERM to the vitest process alone (turbo, CI): the same", async () => {
    await interruptRun("SIGTERM", "vitest process");
  }, 240_000);

  it("SIGKILL to the run's process group (turbo's \"force killed\"; vitest runs nothing): the watchdog does the same", async () => {
    await interruptRun("SIGKILL", "process group");
  }, 240_000);
});
