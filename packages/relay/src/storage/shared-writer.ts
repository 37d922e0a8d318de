import cluster, { type Worker as ClusterWorker } from "node:cluster";
import { errorFromWire, errorToWire, PrimaryGoneError, StoreClosedError, type WireErrorInfo } from "../errors.js";
import type { AppendWriter, WireEntry, WireResult } from "./sqlite-append-writer.js";

// The relay's workers share one SQLite writer, in their primary: two writers would take turns at
// the database's single write lock, each committing smaller batches, and spend about twice the CPU
// per append (measured: README, "Performance"). Appends travel over the cluster's IPC channel.

const APPEND = "neutral:append";
const APPENDED = "neutral:appended";

interface AppendRequest {
  type: typeof APPEND;
  id: number;
  appends: WireEntry[];
}

interface AppendReply {
  type: typeof APPENDED;
  id: number;
  results?: WireResult[];
  error?: WireErrorInfo;
}

const isAppendRequest = (message: unknown): message is AppendRequest =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === APPEND;
const isAppendReply = (message: unknown): message is AppendReply =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === APPENDED;

/**
 * In the primary: commits every worker's appends through `writer`. Appends from several workers
 * that arrive together share a transaction. Returns a function that stops serving.
 */
export function serveWorkerAppends(writer: AppendWriter): () => void {
  const reply = (worker: ClusterWorker, message: AppendReply) => {
    // A worker that died meanwhile has nobody left to tell; its appends are committed all the same.
    if (worker.isConnected()) worker.send(message, () => {});
  };
  const onMessage = (worker: ClusterWorker, message: unknown) => {
    if (!isAppendRequest(message)) return;
    Promise.all(message.appends.map((wire) => writer.append(wire))).then(
      (results) => reply(worker, { type: APPENDED, id: message.id, results }),
      (error: unknown) => reply(worker, { type: APPENDED, id: message.id, error: errorToWire(error) }),
    );
  };
  cluster.on("message", onMessage);
  return () => cluster.off("message", onMessage);
}

interface Waiting {
  resolve: (result: WireResult) => void;
  reject: (error: unknown) => void;
}

/**
 * In a worker: an {@link AppendWriter} that hands appends to the primary's writer
 * ({@link serveWorkerAppends}), the appends of one event-loop turn as one message.
 */
export function primaryWriter(): AppendWriter {
  const send = process.send?.bind(process);
  if (!send || !cluster.isWorker) throw new Error("primaryWriter() works in a cluster worker only");
  let pending: (Waiting & { wire: WireEntry })[] = [];
  const inFlight = new Map<number, Waiting[]>();
  let nextId = 1;
  let flushScheduled = false;
  let closed = false;
  let gone: Error | undefined;
  let whenIdle: (() => void)[] = [];

  function settled(): void {
    if (inFlight.size > 0 || pending.length > 0) return;
    const waiting = whenIdle;
    whenIdle = [];
    for (const resolve of waiting) resolve();
  }

  function fail(id: number, error: Error): void {
    const batch = inFlight.get(id);
    inFlight.delete(id);
    for (const entry of batch ?? []) entry.reject(error);
    settled();
  }

  function flush(): void {
    flushScheduled = false;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    if (gone) {
      for (const entry of batch) entry.reject(gone);
      return settled();
    }
    const id = nextId++;
    inFlight.set(id, batch);
    const request: AppendRequest = { type: APPEND, id, appends: batch.map((entry) => entry.wire) };
    send!(request, undefined, undefined, (error: Error | null) => {
      if (error) fail(id, new PrimaryGoneError(`could not hand the appends to the primary process: ${error.message}`));
    });
  }

  const onMessage = (message: unknown) => {
    if (!isAppendReply(message)) return;
    const batch = inFlight.get(message.id);
    if (!batch) return;
    inFlight.delete(message.id);
    if (message.results) batch.forEach((entry, i) => entry.resolve(message.results![i]!));
    else {
      const error = errorFromWire(message.error ?? { message: "the primary's writer failed" });
      for (const entry of batch) entry.reject(error);
    }
    settled();
  };
  const onDisconnect = () => {
    gone = new PrimaryGoneError();
    for (const id of [...inFlight.keys()]) fail(id, gone);
  };
  process.on("message", onMessage);
  process.once("disconnect", onDisconnect);

  return {
    append(wire) {
      if (closed) return Promise.reject(new StoreClosedError());
      if (gone) return Promise.reject(gone);
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
      if (inFlight.size > 0) await new Promise<void>((resolve) => whenIdle.push(resolve));
      process.off("message", onMessage);
      process.off("disconnect", onDisconnect);
    },
  };
}
