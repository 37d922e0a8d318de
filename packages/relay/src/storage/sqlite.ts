import Database from "better-sqlite3";
import type { Statement } from "better-sqlite3";
import { messageJson, type AcceptedMessage } from "../message.js";
import { latestSchemaVersion, migrate } from "./sqlite-migrations.js";
import { ID_CEILING, type AppendResult, type MailboxRange, type MessageStore, type Page, type PageQuery, type StoredMessage } from "./store.js";

const SIDE = { received: 1, sent: 2 } as const;
const TS_CEILING = Number.MAX_SAFE_INTEGER;

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
}

const addressBytes = (address: string) => Buffer.from(address.slice(2), "hex");
const addressHex = (bytes: Buffer) => `0x${bytes.toString("hex")}`;

interface PendingAppend {
  message: AcceptedMessage;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

/**
 * The SQLite message store: WAL, one file, safe to open from several processes (the relay's
 * workers). Appends that arrive in the same event-loop turn share one transaction and one fsync
 * (group commit), so durability costs one disk flush per burst rather than per message.
 */
export function openSqliteStore(options: SqliteStoreOptions): MessageStore {
  const db = new Database(options.file);
  db.pragma("busy_timeout = 10000");
  if (db.pragma("page_size", { simple: true }) !== 8192 && db.pragma("schema_version", { simple: true }) === 0) {
    db.pragma("page_size = 8192"); // only possible before the first table exists
  }
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${options.synchronous === "normal" ? "NORMAL" : "FULL"}`);
  if (options.migrate !== false) migrate(db);
  const version = (db.prepare("SELECT max(version) AS v FROM schema_migrations").get() as { v: number | null }).v ?? 0;
  if (version > latestSchemaVersion) {
    db.close();
    throw new Error(`${options.file} has schema version ${version}, newer than this relay's ${latestSchemaVersion}; upgrade the relay`);
  }

  const findByDigest = db.prepare<[Buffer], { id: number }>("SELECT id FROM messages WHERE digest = ?");
  const insertMessage = db.prepare<[Buffer, Buffer, number]>("INSERT INTO messages (digest, sender, accepted_at) VALUES (?, ?, ?)");
  const insertMailbox = db.prepare<[Buffer, number, number, Buffer, number, string]>(
    "INSERT INTO mailbox (owner, side, id, peer, ts, json) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const selectJson = db.prepare<[Buffer, number, number], { json: string }>("SELECT json FROM mailbox WHERE owner = ? AND side = ? AND id = ?");
  const latestOnSide = db.prepare<[Buffer, number], { id: number; peer: Buffer }>(
    "SELECT id, peer FROM mailbox WHERE owner = ? AND side = ? ORDER BY id DESC LIMIT 1",
  );

  // One statement per query shape; the bounds are always bound (open ends as 0 / ceilings).
  const pageStatements = new Map<string, Statement<unknown[], StoredMessage>>();
  function pageStatement(withPeer: boolean, order: "asc" | "desc"): Statement<unknown[], StoredMessage> {
    const key = `${withPeer}:${order}`;
    let statement = pageStatements.get(key);
    if (!statement) {
      statement = db.prepare<unknown[], StoredMessage>(
        `SELECT id, json FROM mailbox WHERE owner = ? AND side = ?${withPeer ? " AND peer = ?" : ""}
         AND id > ? AND id < ? AND ts >= ? AND ts < ? ORDER BY id ${order === "asc" ? "ASC" : "DESC"} LIMIT ?`,
      );
      pageStatements.set(key, statement);
    }
    return statement;
  }

  const appendAll = db.transaction((batch: readonly AcceptedMessage[]): AppendResult[] =>
    batch.map((message) => {
      const existing = findByDigest.get(Buffer.from(message.digest));
      if (existing) {
        const row = selectJson.get(addressBytes(message.from), SIDE.sent, existing.id);
        if (!row) throw new Error(`message ${existing.id} is missing from its sender's mailbox`);
        return { stored: { id: existing.id, json: row.json }, created: false };
      }
      const from = addressBytes(message.from);
      const to = addressBytes(message.to);
      const id = Number(insertMessage.run(Buffer.from(message.digest), from, Date.now()).lastInsertRowid);
      const json = messageJson(id, message);
      insertMailbox.run(to, SIDE.received, id, from, message.timestamp, json);
      insertMailbox.run(from, SIDE.sent, id, to, message.timestamp, json);
      return { stored: { id, json }, created: true };
    }),
  );

  let pending: PendingAppend[] = [];
  let flushScheduled = false;
  let closed = false;

  function flush(): void {
    flushScheduled = false;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    try {
      const results = appendAll.immediate(batch.map((entry) => entry.message));
      batch.forEach((entry, i) => entry.resolve(results[i]!));
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }

  function readRange(query: PageQuery, range: MailboxRange, owner: Buffer): StoredMessage[] {
    const bounds = [
      query.after ?? 0,
      query.before ?? ID_CEILING,
      query.since ?? 0,
      query.until ?? TS_CEILING,
      query.limit + 1,
    ];
    const statement = pageStatement(range.peer !== undefined, query.order);
    return range.peer !== undefined
      ? statement.all(owner, SIDE[range.side], addressBytes(range.peer), ...bounds)
      : statement.all(owner, SIDE[range.side], ...bounds);
  }

  return {
    kind: "sqlite",

    append(message) {
      if (closed) return Promise.reject(new Error("store is closed"));
      return new Promise<AppendResult>((resolve, reject) => {
        pending.push({ message, resolve, reject });
        if (!flushScheduled) {
          flushScheduled = true;
          setImmediate(flush);
        }
      });
    },

    async page(query): Promise<Page> {
      const owner = addressBytes(query.owner);
      let rows: StoredMessage[];
      if (query.ranges.length === 1) {
        rows = readRange(query, query.ranges[0]!, owner);
      } else {
        // Each range yields at most limit+1 rows in walk order; merging them keeps the first limit+1 overall.
        const seen = new Set<number>();
        rows = query.ranges
          .flatMap((range) => readRange(query, range, owner))
          .filter((row) => !seen.has(row.id) && seen.add(row.id))
          .sort(query.order === "asc" ? (a, b) => a.id - b.id : (a, b) => b.id - a.id)
          .slice(0, query.limit + 1);
      }
      const end = rows.length <= query.limit;
      if (!end) rows.length = query.limit;
      return { messages: rows, end };
    },

    async latestPeer(owner) {
      const key = addressBytes(owner);
      const received = latestOnSide.get(key, SIDE.received);
      const sent = latestOnSide.get(key, SIDE.sent);
      const latest = !sent || (received && received.id > sent.id) ? received : sent;
      return latest && addressHex(latest.peer);
    },

    async close() {
      if (closed) return;
      closed = true;
      flush();
      db.close();
    },
  };
}
