// Test support (never built nor shipped): runs the CLI's `main` (src/cli.ts) in the test's own process,
// its stdout and stderr captured: the same command line, output and exit code as `runCli` (which
// spawns dist/main.js), without starting a Node process for each (~0.4 s alone, seconds on a loaded
// machine). For tests of what a command prints and exits with. What is process behaviour stays with
// `runCli`/`spawnCli`: signals (watch, send --wait's Ctrl-C), standard input (`-`), `serve` (its relay
// inherits the process's stdio), main.ts itself (EPIPE, exiting promptly) and the bin as a whole.
import { StringDecoder } from "node:string_decoder";
import { Writable } from "node:stream";
import { main } from "../src/cli.js";
import type { CliResult } from "./run-cli.js";

export interface InProcessOptions {
  /**
   * The whole environment the command sees (NEUTRAL_URL, NEUTRAL_KEY, NEUTRAL_DEBUG…), besides
   * NO_COLOR=1 as `runCli` sets it; an undefined value is left out. Never this process's own.
   */
  env?: Record<string, string | undefined>;
  /** Fails the run (with what it printed so far) after this long; the command itself cannot be killed. */
  timeoutMs?: number;
}

/** What `runMain` returns: `runCli`'s result; `signal` is always null (nothing is signalled in process). */
export interface InProcessResult extends CliResult {
  code: number;
  signal: null;
}

/**
 * The signals a command listens to while it runs (signals.ts: SIGINT/SIGTERM; serve: SIGHUP too). Not
 * `exit` and the like: a node started in this process (startNode) adds its own as it goes.
 */
const PROCESS_EVENTS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

const listenerCounts = () => PROCESS_EVENTS.map((event) => process.listenerCount(event));

/** A stream that appends everything written to it, decoded as UTF-8, to a string. */
function capture(): { stream: Writable; text: () => string; finished: () => Promise<void> } {
  let text = "";
  const decoder = new StringDecoder("utf8");
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: Buffer | string, _encoding, done) {
      text += typeof chunk === "string" ? chunk : decoder.write(chunk);
      done();
    },
    final(done) {
      text += decoder.end();
      done();
    },
  });
  const finished = () =>
    new Promise<void>((resolve, reject) => {
      stream.once("error", reject);
      stream.end(() => resolve());
    });
  return { stream, text: () => text, finished };
}

/**
 * Runs `neutral ...args` in this process: `main(args, env, { stdout, stderr })`. Resolves with the
 * exit code and everything printed. Refuses `-` (the command would read this process's stdin: use
 * `runCli` with `input`), and fails the run if the command left a listener on `process` behind (a
 * signal handler of one run must not outlive it, nor pile up over the runs of a file).
 */
export async function runMain(args: readonly string[], options: InProcessOptions = {}): Promise<InProcessResult> {
  if (args.includes("-")) throw new Error(`runMain: neutral ${args.join(" ")} reads standard input: run it with runCli (spawned) and its input`);
  const env: NodeJS.ProcessEnv = { NO_COLOR: "1" };
  for (const [name, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[name] = value;
  const stdout = capture();
  const stderr = capture();
  const listenersBefore = listenerCounts();
  const timeoutMs = options.timeoutMs ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`neutral ${args.join(" ")} did not finish in ${timeoutMs} ms (in process)\nstdout:\n${stdout.text()}\nstderr:\n${stderr.text()}`)),
      timeoutMs,
    );
  });
  let code: number;
  try {
    code = await Promise.race([main(args, env, { stdout: stdout.stream, stderr: stderr.stream }), timedOut]);
  } finally {
    clearTimeout(timer);
  }
  await Promise.all([stdout.finished(), stderr.finished()]);
  const listenersAfter = listenerCounts();
  const changed = PROCESS_EVENTS.flatMap((event, i) => (listenersAfter[i] === listenersBefore[i] ? [] : [`${event}: ${listenersBefore[i]} → ${listenersAfter[i]}`]));
  if (changed.length > 0) throw new Error(`neutral ${args.join(" ")} left the signal listeners of process changed (${changed.join(", ")})`);
  return { code, signal: null, stdout: stdout.text(), stderr: stderr.text() };
}
