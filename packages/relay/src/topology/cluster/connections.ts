// The node's connection counts live in the primary: per client and in total they must hold across
// the workers, and round-robin hands one client's connections to every worker. A worker asks about
// each new connection (one round trip, paid once per connection, not per request) and reads
// nothing from it until the answer comes; it reports each admitted connection's close. Counts of a
// worker that dies are dropped with it.
import { ConnectionLedger, type ConnectionGate, type ConnectionLimits, type ConnectionRefusal } from "../../http/connection-guard.js";
import type { PrimaryLink, WorkersLink } from "../channel.js";

/** In the primary: keeps the node's ledger and answers the workers. */
export function serveConnectionLedger(workers: WorkersLink, limits: ConnectionLimits): { ledger: ConnectionLedger; stop: () => void } {
  const ledger = new ConnectionLedger(limits);
  /** What each worker holds, to give back when it dies. */
  const held = new Map<number, Map<string, number>>();
  const stops = [
    workers.answer("connection-open", ({ key }, worker) => {
      const refused = ledger.open(key);
      if (refused === undefined) {
        let mine = held.get(worker.id);
        if (!mine) held.set(worker.id, (mine = new Map()));
        mine.set(key, (mine.get(key) ?? 0) + 1);
      }
      return refused === undefined ? {} : { refused };
    }),
    workers.on("connection-close", ({ key }, worker) => {
      const mine = held.get(worker.id);
      const count = mine?.get(key);
      if (!mine || count === undefined) return;
      if (count > 1) mine.set(key, count - 1);
      else mine.delete(key);
      ledger.close(key);
    }),
    workers.onExit((worker) => {
      const mine = held.get(worker.id);
      held.delete(worker.id);
      for (const [key, count] of mine ?? []) for (let i = 0; i < count; i++) ledger.close(key);
    }),
  ];
  return { ledger, stop: () => stops.forEach((stop) => stop()) };
}

/**
 * In a worker: a gate that asks the primary's ledger ({@link serveConnectionLedger}). What this worker
 * alone holds already past `limits` is refused here, with no message: a flood from one address costs
 * the primary nothing beyond its hand-offs. Without its primary a worker is on its way out: it refuses.
 */
export function primaryGate(primary: PrimaryLink, limits: ConnectionLimits): ConnectionGate {
  const mine = new ConnectionLedger(limits);
  return {
    remote: true,
    open(key) {
      if (!primary.connected) return "node";
      const here = mine.open(key);
      if (here !== undefined) return here;
      return primary.request("connection-open", { key }).then(
        ({ refused }): ConnectionRefusal | undefined => {
          if (refused !== undefined) mine.close(key);
          return refused;
        },
        (): ConnectionRefusal => {
          mine.close(key);
          return "node";
        },
      );
    },
    close(key) {
      mine.close(key);
      primary.notify("connection-close", { key });
    },
  };
}
