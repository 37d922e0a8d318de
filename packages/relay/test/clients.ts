// Test support (not built): hostile and honest clients on loopback, each from an address of its
// own in 127.0.0.0/8 (the node counts connections and memory per client address), and what the
// relay's processes hold.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { request } from "node:http";
import net from "node:net";
import { promisify } from "node:util";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The worker pids of a relay's primary (its direct children). */
export async function childPids(pid: number): Promise<number[]> {
  const { stdout } = await promisify(execFile)("pgrep", ["-P", String(pid)]).catch(() => ({ stdout: "" }));
  return stdout.split("\n").filter(Boolean).map(Number);
}

/** Sets the open-file limit (soft and hard) of running processes, with util-linux `prlimit`. */
export async function limitOpenFiles(pids: readonly number[], limit: number): Promise<void> {
  for (const pid of pids) await promisify(execFile)("prlimit", ["--pid", String(pid), `--nofile=${limit}:${limit}`]);
}

/** Proportional set size of these processes, summed, bytes (shared pages split between their users). */
export function pssBytes(pids: readonly number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const kib = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1];
      total += Number(kib ?? 0) * 1024;
    } catch {
      // gone
    }
  }
  return total;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One HTTP request on a fresh connection from `localAddress`; rejects after `timeoutMs`. */
export function httpFrom(
  url: string,
  localAddress: string,
  options: { method?: string; path?: string; body?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: options.path ?? "/",
        method: options.method ?? (options.body === undefined ? "GET" : "POST"),
        localAddress,
        agent: false,
        headers: { ...(options.body !== undefined && { "content-type": "application/json", "content-length": Buffer.byteLength(options.body) }), ...options.headers },
        timeout: options.timeoutMs ?? 5000,
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
        response.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", reject);
    req.end(options.body);
  });
}

export const NODE_INFO = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_nodeInfo", params: [] });

/** Whether the node answers /health and a JSON-RPC call, each on a fresh connection, within `timeoutMs`. */
export async function serves(url: string, localAddress = "127.0.0.1", timeoutMs = 2000): Promise<boolean> {
  try {
    const health = await httpFrom(url, localAddress, { path: "/health", timeoutMs });
    const rpc = await httpFrom(url, localAddress, { body: NODE_INFO, timeoutMs });
    return health.status === 200 && rpc.status === 200;
  } catch {
    return false;
  }
}

/** A raw connection from `localAddress`, connected (rejects on error or after `timeoutMs`; one the node resets at once resolves, already destroyed). */
export function connectFrom(url: string, localAddress: string, timeoutMs = 5000): Promise<net.Socket> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: target.hostname, port: Number(target.port), localAddress });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("connect timed out"));
    }, timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      // The handshake completed and the node reset the connection before this process saw it
      // connect (a refused connection on a busy machine): a connection, closed by the node.
      if (error.code === "ECONNRESET") resolve(socket);
      else reject(error);
    });
  });
}

/** Resolves when `socket` closes (by either side), with the time it took, or undefined after `timeoutMs`. */
export function closedWithin(socket: net.Socket, timeoutMs: number): Promise<{ ms: number; received: string } | undefined> {
  const started = Date.now();
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
  socket.on("error", () => {});
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve({ ms: 0, received });
    const timer = setTimeout(() => resolve(undefined), timeoutMs);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve({ ms: Date.now() - started, received });
    });
  });
}

export interface Flood {
  /** Connections that were established (the kernel's accept queue counts). */
  connected: number;
  /** Of those, the ones the node closed (reset or FIN) while the flood held them. */
  closedByNode: number;
  /** Attempts that failed or timed out while connecting. */
  failed: number;
  /** Closes every connection still open. */
  end(): void;
}

/**
 * Opens `count` idle connections (no request), spread over `addresses`, at most `inFlight` of them
 * connecting at a time, each given `connectTimeoutMs`; resolves once every attempt has settled.
 */
export async function flood(url: string, count: number, addresses: readonly string[], { inFlight = 200, connectTimeoutMs = 3000 } = {}): Promise<Flood> {
  const target = new URL(url);
  const sockets: net.Socket[] = [];
  let connected = 0;
  let closedByNode = 0;
  let failed = 0;
  let ending = false;
  let next = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const socket = net.connect({ host: target.hostname, port: Number(target.port), localAddress: addresses[next % addresses.length]! });
      next++;
      sockets.push(socket);
      let settled = false;
      const fail = () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        failed++;
        socket.destroy();
        resolve();
      };
      const timer = setTimeout(fail, connectTimeoutMs);
      socket.once("connect", () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        connected++;
        socket.resume(); // read (and drop) whatever comes, so that a close is seen
        socket.once("close", () => {
          if (!ending) closedByNode++;
        });
        resolve();
      });
      socket.on("error", fail);
    });
  const lanes = Array.from({ length: Math.min(inFlight, count) }, async (_, lane) => {
    for (let i = lane; i < count; i += inFlight) await one();
  });
  await Promise.all(lanes);
  return {
    connected,
    get closedByNode() {
      return closedByNode;
    },
    failed,
    end() {
      ending = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}

/**
 * How many of `pid`'s open sockets are TCP connections from `clientAddress` (IPv4) to local `port`:
 * which process of a relay holds which connections (Linux `/proc`: the process's socket inodes
 * matched against the kernel's TCP table).
 */
export function connectionsHeldBy(pid: number, port: number, clientAddress: string): number {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const match = /^socket:\[(\d+)\]$/.exec(target);
      if (match) inodes.add(match[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const hex = (address: string, portNumber: number) =>
    `${address
      .split(".")
      .reverse()
      .map((octet) => Number(octet).toString(16).padStart(2, "0"))
      .join("")
      .toUpperCase()}:${portNumber.toString(16).padStart(4, "0").toUpperCase()}`;
  const local = hex("127.0.0.1", port);
  const remotePrefix = hex(clientAddress, 0).slice(0, 8);
  let held = 0;
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    // sl local rem st tx:rx tr:when retrnsmt uid timeout inode
    if (fields.length < 10 || fields[1] !== local || !fields[2]!.startsWith(remotePrefix)) continue;
    if (inodes.has(fields[9]!)) held++;
  }
  return held;
}
