// `@neutral/relay/testing`: a real relay for other packages' tests (the client SDK, the CLI, an app's)
// and for the relay's own. `startRelay` runs `dist/main.js` as a child process on loopback with a
// fresh data dir and answers once it listens; `post` and `call` speak JSON-RPC to it. Build the relay
// first (`pnpm --filter @neutral/relay build`; turbo's `^build` does it for packages that depend on it).
// Test support published on purpose (built from `testing/` into `dist/testing/`); the relay's own
// private test helpers are in `test/`.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { killProcessGroup, trackProcessGroup } from "@neutral/test-support/run";
import { tempDir } from "./temp.js";

/** The relay package's directory: from `testing/` (the relay's own tests) and `dist/testing/` alike. */
function packageDir(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "@neutral/relay") return dir;
    if (path.dirname(dir) === dir) throw new Error("@neutral/relay/testing: cannot find the @neutral/relay package around it");
  }
}

/** The relay's entry point, `<package>/dist/main.js`. */
export const RELAY_MAIN = path.join(packageDir(), "dist", "main.js");

export interface RunningRelay {
  /** Base URL, e.g. `http://127.0.0.1:40123`: POST JSON-RPC here. */
  url: string;
  /** host:port, the default SIWE domain (unless `--domain` was given). */
  domain: string;
  /** The node's address (the key that signs receipts), from the "listening" log line. */
  address: string;
  /** The data dir (database and node key). */
  dataDir: string;
  process: ChildProcess;
  /** Every stdout line so far, parsed (pino JSON). */
  logs: Record<string, unknown>[];
  stdout(): string;
  stderr(): string;
  /**
   * Sends a signal (default SIGTERM) and resolves with the exit code/signal. A data dir that
   * `startRelay` created itself is removed once the process has exited.
   */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL to the whole process group (every worker too); removes a data dir it created, like `stop`. */
  crash(): Promise<void>;
}

export interface StartOptions {
  /**
   * Where the database and the node key live. Default: `--data-dir` from `args`, else
   * `NEUTRAL_DATA_DIR` from `env`, else a new temp dir, removed again by `stop()`/`crash()`.
   * Give one to restart a relay on the same data.
   */
  dataDir?: string;
  /**
   * Extra command-line flags, e.g. `["--node-key", key, "--domain", "127.0.0.1:8645", "--clock-skew-ms", "1000"]`
   * (see `--help`). They come after the defaults (`--host 127.0.0.1 --port 0 --workers 1 --rate-limit 0`),
   * so they win. The log level must stay `info` or more verbose: the "listening" line says where the relay is.
   */
  args?: string[];
  /** Extra environment variables (over this process's). A `NEUTRAL_*` variable given here replaces the matching default flag. */
  env?: Record<string, string>;
  /** Worker processes (default 1). */
  workers?: number;
  /** How long to wait for the "listening" line, ms (default 20,000). */
  startTimeoutMs?: number;
}

export { tempDir };

/** The value of `--name value` or `--name=value` in `args` (the last one wins, as in the relay). */
function flagValue(args: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  args.forEach((arg, i) => {
    if (arg === name && i + 1 < args.length) value = args[i + 1];
    else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
  });
  return value;
}

const QUIET_LEVELS = new Set(["warn", "error", "fatal", "silent"]);

/** Relays this process started that have not exited yet. */
const running = new Set<ChildProcess>();

/** SIGKILLs a relay's process group: it runs detached, with its workers in its own group. */
function killGroup(child: ChildProcess): void {
  if (child.pid !== undefined) killProcessGroup(child.pid);
}

/**
 * Kills every relay this process started that is still running. Detached, a relay would outlive a
 * test that failed before calling `stop()`, and keep its port: call this in an `afterAll` (the
 * relay's own tests do, in `test/setup.ts`). Also done when this process exits or is interrupted
 * (SIGINT, SIGTERM, SIGHUP), and, in a run with `@neutral/relay/testing/global-setup`, by the main
 * vitest process at the end of the run (`@neutral/test-support/run`).
 */
export function killRunningRelays(): void {
  for (const child of running) killGroup(child);
}

export function startRelay(options: StartOptions = {}): Promise<RunningRelay> {
  if (!existsSync(RELAY_MAIN)) {
    return Promise.reject(new Error(`${RELAY_MAIN} is missing: build the relay first (pnpm --filter @neutral/relay build)`));
  }
  const extra = options.args ?? [];
  const env = { ...process.env, NEUTRAL_LOG_LEVEL: "info", ...options.env };
  const logLevel = flagValue(extra, "--log-level") ?? env.NEUTRAL_LOG_LEVEL;
  if (logLevel !== undefined && QUIET_LEVELS.has(logLevel)) {
    return Promise.reject(new Error(`startRelay needs --log-level info or more verbose (got ${logLevel}): it waits for the "listening" line`));
  }
  const given = options.dataDir ?? flagValue(extra, "--data-dir") ?? options.env?.NEUTRAL_DATA_DIR;
  const dataDir = given ?? tempDir();
  const created = given === undefined;
  // Each default is a flag unless `options.env` sets its variable (a flag would win over it).
  const defaults: [flag: string, variable: string, value: string][] = [
    ["--host", "NEUTRAL_HOST", "127.0.0.1"],
    ["--port", "NEUTRAL_PORT", "0"],
    ["--data-dir", "NEUTRAL_DATA_DIR", dataDir],
    ["--workers", "NEUTRAL_WORKERS", "1"],
    ["--rate-limit", "NEUTRAL_RATE_LIMIT", "0"],
  ];
  const flags = defaults.flatMap(([flag, variable, value]) => (options.env?.[variable] === undefined ? [flag, value] : []));
  if (options.workers !== undefined) flags.push("--workers", String(options.workers));
  const args = [RELAY_MAIN, ...flags, ...extra];
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  running.add(child);
  const untrack = child.pid === undefined ? () => {} : trackProcessGroup(child.pid);
  let out = "";
  let err = "";
  const logs: Record<string, unknown>[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => {
      running.delete(child);
      killGroup(child); // a worker the primary left behind, if any
      untrack();
      if (created) rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, signal });
    }),
  );
  return new Promise((resolve, reject) => {
    let pending = "";
    const timeoutMs = options.startTimeoutMs ?? 20_000;
    const timer = setTimeout(() => {
      reject(new Error(`relay did not start in ${timeoutMs} ms\nstdout:\n${out}\nstderr:\n${err}`));
      killGroup(child);
    }, timeoutMs);
    child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) {
        let entry: Record<string, unknown>;
        try {
          entry = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        logs.push(entry);
        if (entry.msg === "listening") {
          clearTimeout(timer);
          const url = String(entry.url);
          resolve({
            url,
            domain: new URL(url).host,
            address: String(entry.address),
            dataDir,
            process: child,
            logs,
            stdout: () => out,
            stderr: () => err,
            stop: (signal = "SIGTERM") => {
              child.kill(signal);
              return exited;
            },
            crash: async () => {
              killGroup(child);
              await exited;
            },
          });
        }
      }
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`relay exited (${code}) before listening\nstdout:\n${out}\nstderr:\n${err}`));
    });
  });
}

export interface RpcAnswer {
  status: number;
  headers: Headers;
  /** Parsed JSON body, or undefined for an empty one. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- responses are inspected field by field in tests
  text: string;
}

/** POSTs a JSON-RPC body (object or raw text) with an optional bearer token and extra headers. */
export async function post(url: string, body: unknown, token?: string, headers: Record<string, string> = {}): Promise<RpcAnswer> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token !== undefined && { authorization: `Bearer ${token}` }), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text), text };
}

let nextId = 1;
/** One call; returns the whole answer (`body.result[0]` is the payload of a `neutralService_*` method). */
export function call(url: string, method: string, params: unknown, token?: string): Promise<RpcAnswer> {
  return post(url, { jsonrpc: "2.0", id: nextId++, method, params }, token);
}

export { startThrowawayPostgres, findPostgresBinDir, type ThrowawayPostgres, type ThrowawayPostgresOptions } from "./postgres.js";
export { freePorts, nodeAddressOf, startFederation, type FederatedNode, type Federation, type FederationOptions } from "./federation.js";
export { startNode, stopRunningNodes, type InProcessNode, type InProcessOptions } from "./in-process.js";
export { startHostilePeer, type DeliveredMessage, type DeliveryMode, type HostilePeer, type HostilePeerOptions } from "./hostile-peer.js";
export { startLyingNode, type LyingNode, type LyingNodeOptions, type MailboxLie } from "./lying-node.js";
