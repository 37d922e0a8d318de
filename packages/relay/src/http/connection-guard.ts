import { readFileSync } from "node:fs";
import type { Server, Socket } from "node:net";
import { clientKey } from "./client-key.js";

// Why connections are counted at all: with node:cluster's round-robin scheduling the primary
// accepts every connection and hands it to a worker over IPC. A worker at its open-file limit cannot
// take the descriptor (recvmsg truncates it), so it never acknowledges the hand-off, and the primary
// never offers it another connection: once every worker has hit the limit the node serves nothing,
// for good (issue 19, finding 3). Each process therefore stays well under its open-file limit, and
// the node bounds connections per client and in total so that one client cannot take them all.

export interface ConnectionLimits {
  /** Open connections per node; 0: no bound but each process's open-file limit. */
  maxConnections: number;
  /** Open connections per client (http/client-key.ts), per node; 0: off. */
  maxConnectionsPerClient: number;
}

/** Which bound a refused connection would have passed: its client's, the node's, or this process's open-file headroom. */
export type ConnectionRefusal = "client" | "node" | "process";

/**
 * The key of a connection from a trusted reverse proxy (`--trust-proxy`): it carries many clients,
 * so it counts in the node's total but not against a per-client bound (its clients are known per
 * request, from X-Forwarded-For, and bounded there). A prefix, so that it crosses to a primary's
 * ledger as any key does.
 */
export const TRUSTED_PROXY_KEY = "proxy:";

/** The node's open connections, per client and in total: kept by the primary, or by the only process. */
export class ConnectionLedger {
  readonly #perClient = new Map<string, number>();
  #total = 0;

  constructor(readonly limits: ConnectionLimits) {}

  /** Counts a connection from `key` if the limits allow it; else says which bound it would pass. */
  open(key: string): ConnectionRefusal | undefined {
    const { maxConnections, maxConnectionsPerClient } = this.limits;
    if (maxConnections > 0 && this.#total >= maxConnections) return "node";
    const mine = this.#perClient.get(key) ?? 0;
    if (maxConnectionsPerClient > 0 && mine >= maxConnectionsPerClient && !key.startsWith(TRUSTED_PROXY_KEY)) return "client";
    this.#perClient.set(key, mine + 1);
    this.#total++;
    return undefined;
  }

  /** A connection `open` admitted has closed. */
  close(key: string): void {
    const mine = this.#perClient.get(key);
    if (mine === undefined) return;
    if (mine > 1) this.#perClient.set(key, mine - 1);
    else this.#perClient.delete(key);
    this.#total--;
  }

  get total(): number {
    return this.#total;
  }

  get clients(): number {
    return this.#perClient.size;
  }
}

/** Where a serving process asks whether a new connection may stay: a ledger in this process, or the primary's. */
export interface ConnectionGate {
  /** A promise when the answer comes from elsewhere: the connection reads nothing until it arrives. */
  open(key: string): ConnectionRefusal | undefined | Promise<ConnectionRefusal | undefined>;
  /** A connection the gate admitted has closed. */
  close(key: string): void;
  /** True when `open` answers with promises. */
  readonly remote: boolean;
}

export const localGate = (ledger: ConnectionLedger): ConnectionGate => ({
  open: (key) => ledger.open(key),
  close: (key) => ledger.close(key),
  remote: false,
});

/** This process's open-file limit (soft), from /proc on Linux; undefined where it cannot be read. */
export function openFileLimit(): number | undefined {
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((entry) => entry.startsWith("Max open files"));
    const soft = line?.split(/\s{2,}/)[1];
    return soft === undefined || !/^\d+$/.test(soft) ? undefined : Number(soft);
  } catch {
    return undefined;
  }
}

/**
 * How many connections one process may hold: the node's bound, and at most its open-file limit less
 * `reserve` descriptors for everything else (database files and connections, IPC, logs).
 */
export function processConnectionCap(maxConnections: number, reserve: number, fileLimit = openFileLimit()): number {
  const byFiles = fileLimit === undefined ? Number.POSITIVE_INFINITY : Math.max(1, fileLimit - reserve);
  return Math.min(maxConnections > 0 ? maxConnections : Number.POSITIVE_INFINITY, byFiles);
}

export interface GuardOptions {
  gate: ConnectionGate;
  /** Most connections this process holds at once, whatever the gate says (see `processConnectionCap`). */
  processCap: number;
  /** Called at most every `reportMs` with the refusals since the last call, when there were any. */
  onRefused?: (refused: Record<ConnectionRefusal, number>) => void;
  reportMs?: number;
  /** Whether a connection's address is a trusted reverse proxy's (`--trust-proxy`): see TRUSTED_PROXY_KEY. */
  trustedProxy?: (address: string) => boolean;
}

/**
 * Admits each new connection of `server` through `gate`, within `processCap`; a refused connection
 * is reset at once, before anything is read from it. With a remote gate the server is set to pause
 * new connections, and one is resumed when the answer admits it. Returns a function that stops the
 * periodic report.
 */
export function guardConnections(server: Server, options: GuardOptions): () => void {
  const { gate, processCap } = options;
  // net.Server reads `pauseOnConnect` for every new connection; @types/node knows it only as an option.
  if (gate.remote) (server as Server & { pauseOnConnect: boolean }).pauseOnConnect = true;
  let open = 0;
  let refused: Record<ConnectionRefusal, number> = { client: 0, node: 0, process: 0 };
  let anyRefused = false;

  const refuse = (socket: Socket, why: ConnectionRefusal) => {
    refused[why]++;
    anyRefused = true;
    socket.resetAndDestroy();
  };
  const decide = (socket: Socket, key: string, verdict: ConnectionRefusal | undefined) => {
    if (verdict !== undefined) return refuse(socket, verdict);
    if (socket.destroyed) return gate.close(key); // gone while the gate was asked
    socket.once("close", () => gate.close(key));
    if (gate.remote) socket.resume();
  };

  server.on("connection", (socket: Socket) => {
    open++;
    socket.once("close", () => open--);
    if (open > processCap) return refuse(socket, "process");
    const address = socket.remoteAddress;
    const key = address !== undefined && options.trustedProxy?.(address) ? `${TRUSTED_PROXY_KEY}${address}` : clientKey(address);
    const verdict = gate.open(key);
    if (verdict instanceof Promise) {
      verdict.then(
        (answer) => decide(socket, key, answer),
        () => refuse(socket, "node"),
      );
    } else decide(socket, key, verdict);
  });

  const timer = setInterval(() => {
    if (!anyRefused) return;
    options.onRefused?.(refused);
    refused = { client: 0, node: 0, process: 0 };
    anyRefused = false;
  }, options.reportMs ?? 10_000);
  timer.unref();
  return () => clearInterval(timer);
}
