// A node's limits are the node's, not each worker's: with N workers sharing the port, a client
// whose connections land on several workers would otherwise get N times its budget. Asking the
// primary on every request would put an IPC round trip on the hot path, so each worker keeps its
// own buckets and decides alone, and every INTERVAL_MS reports what it took; the primary adds the
// reports up and every INTERVAL_MS tells each worker what the others took, which the worker takes
// from its own buckets. A worker learns of another's consumption within d ≈ 2 × INTERVAL_MS plus
// the IPC time, and what the others admit meanwhile is the over-admission: per key, what the other
// N − 1 workers admit within d, never more than (N − 1) × (burst + rate × d) in all (two full
// buckets spent at once); the debt that leaves is repaid, so over time the node admits its rate.
import type { TokenBuckets } from "../../limits/token-buckets.js";
import type { PrimaryLink, WireUsage, WorkersLink } from "../channel.js";

export const INTERVAL_MS = 50;

/**
 * In a cluster worker: reports the consumption of `tables` (built with `trackUsage`) to the
 * primary, and applies the other workers' that it relays ({@link serveNodeLimits}). Returns a
 * function that stops it.
 */
export function shareLimitsWithNode(primary: PrimaryLink, tables: Record<string, TokenBuckets>, intervalMs = INTERVAL_MS): () => void {
  if (Object.keys(tables).length === 0) return () => {};
  const report = () => {
    const wire: WireUsage = {};
    let any = false;
    for (const [name, table] of Object.entries(tables)) {
      const usage = table.takeUsage();
      if (usage.size === 0) continue;
      const rows: [string, ...number[]][] = [];
      for (const [key, costs] of usage) rows.push([key, ...costs]);
      wire[name] = rows;
      any = true;
    }
    if (any) primary.notify("limits-usage", { tables: wire });
  };
  const stop = primary.on("limits-others", ({ tables: others }) => {
    for (const [name, rows] of Object.entries(others)) {
      const table = tables[name];
      if (table && Array.isArray(rows)) table.applyRemote(rows.map(([key, ...costs]) => [key, costs] as const));
    }
  });
  const timer = setInterval(report, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    stop();
  };
}

/** Adds `rows` into `sums` (table name → key → costs). */
function accumulate(sums: Map<string, Map<string, number[]>>, name: string, rows: readonly (readonly [string, ...number[]])[]): void {
  let table = sums.get(name);
  if (!table) sums.set(name, (table = new Map()));
  for (const [key, ...costs] of rows) {
    if (typeof key !== "string") continue;
    const sum = table.get(key);
    if (!sum) table.set(key, costs.slice());
    else costs.forEach((cost, d) => (sum[d] = (sum[d] ?? 0) + cost));
  }
}

/**
 * In the cluster primary: relays each worker's reported consumption to every other worker, summed
 * over `intervalMs`. Holds nothing longer than that; a worker forked later starts from full buckets.
 * Returns a function that stops it.
 */
export function serveNodeLimits(workers: WorkersLink, intervalMs = INTERVAL_MS): () => void {
  /** For each worker id: what the other workers took since its last update. */
  const pending = new Map<number, Map<string, Map<string, number[]>>>();
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    timer = undefined;
    for (const [id, sums] of pending) {
      const tables: WireUsage = {};
      for (const [name, table] of sums) tables[name] = [...table].map(([key, costs]) => [key, ...costs]);
      workers.notify({ id }, "limits-others", { tables });
    }
    pending.clear();
  };

  const stop = workers.on("limits-usage", ({ tables }, from) => {
    for (const worker of workers.workers()) {
      if (worker.id === from.id) continue;
      let sums = pending.get(worker.id);
      if (!sums) pending.set(worker.id, (sums = new Map()));
      for (const [name, rows] of Object.entries(tables)) if (Array.isArray(rows)) accumulate(sums, name, rows);
    }
    if (pending.size > 0 && !timer) {
      timer = setTimeout(flush, intervalMs);
      timer.unref();
    }
  });
  return () => {
    stop();
    if (timer) clearTimeout(timer);
  };
}
