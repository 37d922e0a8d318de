import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closingTable, envInt, envList, errorLine, ratioText, settings, verdictLine } from "./harness.mjs";

describe("verdictLine", () => {
  it("prints name: figure · baseline · ratio · target · PASS|MISS[ · note]", () => {
    expect(verdictLine({ name: "x", figure: "2 ms", baseline: "1 ms", ratio: 2, target: "<= 10", pass: true })).toBe("x: 2 ms · baseline 1 ms · ratio 2.00 · target <= 10 · PASS");
    expect(verdictLine({ name: "x", figure: "f", baseline: "b", ratio: Number.NaN, target: "t", pass: false, note: "n" })).toBe("x: f · baseline b · ratio n/a · target t · MISS · n");
  });

  it("leaves out a missing baseline or ratio, and takes a ratio text as it is", () => {
    expect(verdictLine({ name: "x", figure: "f", ratio: "ratio 0.66, median of 3 rounds (0.72 / 0.57 / 0.66)", target: ">= 0.6", pass: true })).toBe(
      "x: f · ratio 0.66, median of 3 rounds (0.72 / 0.57 / 0.66) · target >= 0.6 · PASS",
    );
    expect(verdictLine({ name: "x", figure: "f", target: "< 1", pass: false })).toBe("x: f · target < 1 · MISS");
  });

  it("says target none and no verdict for a figure without a target, unless the run saw a problem", () => {
    expect(verdictLine({ name: "x", figure: "f", baseline: "b", ratio: 0.5 })).toBe("x: f · baseline b · ratio 0.50 · target none · -");
    expect(verdictLine({ name: "x", figure: "f", ratio: 0.5, pass: true })).toBe("x: f · ratio 0.50 · target none · -");
    expect(verdictLine({ name: "x", figure: "f", ratio: 0.5, pass: false, note: "3 FAILED" })).toBe("x: f · ratio 0.50 · target none · MISS · 3 FAILED");
  });

  it("prints an ERROR line on one line", () => {
    expect(errorLine("5 slow streams", new Error("relay exited\n  at x\n  at y"))).toBe("5 slow streams: ERROR · the bench could not measure: relay exited | at x | at y");
    expect(ratioText(undefined)).toBeUndefined();
  });
});

describe("closingTable", () => {
  it("lists every verdict and error with a count, the columns aligned", () => {
    const table = closingTable([
      { name: "getInbox --workers 1", ratio: 0.56, target: ">= 0.6", pass: false, measured: "12,916 req/s, ratio 0.56" },
      { name: "1a memory per open subscription, 10,000 streams", label: "1a memory", ratio: "ratio 0.89 of the budget", target: "<= 20 KB", pass: true },
      { name: "outbox drain", ratio: 0.89 },
      { name: "3 polling vs live", error: true },
    ]).split("\n");
    expect(table[0]).toBe("# closing table: 4 line(s), 1 PASS, 1 MISS, 1 without a target, 1 ERROR");
    expect(table[1]).toMatch(/^figure\s+\| measured\s+\| target\s+\| verdict$/);
    expect(table.slice(3).map((row) => row.split(" | ").map((cell) => cell.trim()))).toEqual([
      ["getInbox --workers 1", "12,916 req/s, ratio 0.56", ">= 0.6", "MISS"],
      ["1a memory", "ratio 0.89 of the budget", "<= 20 KB", "PASS"],
      ["outbox drain", "ratio 0.89", "none", "-"],
      ["3 polling vs live", "the bench could not measure", "", "ERROR"],
    ]);
    const widths = new Set(table.slice(1, 4).map((row) => row.indexOf("|")));
    expect(widths.size).toBe(1);
  });
});

describe("settings", () => {
  it("reads positive integers and lists from the environment, else the default", () => {
    process.env.BENCH_TEST_INT = "7";
    process.env.BENCH_TEST_LIST = "1, 2,3";
    expect(envInt("BENCH_TEST_INT", 3)).toBe(7);
    expect(envInt("BENCH_TEST_NONE", 3)).toBe(3);
    expect(envList("BENCH_TEST_LIST", "9")).toEqual([1, 2, 3]);
    expect(envList("BENCH_TEST_NONE", "1,2")).toEqual([1, 2]);
    process.env.BENCH_TEST_INT = "0";
    expect(() => envInt("BENCH_TEST_INT", 3)).toThrow(/BENCH_TEST_INT must be a positive integer/);
    delete process.env.BENCH_TEST_INT;
    delete process.env.BENCH_TEST_LIST;
  });

  it("reads each shared knob once, with the defaults every script uses", () => {
    const saved = process.env.BENCH_SECONDS;
    process.env.BENCH_SECONDS = "4";
    expect(settings.seconds).toBe(4);
    process.env.BENCH_SECONDS = "9";
    expect(settings.seconds).toBe(4);
    if (saved === undefined) delete process.env.BENCH_SECONDS;
    else process.env.BENCH_SECONDS = saved;
    if (process.env.BENCH_SEND_MESSAGES === undefined) expect(settings.sendMessages).toBe(24_000);
    if (process.env.BENCH_SEND_CONNECTIONS === undefined) expect(settings.sendConnections).toBe(64);
  });
});

// runBench in a process of its own: what it leaves behind on a normal end, an exception, an ERROR line and a signal.
describe("runBench", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "neutral-bench-harness-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const script = path.join(dir, "bench.mjs");
  // A tracked child that starts a child of its own (as a relay starts its workers), and a temp dir.
  writeFileSync(
    script,
    `import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { benchError, runBench, tempDir, trackProcess, verdict } from ${JSON.stringify(new URL("./harness.mjs", import.meta.url).href)};
const mode = process.argv[2];
await runBench({ name: "test", skip: "BENCH_TEST_SKIP" }, async () => {
  const child = trackProcess(spawn(process.execPath, ["-e", "const c = require('node:child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' }); console.log(c.pid); setTimeout(() => {}, 60000)"], { stdio: ["ignore", "pipe", "ignore"] }));
  const grandchild = await new Promise((resolve) => child.stdout.once("data", (chunk) => resolve(Number(String(chunk).trim()))));
  const temp = tempDir("harness-test");
  writeFileSync(path.join(temp, "file"), "x");
  writeFileSync(${JSON.stringify(path.join(dir, "pids.json"))}, JSON.stringify({ pids: [child.pid, grandchild], temp }));
  verdict({ name: "a figure", figure: "2 ms", baseline: "1 ms", ratio: 2, target: "<= 1", pass: false });
  if (mode === "throw") throw new Error("it broke");
  if (mode === "error") benchError("part 2", new Error("no relay"));
  if (mode === "wait") {
    process.stdout.write("ready\\n");
    await new Promise(() => setTimeout(() => {}, 60000));
  }
});
`,
  );
  const left = () => JSON.parse(readFileSync(path.join(dir, "pids.json"), "utf8"));
  /** Running, and not a zombie (a killed process whose parent is gone may wait for a reaper that never comes). */
  const running = (pid) => {
    try {
      return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
    } catch {
      return false;
    }
  };
  const nothingLeft = async () => {
    const { pids, temp } = left();
    const deadline = Date.now() + 5000;
    while (pids.some(running) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pids.filter(running)).toEqual([]);
    expect(existsSync(temp)).toBe(false);
  };
  const run = (mode, env = {}) => spawnSync(process.execPath, [script, mode], { encoding: "utf8", timeout: 20_000, env: { ...process.env, ...env } });

  it("ends with the closing table and exit status 0 when every part measured, a MISS included; leaves nothing behind", async () => {
    const result = run("normal");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("a figure: 2 ms · baseline 1 ms · ratio 2.00 · target <= 1 · MISS\n");
    expect(result.stdout).toMatch(/# closing table: 1 line\(s\), 1 MISS\nfigure +\| measured +\| target +\| verdict\n-+-\|-/);
    expect(result.stdout).toMatch(/# test: \d+ s\n$/);
    await nothingLeft();
  });

  it("exits 1 after an exception, with an ERROR row; leaves nothing behind", async () => {
    const result = run("throw");
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("test: ERROR · the bench could not measure: it broke\n");
    expect(result.stdout).toContain("1 MISS, 1 ERROR");
    expect(result.stderr).toContain("test: the bench could not measure: Error: it broke");
    await nothingLeft();
  });

  it("exits 1 when a part could not be measured", async () => {
    const result = run("error");
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("part 2: ERROR · the bench could not measure: no relay\n");
    await nothingLeft();
  });

  it("on SIGTERM kills what it started, removes its temp dirs and exits 128 + 15", async () => {
    const child = spawn(process.execPath, [script, "wait"], { stdio: ["ignore", "pipe", "pipe"] });
    await new Promise((resolve, reject) => {
      let text = "";
      child.stdout.on("data", (chunk) => ((text += chunk), text.includes("ready") && resolve()));
      child.once("exit", () => reject(new Error(`exited before it was ready: ${text}`)));
    });
    const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    child.kill("SIGTERM");
    expect(await exited).toEqual({ code: 143, signal: null });
    await nothingLeft();
  });

  it("skips the run when its variable is 0", () => {
    const result = run("normal", { BENCH_TEST_SKIP: "0" });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe("test: skipped (BENCH_TEST_SKIP=0)\n");
  });
});
