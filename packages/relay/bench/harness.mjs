// What every bench script shares, apart from the relay helpers of lib.mjs: the settings several
// scripts read, the one verdict line, the one closing table, and the one cleanup registry.
// Plain Node, no import of the relay's build, so that bounds.mjs's pure helpers and this file's
// tests run without dist/.
//
//   await runBench({ name: "live", skip: "BENCH_LIVE" }, async () => {
//     verdict({ name, figure, baseline, ratio, target, pass, note, label, measured });
//   });
//
// - Settings: `settings.seconds`, `.rounds`, … (each read from its BENCH_* variable once, when
//   first used); `envInt`, `envList` and `envOn` for a script's own knobs.
// - The verdict line: `name: figure · baseline … · ratio … · target … · PASS|MISS[ · note]`. PASS:
//   the target is met; MISS: it is not, or the run saw a problem that voids the figure (failed
//   requests, a count that does not add up: the note says which). A figure with no target ends
//   `target none · -` (reported, not judged; still MISS when the run saw such a problem). A part the
//   bench could not measure prints `name: ERROR · the bench could not measure: …`.
// - The closing table: every verdict and ERROR of the run, in order, printed once at the end.
// - Cleanup: every process a script starts (`trackProcess`; lib.mjs's startRelay does it) and every
//   temp dir (`tempDir`, `trackDir`) is killed / removed on normal exit, on an exception and on
//   SIGINT/SIGTERM/SIGHUP; `onCleanup(fn)` for anything else (sockets, servers, databases).
// - Exit status: 0 when every part measured, whatever the verdicts (a MISS is a finding, not a
//   crash); 1 when the bench itself could not measure a part (an ERROR line, or an exception);
//   128 + the signal's number when interrupted.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

// ---------------------------------------------------------------------------------------------
// Settings

/** A positive integer from the environment variable `name` (a bench's `BENCH_*` setting), else `fallback`. */
export function envInt(name, fallback) {
  const value = process.env[name];
  if (value === undefined || value === "") return fallback;
  if (!/^\d+$/.test(value) || Number(value) <= 0) throw new Error(`${name} must be a positive integer`);
  return Number(value);
}

/** A comma-separated list of numbers from `name` (e.g. BENCH_WORKERS "1,2", BENCH_LIVE_ONLY "1,2,3"), else `fallback`'s. */
export function envList(name, fallback) {
  const value = process.env[name];
  return (value === undefined || value === "" ? fallback : value).split(",").map((s) => Number(s.trim()));
}

/** False only when `name` is "0" (BENCH_READ=0, BENCH_POSTGRES=0, …: a part skipped). */
export const envOn = (name) => process.env[name] !== "0";

/** An object whose properties are each computed on first use, then kept. */
function readOnce(definitions) {
  const object = {};
  for (const [key, read] of Object.entries(definitions)) {
    let done = false;
    let value;
    Object.defineProperty(object, key, {
      enumerable: true,
      get: () => (done ? value : ((value = read()), (done = true), value)),
    });
  }
  return Object.freeze(object);
}

/** The knobs several scripts read, with the same defaults everywhere. */
export const settings = readOnce({
  /** BENCH_SECONDS (10): a timed run, s (run.mjs, federation.mjs; live.mjs and consent-retention.mjs have their own). */
  seconds: () => envInt("BENCH_SECONDS", 10),
  /** BENCH_ROUNDS (3): timed rounds of each SQLite relay figure and of PostgreSQL's reads (run.mjs), and of the cross-node sends (federation.mjs). */
  rounds: () => envInt("BENCH_ROUNDS", 3),
  /** BENCH_MESSAGES (1,000,000) and BENCH_USERS (10,000): the seeded store (run.mjs, backup.mjs). */
  messages: () => envInt("BENCH_MESSAGES", 1_000_000),
  users: () => envInt("BENCH_USERS", 10_000),
  /** The deep mailbox of the seeded store (user 0): a tenth of the messages, at most 100,000. */
  deep: () => Math.min(100_000, Math.floor(settings.messages / 10)),
  /** BENCH_CONNECTIONS (32): the read load's connections (run.mjs, consent-retention.mjs). */
  connections: () => envInt("BENCH_CONNECTIONS", 32),
  /** BENCH_SEND_CONNECTIONS (64): the send load's connections (run.mjs, federation.mjs, live.mjs, consent-retention.mjs). */
  sendConnections: () => envInt("BENCH_SEND_CONNECTIONS", 64),
  /** BENCH_SEND_MESSAGES (6,000 × BENCH_SECONDS): messages pre-signed per timed send run (run.mjs, postgres.mjs, federation.mjs). */
  sendMessages: () => envInt("BENCH_SEND_MESSAGES", 6000 * settings.seconds),
  /** BENCH_RELAY_NODE_ARGS: node flags of every relay a bench starts (e.g. --cpu-prof). */
  relayNodeArgs: () => (process.env.BENCH_RELAY_NODE_ARGS ?? "").split(" ").filter(Boolean),
  /** BENCH_VERBOSE: the relays' stderr to this process's. */
  verbose: () => Boolean(process.env.BENCH_VERBOSE),
});

// ---------------------------------------------------------------------------------------------
// Formatting

/** 12,345 / 1,234.5 (en-US grouping); a non-finite number as it is ("NaN"). */
export const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits }) : String(n));
export const ms = (n, digits = 2) => `${fmt(n, digits)} ms`;

/** Context lines (`# …`) and verdicts go to stdout, progress to stderr. */
export const out = (text = "") => process.stdout.write(`${text}\n`);
export const log = (text) => process.stderr.write(`${text}\n`);

/** The first line of a run: "# <title>, <date>: node …, N CPUs (model), N GiB RAM<extra>". */
export function header(title, extra = "") {
  const cpus = os.cpus();
  out(`# ${title}, ${new Date().toISOString()}: node ${process.version}, ${cpus.length} CPUs (${cpus[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM${extra}`);
}

// ---------------------------------------------------------------------------------------------
// The verdict line and the closing table

/** The verdict word: PASS (target met), MISS (not met, or a problem voids the figure), "-" (no target, nothing wrong). */
export const verdictWord = (pass) => (pass === true ? "PASS" : pass === false ? "MISS" : "-");

/** "ratio 0.56" for a number ("ratio n/a" when it is not finite), a text as it is, undefined for none. */
export function ratioText(ratio) {
  if (typeof ratio === "number") return Number.isFinite(ratio) ? `ratio ${ratio.toFixed(2)}` : "ratio n/a";
  return ratio || undefined;
}

/**
 * One figure's line: "name: figure · baseline … · ratio … · target … · PASS|MISS[ · note]".
 * `baseline` and `ratio` are left out when not given; `target` undefined prints "target none" and,
 * unless `pass` is false, the verdict "-".
 */
export function verdictLine({ name, figure, baseline, ratio, target, pass, note }) {
  const ratioPart = ratioText(ratio);
  return [
    `${name}: ${figure}`,
    ...(baseline ? [`baseline ${baseline}`] : []),
    ...(ratioPart ? [ratioPart] : []),
    `target ${target ?? "none"}`,
    verdictWord(target === undefined && pass !== false ? undefined : pass),
    ...(note ? [note] : []),
  ].join(" · ");
}

/** The line of a part the bench could not measure: "name: ERROR · the bench could not measure: …" on one line. */
export function errorLine(name, error) {
  const text = String(error?.message ?? error).trim().replace(/\s*\n\s*/g, " | ");
  return `${name}: ERROR · the bench could not measure: ${text}`;
}

/** This run's verdicts and errors, in order: the closing table's rows. */
const rows = [];

/**
 * Prints one verdict line and keeps it for the closing table. Beside the line's fields: `label`,
 * the figure's name in the table (default `name`), and `measured`, the table's short figure
 * (default the ratio text).
 */
export function verdict(row) {
  const line = verdictLine(row);
  rows.push({ ...row, line });
  out(line);
  return line;
}

/** Prints an ERROR line for a part the bench could not measure (the run's exit status becomes 1) and keeps it for the table. */
export function benchError(name, error) {
  const line = errorLine(name, error);
  rows.push({ name, error: true, line });
  out(line);
  return line;
}

/** The verdicts and errors so far. */
export const verdicts = () => rows.slice();

/** The closing table of `list` (default: this run's): a count, then one row per line, as text. */
export function closingTable(list = rows) {
  const cells = list.map((row) =>
    row.error
      ? [row.label ?? row.name, "the bench could not measure", "", "ERROR"]
      : [row.label ?? row.name, row.measured ?? ratioText(row.ratio) ?? "", row.target ?? "none", verdictWord(row.target === undefined && row.pass !== false ? undefined : row.pass)],
  );
  const count = (word) => cells.filter((c) => c[3] === word).length;
  const summary = [["PASS", "PASS"], ["MISS", "MISS"], ["-", "without a target"], ["ERROR", "ERROR"]]
    .filter(([word]) => count(word) > 0)
    .map(([word, text]) => `${count(word)} ${text}`)
    .join(", ");
  const head = ["figure", "measured", "target", "verdict"];
  const widths = head.map((h, c) => Math.max(h.length, ...cells.map((row) => row[c].length)));
  const pad = (row) => row.map((cell, c) => cell.padEnd(widths[c])).join(" | ").trimEnd();
  return [`# closing table: ${list.length} line(s), ${summary || "none"}`, pad(head), widths.map((w) => "-".repeat(w)).join("-|-"), ...cells.map(pad)].join("\n");
}

// ---------------------------------------------------------------------------------------------
// Cleanup

const tracked = { processes: new Set(), dirs: new Set(), closers: new Set() };

/** Pids of the children of `pid` (a relay's cluster workers). */
export function childPids(pid) {
  try {
    return execFileSync("ps", ["--ppid", String(pid), "-o", "pid="], { encoding: "utf8", timeout: 5000, stdio: ["ignore", "pipe", "ignore"] })
      .split("\n")
      .map((line) => Number(line.trim()))
      .filter((n) => n > 0);
  } catch {
    return []; // ps exits 1 when there is none
  }
}

/** Sends `signal` to `pid` and to its children (first): a relay and its workers. Quiet for a process that is gone. */
export function killTree(pid, signal = "SIGKILL") {
  for (const child of childPids(pid)) {
    try {
      process.kill(child, signal);
    } catch {
      // gone
    }
  }
  try {
    process.kill(pid, signal);
  } catch {
    // gone
  }
}

const running = (child) => child.exitCode === null && child.signalCode === null;

/** Registers a child process (a relay, a flood, a baseline server): SIGKILLed with its children at cleanup if still running. */
export function trackProcess(child) {
  tracked.processes.add(child);
  child.once("exit", () => tracked.processes.delete(child));
  return child;
}

/** Registers a directory to remove at cleanup; returns it. */
export function trackDir(dir) {
  tracked.dirs.add(dir);
  return dir;
}

/** A new temp dir (`<tmp>/neutral-bench-<label>-XXXXXX`), removed at cleanup. */
export function tempDir(label) {
  return trackDir(mkdtempSync(path.join(os.tmpdir(), `neutral-bench-${label}-`)));
}

/** Removes a directory now (and forgets it). */
export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
  tracked.dirs.delete(dir);
}

/** Runs `close` (synchronously) at cleanup, before the processes are killed; returns the function that forgets it. */
export function onCleanup(close) {
  tracked.closers.add(close);
  return () => tracked.closers.delete(close);
}

/** Synchronous: runs the closers, SIGKILLs every tracked process still running (with its children), removes the temp dirs. */
export function cleanupNow() {
  for (const close of [...tracked.closers].reverse()) {
    try {
      close();
    } catch {
      // best effort: the rest still runs
    }
  }
  tracked.closers.clear();
  for (const child of tracked.processes) if (running(child)) killTree(child.pid, "SIGKILL");
  tracked.processes.clear();
  for (const dir of tracked.dirs) rmSync(dir, { recursive: true, force: true });
  tracked.dirs.clear();
}

/** What is registered now (for tests): counts. */
export const tracking = () => ({ processes: tracked.processes.size, dirs: tracked.dirs.size, closers: tracked.closers.size });

// ---------------------------------------------------------------------------------------------
// A run

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * Runs one bench script's `main`: skips it when the variable `skip` is "0"; cleans up on SIGINT,
 * SIGTERM and SIGHUP (exit 128 + the signal's number), on an exception and on exit; prints the
 * closing table and the run's duration at the end; sets the exit status (1 when a part could not
 * be measured, else 0).
 */
export async function runBench({ name, skip }, main) {
  if (skip && process.env[skip] === "0") {
    log(`${name}: skipped (${skip}=0)`);
    return;
  }
  const started = performance.now();
  for (const signal of SIGNALS) {
    process.once(signal, () => {
      log(`${name}: ${signal}, stopping every process it started, removing its temp dirs`);
      cleanupNow();
      process.exit(128 + (os.constants.signals[signal] ?? 0));
    });
  }
  process.once("exit", cleanupNow);
  let crashed = false;
  try {
    await main();
  } catch (error) {
    crashed = true;
    log(`${name}: the bench could not measure: ${error?.stack ?? error}`);
    benchError(name, error);
  } finally {
    cleanupNow();
  }
  if (rows.length > 0) {
    out();
    out(closingTable());
  }
  out(`# ${name}: ${((performance.now() - started) / 1000).toFixed(0)} s`);
  process.exitCode = crashed || rows.some((row) => row.error) ? 1 : 0;
}
