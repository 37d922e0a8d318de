import { Worker } from "node:worker_threads";
import type { WireMessageFields } from "@neutral/protocol";
import { errorFromWire, StoreClosedError, WriterStoppedError, type WireErrorInfo } from "../errors.js";
import { openAppendBatches } from "./sqlite-append-batch.js";
import type { SignedReceipts } from "./receipt-signer.js";
import { createThreadControl, stopAtExit } from "./thread-guard.js";
import { startWalCheckpointer, type WalCheckpointer } from "./wal-checkpointer.js";

/** An append as a writer gets it: plain strings (cheap to post to a thread or another process). */
export interface WireAppend {
  /** The EIP-712 digest as hex. */
  digest: string;
  from: string;
  to: string;
  timestamp: number;
  /**
   * The wire JSON minus its id: `messageJson(id, message)` is `{"id":"<id>"` + this. Absent: the
   * writer makes it from `fields`, signing the receipts they lack over the positions the copies take
   * (receipt-signer.js), and answers the JSON with the id.
   */
  tail?: string;
  /** Without `tail`: the message, without the receipts this node signs (a delivery's keeps its sender's node's). */
  fields?: WireAppendFields;
  /** Federation: "out", to the node `destination` (0x hex; the sender's row and the outbox); "in", delivered here (the recipient's row). Absent: local. */
  route?: "out" | "in";
  destination?: string;
  /** With "out": the outbox lane (store.ts `laneOf`). */
  lane?: number;
  /** "requests": the recipient's row goes into its requests folder (and the sender's keeps the JSON). */
  folder?: "requests";
  /** The sender's end for the message, ms: the sweep deletes it then. */
  expires?: number;
}

/** A message's fields as the writer takes them when it signs their receipts itself. */
export type WireAppendFields = Omit<WireMessageFields, "senderReceipt"> & { senderReceipt?: string | undefined };

/**
 * A delivery's end (federation/deliverer.ts), committed by the writer with the appends so that the
 * deliverer never holds the write lock itself: the outbox entry `id` goes, and if it was there the
 * sender's copy gets `json`. Answered 0.
 */
export interface WireSettle {
  settle: { id: number; sender: string; json: string };
}

/**
 * An owner deleting its copies of messages (`neutralService_deleteMessages`), committed by the
 * writer with the appends. Answered the ids among them still pending delivery to another node: if
 * there are any, nothing was deleted.
 */
export interface WireRemove {
  /** `request`: the account's signed `DeletionRequest` as JSON, kept for each position it removes (schema version 12); `seqs`: only the copies at these positions. */
  remove: { owner: string; ids: number[]; request?: string; seqs?: number[] };
}

/**
 * One step of the retention sweep's pass over the (up to) `limit` oldest messages, all with an id
 * below `below` (every copy and trace). The first step plans the pass (`below` and `limit` of later
 * steps are ignored until it is done); each step is a transaction of its own. Answered
 * `{ deleted, done }`: the pass's message count once `done`, else 0.
 */
export interface WireSweep {
  /** `rememberFrom`: the pass keeps the digests of its messages stored at or after this time, ms, and forgets those stored before (schema version 10). */
  sweep: { below: number; limit: number; rememberFrom: number; /** The retention the pass removes by, seconds: the floor keeps the least (schema version 16). */ retentionSeconds?: number };
}

/** The sweep of sender-set ends: deletes up to `limit` messages whose `expires` is at most `now` (every copy). Answered how many it deleted. */
export interface WireSweepExpiring {
  sweepExpiring: { now: number; limit: number };
}

/**
 * An account importing messages of its own history into its mailbox (`neutralService_importMessages`),
 * in one transaction. Answered `{ imported }`: each message's id, the account's JSON of it, and
 * whether the account's copy is new.
 */
export interface WireImport {
  import: { owner: string; entries: (Pick<WireAppend, "digest" | "from" | "to" | "timestamp" | "expires"> & { tail: string })[] };
}

/** Everything a writer commits. */
export type WireEntry = WireAppend | WireSettle | WireRemove | WireSweep | WireSweepExpiring | WireImport;

/**
 * What a writer answers per entry: an append's new id; an append whose receipts it signed, its JSON
 * and those receipts (`signed`: with the append's `fields`, all the JSON is made of); the stored
 * original of a resend; a removal's pending ids; a sweep step's progress, a sender-set sweep's count.
 */
export type WireResult =
  | number
  | { id: number; json: string; created?: boolean; signed?: SignedReceipts }
  | { pending: number[] }
  | { imported: { id: number; json: string; created: boolean }[] }
  | { deleted: number; done: boolean };

/** Where a SQLite store's appends go to be committed. */
export interface AppendWriter {
  /** Resolves once the append's transaction has committed (durably, with `synchronous=FULL`). */
  append(wire: WireEntry): Promise<WireResult>;
  /** Resolves once every append made so far has been answered and the writer has let go of the database. */
  close(): Promise<void>;
}

export interface SqliteWriterOptions {
  file: string;
  synchronous: "FULL" | "NORMAL";
  /** SQLite's `cache_size` for the writer's connection (negative: KiB). */
  cacheSize?: number;
  /** The writer checkpoints by itself once the WAL holds this many pages. */
  walFallbackPages: number;
  /** Run a background checkpointer beside the writer (default true). */
  checkpointer?: boolean;
  onCheckpointError?: (error: Error) => void;
  /** The node's key: signs the receipts of appends given `fields` (not `tail`), bound to their positions. */
  receiptKey?: Uint8Array;
}

/** The statements the writer thread prepares, and the side numbers of the mailbox table. */
export interface WriterSchema {
  sql: {
    findByDigest: string;
    logAccount: string;
    insertLogAccount: string;
    lastLogged: string;
    newestOnSide: string;
    unloggedOnSide: string;
    insertPosition: string;
    selectLeaves: string;
    selectTiles: string;
    insertTile: string;
    findOriginal: string;
    rememberSwept: string;
    forgetSwept: string;
    insertMessage: string;
    deleteMailbox: string;
    deletePair: string;
    selectMessage: string;
    selectExpired: string;
    deleteMessage: string;
    insertExpiry: string;
    selectSenderExpired: string;
    deleteExpiry: string;
    deleteExpiryBelow: string;
    insertExpiredMessage: string;
    raiseRetentionFloor: string;
    deleteMailboxBelow: string;
    deletePairBelow: string;
    deleteOutboxBelow: string;
    deleteMessagesBelow: string;
    insertPairIfMissing: string;
    insertMailbox: string;
    insertPair: string;
    insertOutbox: string;
    selectJson: string;
    deleteOutbox: string;
    updateSent: string;
    selectCopySeq: string;
    insertDeletionRequest: string;
    insertRemoval: string;
  };
  sides: { received: number; sent: number; requests: number };
  /** `MESSAGE_JSON_ID_HEAD` of @neutral/protocol: the writer completes a message's JSON with its new id. */
  idHead: string;
  /** The mailbox log's tile height (mailbox-log/tree.ts `TILE_HEIGHT`): the writer keeps every whole tile. */
  tileHeight: number;
}

interface PendingAppend {
  wire: WireEntry;
  resolve: (result: WireResult) => void;
  reject: (error: unknown) => void;
}

/** The appends not yet handed to SQLite. The first of an event-loop turn schedules `flush` for the turn's end. */
class PendingAppends {
  private entries: PendingAppend[] = [];
  private scheduled = false;

  constructor(private readonly flush: () => void) {}

  get size(): number {
    return this.entries.length;
  }

  add(wire: WireEntry): Promise<WireResult> {
    return new Promise<WireResult>((resolve, reject) => {
      this.entries.push({ wire, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    });
  }

  /** Everything pending, as one batch. */
  take(): PendingAppend[] {
    const batch = this.entries;
    this.entries = [];
    return batch;
  }
}

type WriterReply = { results: WireResult[] } | { error: WireErrorInfo };

const batchOptions = (options: SqliteWriterOptions, schema: WriterSchema) => ({
  file: options.file,
  synchronous: options.synchronous,
  ...(options.cacheSize !== undefined && { cacheSize: options.cacheSize }),
  walAutocheckpoint: options.walFallbackPages,
  ...(options.receiptKey !== undefined && { receiptKey: options.receiptKey }),
  ...schema,
});

/**
 * Batches posted to the writer thread at once. With two, the thread starts the next batch as soon as
 * it has committed one, instead of waiting for this thread to take the answer and post more.
 */
const MAX_IN_FLIGHT = 2;

/**
 * The group-committing writer: a thread with its own connection (started at the first append, so
 * the event loop keeps serving while a transaction commits and fsyncs) and, beside it, a WAL
 * checkpointer thread. Appends arriving while the thread is busy (or in the same event-loop turn)
 * form the next batch: one transaction and one fsync per burst. One writer per database file:
 * several would take turns at SQLite's single write lock, each with smaller batches.
 */
export function startSqliteWriter(options: SqliteWriterOptions, schema: WriterSchema): AppendWriter {
  const pending = new PendingAppends(flush);
  // Batches posted to the thread and not yet answered, oldest first (it answers them in order).
  const inFlight: PendingAppend[][] = [];
  let closed = false;
  let closing: Promise<void> | undefined;
  let thread: Worker | undefined;
  let checkpointer: WalCheckpointer | undefined;
  let whenIdle: (() => void)[] = [];

  function startThread(): Worker {
    // Until the thread has exited, this process's exit waits for it to leave SQLite (thread-guard.js).
    const control = createThreadControl();
    const worker = new Worker(new URL("./sqlite-writer.js", import.meta.url), { workerData: { ...batchOptions(options, schema), control } });
    const release = stopAtExit(control, worker);
    worker.on("message", (reply: WriterReply) => settle(reply));
    worker.on("error", () => {}); // the exit that follows rejects what was in flight
    worker.on("exit", () => {
      release();
      if (thread === worker) thread = undefined;
      const lost = inFlight.splice(0);
      if (lost.length === 0) return;
      const error = new WriterStoppedError();
      for (const entry of lost.flat()) entry.reject(error);
      if (pending.size > 0) flush(); // on a new thread
      if (inFlight.length === 0) becameIdle();
    });
    return worker;
  }

  function settle(reply: WriterReply): void {
    const batch = inFlight.shift() ?? [];
    if ("error" in reply) {
      const error = errorFromWire(reply.error);
      for (const entry of batch) entry.reject(error);
    } else {
      batch.forEach((entry, i) => entry.resolve(reply.results[i]!));
    }
    if (pending.size > 0) flush();
    if (inFlight.length === 0) becameIdle();
  }

  function becameIdle(): void {
    thread?.unref(); // an idle writer never keeps the process alive
    const waiting = whenIdle;
    whenIdle = [];
    for (const resolve of waiting) resolve();
  }

  /** Sends what is pending as one batch, unless MAX_IN_FLIGHT batches are posted already (it follows them). */
  function flush(): void {
    if (inFlight.length >= MAX_IN_FLIGHT || pending.size === 0) return;
    const batch = pending.take();
    inFlight.push(batch);
    try {
      thread ??= startThread();
      if (options.checkpointer !== false) checkpointer ??= startWalCheckpointer(options.file, { onError: options.onCheckpointError });
      thread.ref();
      thread.postMessage(batch.map((entry) => entry.wire));
    } catch (error) {
      inFlight.splice(inFlight.indexOf(batch), 1);
      for (const entry of batch) entry.reject(error);
      if (inFlight.length === 0) becameIdle();
    }
  }

  return {
    append(wire) {
      return closed ? Promise.reject(new StoreClosedError()) : pending.add(wire);
    },

    close() {
      // Every caller waits for the same shutdown, however many times close() is called.
      closing ??= (async () => {
        closed = true;
        flush();
        if (inFlight.length > 0) await new Promise<void>((resolve) => whenIdle.push(resolve));
        await checkpointer?.stop();
        const worker = thread;
        thread = undefined;
        if (worker) {
          const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
          worker.ref(); // it was unref'd when idle; keep the process alive until it has closed the database
          worker.postMessage("close");
          await exited;
        }
      })();
      return closing;
    },
  };
}

/**
 * The group-committing writer on the calling thread, for a process whose event loop does nothing
 * but commit: the relay's cluster primary, whose workers serve the requests. Each batch commits
 * synchronously (the event loop waits for it); the appends that arrive meanwhile form the next
 * batch. Against {@link startSqliteWriter} it saves the thread (a V8 isolate, ~8 MB) and the
 * hand-off of every batch to it and back. Where the event loop serves requests, use the thread.
 */
export function startInlineSqliteWriter(options: SqliteWriterOptions, schema: WriterSchema): AppendWriter {
  const pending = new PendingAppends(flush);
  let closed = false;
  let closing: Promise<void> | undefined;
  let batches: ReturnType<typeof openAppendBatches> | undefined;
  let checkpointer: WalCheckpointer | undefined;

  function flush(): void {
    const batch = pending.take();
    if (batch.length === 0) return;
    let results: WireResult[];
    try {
      batches ??= openAppendBatches(batchOptions(options, schema));
      if (options.checkpointer !== false) checkpointer ??= startWalCheckpointer(options.file, { onError: options.onCheckpointError });
      results = batches.run(batch.map((entry) => entry.wire));
    } catch (error) {
      for (const entry of batch) entry.reject(error);
      return;
    }
    batch.forEach((entry, i) => entry.resolve(results[i]!));
  }

  return {
    append(wire) {
      return closed ? Promise.reject(new StoreClosedError()) : pending.add(wire);
    },

    close() {
      closing ??= (async () => {
        closed = true;
        flush();
        await checkpointer?.stop();
        batches?.close();
        batches = undefined;
      })();
      return closing;
    },
  };
}
