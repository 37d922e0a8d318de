// The relay's workers share one SQLite writer, in their primary: two writers would take turns at
// the database's single write lock, each committing smaller batches, and spend about twice the CPU
// per append (measured: bench/HISTORY.md). Appends travel over the cluster channel.
import { messageJsonTail, messageJsonWithId } from "../../message.js";
import { PrimaryGoneError, StoreClosedError } from "../../errors.js";
import type { SignedReceipts } from "../../storage/receipt-signer.js";
import type { AppendWriter, WireEntry, WireResult } from "../../storage/sqlite-append-writer.js";
import type { PrimaryLink, WorkersLink } from "../channel.js";

/** An append whose receipts the writer signed, as its answer crosses the channel: without its JSON. */
export interface SignedAppend {
  id: number;
  created?: boolean;
  signed: SignedReceipts;
}

/** What the primary answers a worker per append. */
export type ChannelResult = WireResult | SignedAppend;

/**
 * An append's result as it crosses the channel: the JSON of an append whose receipts the writer
 * signed stays behind, its receipts go (the worker holds the rest: {@link withJson}). The JSON
 * carries the whole message, up to 128 KiB of hex escaped inside the answer: serialized on the
 * primary's thread, which every append waits on, it cost ~1.4 ms a batch of 30 messages of 4 KiB
 * (bench/HISTORY.md, "Appends answered with their receipts").
 */
function forTheChannel(result: WireResult): ChannelResult {
  if (typeof result !== "object" || !("signed" in result) || result.signed === undefined) return result;
  return { id: result.id, ...(result.created !== undefined && { created: result.created }), signed: result.signed };
}

/** What the writer answered `wire`, with the JSON made again from the fields `wire` holds where the channel left it behind. */
function withJson(wire: WireEntry, result: ChannelResult): WireResult {
  if (typeof result !== "object" || !("signed" in result) || "json" in result) return result;
  const fields = "fields" in wire ? wire.fields : undefined;
  const senderReceipt = fields?.senderReceipt ?? result.signed.senderReceipt;
  if (fields === undefined || senderReceipt === undefined) throw new Error("the primary answered receipts for an append that has no fields to make its JSON from");
  return { ...result, json: messageJsonWithId(result.id, messageJsonTail({ ...fields, ...result.signed, senderReceipt })) };
}

/**
 * In the primary: commits every worker's appends through `writer`. Appends from several workers
 * that arrive together share a transaction. Returns a function that stops serving.
 */
export function serveWorkerAppends(workers: WorkersLink, writer: AppendWriter): () => void {
  // A worker that died meanwhile has nobody left to tell; its appends are committed all the same.
  return workers.answer("append", async ({ appends }) => ({ results: (await Promise.all(appends.map((wire) => writer.append(wire)))).map(forTheChannel) }));
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
        ({ results }) =>
          batch.forEach((entry, i) => {
            try {
              entry.resolve(withJson(entry.wire, results[i]!));
            } catch (error) {
              entry.reject(error);
            }
          }),
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
