// The relay's workers share one SQLite writer, in their primary: two writers would take turns at
// the database's single write lock, each committing smaller batches, and spend about twice the CPU
// per append (measured: bench/HISTORY.md). Appends travel over the cluster channel.
import { PrimaryGoneError, StoreClosedError } from "../../errors.js";
import type { AppendWriter, WireEntry, WireResult } from "../../storage/sqlite-append-writer.js";
import type { PrimaryLink, WorkersLink } from "../channel.js";

/**
 * In the primary: commits every worker's appends through `writer`. Appends from several workers
 * that arrive together share a transaction. Returns a function that stops serving.
 */
export function serveWorkerAppends(workers: WorkersLink, writer: AppendWriter): () => void {
  // A worker that died meanwhile has nobody left to tell; its appends are committed all the same.
  return workers.answer("append", async ({ appends }) => ({ results: await Promise.all(appends.map((wire) => writer.append(wire))) }));
}

interface Waiting {
  wire: WireEntry;
  resolve: (result: WireResult) => void;
  reject: (error: unknown) => void;
}

/**
 * In a worker: an {@link AppendWriter} that hands appends to the primary's writer
 * ({@link serveWorkerAppends}), the appends of one event-loop turn as one message.
 */
export function primaryWriter(primary: PrimaryLink): AppendWriter {
  let pending: Waiting[] = [];
  let inFlight = 0;
  let flushScheduled = false;
  let closed = false;
  let whenIdle: (() => void)[] = [];

  function settled(): void {
    if (inFlight > 0 || pending.length > 0) return;
    const waiting = whenIdle;
    whenIdle = [];
    for (const resolve of waiting) resolve();
  }

  function flush(): void {
    flushScheduled = false;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    inFlight++;
    primary
      .request("append", { appends: batch.map((entry) => entry.wire) })
      .then(
        ({ results }) => batch.forEach((entry, i) => entry.resolve(results[i]!)),
        (error: unknown) => {
          for (const entry of batch) entry.reject(error);
        },
      )
      .finally(() => {
        inFlight--;
        settled();
      });
  }

  return {
    append(wire) {
      if (closed) return Promise.reject(new StoreClosedError());
      if (!primary.connected) return Promise.reject(new PrimaryGoneError());
      return new Promise<WireResult>((resolve, reject) => {
        pending.push({ wire, resolve, reject });
        if (!flushScheduled) {
          flushScheduled = true;
          setImmediate(flush);
        }
      });
    },
    async close() {
      closed = true;
      flush();
      if (inFlight > 0) await new Promise<void>((resolve) => whenIdle.push(resolve));
    },
  };
}
