import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import type { Statement, Transaction } from "better-sqlite3";
import { messageIdOf, messageJsonTail, messageJsonWithId, type AcceptedMessage } from "../message.js";
import { latestSchemaVersion, migrate } from "./sqlite-migrations.js";
import {
  ID_CEILING,
  mergeRanges,
  pageOf,
  type AppendResult,
  type MailboxRange,
  type MessageStore,
  type Page,
  type PageQuery,
  type StoredMessage,
} from "./store.js";
import { addressBytes, bytesHex, hexBytes, keyBundleOf, type KeyBundleRow } from "./columns.js";

const SIDE = { received: 1, sent: 2 } as const;

/** The database's file name in a relay's data dir. */
export const DATABASE_FILE = "neutral.sqlite";

export interface SqliteStoreOptions {
  /** The database file; created (with its schema) if missing. */
  file: string;
  /**
   * `full` (default) fsyncs the WAL at every commit: an acknowledged send survives power loss.
   * `normal` survives a crash of the process but not of the machine.
   */
  synchronous?: "full" | "normal";
  /** Apply pending migrations (default true). A process that knows another already did may skip it. */
  migrate?: boolean;
  /** SQLite page cache of each of the store's connections (reader, writer), KiB (default: SQLite's 2 MiB). Bulk loads want more. */
  cacheSizeKiB?: number;
}


/** An append as the writer thread gets it: plain strings (cheap to post), the wire JSON minus its id. */
interface WireAppend {
  /** The digest as hex. */
  digest: string;
  from: string;
  to: string;
  timestamp: number;
  /** `messageJson(id, message)` is `{"id":"<id>"` + this. */
  tail: string;
}

/** What the writer answers per append: the new id, or the stored original of a resend. */
type WireResult = number | { id: number; json: string };

interface PendingAppend {
  wire: WireAppend;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

const SQL = {
  findByDigest: "SELECT id FROM messages WHERE digest = ?",
  insertMessage: "INSERT INTO messages (digest, sender, accepted_at) VALUES (?, ?, ?)",
  insertMailbox: "INSERT INTO mailbox (owner, side, id, peer, ts, json) VALUES (?, ?, ?, ?, ?, ?)",
  selectJson: "SELECT json FROM mailbox WHERE owner = ? AND side = ? AND id = ?",
};



const KEY_SQL = {
  select: "SELECT key, ts, signature FROM key_bundles WHERE account = ?",
  // The newer-timestamp-wins rule, as one statement (run inside an IMMEDIATE transaction).
  upsert:
    "INSERT INTO key_bundles (account, key, ts, signature, updated_at) VALUES (?, ?, ?, ?, ?) " +
    "ON CONFLICT (account) DO UPDATE SET key = excluded.key, ts = excluded.ts, signature = excluded.signature, updated_at = excluded.updated_at " +
    "WHERE excluded.ts > key_bundles.ts",
};

/**
 * The writer checkpoints the WAL into the database once it holds this many pages (SQLite's
 * default: 1000). Each append dirties a few random B-tree pages; a longer WAL lets a checkpoint
 * write a page changed by many commits once, and runs the checkpoint's fsync less often.
 */
const WAL_AUTOCHECKPOINT_PAGES = 8192;


/**
 * The SQLite message store: WAL, one file, safe to open from several processes (the relay's
 * workers). Writes run on a writer thread with its own connection (started at the first append),
 * so the event loop keeps serving while a transaction commits and fsyncs. Appends arriving while
 * a commit is in flight (or in the same event-loop turn) form the next batch: one transaction and
 * one fsync per burst (group commit). Reads use this thread's connection and see every
 * acknowledged append.
 *
 * Key bundles are written rarely: synchronously, on this thread's connection, each in its own
 * IMMEDIATE transaction (the busy timeout waits out a writer holding the lock, this process's
 * writer thread or another process's), which also holds the timestamp comparison.
 */
export function openSqliteStore(options: SqliteStoreOptions): MessageStore {
  if (options.file === "" || options.file === ":memory:") throw new Error("the SQLite store needs a file: its writer thread opens it too");
  const db = new Database(options.file);
  db.pragma("busy_timeout = 10000");
  if (db.pragma("page_size", { simple: true }) !== 8192 && db.pragma("schema_version", { simple: true }) === 0) {
    db.pragma("page_size = 8192"); // only possible before the first table exists
  }
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${options.synchronous === "normal" ? "NORMAL" : "FULL"}`);
  const cacheSize = options.cacheSizeKiB === undefined ? undefined : -Math.max(64, Math.floor(options.cacheSizeKiB));
  if (cacheSize !== undefined) db.pragma(`cache_size = ${cacheSize}`);
  if (options.migrate !== false) migrate(db);
  const version = (db.prepare("SELECT max(version) AS v FROM schema_migrations").get() as { v: number | null }).v ?? 0;
  if (version > latestSchemaVersion) {
    db.close();
    throw new Error(`${options.file} has schema version ${version}, newer than this relay's ${latestSchemaVersion}; upgrade the relay`);
  }

  const latestOnSide = db.prepare<[Buffer, number], { id: number; peer: Buffer }>(
    "SELECT id, peer FROM mailbox WHERE owner = ? AND side = ? ORDER BY id DESC LIMIT 1",
  );

  // One statement per query shape; the id bounds are always bound (open ends as 0 / ceiling), the
  // timestamp bounds only when given (ts is not in the key: testing it costs a column decode per row).
  // A peer's messages are read through mailbox_by_peer: the primary key would have to step over
  // every other message of the mailbox.
  // Only the JSON column is read (`pluck`): building a {id, json} object per row in better-sqlite3
  // costs more than reading the id back out of the JSON's fixed prefix.
  const pageStatements = new Map<string, Statement<unknown[], string>>();
  function pageStatement(withPeer: boolean, since: boolean, until: boolean, order: "asc" | "desc"): Statement<unknown[], string> {
    const key = `${withPeer}:${since}:${until}:${order}`;
    let statement = pageStatements.get(key);
    if (!statement) {
      statement = db.prepare<unknown[], string>(
        `SELECT json FROM mailbox${withPeer ? " INDEXED BY mailbox_by_peer" : ""} WHERE owner = ? AND side = ?${withPeer ? " AND peer = ?" : ""}
         AND id > ? AND id < ?${since ? " AND ts >= ?" : ""}${until ? " AND ts < ?" : ""} ORDER BY id ${order === "asc" ? "ASC" : "DESC"} LIMIT ?`,
      ).pluck();
      pageStatements.set(key, statement);
    }
    return statement;
  }

  // Prepared at first use: a process that never touches the key directory prepares nothing for it.
  let keyDirectory: { select: Statement<[Buffer], KeyBundleRow>; put: Transaction<(row: [Buffer, Buffer, number, Buffer]) => KeyBundleRow> } | undefined;
  function keys(): NonNullable<typeof keyDirectory> {
    if (!keyDirectory) {
      const select = db.prepare<[Buffer], KeyBundleRow>(KEY_SQL.select);
      const upsert = db.prepare<[Buffer, Buffer, number, Buffer, number]>(KEY_SQL.upsert);
      const put = db.transaction(([account, key, ts, signature]: [Buffer, Buffer, number, Buffer]) => {
        upsert.run(account, key, ts, signature, Date.now());
        return select.get(account)!;
      });
      keyDirectory = { select, put };
    }
    return keyDirectory;
  }

  let pending: PendingAppend[] = [];
  let inFlight: PendingAppend[] | undefined;
  let flushScheduled = false;
  let closed = false;
  let closing: Promise<void> | undefined;
  let writer: Worker | undefined;
  let whenIdle: (() => void)[] = [];

  function startWriter(): Worker {
    const worker = new Worker(new URL("./sqlite-writer.js", import.meta.url), {
      workerData: { file: options.file, synchronous: options.synchronous === "normal" ? "NORMAL" : "FULL", cacheSize, walAutocheckpoint: WAL_AUTOCHECKPOINT_PAGES, sql: SQL, sides: SIDE },
    });
    worker.on("message", (reply: { results: WireResult[] } | { error: { message: string; code?: string } }) => settle(reply));
    worker.on("error", () => {}); // the exit that follows rejects what was in flight
    worker.on("exit", () => {
      if (writer === worker) writer = undefined;
      if (inFlight) settle({ error: { message: "the SQLite writer thread stopped" } });
    });
    return worker;
  }

  function settle(reply: { results: WireResult[] } | { error: { message: string; code?: string } }): void {
    const batch = inFlight ?? [];
    inFlight = undefined;
    if ("error" in reply) {
      const error = Object.assign(new Error(reply.error.message), reply.error.code === undefined ? {} : { code: reply.error.code });
      for (const entry of batch) entry.reject(error);
    } else {
      batch.forEach((entry, i) => {
        const result = reply.results[i]!;
        entry.resolve(
          typeof result === "number"
            ? { stored: { id: result, json: messageJsonWithId(result, entry.wire.tail) }, created: true }
            : { stored: result, created: false },
        );
      });
    }
    if (pending.length > 0) flush();
    if (!inFlight) {
      writer?.unref(); // an idle writer never keeps the process alive
      const waiting = whenIdle;
      whenIdle = [];
      for (const resolve of waiting) resolve();
    }
  }

  /** Sends what is pending as one batch, unless a batch is still committing (it follows that one). */
  function flush(): void {
    flushScheduled = false;
    if (inFlight || pending.length === 0) return;
    inFlight = pending;
    pending = [];
    try {
      writer ??= startWriter();
      writer.ref();
      writer.postMessage(inFlight.map((entry) => entry.wire));
    } catch (error) {
      settle({ error: { message: error instanceof Error ? error.message : String(error) } });
    }
  }

  function readRange(query: PageQuery, range: MailboxRange, owner: Buffer): StoredMessage[] {
    const { since, until } = query;
    const statement = pageStatement(range.peer !== undefined, since !== undefined, until !== undefined, query.order);
    const args: unknown[] = [owner, SIDE[range.side]];
    if (range.peer !== undefined) args.push(addressBytes(range.peer));
    args.push(query.after ?? 0, query.before ?? ID_CEILING);
    if (since !== undefined) args.push(since);
    if (until !== undefined) args.push(until);
    args.push(query.limit + 1);
    return statement.all(...args).map((json) => ({ id: messageIdOf(json), json }));
  }

  return {
    kind: "sqlite",

    append(message) {
      if (closed) return Promise.reject(new Error("store is closed"));
      const wire: WireAppend = {
        digest: Buffer.from(message.digest.buffer, message.digest.byteOffset, message.digest.byteLength).toString("hex"),
        from: message.from,
        to: message.to,
        timestamp: message.timestamp,
        tail: messageJsonTail(message),
      };
      return new Promise<AppendResult>((resolve, reject) => {
        pending.push({ wire, resolve, reject });
        if (!flushScheduled) {
          flushScheduled = true;
          setImmediate(flush);
        }
      });
    },

    async page(query): Promise<Page> {
      const owner = addressBytes(query.owner);
      return pageOf(query, mergeRanges(query, query.ranges.map((range) => readRange(query, range, owner))));
    },

    async latestPeer(owner) {
      const key = addressBytes(owner);
      const received = latestOnSide.get(key, SIDE.received);
      const sent = latestOnSide.get(key, SIDE.sent);
      const latest = !sent || (received && received.id > sent.id) ? received : sent;
      return latest && bytesHex(latest.peer);
    },

    async putKeyBundle(bundle) {
      if (closed) throw new Error("store is closed");
      const account = bundle.account.toLowerCase();
      const row: [Buffer, Buffer, number, Buffer] = [addressBytes(account), hexBytes(bundle.key, 32), bundle.timestamp, hexBytes(bundle.signature, 65)];
      return keyBundleOf(account, keys().put.immediate(row));
    },

    async getKeyBundle(account) {
      if (closed) throw new Error("store is closed");
      const row = keys().select.get(addressBytes(account));
      return row && keyBundleOf(account.toLowerCase(), row);
    },

    close() {
      // Every caller waits for the same shutdown, however many times close() is called.
      closing ??= (async () => {
        closed = true;
        flush();
        if (inFlight) await new Promise<void>((resolve) => whenIdle.push(resolve));
        const worker = writer;
        writer = undefined;
        if (worker) {
          const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
          worker.ref(); // it was unref'd when idle; keep the process alive until it has closed the database
          worker.postMessage("close");
          await exited;
        }
        db.close();
      })();
      return closing;
    },
  };
}
