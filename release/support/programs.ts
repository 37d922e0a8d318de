// Programs the release test runs (npm, pnpm, changeset, tsc, the installed commands), each in a
// process group of its own that is killed when it times out and when the test run ends or is
// interrupted (@neutral/test-support/run): an install script or a relay started by an installed
// command never outlives the run.
import { spawn, type ChildProcess } from "node:child_process";
import { killProcessGroup, trackProcessGroup } from "@neutral/test-support/run";

export { plainEnv } from "@neutral/test-support/exec";

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

/** Runs a program to its end; the result whatever its exit status. */
export function run(command: string, args: readonly string[], options: RunOptions): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const forget = trackProcessGroup(child.pid!);
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      stderr += `\n[killed after ${options.timeoutMs} ms]`;
      killProcessGroup(child.pid!);
    }, options.timeoutMs);
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      forget();
      reject(error);
    });
    child.on("close", (status) => {
      clearTimeout(timer);
      // What the program left running in its group (a daemon it started) goes with it.
      killProcessGroup(child.pid!);
      forget();
      resolve({ status, stdout, stderr });
    });
  });
}

/** Runs a program to its end; throws, with its output, unless it exits 0. */
export async function runOk(command: string, args: readonly string[], options: RunOptions): Promise<string> {
  const ran = await run(command, args, options);
  if (ran.status !== 0) throw new Error(`${command} ${args.join(" ")} (in ${options.cwd}) exited ${ran.status}:\n${ran.stderr}\n${ran.stdout}`);
  return ran.stdout;
}

export interface Daemon {
  readonly child: ChildProcess;
  /** What it printed so far, stdout and stderr interleaved. */
  output(): string;
  /** Resolves once `pattern` appears in its output; rejects when it exits first or `timeoutMs` passes. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  stop(): Promise<void>;
}

/** Starts a long-running program (a registry, a relay) in a process group of its own. */
export function startDaemon(command: string, args: readonly string[], options: Omit<RunOptions, "timeoutMs">): Daemon {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const forget = trackProcessGroup(child.pid!);
  let output = "";
  const listeners = new Set<() => void>();
  const onData = (chunk: string) => {
    output += chunk;
    for (const listener of listeners) listener();
  };
  child.stdout!.setEncoding("utf8").on("data", onData);
  child.stderr!.setEncoding("utf8").on("data", onData);
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  exited.then(() => {
    for (const listener of listeners) listener();
  });
  return {
    child,
    output: () => output,
    waitFor(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => done(new Error(`${command}: no ${pattern} within ${timeoutMs} ms; it printed:\n${output}`)), timeoutMs);
        const check = () => {
          const match = pattern.exec(output);
          if (match) done(undefined, match);
          else if (child.exitCode !== null || child.signalCode !== null) done(new Error(`${command} exited (${child.exitCode ?? child.signalCode}) before ${pattern}; it printed:\n${output}`));
        };
        const done = (error?: Error, match?: RegExpMatchArray) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve(match!);
        };
        listeners.add(check);
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        killProcessGroup(child.pid!, "SIGTERM");
        const killed = setTimeout(() => killProcessGroup(child.pid!), 5_000);
        await exited;
        clearTimeout(killed);
      }
      killProcessGroup(child.pid!);
      forget();
    },
  };
}

