// turbo's cache holds from one command to the next: no task hashes a file that a run writes itself
// (turbo's logs in .turbo/, node_modules/ with vitest's results cache, test-output/, dist/,
// coverage/), so `pnpm -s neutral --help` right after `pnpm start` replays every task from the cache.
// And `pnpm start` / `pnpm -s neutral` print no turbo banner: scripts/build-quietly.mjs.
// `pnpm test` runs the workspace's type check and every package's test once, in two lanes:
// scripts/test-lanes.mjs.
// They use `turbo --dry=json`, which hashes without running (nor restoring) anything.
import { execFile, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const turbo = createRequire(path.join(root, "package.json")).resolve("turbo/bin/turbo");
const run = promisify(execFile);
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", NO_COLOR: "1" };

interface DryTask {
  taskId: string;
  hash: string;
  command: string;
  inputs: Record<string, string>;
}

/** Every task `pnpm test`, `pnpm build` and `pnpm generate` would run, with its hash and hashed files. */
async function dryRun(): Promise<DryTask[]> {
  const { stdout } = await run(process.execPath, [turbo, "run", "generate", "build", "typecheck:workspace", "test", "--dry=json"], {
    cwd: root,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  return (JSON.parse(stdout) as { tasks: DryTask[] }).tasks.filter((task) => task.command !== "<NONEXISTENT>");
}
const hashes = (tasks: DryTask[]) => Object.fromEntries(tasks.map((task) => [task.taskId, task.hash]));

/** Folders a run writes into: none of their files may be a task input. */
const WRITTEN = ["node_modules", ".turbo", "test-output", "dist", "coverage"];

describe("turbo's task inputs", () => {
  it("include no file a run writes (node_modules/, .turbo/, test-output/, dist/, coverage/)", { timeout: 60_000 }, async () => {
    const tasks = await dryRun();
    expect(tasks.map((task) => task.taskId)).toContain("@neutral/tools#generate");
    const written = tasks.flatMap((task) =>
      Object.keys(task.inputs)
        .filter((file) => file.split("/").some((segment) => WRITTEN.includes(segment)))
        .map((file) => `${task.taskId}: ${file}`),
    );
    expect(written).toEqual([]);
  });

  it("give the same hashes after what a run leaves behind: a second run is a full cache hit", { timeout: 60_000 }, async () => {
    const before = hashes(await dryRun());
    // What a build and a test run write: turbo's task logs, vitest's cache, screenshots.
    const probes = [
      path.join(root, "tools", ".turbo", "turbo-probe.log"),
      path.join(root, "tools", "node_modules", ".vite", "turbo-probe.json"),
      path.join(root, "packages", "docs", "test-output", "turbo-probe.png"),
    ];
    const made: string[] = []; // folders this test created, removed with the probes
    try {
      for (const file of probes) {
        const first = mkdirSync(path.dirname(file), { recursive: true });
        if (first) made.push(first);
        writeFileSync(file, `${Date.now()}\n`);
      }
      expect(hashes(await dryRun())).toEqual(before);
    } finally {
      for (const file of probes) rmSync(file, { force: true });
      for (const dir of made) rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("pnpm test's lanes (scripts/test-lanes.mjs)", () => {
  const testLanes = async () => (await import(path.join(root, "scripts", "test-lanes.mjs"))) as { lanes: (cores?: number) => string[][] };

  it("run the workspace's type check and every package's test task, each in exactly one lane", { timeout: 90_000 }, async () => {
    const tasksOf = async (args: string[]) => {
      const { stdout } = await run(process.execPath, [turbo, "run", ...args, "--dry=json"], { cwd: root, env, maxBuffer: 64 * 1024 * 1024 });
      return (JSON.parse(stdout) as { tasks: DryTask[] }).tasks
        .filter((task) => task.command !== "<NONEXISTENT>" && /#(typecheck:workspace|test)$/.test(task.taskId))
        .map((task) => task.taskId);
    };
    const scripts = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.test).toBe("node scripts/test-lanes.mjs");
    const { lanes } = await testLanes();
    const laneTasks = [];
    for (const lane of lanes(2)) laneTasks.push(...(await tasksOf(lane)));
    const every = await tasksOf(["typecheck:workspace", "test"]);
    expect(every).toContain("@neutral/relay#test");
    expect(every).toContain("//#typecheck:workspace");
    expect(laneTasks.sort()).toEqual(every.sort());
  });

  it("keep a core for the longest suite, and at least one lane's task for the rest", async () => {
    const { lanes } = await testLanes();
    expect(lanes(2)[1]).toContain("--concurrency=1");
    expect(lanes(1)[1]).toContain("--concurrency=1");
    expect(lanes(8)[1]).toContain("--concurrency=7");
  });
});

describe("turbo's generate task", () => {
  it("caches exactly the folders the generator writes (the targets of tools/neutral-openrpc.json)", () => {
    const generation = JSON.parse(readFileSync(path.join(root, "tools", "neutral-openrpc.json"), "utf8")) as { targets: Record<string, { out: string }> };
    const generatedDirs = Object.values(generation.targets).map((target) => path.relative(root, path.resolve(root, "tools", target.out)));
    const config = JSON.parse(readFileSync(path.join(root, "turbo.json"), "utf8")) as { tasks: Record<string, { outputs?: string[] }> };
    // A folder missing here would not be restored from the cache; one too many names a stale layout.
    const outputs = (config.tasks.generate?.outputs ?? []).map((output) => output.replace(/^\$TURBO_ROOT\$\//, "").replace(/\/\*\*$/, ""));
    expect(outputs.sort()).toEqual([...generatedDirs].sort());
  });
});

describe("scripts/build-quietly.mjs (pnpm start, pnpm -s neutral)", () => {
  const quietly = (...args: string[]) =>
    run(process.execPath, [path.join(root, "scripts", "build-quietly.mjs"), ...args], { cwd: root, env }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  it("is what the root scripts build with", () => {
    const scripts = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toMatch(/^node scripts\/build-quietly\.mjs && node /);
    expect(scripts.neutral).toMatch(/^node scripts\/build-quietly\.mjs --filter=@neutral\/cli\.\.\. && node /);
  });

  it("prints nothing of turbo's when it succeeds", { timeout: 60_000 }, async () => {
    // A dry run: turbo prints its banner and a plan, and builds (and restores) nothing.
    expect(await quietly("--filter=@neutral/cli...", "--dry")).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("shows turbo's output on stderr when it fails", { timeout: 60_000 }, async () => {
    const result = await quietly("--filter=@neutral/no-such-package");
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("@neutral/no-such-package");
  });
});

describe("scripts/turbo.mjs (how test-lanes.mjs and build-quietly.mjs run turbo)", () => {
  it("is how both scripts start turbo and stop it", () => {
    for (const script of ["test-lanes.mjs", "build-quietly.mjs"]) {
      const text = readFileSync(path.join(root, "scripts", script), "utf8");
      expect(text, script).toContain("stopOnSignals(");
      expect(text, script).toContain("spawnTurbo(");
      expect(text, script).not.toMatch(/process\.on\("SIG|\bspawn\(/);
    }
  });

  it("stops a child that ignores SIGINT, as turbo's npm wrapper does, when the script gets SIGINT alone", { timeout: 30_000 }, async () => {
    // The script: a child like turbo's wrapper (SIGINT ignored, SIGTERM ends it), stopped through stopOnSignals.
    const wrapper = `process.on("SIGINT", () => {}); process.on("SIGTERM", () => process.exit(143)); console.log("up"); setInterval(() => {}, 1000);`;
    const script = `import { spawn } from "node:child_process";
      import { stopOnSignals } from ${JSON.stringify(path.join(root, "scripts", "turbo.mjs"))};
      const child = spawn(process.execPath, ["-e", ${JSON.stringify(wrapper)}], { stdio: ["ignore", "inherit", "inherit"] });
      const stopped = [];
      stopOnSignals([child], (signal) => stopped.push(signal));
      child.on("exit", (code) => { console.log(JSON.stringify({ stopped, code })); process.exit(0); });`;
    // In a process group of its own, so that whatever is left of it goes at the end, the child too.
    const host = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"], detached: true });
    let stdout = "";
    const exited = new Promise<number | null>((resolve) => host.on("exit", (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        host.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
          stdout += chunk;
          if (stdout.includes("up")) resolve();
        });
        host.on("exit", () => reject(new Error(`exited before its child was up: ${stdout}`)));
      });
      host.kill("SIGINT");
      // Without the SIGTERM, the child would go on and the script with it: given 10 s.
      const late = new Promise<string>((resolve) => setTimeout(() => resolve("still running after 10 s"), 10_000).unref());
      expect(await Promise.race([exited, late])).toBe(0);
      expect(JSON.parse(stdout.trim().split("\n").at(-1)!)).toEqual({ stopped: ["SIGINT"], code: 143 });
    } finally {
      try {
        process.kill(-host.pid!, "SIGKILL");
      } catch {
        // the group is gone: nothing left
      }
    }
  });
});
