// Support for the scaffold's tests (create.test.ts, create.e2e.test.ts, cli.test.ts): running a
// command as a child that cannot outlive the test run, and a small caret-range check.
import { spawn } from "node:child_process";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { killProcessGroup, trackProcessGroup } from "@neutral/test-support/run";

export const packageDir = fileURLToPath(new URL("..", import.meta.url));
export const workspaceDir = path.resolve(packageDir, "../..");
export const cliPath = path.join(packageDir, "bin/neutral-openrpc.mjs");

const require = createRequire(import.meta.url);
/** An OpenRPC document of the corpus with an example for every method (and by-position params). */
export const petstorePath = require.resolve("@open-rpc/examples/build/service-descriptions/petstore-openrpc.json");

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr as they interleaved. */
  output: string;
  ms: number;
  timedOut: boolean;
}

/**
 * Runs `command` in a process group of its own (so that a timeout, or the run being interrupted,
 * kills it and everything it started: npm's children, a server a test started). Never rejects for
 * a non-zero exit: the caller checks `code`.
 */
export function run(
  command: string,
  args: readonly string[],
  options: {
    cwd: string;
    timeoutMs: number;
    /** The child's whole environment (default: this process's). */
    env?: NodeJS.ProcessEnv;
  },
): Promise<RunResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    if (child.pid === undefined) {
      child.once("error", reject);
      return;
    }
    const pgid = child.pid;
    const untrack = trackProcessGroup(pgid);
    let stdout = "";
    let stderr = "";
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => ((stdout += chunk), (output += chunk)));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => ((stderr += chunk), (output += chunk)));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killProcessGroup(pgid);
    }, options.timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      killProcessGroup(pgid);
      untrack();
      reject(error);
    });
    // Whatever it left running (a server a failed test did not close) goes with it, also so that
    // its stdout and stderr close.
    child.once("exit", () => killProcessGroup(pgid));
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      untrack();
      resolve({ code, signal, stdout, stderr, output, ms: performance.now() - started, timedOut });
    });
  });
}

export { plainEnv } from "@neutral/test-support/exec";

/** `node bin/neutral-openrpc.mjs …args`. */
export const runCli = (args: readonly string[], cwd: string, timeoutMs = 30_000): Promise<RunResult> => run(process.execPath, [cliPath, ...args], { cwd, timeoutMs });

/** What a failed run says about itself, for an assertion message. */
export const describeRun = (what: string, result: RunResult): string =>
  `${what}: exit ${result.code}${result.signal ? ` (${result.signal})` : ""}${result.timedOut ? ", timed out" : ""} after ${Math.round(result.ms)} ms\n${result.output.slice(-6_000)}`;

const parseVersion = (text: string): [number, number, number] => {
  const match = /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(text.trim());
  if (!match) throw new Error(`not a version: ${text}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
};

/**
 * Whether `version` satisfies the caret range `range` (`^1.2.3`: >=1.2.3 <2.0.0; `^0.2.3`:
 * >=0.2.3 <0.3.0; `^0.0.3`: 0.0.3 only), the only kind of range scaffold/versions.json uses.
 * Prereleases are not considered.
 */
export function satisfiesCaret(version: string, range: string): boolean {
  if (!range.startsWith("^")) throw new Error(`not a caret range: ${range}`);
  const [major, minor, patch] = parseVersion(range.slice(1));
  const v = parseVersion(version);
  const atLeast = v[0] !== major ? v[0] > major : v[1] !== minor ? v[1] > minor : v[2] >= patch;
  if (!atLeast) return false;
  if (major > 0) return v[0] === major;
  if (minor > 0) return v[0] === 0 && v[1] === minor;
  return v[0] === 0 && v[1] === 0 && v[2] === patch;
}

/** The source files of @neutral/server whose build output is missing or older than they are. */
async function staleServerFiles(): Promise<string[]> {
  const serverDir = path.join(workspaceDir, "packages/server");
  const stale: string[] = [];
  for (const entry of await readdir(path.join(serverDir, "src"), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts") || entry.name.endsWith(".test.ts")) continue;
    const source = path.join(entry.parentPath ?? entry.path, entry.name);
    const built = path.join(serverDir, "dist", path.relative(path.join(serverDir, "src"), source).replace(/\.ts$/, ".js"));
    const [s, b] = await Promise.all([stat(source), stat(built).catch(() => undefined)]);
    if (!b || b.mtimeMs < s.mtimeMs) stale.push(path.relative(serverDir, source));
  }
  return stale;
}

/**
 * Builds @neutral/server (its dist/ is what the scaffold imports, and what its tarball ships) unless
 * it is up to date, as it is under `turbo run test` (openrpc's devDependency on it: `^build`). One
 * build at a time across the run's workers (a lock in the run's temp dir). Returns the ms spent.
 */
export async function ensureServerBuilt(): Promise<number> {
  const started = performance.now();
  const lock = path.join(os.tmpdir(), "neutral-scaffold-server-build.lock");
  const deadline = Date.now() + 240_000;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (Date.now() > deadline) throw new Error(`${lock}: another worker's build of @neutral/server did not finish`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if ((await staleServerFiles()).length > 0) {
      const build = await run("pnpm", ["--filter", "@neutral/server", "run", "build"], { cwd: workspaceDir, timeoutMs: 180_000 });
      if (build.code !== 0) throw new Error(describeRun("pnpm --filter @neutral/server run build", build));
    }
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
  return performance.now() - started;
}
