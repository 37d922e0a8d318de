// Test support (not built): the real relay as a child process on loopback, and a tiny JSON-RPC caller.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "dist", "main.js");

export interface RunningRelay {
  url: string;
  /** host:port, the default SIWE domain. */
  domain: string;
  /** The node address from the "listening" log line. */
  address: string;
  dataDir: string;
  process: ChildProcess;
  /** Every stdout line so far, parsed (pino JSON). */
  logs: Record<string, unknown>[];
  stdout(): string;
  stderr(): string;
  /** Sends a signal and resolves with the exit code/signal. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL to the whole process group (every worker too). */
  crash(): Promise<void>;
}

export interface StartOptions {
  dataDir?: string;
  args?: string[];
  env?: Record<string, string>;
  workers?: number;
}

export const tempDir = (prefix = "neutral-relay-") => mkdtempSync(path.join(os.tmpdir(), prefix));

export function startRelay(options: StartOptions = {}): Promise<RunningRelay> {
  const dataDir = options.dataDir ?? tempDir();
  const args = [MAIN, "--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir, "--workers", String(options.workers ?? 1), "--rate-limit", "0", ...(options.args ?? [])];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, NEUTRAL_LOG_LEVEL: "info", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let out = "";
  let err = "";
  const logs: Record<string, unknown>[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    let pending = "";
    const timer = setTimeout(() => reject(new Error(`relay did not start in 20 s\nstdout:\n${out}\nstderr:\n${err}`)), 20_000);
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
              process.kill(-child.pid!, "SIGKILL");
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

/** POSTs a JSON-RPC body (object or raw text). */
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
/** One call; returns the whole answer. */
export function call(url: string, method: string, params: unknown, token?: string): Promise<RpcAnswer> {
  return post(url, { jsonrpc: "2.0", id: nextId++, method, params }, token);
}
