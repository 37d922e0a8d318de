// Test support (never built nor shipped): runs the built CLI (dist/main.js) as a child process, as a user would.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

export const CLI_MAIN = fileURLToPath(new URL("../dist/main.js", import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed (default: closed at once). */
  input?: string;
  timeoutMs?: number;
}

/** This process's environment without any NEUTRAL_* variable of the developer's, plus `env`. */
export function cliEnv(env: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("NEUTRAL_")));
  // The device state (verified mailbox heads) of a spawned CLI stays in the run's temp dir, never in the home folder.
  const merged: NodeJS.ProcessEnv = { ...clean, NO_COLOR: "1", NEUTRAL_STATE: path.join(os.tmpdir(), "neutral-cli-state") };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete merged[name];
    else merged[name] = value;
  }
  return merged;
}

/** Starts `node dist/main.js ...args`; the caller reads its output and stops it. */
export function spawnCli(args: readonly string[], options: CliOptions = {}): ChildProcess {
  if (!existsSync(CLI_MAIN)) throw new Error(`${CLI_MAIN} is missing: build the CLI first (pnpm --filter @neutral/cli build)`);
  return spawn(process.execPath, [CLI_MAIN, ...args], { env: cliEnv(options.env), stdio: ["pipe", "pipe", "pipe"] });
}

/** Runs the CLI to completion. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const child = spawnCli(args, options);
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin!.end(options.input ?? "");
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`neutral ${args.join(" ")} did not finish in time\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Resolves once `read()` satisfies `predicate`, polling; rejects after `timeoutMs`. */
export async function waitFor(read: () => string, predicate: (text: string) => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate(read())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; got:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A loopback port nothing listens on (it was free a moment ago). */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves with the exit code/signal of a spawned child. */
export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
}
