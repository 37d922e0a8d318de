import cluster, { type Worker as ClusterWorker } from "node:cluster";
import { ConnectionLedger, type ConnectionGate, type ConnectionLimits, type ConnectionRefusal } from "../http/connection-guard.js";

// The node's connection counts live in the primary: per client and in total they must hold across
// the workers, and round-robin hands one client's connections to every worker. A worker asks about
// each new connection (one IPC round trip, paid once per connection, not per request) and reads
// nothing from it until the answer comes; it reports each admitted connection's close. Counts of a
// worker that dies are dropped with it.

const OPEN = "neutral:connection-open";
const VERDICT = "neutral:connection-verdict";
const CLOSE = "neutral:connection-close";

interface OpenMessage {
  type: typeof OPEN;
  id: number;
  key: string;
}
interface VerdictMessage {
  type: typeof VERDICT;
  id: number;
  refused?: ConnectionRefusal;
}
interface CloseMessage {
  type: typeof CLOSE;
  key: string;
}

const typed = (message: unknown): { type?: unknown } | undefined =>
  typeof message === "object" && message !== null ? (message as { type?: unknown }) : undefined;
const isOpen = (message: unknown): message is OpenMessage => {
  const m = typed(message) as Partial<OpenMessage> | undefined;
  return m?.type === OPEN && typeof m.id === "number" && typeof m.key === "string";
};
const isClose = (message: unknown): message is CloseMessage => {
  const m = typed(message) as Partial<CloseMessage> | undefined;
  return m?.type === CLOSE && typeof m.key === "string";
};
const isVerdict = (message: unknown): message is VerdictMessage => {
  const m = typed(message) as Partial<VerdictMessage> | undefined;
  return m?.type === VERDICT && typeof m.id === "number";
};

/** In the primary: keeps the node's ledger and answers the workers. Returns a function that stops it. */
export function serveConnectionLedger(limits: ConnectionLimits): { ledger: ConnectionLedger; stop: () => void } {
  const ledger = new ConnectionLedger(limits);
  /** What each worker holds, to give back when it dies. */
  const held = new Map<number, Map<string, number>>();

  const onMessage = (worker: ClusterWorker, message: unknown) => {
    if (isOpen(message)) {
      const refused = ledger.open(message.key);
      if (refused === undefined) {
        let mine = held.get(worker.id);
        if (!mine) held.set(worker.id, (mine = new Map()));
        mine.set(message.key, (mine.get(message.key) ?? 0) + 1);
      }
      if (worker.isConnected()) worker.send({ type: VERDICT, id: message.id, ...(refused && { refused }) } satisfies VerdictMessage, undefined, () => {});
    } else if (isClose(message)) {
      const mine = held.get(worker.id);
      const count = mine?.get(message.key);
      if (!mine || count === undefined) return;
      if (count > 1) mine.set(message.key, count - 1);
      else mine.delete(message.key);
      ledger.close(message.key);
    }
  };
  const onExit = (worker: ClusterWorker) => {
    const mine = held.get(worker.id);
    held.delete(worker.id);
    for (const [key, count] of mine ?? []) for (let i = 0; i < count; i++) ledger.close(key);
  };
  cluster.on("message", onMessage);
  cluster.on("exit", onExit);
  return {
    ledger,
    stop: () => {
      cluster.off("message", onMessage);
      cluster.off("exit", onExit);
    },
  };
}

/**
 * In a worker: a gate that asks the primary's ledger ({@link serveConnectionLedger}). What this worker
 * alone holds already past `limits` is refused here, with no message: a flood from one address costs
 * the primary nothing beyond its hand-offs.
 */
export function primaryGate(limits: ConnectionLimits): ConnectionGate {
  const mine = new ConnectionLedger(limits);
  const send = process.send?.bind(process);
  if (!send || !cluster.isWorker) throw new Error("primaryGate() works in a cluster worker only");
  const waiting = new Map<number, (refused: ConnectionRefusal | undefined) => void>();
  let nextId = 1;
  process.on("message", (message: unknown) => {
    if (!isVerdict(message)) return;
    const resolve = waiting.get(message.id);
    waiting.delete(message.id);
    resolve?.(message.refused);
  });
  // Without its primary a worker is on its way out: refuse rather than wait.
  process.once("disconnect", () => {
    for (const resolve of waiting.values()) resolve("node");
    waiting.clear();
  });
  return {
    remote: true,
    open(key) {
      if (!process.connected) return "node";
      const here = mine.open(key);
      if (here !== undefined) return here;
      const id = nextId++;
      return new Promise<ConnectionRefusal | undefined>((resolve) => {
        waiting.set(id, resolve);
        send({ type: OPEN, id, key } satisfies OpenMessage, undefined, {}, (error: Error | null) => {
          if (error && waiting.delete(id)) resolve("node");
        });
      }).then((refused) => {
        if (refused !== undefined) mine.close(key);
        return refused;
      });
    },
    close(key) {
      mine.close(key);
      if (process.connected) send({ type: CLOSE, key } satisfies CloseMessage, undefined, {}, () => {});
    },
  };
}
