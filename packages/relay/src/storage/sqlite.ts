import Database from "better-sqlite3";
import type { Statement, Transaction } from "better-sqlite3";
import { MAILBOX_ROLE_BYTE, MESSAGE_JSON_ID_HEAD, mailboxLeafHash, type WireMessageFields } from "@neutral/protocol";
import { SchemaTooNewError, StoreClosedError } from "../errors.js";
import { messageIdOf, messageJsonTail, messageJsonWithId, signsReceipts, type AcceptedMessage } from "../message.js";
import { latestSchemaVersion, migrate } from "./sqlite-migrations.js";
import { TILE_HEIGHT } from "../mailbox-log/tree.js";
import { nativeSha256 } from "../crypto/sha256.js";
import {
  DEFAULT_MAX_SCAN,
  DEFAULT_SWEPT_DIGESTS_MS,
  ID_CEILING,
  laneOf,
  pageOfRanges,
  RetentionFloor,
  type AppendResult,
  type ConsentVerdict,
  type FreshMessage,
  type StoredConsentPolicy,
  type StoredConsentRecord,
  type RangeRead,
  type MailboxRange,
  type LogEntry,
  type MessageStore,
  type Page,
  type PageQuery,
  type StoredMessage,
} from "./store.js";
import {
  addressBytes,
  bytesHex,
  logEntryOf,
  type LogRow,
  hexBytes,
  homeRecordOf,
  keyBundleOf,
  OUTBOX_COLUMNS,
  OUTBOX_DESTINATIONS_SQL,
  outboxDestinationOf,
  outboxEntryOf,
  SIDE,
  CONSENT_MODE,
  CONSENT_STATE,
  consentPolicyOf,
  consentRecordOf,
  consentVerdictOf,
  type ConsentRow,
  type PolicyRow,
  type DestinationRow,
  type HomeRow,
  type KeyBundleRow,
  type OutboxRow,
} from "./columns.js";
import { startInlineSqliteWriter, startSqliteWriter, type AppendWriter, type WireAppend, type WriterSchema } from "./sqlite-append-writer.js";
import { reclaimDue } from "./sqlite-append-batch.js";


type Walk = "received" | "sent" | "requests" | "pairsReceived" | "pairsSent" | "pairsRequests";

/** A position not in `mailbox_log` yet, as a log page's row with what its leaf is hashed from (schema version 17). */
type UnloggedRow = Omit<LogRow, "leaf"> & { peer: Buffer; digest: Buffer };
/** A copy's position: its leaf from `mailbox_log`, or (not logged yet) what it is hashed from. */
type CopyRow = Pick<LogRow, "seq" | "id"> & { side: number; leaf: Buffer | null };

/** How a page reads one walk: its rows (the parameters: owner and side, or sender and recipient, then the exclusive id bounds), and its id, timestamp and JSON columns. */
interface WalkSql {
  from: string;
  id: string;
  ts: string;
  json: string;
}

/**
 * The rows a page walks: a side of the owner's mailbox by the primary key, or a peer's messages
 * found in `pairs` (the primary key would have to step over every other message of the mailbox),
 * each then read from the owner's mailbox by its id (CROSS JOIN keeps pairs the outer loop, so
 * the walk is pairs' keyset order).
 *
 * A message's JSON is in its recipient's row; a sent row has none since schema version 5 (rows
 * stored before keep theirs), except a message to another node (schema version 6), whose only
 * copy here is the sender's row, with its JSON. So a walk of the sent side reads the sender's row
 * (it must be there: a message delivered from another node has only its recipient's) and, where
 * that has no JSON, the recipient's.
 */
const SENT_JSON = `CASE WHEN m.json <> '' THEN m.json ELSE (SELECT r.json FROM mailbox AS r WHERE r.owner = m.peer AND r.side = ${SIDE.received} AND r.id = m.id) END`;
/** A side of the owner's mailbox whose rows hold their JSON (the inbox, the requests folder). */
const OWN_ROWS: WalkSql = { from: "FROM mailbox AS m WHERE m.owner = ? AND m.side = ? AND m.id > ? AND m.id < ?", id: "m.id", ts: "m.ts", json: "m.json" };
/** The messages one sender sent one recipient, read from the recipient's rows on `side` (they hold the JSON). */
const recipientRowsOfPair = (side: number): WalkSql => ({
  from: `FROM pairs AS p CROSS JOIN mailbox AS m WHERE p.sender = ? AND p.recipient = ? AND p.id > ? AND p.id < ?
       AND m.owner = p.recipient AND m.side = ${side} AND m.id = p.id`,
  id: "p.id",
  ts: "m.ts",
  json: "m.json",
});
const WALKS: Record<Walk, WalkSql> = {
  received: OWN_ROWS,
  requests: OWN_ROWS,
  pairsRequests: recipientRowsOfPair(SIDE.requests),
  sent: { from: "FROM mailbox AS m WHERE m.owner = ? AND m.side = ? AND m.id > ? AND m.id < ?", id: "m.id", ts: "m.ts", json: SENT_JSON },
  pairsReceived: recipientRowsOfPair(SIDE.received),
  pairsSent: {
    from: `FROM pairs AS p CROSS JOIN mailbox AS m WHERE p.sender = ? AND p.recipient = ? AND p.id > ? AND p.id < ?
       AND m.owner = p.sender AND m.side = ${SIDE.sent} AND m.id = p.id`,
    id: "p.id",
    ts: "m.ts",
    json: SENT_JSON,
  },
};

/**
 * The position of the owner's copy a row is, for a page that proves itself: none for a message to
 * oneself, whose other copy the page may not have read (its proof then looks both up).
 */
const OWN_COPY_SEQ = "CASE WHEN m.peer <> m.owner THEN m.seq END";

/** Which walk reads a range. */
const PAIR_WALKS = { received: "pairsReceived", sent: "pairsSent", requests: "pairsRequests" } as const;
const walkOf = (range: MailboxRange): Walk => (range.peer === undefined ? range.side : PAIR_WALKS[range.side]);

/**
 * A read row as a stored message. A sent row's JSON comes from its recipient's row (schema 5); were
 * that row ever missing, fail the page plainly rather than hand out a message with id 0 and no body.
 */
function storedOf(json: unknown, seq: number | null, range: MailboxRange, owner: string): StoredMessage {
  if (typeof json !== "string" || json === "") throw new Error(`a stored ${range.side} message has no JSON in ${owner}'s mailbox`);
  return { id: messageIdOf(json), json, ...(seq !== null && { copies: [{ seq, role: range.side === "sent" ? "sent" : "received" }] }) };
}

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
  /** SQLite page cache of each of the store's connections, KiB (default: the reader {@link DEFAULT_CACHE_KIB}, its own writer {@link WRITER_CACHE_KIB}). Bulk loads want more. */
  cacheSizeKiB?: number;
  /**
   * Where appends are committed. Default: a writer thread of the store's own, with a WAL
   * checkpointer thread beside it (`startSqliteWriter`). The relay's workers share their primary's
   * writer instead (`topology/cluster/writer.ts`): one writer per database commits bigger batches.
   */
  writer?: AppendWriter;
  /**
   * The node's key, for the store's own writer: it signs the receipts of the messages it stores over
   * their copies' positions (`AcceptedMessage`). A given `writer` signs with its own.
   */
  receiptKey?: Uint8Array;
  /** Told when the store's own writer's background checkpoint fails (not when one is merely skipped). */
  onCheckpointError?: (error: Error) => void;
  /** How long a message is served after it was stored, ms (store.ts `StoreRetention`); absent or 0: until deleted. */
  retentionMs?: number;
  /** SQLite's `mmap_size` of the store's reading connection, bytes (config.ts `DEFAULT_SQLITE_MMAP_MIB` says why); absent or 0: read calls. */
  mmapBytes?: number;
  /** How long after it was stored a swept message is still recognised (store.ts `DEFAULT_SWEPT_DIGESTS_MS`). */
  sweptDigestsMs?: number;
}

/**
 * The page cache of each connection, KiB. better-sqlite3 builds SQLite with 16 MB; on the 1M-message
 * bench store 2 MiB reads and appends as fast (pages come from the OS cache either way) and takes
 * ~14 MB less of each connection's memory. Measured: bench/HISTORY.md.
 */
export const DEFAULT_CACHE_KIB = 2048;

/**
 * The writer's page cache, KiB. The retention sweep deletes rows all over the mailbox and pairs
 * B-trees: with 2 MiB it spilled dirty pages to the WAL mid-transaction and read them back (a
 * swept message cost ~116 µs of CPU; 32 MiB alone: ~85 µs; with the sweep's passes ~40 µs: relay
 * README, "Retention and deletion"). One connection per node, so the memory is paid once.
 */
export const WRITER_CACHE_KIB = 32768;

/** SQLite's `cache_size` for a size in KiB (negative means KiB to SQLite), at least 64 KiB. */
const cacheSizePragma = (kib: number) => -Math.max(64, Math.floor(kib));

/**
 * An account's positions after the last one in `mailbox_log` (schema version 17): copies appended
 * since, each the newest of its side when it was stored, and fewer than a tile (the writer logs them
 * when they complete one, or before one goes). So they are among the newest rows of each side.
 */
const UNLOGGED_ON_SIDE = `SELECT b.seq, b.id, b.peer, m.digest FROM (SELECT seq, id, peer FROM mailbox WHERE owner = ? AND side = ? ORDER BY id DESC LIMIT ${2 ** TILE_HEIGHT}) AS b JOIN messages AS m ON m.id = b.id WHERE b.seq > ?`;

/** The last position in `mailbox_log` of the account `@owner`, or 0. */
const LAST_LOGGED = "coalesce((SELECT l.seq FROM log_accounts AS a JOIN mailbox_log AS l ON l.account = a.n WHERE a.address = @owner ORDER BY l.seq DESC LIMIT 1), 0)";
/** The position of the newest copy on a side of `@owner`'s mailbox, or 0. */
const newestSeqOnSide = (side: number) => `coalesce((SELECT seq FROM mailbox WHERE owner = @owner AND side = ${side} ORDER BY id DESC LIMIT 1), 0)`;
/** A mailbox row's role byte (@neutral/protocol `MAILBOX_ROLE_BYTE`): a received copy is in the inbox or the requests folder. */
const ROLE_OF_SIDE = `CASE b.side WHEN ${SIDE.sent} THEN ${MAILBOX_ROLE_BYTE.sent} ELSE ${MAILBOX_ROLE_BYTE.received} END`;

/** What the writer runs (exported for the query-plan tests). */
export const WRITER_SCHEMA: WriterSchema = {
  sql: {
    // A resend has its original's timestamp (the digest covers it): (ts, digest) finds it, and new
    // entries land at the end of messages_by_time rather than at a random place (schema version 4).
    findByDigest: "SELECT id FROM messages WHERE ts = ? AND digest = ?",
    // An append's original: a stored message, or one the retention sweep deleted while it could
    // still arrive again (schema version 10).
    findOriginal: "SELECT id FROM messages WHERE ts = @ts AND digest = @digest UNION ALL SELECT id FROM swept_digests WHERE ts = @ts AND digest = @digest LIMIT 1",
    rememberSwept:
      "INSERT OR IGNORE INTO swept_digests (ts, digest, id, accepted_at) SELECT ts, digest, id, accepted_at FROM messages WHERE id < ? AND accepted_at >= ?",
    forgetSwept: "DELETE FROM swept_digests WHERE accepted_at < ?",
    insertMessage: "INSERT INTO messages (ts, digest, sender, accepted_at, recipient) VALUES (?, ?, ?, ?, ?)",
    deleteMailbox: "DELETE FROM mailbox WHERE owner = ? AND side = ? AND id = ?",
    deletePair: "DELETE FROM pairs WHERE sender = ? AND recipient = ? AND id = ?",
    selectMessage: "SELECT sender, recipient FROM messages WHERE id = ?",
    // The retention pass's messages, their addresses in hex: the pass groups them by string key
    // (sqlite-append-batch.js `planPass`), and two Buffers per row cost more than the strings.
    selectExpired: "SELECT id, hex(sender), iif(recipient IS NULL, NULL, hex(recipient)) FROM messages WHERE id < ? ORDER BY id LIMIT ?",
    deleteMessage: "DELETE FROM messages WHERE id = ?",
    insertExpiry: "INSERT INTO message_expiry (id, expires) VALUES (?, ?)",
    selectSenderExpired: "SELECT e.id, m.sender, m.recipient FROM message_expiry AS e JOIN messages AS m ON m.id = e.id WHERE e.expires <= ? ORDER BY e.expires LIMIT ?",
    // What the log keeps of a message its sender's end removed, and the retention sweep's floor (schema version 13).
    insertExpiredMessage: "INSERT OR IGNORE INTO expired_messages (id, sender, recipient, ts, expires, message_hash) VALUES (?, ?, ?, ?, ?, ?)",
    // The least retention the floor was raised under (schema version 16); unknown (NULL) stays unknown.
    raiseRetentionFloor:
      "INSERT INTO retention_floor (n, below, retention_seconds) VALUES (1, ?, ?) ON CONFLICT (n) DO UPDATE SET below = max(below, excluded.below), " +
      "retention_seconds = CASE WHEN retention_floor.retention_seconds IS NULL THEN NULL ELSE min(retention_floor.retention_seconds, excluded.retention_seconds) END",
    deleteExpiry: "DELETE FROM message_expiry WHERE id = ?",
    deleteExpiryBelow: "DELETE FROM message_expiry WHERE id < ?",
    // The retention sweep's ranges (below the last message it deletes).
    deleteMailboxBelow: "DELETE FROM mailbox WHERE owner = ? AND side = ? AND id < ?",
    deletePairBelow: "DELETE FROM pairs WHERE sender = ? AND recipient = ? AND id < ?",
    deleteOutboxBelow: "DELETE FROM outbox WHERE id < ?",
    deleteMessagesBelow: "DELETE FROM messages WHERE id < ?",
    insertPairIfMissing: "INSERT OR IGNORE INTO pairs (sender, recipient, id) VALUES (?, ?, ?)",
    insertMailbox: "INSERT INTO mailbox (owner, side, id, peer, ts, json, seq) VALUES (?, ?, ?, ?, ?, ?, ?)",
    // The verifiable mailbox (schema version 11): a copy's position is the owner's last one plus
    // one, read and written in the append's own IMMEDIATE transaction (one writer at a time). The
    // log is keyed by the owner's number in `log_accounts`, given at its first copy.
    logAccount: "SELECT n FROM log_accounts WHERE address = ?",
    insertLogAccount: "INSERT INTO log_accounts (address) VALUES (?)",
    // Positions are logged a tile at a time (schema version 17): those after the last in
    // `mailbox_log` are the account's newest copies, read from their mailbox rows.
    lastLogged: "SELECT seq FROM mailbox_log WHERE account = ? ORDER BY seq DESC LIMIT 1",
    newestOnSide: "SELECT seq FROM mailbox WHERE owner = ? AND side = ? ORDER BY id DESC LIMIT 1",
    unloggedOnSide: UNLOGGED_ON_SIDE,
    insertPosition: "INSERT INTO mailbox_log (account, seq, id, role, leaf) VALUES (?, ?, ?, ?, ?)",
    // A tile is kept once its last position is logged: from the leaves (level TILE_HEIGHT), or the tiles one level down.
    selectLeaves: "SELECT leaf FROM mailbox_log WHERE account = ? AND seq > ? AND seq <= ? ORDER BY seq",
    selectTiles: "SELECT hash FROM log_tiles WHERE account = ? AND level = ? AND idx >= ? AND idx < ? ORDER BY idx",
    insertTile: "INSERT INTO log_tiles (account, level, idx, hash) VALUES (?, ?, ?, ?)",
    insertPair: "INSERT INTO pairs (sender, recipient, id) VALUES (?, ?, ?)",
    insertOutbox: "INSERT INTO outbox (id, destination, lane, sender, created_at) VALUES (?, ?, ?, ?, ?)",
    deleteOutbox: "DELETE FROM outbox WHERE id = ?",
    updateSent: "UPDATE mailbox SET json = ? WHERE owner = ? AND side = ? AND id = ?",
    selectJson: "SELECT json FROM mailbox WHERE owner = ? AND side = ? AND id = ?",
    // A deletion by its account (schema version 12): the positions of the copies it removes, each
    // kept with the account's signed request, stored once per request.
    selectCopySeq: "SELECT seq FROM mailbox WHERE owner = ? AND side = ? AND id = ?",
    insertDeletionRequest: "INSERT INTO deletion_requests (request) VALUES (?)",
    insertRemoval: "INSERT OR IGNORE INTO log_removals (account, seq, request) VALUES (?, ?, ?)",
  },
  sides: SIDE,
  idHead: MESSAGE_JSON_ID_HEAD,
  tileHeight: TILE_HEIGHT,
};

const KEY_SQL = {
  select: "SELECT key, ts, signature FROM key_bundles WHERE account = ?",
  // @neutral/protocol's `supersedes` (the greater timestamp, then the greater signature: BLOBs
  // compare as their bytes), as one statement (run inside an IMMEDIATE transaction).
  upsert:
    "INSERT INTO key_bundles (account, key, ts, signature, updated_at) VALUES (?, ?, ?, ?, ?) " +
    "ON CONFLICT (account) DO UPDATE SET key = excluded.key, ts = excluded.ts, signature = excluded.signature, updated_at = excluded.updated_at " +
    "WHERE (excluded.ts, excluded.signature) > (key_bundles.ts, key_bundles.signature)",
};

/**
 * A connection checkpoints the WAL itself once it holds this many pages (SQLite's default: 1000):
 * only when the background checkpointer has not let it start over (falling behind, stopped, or a
 * reader holding old frames). 32,768 pages of 8 KiB: the WAL file stays under 256 MiB.
 */
export const WAL_FALLBACK_PAGES = 32768;

/**
 * The group-committing writer a store starts for itself at its first append (a thread, and a WAL
 * checkpointer beside it). The relay's primary starts one for all its workers, `inline`.
 */
export function startStoreWriter(
  options: Pick<SqliteStoreOptions, "file" | "synchronous" | "cacheSizeKiB" | "onCheckpointError" | "receiptKey"> & {
    checkpointer?: boolean;
    /** Commit on the calling thread, not a writer thread: only where the event loop serves no requests (`startInlineSqliteWriter`). */
    inline?: boolean;
  },
): AppendWriter {
  return (options.inline ? startInlineSqliteWriter : startSqliteWriter)(
    {
      file: options.file,
      synchronous: options.synchronous === "normal" ? "NORMAL" : "FULL",
      cacheSize: cacheSizePragma(options.cacheSizeKiB ?? WRITER_CACHE_KIB),
      walFallbackPages: WAL_FALLBACK_PAGES,
      checkpointer: options.checkpointer ?? true,
      ...(options.onCheckpointError && { onCheckpointError: options.onCheckpointError }),
      ...(options.receiptKey && { receiptKey: options.receiptKey }),
    },
    WRITER_SCHEMA,
  );
}

/**
 * The SQLite message store: WAL, one file, safe to open from several processes (the relay's
 * workers). Appends go to a group-committing writer (`options.writer`, else a writer thread of the
 * store's own, started at the first append), so the event loop keeps serving while a transaction
 * commits and fsyncs. Reads use this thread's connection and see every acknowledged append.
 *
 * Key bundles are written rarely: synchronously, on this thread's connection, each in its own
 * IMMEDIATE transaction (the busy timeout waits out a writer holding the lock, this process's
 * writer thread or another process's), which also holds the timestamp comparison.
 */
export function openSqliteStore(options: SqliteStoreOptions): MessageStore {
  if (options.file === "" || options.file === ":memory:") throw new Error("the SQLite store needs a file: its writer thread opens it too");
  const db = new Database(options.file);
  db.pragma("busy_timeout = 10000");
  if (db.pragma("schema_version", { simple: true }) === 0) {
    // Only possible before the first table exists. INCREMENTAL: the pages deletions free go back
    // to the file system (the sweep runs incremental_vacuum), instead of only being reused.
    if (db.pragma("page_size", { simple: true }) !== 8192) db.pragma("page_size = 8192");
    db.pragma("auto_vacuum = INCREMENTAL");
  }
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${options.synchronous === "normal" ? "NORMAL" : "FULL"}`);
  db.pragma(`cache_size = ${cacheSizePragma(options.cacheSizeKiB ?? DEFAULT_CACHE_KIB)}`);
  // Key bundles commit here, on the event loop: leave checkpoints to the other threads.
  db.pragma(`wal_autocheckpoint = ${WAL_FALLBACK_PAGES}`);
  if (options.mmapBytes) db.pragma(`mmap_size = ${Math.floor(options.mmapBytes)}`);
  if (options.migrate !== false) migrate(db);
  const version = (db.prepare("SELECT max(version) AS v FROM schema_migrations").get() as { v: number | null }).v ?? 0;
  if (version > latestSchemaVersion) {
    db.close();
    throw new SchemaTooNewError(options.file, version, latestSchemaVersion);
  }

  const schemaVersion = db.prepare<[], { v: number | null }>("SELECT max(version) AS v FROM schema_migrations");
  // The rowid B-tree's two ends: a few page reads, where count(*) reads every page of the table.
  // The retention sweep deletes from the low end, so the span is the count of messages kept
  // (those their owners deleted count until the sweep: their trace stays for resends).
  const idSpan = db.prepare<[], { span: number | null }>("SELECT max(id) - min(id) + 1 AS span FROM messages");
  // A page of the log with why each gone copy went (schema versions 12, 13): below the retention's
  // floor (the sweep's, or the lowest id reads serve now) a copy went, or is no longer served, by
  // the retention. With the messages: each copy's JSON as reads serve it (a sender's copy stored
  // without its own takes the recipient's, as SENT_JSON).
  const logStatement = (messages: boolean) =>
    db.prepare<[number, Buffer, number, number], LogRow>(
      "SELECT l.seq, l.id, l.role, l.leaf, q.request AS deletion, e.sender AS expired_from, e.recipient AS expired_to, e.ts AS expired_ts, e.expires, e.message_hash, " +
        "l.id < ? AS unserved, l.id < coalesce((SELECT below FROM retention_floor), 0) AS swept, (SELECT retention_seconds FROM retention_floor) AS floor_retention" +
        (messages
          ? ", (SELECT CASE WHEN b.json <> '' THEN b.json ELSE " +
            `(SELECT r.json FROM mailbox AS r WHERE r.owner = b.peer AND r.side = ${SIDE.received} AND r.id = b.id) END ` +
            `FROM mailbox AS b WHERE b.owner = a.address AND b.side IN (${SIDE.received}, ${SIDE.sent}, ${SIDE.requests}) AND b.id = l.id AND b.seq = l.seq) AS json`
          : "") +
        " FROM log_accounts AS a JOIN mailbox_log AS l ON l.account = a.n " +
        "LEFT JOIN log_removals AS r ON r.account = l.account AND r.seq = l.seq LEFT JOIN deletion_requests AS q ON q.n = r.request " +
        "LEFT JOIN expired_messages AS e ON e.id = l.id WHERE a.address = ? AND l.seq >= ? ORDER BY l.seq LIMIT ?",
    );
  const logRows = { plain: logStatement(false), withMessages: logStatement(true) };
  // The positions not in mailbox_log yet (schema version 17, UNLOGGED_ON_SIDE): their copies' rows
  // and what their leaves are hashed from, with the columns of a log page's rows; and the last logged
  // position, on the same snapshot (a row of NULLs beside it when none is unlogged).
  const unloggedStatement = (messages: boolean) =>
    db.prepare<{ owner: Buffer; unserved: number }, { logged: number } & (UnloggedRow | { [K in keyof UnloggedRow]: null })>(
      `SELECT g.logged, u.* FROM (SELECT ${LAST_LOGGED} AS logged) AS g LEFT JOIN (` +
        `SELECT b.seq, b.id, ${ROLE_OF_SIDE} AS role, b.peer, m.digest, b.id < @unserved AS unserved, ` +
        "b.id < coalesce((SELECT below FROM retention_floor), 0) AS swept, (SELECT retention_seconds FROM retention_floor) AS floor_retention" +
        (messages ? `, CASE WHEN b.json <> '' THEN b.json ELSE (SELECT r.json FROM mailbox AS r WHERE r.owner = b.peer AND r.side = ${SIDE.received} AND r.id = b.id) END AS json` : "") +
        " FROM (" +
        [SIDE.received, SIDE.requests, SIDE.sent]
          .map((side) => `SELECT * FROM (SELECT seq, id, side, peer${messages ? ", json" : ""} FROM mailbox WHERE owner = @owner AND side = ${side} ORDER BY id DESC LIMIT ${2 ** TILE_HEIGHT})`)
          .join(" UNION ALL ") +
        `) AS b JOIN messages AS m ON m.id = b.id WHERE b.seq > ${LAST_LOGGED}) AS u ON 1 ORDER BY u.seq`,
    );
  const unloggedRows = { plain: unloggedStatement(false), withMessages: unloggedStatement(true) };
  /**
   * `owner`'s last logged position and its unlogged positions as log rows in order, their leaves
   * hashed here. A read of logged rows before it that came up short is read again when `logged` has
   * passed it (a tile was logged between the two statements): then nothing is missed or read twice.
   */
  const unlogged = (owner: Buffer, messages: boolean, unserved: number): { logged: number; rows: LogRow[] } => {
    const result = (messages ? unloggedRows.withMessages : unloggedRows.plain).all({ owner, unserved });
    const rows: LogRow[] = [];
    for (const { logged: _logged, peer, digest, ...row } of result) if (row.seq !== null && peer !== null && digest !== null) rows.push({ ...row, leaf: leafOf(owner, row.seq, row.role, peer, digest) });
    return { logged: result[0]?.logged ?? 0, rows };
  };
  const leafOf = (owner: Buffer, seq: number, role: number, peer: Buffer, digest: Buffer): Buffer => {
    const hash = mailboxLeafHash({ account: owner, seq, role: role === MAILBOX_ROLE_BYTE.sent ? "sent" : "received", peer, digest }, nativeSha256);
    return Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength);
  };
  // The leaves of a range as one row of hex, not a row (and a Buffer) each: half the time for the
  // ~50 leaves of a page's proof (positions are contiguous, so the range is `from` to `from + count`).
  // In order from a subquery the primary key walks in order, not `group_concat(… ORDER BY seq)`,
  // which sorts what is already sorted (a temporary B-tree: 14.5 against 11.6 µs for 46 leaves).
  const leafRows = db
    .prepare<[Buffer, number, number, number], string | null>(
      "SELECT group_concat(leaf, '') FROM (SELECT hex(l.leaf) AS leaf FROM log_accounts AS a JOIN mailbox_log AS l ON l.account = a.n WHERE a.address = ? AND l.seq >= ? AND l.seq < ? + ? ORDER BY l.seq)",
    )
    .pluck();
  const tileRows = db.prepare<[Buffer, number, number, number], { idx: number; hash: Buffer }>(
    "SELECT t.idx, t.hash FROM log_accounts AS a JOIN log_tiles AS t ON t.account = a.n WHERE a.address = ? AND t.level = ? AND t.idx >= ? AND t.idx < ? ORDER BY t.idx",
  );
  /** The leaves of positions [from, from + count) that mailbox_log has. */
  const loggedLeaves = (key: Buffer, from: number, count: number): Uint8Array[] => {
    const bytes = Buffer.from(leafRows.get(key, from, from, count) ?? "", "hex");
    return Array.from({ length: bytes.length / 32 }, (_, i) => bytes.subarray(i * 32, (i + 1) * 32));
  };
  // The log entries of an owner's copies of `count` messages, in one statement prepared once per
  // count; a received copy is in the inbox or the requests folder. A copy not logged yet (schema
  // version 17) has its leaf hashed here, from the message's digest.
  const copyPositions = new Map<number, Database.Statement<(Buffer | number)[], CopyRow>>();
  const messageRecordRow = db.prepare<[number], { sender: Buffer; recipient: Buffer | null; ts: number; digest: Buffer }>("SELECT sender, recipient, ts, digest FROM messages WHERE id = ?");
  const messageIdRow = db.prepare<[number, Buffer], number>(WRITER_SCHEMA.sql.findByDigest).pluck();
  const copyPositionsOf = (count: number) => {
    let statement = copyPositions.get(count);
    if (statement === undefined) {
      statement = db.prepare<(Buffer | number)[], CopyRow>(
        "SELECT b.seq, b.id, b.side, l.leaf " +
          "FROM mailbox AS b JOIN log_accounts AS a ON a.address = b.owner LEFT JOIN mailbox_log AS l ON l.account = a.n AND l.seq = b.seq " +
          `WHERE b.owner = ? AND b.side IN (${SIDE.received}, ${SIDE.requests}, ${SIDE.sent}) AND b.id IN (${Array.from({ length: count }, () => "?").join(", ")}) AND b.seq IS NOT NULL`,
      );
      copyPositions.set(count, statement);
    }
    return statement;
  };
  const unloggedCopy = db.prepare<[Buffer, number, number], { peer: Buffer; digest: Buffer }>(
    "SELECT b.peer, m.digest FROM mailbox AS b JOIN messages AS m ON m.id = b.id WHERE b.owner = ? AND b.side = ? AND b.id = ?",
  );
  // An account's last position: the last in mailbox_log, or its newest copy's when that is later.
  const lastPosition = db
    .prepare<{ owner: Buffer }, number>(`SELECT max(${LAST_LOGGED}, ${[SIDE.received, SIDE.requests, SIDE.sent].map(newestSeqOnSide).join(", ")})`)
    .pluck();
  const latestOnSide = db.prepare<[Buffer, number, number], { id: number; peer: Buffer }>(
    "SELECT id, peer FROM mailbox WHERE owner = ? AND side = ? AND id >= ? ORDER BY id DESC LIMIT 1",
  );
  const retention = new RetentionFloor(options.retentionMs ?? 0);
  const firstFresh = db.prepare<[number, number], FreshMessage>("SELECT id, accepted_at AS acceptedAt FROM messages WHERE id >= ? AND accepted_at >= ? ORDER BY id LIMIT 1");
  const lastId = db.prepare<[], number>("SELECT seq FROM sqlite_sequence WHERE name = 'messages'").pluck();
  /** The lowest id reads serve (store.ts `RetentionFloor`); `refresh` looks it up now. */
  function servedFloor(refresh = false): number {
    const current = refresh ? undefined : retention.current();
    if (current !== undefined) return current;
    const { from, cutoff } = retention.lookup();
    return retention.found(firstFresh.get(from, cutoff), lastId.get() ?? 0);
  }

  // One statement per walk and order; the id bounds are always bound (open ends as 0 / ceiling).
  // Only the JSON column is read (`pluck`), not the id: building a {id, json} object per row in
  // better-sqlite3 costs more than reading the id back out of the JSON's fixed prefix. A page that
  // proves itself (`withPositions`) reads the owner's copy's position too, as arrays (`raw`).
  // `LIMIT +?`, not `LIMIT ?`: SQLite (3.53 here) plans a bare bound LIMIT with its value and so
  // re-prepares the statement every time the limit is bound, ~4 µs of a ~28 µs page; the unary
  // plus hides the value from the planner, which needs no limit to choose the keyset walk.
  const pageStatements = new Map<string, Statement<unknown[], string>>();
  function pageStatement(walk: Walk, order: "asc" | "desc"): Statement<unknown[], string> {
    const key = `${walk}:${order}`;
    let statement = pageStatements.get(key);
    if (!statement) {
      const sql = WALKS[walk];
      statement = db.prepare<unknown[], string>(`SELECT ${sql.json} ${sql.from} ORDER BY ${sql.id} ${order === "asc" ? "ASC" : "DESC"} LIMIT +?`).pluck();
      pageStatements.set(key, statement);
    }
    return statement;
  }
  const positionedPageStatements = new Map<string, Statement<unknown[], [string, number | null]>>();
  function positionedPageStatement(walk: Walk, order: "asc" | "desc"): Statement<unknown[], [string, number | null]> {
    const key = `${walk}:${order}`;
    let statement = positionedPageStatements.get(key);
    if (!statement) {
      const sql = WALKS[walk];
      statement = db.prepare<unknown[], [string, number | null]>(`SELECT ${sql.json}, ${OWN_COPY_SEQ} ${sql.from} ORDER BY ${sql.id} ${order === "asc" ? "ASC" : "DESC"} LIMIT +?`).raw();
      positionedPageStatements.set(key, statement);
    }
    return statement;
  }

  // With a time filter (ts is not in the key) the keyset walk examines entries the filter rejects;
  // bounded by `maxScan`, it reads every entry's id and the JSON of the matches only, and stops
  // once it has `limit + 1` matches.
  const scanStatements = new Map<string, Statement<unknown[], [number, string | null, number | null]>>();
  function scanStatement(walk: Walk, since: boolean, until: boolean, order: "asc" | "desc"): Statement<unknown[], [number, string | null, number | null]> {
    const key = `${walk}:${since}:${until}:${order}`;
    let statement = scanStatements.get(key);
    if (!statement) {
      const sql = WALKS[walk];
      const times = [since && `${sql.ts} >= ?`, until && `${sql.ts} < ?`].filter(Boolean).join(" AND ");
      statement = db
        .prepare<unknown[], [number, string | null, number | null]>(
          `SELECT ${sql.id}, CASE WHEN ${times} THEN ${sql.json} END, ${OWN_COPY_SEQ} ${sql.from} ORDER BY ${sql.id} ${order === "asc" ? "ASC" : "DESC"} LIMIT +?`,
        )
        .raw();
      scanStatements.set(key, statement);
    }
    return statement;
  }

  // One snapshot for every range of a page: read by separate statements in autocommit, a commit
  // between two of them could show a newer message of one range beside an older state of another,
  // and a forward walk would step past a message that was not yet visible in the other range.
  const readRanges = db.transaction((query: PageQuery, owner: Buffer) => query.ranges.map((range) => readRange(query, range, owner)));
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

  let closed = false;
  let closing: Promise<void> | undefined;
  let writer = options.writer;
  // Federation's statements, prepared at first use like the key directory's.
  let federation: ReturnType<typeof federationStatements> | undefined;
  const fed = () => (federation ??= federationStatements(db));
  let leading = false;
  // Consent's statements, prepared at first use like the key directory's.
  let consentStatements: ReturnType<typeof openSqliteConsent> | undefined;
  const consent = () => (consentStatements ??= openSqliteConsent(db));
  // Whether a sender-set end is due (the sweep's one index probe), prepared at first use.
  let expiryDueStatement: Statement<[number], number> | undefined;
  const expiryDue = () => (expiryDueStatement ??= db.prepare<[number], number>("SELECT 1 FROM message_expiry WHERE expires <= ? LIMIT 1").pluck());

  function readRange(query: PageQuery, range: MailboxRange, owner: Buffer): RangeRead {
    const { since, until } = query;
    const walk = walkOf(range);
    const args: unknown[] = [];
    if (range.peer === undefined) args.push(owner, SIDE[range.side]);
    else {
      const peer = addressBytes(range.peer);
      args.push(...(range.side === "sent" ? [owner, peer] : [peer, owner]));
    }
    args.push(Math.max(query.after ?? 0, servedFloor() - 1), query.before ?? ID_CEILING);
    const filtered = since !== undefined || until !== undefined;
    const read = query.lookahead === false ? query.limit : query.limit + 1;
    if (filtered) {
      // The time bounds come first: they are in the SELECT list.
      args.unshift(...[since, until].filter((bound) => bound !== undefined));
      const maxScan = query.maxScan ?? DEFAULT_MAX_SCAN;
      args.push(maxScan);
      const rows: StoredMessage[] = [];
      let scanned = 0;
      let lastId = 0;
      for (const [id, json, seq] of scanStatement(walk, since !== undefined, until !== undefined, query.order).iterate(...args)) {
        scanned++;
        lastId = id;
        if (json === null) continue;
        rows.push(storedOf(json, query.withPositions ? seq : null, range, query.owner));
        if (rows.length >= read) break;
      }
      return scanned === maxScan && rows.length <= query.limit ? { rows, stoppedAt: lastId } : { rows };
    }
    args.push(read);
    if (query.withPositions) return { rows: positionedPageStatement(walk, query.order).all(...args).map(([json, seq]) => storedOf(json, seq, range, query.owner)) };
    return { rows: pageStatement(walk, query.order).all(...args).map((json) => storedOf(json, null, range, query.owner)) };
  }
  return {
    kind: "sqlite",

    useReceiptKey(privateKey) {
      if (options.receiptKey !== undefined) {
        if (!Buffer.from(options.receiptKey).equals(Buffer.from(privateKey))) throw new Error("this store signs its receipts with another key");
        return;
      }
      // The store's own writer takes the key when it starts, at the first write.
      if (writer !== undefined && options.writer === undefined) throw new Error("the store's writer started without the node's key");
      options = { ...options, receiptKey: Uint8Array.from(privateKey) };
    },

    append(message) {
      if (closed) return Promise.reject(new StoreClosedError());
      const { digest, route, folder, ...fields } = message;
      const wire: WireAppend = {
        digest: Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString("hex"),
        from: message.from,
        to: message.to,
        timestamp: message.timestamp,
        ...(signsReceipts(message) ? { fields } : { tail: messageJsonTail(message as WireMessageFields) }),
        ...(message.expires !== undefined && { expires: message.expires }),
      };
      if (message.route?.kind === "outbound") {
        wire.route = "out";
        wire.destination = message.route.destination;
        wire.lane = laneOf(message.to);
      } else if (message.route?.kind === "inbound") wire.route = "in";
      if (message.folder === "requests") wire.folder = "requests";
      writer ??= startStoreWriter(options);
      return writer.append(wire).then((result): AppendResult => {
        if (typeof result === "number") return { stored: { id: result, json: messageJsonWithId(result, wire.tail!) }, created: true };
        if ("pending" in result || "imported" in result || "done" in result) throw new Error("the writer answered an append as something else");
        return { stored: { id: result.id, json: result.json }, created: result.created === true };
      });
    },

    async page(query): Promise<Page> {
      if (closed) throw new StoreClosedError();
      const owner = addressBytes(query.owner);
      return pageOfRanges(query, query.ranges.length === 1 ? [readRange(query, query.ranges[0]!, owner)] : readRanges(query, owner));
    },

    async migrated() {
      if (closed) throw new StoreClosedError();
      return (schemaVersion.get()?.v ?? 0) >= latestSchemaVersion;
    },

    async footprint() {
      if (closed) throw new StoreClosedError();
      const pages = db.pragma("page_count", { simple: true }) as number;
      const pageSize = db.pragma("page_size", { simple: true }) as number;
      return { bytes: pages * pageSize, messages: idSpan.get()?.span ?? 0 };
    },

    async latestPeer(owner) {
      if (closed) throw new StoreClosedError();
      const key = addressBytes(owner);
      const floor = servedFloor();
      const received = latestOnSide.get(key, SIDE.received, floor);
      const sent = latestOnSide.get(key, SIDE.sent, floor);
      const latest = !sent || (received && received.id > sent.id) ? received : sent;
      return latest && bytesHex(latest.peer);
    },

    async log(owner, from, limit, options) {
      if (closed) throw new StoreClosedError();
      const messages = options?.messages === true;
      const statement = messages ? logRows.withMessages : logRows.plain;
      const key = addressBytes(owner);
      const floor = servedFloor();
      let rows = statement.all(floor, key, from, limit);
      if (rows.length < limit) {
        // The rest may be positions not logged yet (schema version 17).
        const tail = unlogged(key, messages, floor);
        if (tail.logged >= (rows.length === 0 ? from : rows[rows.length - 1]!.seq + 1)) rows = statement.all(floor, key, from, limit);
        let next = rows.length === 0 ? from : rows[rows.length - 1]!.seq + 1;
        for (const row of tail.rows) {
          if (row.seq !== next || rows.length === limit) continue;
          rows.push(row);
          next++;
        }
      }
      return rows.map((row) => logEntryOf(row, retention.retentionSeconds));
    },

    async logSize(owner) {
      if (closed) throw new StoreClosedError();
      return lastPosition.get({ owner: addressBytes(owner) }) ?? 0;
    },

    async positions(owner, ids) {
      if (closed) throw new StoreClosedError();
      const unique = [...new Set(ids)];
      if (unique.length === 0) return [];
      const copies = new Map<number, LogEntry[]>();
      const key = addressBytes(owner);
      const rows: LogRow[] = [];
      for (const { seq, id, side, leaf } of copyPositionsOf(unique.length).all(key, ...unique)) {
        const role = side === SIDE.sent ? MAILBOX_ROLE_BYTE.sent : MAILBOX_ROLE_BYTE.received;
        if (leaf !== null) rows.push({ seq, id, role, leaf });
        else {
          // Not logged yet (schema version 17): hashed from the copy's row; gone since, it has no position to give.
          const copy = unloggedCopy.get(key, side, id);
          if (copy !== undefined) rows.push({ seq, id, role, leaf: leafOf(key, seq, role, copy.peer, copy.digest) });
        }
      }
      for (const entry of rows.map((row) => logEntryOf(row))) {
        const both = copies.get(entry.id);
        if (both === undefined) copies.set(entry.id, [entry]);
        else if (entry.role === "received") both.unshift(entry);
        else both.push(entry);
      }
      // In the order of `ids`, a message's received copy before its sent one (to oneself: both).
      return ids.flatMap((id) => copies.get(id) ?? []);
    },

    async logTiles(owner, level, from, to) {
      if (closed) throw new StoreClosedError();
      return tileRows.all(addressBytes(owner), level, from, to).map((row) => ({ index: row.idx, hash: row.hash }));
    },

    async logLeaves(owner, from, count) {
      if (closed) throw new StoreClosedError();
      const key = addressBytes(owner);
      let leaves = loggedLeaves(key, from, count);
      if (leaves.length === count) return leaves;
      // The rest may be positions not logged yet (schema version 17).
      const tail = unlogged(key, false, 0);
      if (tail.logged >= from + leaves.length) leaves = loggedLeaves(key, from, count);
      for (const row of tail.rows) if (row.seq === from + leaves.length && leaves.length < count) leaves.push(row.leaf);
      return leaves;
    },

    async deleteMessages(owner, ids, request, seqs) {
      if (closed) throw new StoreClosedError();
      writer ??= startStoreWriter(options);
      const result = await writer.append({ remove: { owner, ids: [...ids], ...(request !== undefined && { request }), ...(seqs !== undefined && { seqs: [...seqs] }) } });
      return { pending: typeof result === "object" && "pending" in result ? result.pending : [] };
    },

    async importMessages(owner, messages) {
      if (closed) throw new StoreClosedError();
      writer ??= startStoreWriter(options);
      const entries = messages.map(({ fields, digest }) => ({
        digest: Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString("hex"),
        from: fields.from,
        to: fields.to,
        timestamp: fields.timestamp,
        tail: messageJsonTail(fields),
        ...(fields.expires !== undefined && { expires: fields.expires }),
      }));
      const result = await writer.append({ import: { owner, entries } });
      if (typeof result !== "object" || !("imported" in result)) throw new Error("the writer answered an import as something else");
      return result.imported;
    },

    async sweepExpired(limit) {
      if (closed) throw new StoreClosedError();
      if (retention.retentionMs <= 0) return 0;
      const below = servedFloor(true);
      if (below <= 1) return 0;
      writer ??= startStoreWriter(options);
      // A pass of steps, each its own transaction: appends commit between them.
      const rememberFrom = Date.now() - (options.sweptDigestsMs ?? DEFAULT_SWEPT_DIGESTS_MS);
      for (;;) {
        const result = await writer.append({ sweep: { below, limit, rememberFrom, retentionSeconds: retention.retentionSeconds } });
        if (typeof result !== "object" || !("done" in result)) throw new Error("the writer answered a sweep step as something else");
        if (result.done) return result.deleted;
        if (closed) throw new StoreClosedError();
      }
    },

    async sweepSenderExpired(limit, now) {
      if (closed) throw new StoreClosedError();
      // The writer also gives back free pages at each sweep (in steps): it is called while any are due.
      if (expiryDue().get(now) === undefined && !reclaimDue(db)) return 0;
      writer ??= startStoreWriter(options);
      const result = await writer.append({ sweepExpiring: { now, limit } });
      return typeof result === "number" ? result : 0;
    },

    async putConsent(account, records, policy) {
      if (closed) throw new StoreClosedError();
      return consent().put(account, records, policy);
    },

    async consentList(account, after, limit) {
      if (closed) throw new StoreClosedError();
      return consent().list(account, after, limit);
    },

    async consentFor(recipient, sender) {
      if (closed) throw new StoreClosedError();
      return consent().verdict(recipient, sender);
    },

    async putKeyBundle(bundle) {
      if (closed) throw new StoreClosedError();
      const account = bundle.account.toLowerCase();
      const row: [Buffer, Buffer, number, Buffer] = [addressBytes(account), hexBytes(bundle.key, 32), bundle.timestamp, hexBytes(bundle.signature, 65)];
      return keyBundleOf(account, keys().put.immediate(row));
    },

    async getKeyBundle(account) {
      if (closed) throw new StoreClosedError();
      const row = keys().select.get(addressBytes(account));
      return row && keyBundleOf(account.toLowerCase(), row);
    },

    async putHomeRecord(record) {
      if (closed) throw new StoreClosedError();
      const account = record.account.toLowerCase();
      return homeRecordOf(account, fed().putHome.immediate([addressBytes(account), addressBytes(record.node), record.timestamp, hexBytes(record.signature, 65)]));
    },

    async putHomeRecords(records) {
      if (closed) throw new StoreClosedError();
      if (records.length === 0) return [];
      const rows = fed().putHomes.immediate(records.map((record) => [addressBytes(record.account), addressBytes(record.node), record.timestamp, hexBytes(record.signature, 65)] as [Buffer, Buffer, number, Buffer]));
      return rows.map((row, i) => homeRecordOf(records[i]!.account.toLowerCase(), row));
    },

    async messageRecord(id) {
      if (closed) throw new StoreClosedError();
      const row = messageRecordRow.get(id);
      return row && row.recipient !== null ? { id, from: bytesHex(row.sender), to: bytesHex(row.recipient), timestamp: row.ts, digest: bytesHex(row.digest) } : undefined;
    },

    async messageIdOf(timestamp, digest) {
      if (closed) throw new StoreClosedError();
      return messageIdRow.get(timestamp, hexBytes(digest, 32));
    },

    async putPriorHead(account, node, size, head, limit) {
      if (closed) throw new StoreClosedError();
      return fed().putPriorHead.immediate(addressBytes(account), addressBytes(node), size, head, limit);
    },

    async priorHeads(account) {
      if (closed) throw new StoreClosedError();
      return fed().selectPriorHeads.all(addressBytes(account));
    },

    async getHomeRecord(account) {
      if (closed) throw new StoreClosedError();
      const row = fed().selectHome.get(addressBytes(account));
      return row && homeRecordOf(account.toLowerCase(), row);
    },

    async pinPeer(url, address) {
      if (closed) throw new StoreClosedError();
      return bytesHex(fed().pin.immediate(url, addressBytes(address)));
    },

    async peerPins() {
      if (closed) throw new StoreClosedError();
      return new Map(fed().selectPins.all().map((row) => [row.url, bytesHex(row.address)]));
    },

    async outboxDestinations() {
      if (closed) throw new StoreClosedError();
      return fed().selectDestinations.all().map(outboxDestinationOf);
    },

    async outboxEntries(destination, limit, afterId = 0, lane) {
      if (closed) throw new StoreClosedError();
      const rows = lane === undefined ? fed().selectOutbox.all(addressBytes(destination), afterId, limit) : fed().selectLane.all(addressBytes(destination), lane, afterId, limit);
      return rows.map(outboxEntryOf);
    },

    async expiredOutboxEntries(createdBefore, limit) {
      if (closed) throw new StoreClosedError();
      return fed().selectExpired.all(createdBefore, limit).map(outboxEntryOf);
    },

    async settleDeliveries(settled) {
      if (closed) throw new StoreClosedError();
      if (settled.length === 0) return;
      // Through the writer, in its group commit with the appends: the event loop never waits for
      // the write lock (nor an fsync) here.
      writer ??= startStoreWriter(options);
      const through = writer;
      await Promise.all(settled.map(({ id, sender, json }) => through.append({ settle: { id, sender, json } })));
    },

    async redirectOutbox(ids, destination) {
      if (closed) throw new StoreClosedError();
      if (ids.length > 0) fed().redirect.immediate(ids, addressBytes(destination));
    },

    async setDestinationState(node, state) {
      if (closed) throw new StoreClosedError();
      if (state === undefined) fed().deleteDestination.run(addressBytes(node));
      else fed().upsertDestination.run(addressBytes(node), state.failures, state.nextAttemptAt, state.lastError);
    },

    async sentMessage(owner, id) {
      if (closed) throw new StoreClosedError();
      const json = fed().selectSent.get(addressBytes(owner), id);
      return typeof json === "string" && json !== "" ? json : undefined;
    },

    async leadDeliveries() {
      if (closed) throw new StoreClosedError();
      // One process per data dir drains the outbox (the relay's primary, or its only process): the
      // lease is this store's, given once at a time.
      if (leading) return undefined;
      leading = true;
      return {
        lost: new Promise<void>(() => {}),
        release: async () => {
          leading = false;
        },
      };
    },

    close() {
      // Every caller waits for the same shutdown, however many times close() is called.
      closing ??= (async () => {
        closed = true;
        await writer?.close();
        db.close();
      })();
      return closing;
    },
  };
}

/** Consent (sqlite-migrations.ts, version 8): writes are small IMMEDIATE transactions on the store's connection, as key bundles'. */
function openSqliteConsent(db: Database.Database) {
  const upsert = db.prepare<[Buffer, Buffer, number, number, Buffer]>(
    "INSERT INTO consent (account, peer, state, ts, signature) VALUES (?, ?, ?, ?, ?) " +
      "ON CONFLICT (account, peer) DO UPDATE SET state = excluded.state, ts = excluded.ts, signature = excluded.signature WHERE excluded.ts > consent.ts",
  );
  const upsertPolicy = db.prepare<[Buffer, number, number, Buffer]>(
    "INSERT INTO consent_policy (account, mode, ts, signature) VALUES (?, ?, ?, ?) " +
      "ON CONFLICT (account) DO UPDATE SET mode = excluded.mode, ts = excluded.ts, signature = excluded.signature WHERE excluded.ts > consent_policy.ts",
  );
  const selectOne = db.prepare<[Buffer, Buffer], ConsentRow>("SELECT peer, state, ts, signature FROM consent WHERE account = ? AND peer = ?");
  const selectPolicy = db.prepare<[Buffer], PolicyRow>("SELECT mode, ts, signature FROM consent_policy WHERE account = ?");
  const selectPage = db.prepare<[Buffer, Buffer, number], ConsentRow>("SELECT peer, state, ts, signature FROM consent WHERE account = ? AND peer > ? AND state <> 0 ORDER BY peer LIMIT ?");
  // One probe for the common case (no policy: open); the reply probe only under "allowed-only".
  const verdict = db.prepare<[{ recipient: Buffer; sender: Buffer }], { state: number | null; mode: number | null; replied: number }>(
    `SELECT c.state AS state, p.mode AS mode,
       CASE WHEN p.mode = ${CONSENT_MODE["allowed-only"]} THEN EXISTS (SELECT 1 FROM pairs WHERE sender = @recipient AND recipient = @sender) ELSE 0 END AS replied
     FROM (SELECT 1) LEFT JOIN consent AS c ON c.account = @recipient AND c.peer = @sender LEFT JOIN consent_policy AS p ON p.account = @recipient`,
  );
  const put = db.transaction((account: Buffer, records: readonly StoredConsentRecord[], policy: StoredConsentPolicy | undefined) => {
    for (const record of records) upsert.run(account, addressBytes(record.peer), CONSENT_STATE[record.state], record.timestamp, hexBytes(record.signature, 65));
    if (policy) upsertPolicy.run(account, CONSENT_MODE[policy.mode], policy.timestamp, hexBytes(policy.signature, 65));
    return { rows: records.map((record) => selectOne.get(account, addressBytes(record.peer))!), policy: selectPolicy.get(account) };
  });
  return {
    put(accountHex: string, records: readonly StoredConsentRecord[], policy?: StoredConsentPolicy) {
      const { rows, policy: current } = put.immediate(addressBytes(accountHex), records, policy);
      return { ...(current && { policy: consentPolicyOf(accountHex, current) }), records: rows.map((row) => consentRecordOf(accountHex, row)) };
    },
    list(accountHex: string, after: string | undefined, limit: number) {
      const account = addressBytes(accountHex);
      const rows = selectPage.all(account, after === undefined ? Buffer.alloc(0) : addressBytes(after), limit + 1);
      const current = selectPolicy.get(account);
      return { ...(current && { policy: consentPolicyOf(accountHex, current) }), records: rows.slice(0, limit).map((row) => consentRecordOf(accountHex, row)), end: rows.length <= limit };
    },
    verdict(recipient: string, sender: string): ConsentVerdict {
      return consentVerdictOf(verdict.get({ recipient: addressBytes(recipient), sender: addressBytes(sender) })!);
    },
  };
}

/** The statements of federation's tables (sqlite-migrations.ts, version 6); writes are small IMMEDIATE transactions on the store's connection. */
function federationStatements(db: Database.Database) {
  const selectHome = db.prepare<[Buffer], HomeRow>("SELECT node, ts, signature FROM home_records WHERE account = ?");
  // The record that supersedes wins (as key bundles: KEY_SQL), in one statement (run inside an IMMEDIATE transaction).
  const upsertHome = db.prepare<[Buffer, Buffer, number, Buffer, number]>(
    "INSERT INTO home_records (account, node, ts, signature, updated_at) VALUES (?, ?, ?, ?, ?) " +
      "ON CONFLICT (account) DO UPDATE SET node = excluded.node, ts = excluded.ts, signature = excluded.signature, updated_at = excluded.updated_at " +
      "WHERE (excluded.ts, excluded.signature) > (home_records.ts, home_records.signature)",
  );
  const putHome = db.transaction(([account, node, ts, signature]: [Buffer, Buffer, number, Buffer]) => {
    upsertHome.run(account, node, ts, signature, Date.now());
    return selectHome.get(account)!;
  });
  const putHomes = db.transaction((rows: readonly [Buffer, Buffer, number, Buffer][]) => {
    const at = Date.now();
    for (const [account, node, ts, signature] of rows) upsertHome.run(account, node, ts, signature, at);
    return rows.map(([account]) => selectHome.get(account)!);
  });
  const insertPin = db.prepare<[string, Buffer, number]>("INSERT INTO peer_pins (url, address, pinned_at) VALUES (?, ?, ?) ON CONFLICT (url) DO NOTHING");
  const selectPin = db.prepare<[string], Buffer>("SELECT address FROM peer_pins WHERE url = ?").pluck();
  const pin = db.transaction((url: string, address: Buffer) => {
    insertPin.run(url, address, Date.now());
    return selectPin.get(url)!;
  });
  const redirectOne = db.prepare<[Buffer, number]>("UPDATE outbox SET destination = ? WHERE id = ?");
  const priorNodes = db.prepare<[Buffer], number>("SELECT count(*) FROM prior_heads WHERE account = ?").pluck();
  const hasPrior = db.prepare<[Buffer, Buffer], number>("SELECT 1 FROM prior_heads WHERE account = ? AND node = ?").pluck();
  // A larger head of a node already kept replaces it; its place in the order stays.
  const upsertPrior = db.prepare<[Buffer, Buffer, number, number, string]>(
    "INSERT INTO prior_heads (account, node, size, n, head) VALUES (?, ?, ?, ?, ?) " +
      "ON CONFLICT (account, node) DO UPDATE SET size = excluded.size, head = excluded.head WHERE excluded.size > prior_heads.size",
  );
  const putPriorHead = db.transaction((account: Buffer, node: Buffer, size: number, head: string, limit: number): "kept" | "full" => {
    const kept = priorNodes.get(account) ?? 0;
    if (hasPrior.get(account, node) === undefined && kept >= limit) return "full";
    upsertPrior.run(account, node, size, kept, head);
    return "kept";
  });
  return {
    selectHome,
    putHome,
    putHomes,
    putPriorHead,
    selectPriorHeads: db.prepare<[Buffer], string>("SELECT head FROM prior_heads WHERE account = ? ORDER BY n").pluck(),
    pin,
    selectPins: db.prepare<[], { url: string; address: Buffer }>("SELECT url, address FROM peer_pins"),
    selectDestinations: db.prepare<[], DestinationRow>(OUTBOX_DESTINATIONS_SQL),
    selectOutbox: db.prepare<[Buffer, number, number], OutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM outbox AS o WHERE o.destination = ? AND o.id > ? ORDER BY o.id LIMIT ?`),
    selectLane: db.prepare<[Buffer, number, number, number], OutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM outbox AS o WHERE o.destination = ? AND o.lane = ? AND o.id > ? ORDER BY o.id LIMIT ?`),
    selectExpired: db.prepare<[number, number], OutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM outbox AS o WHERE o.created_at < ? ORDER BY o.id LIMIT ?`),
    redirect: db.transaction((ids: readonly number[], destination: Buffer) => {
      for (const id of ids) redirectOne.run(destination, id);
    }),
    upsertDestination: db.prepare<[Buffer, number, number, string]>(
      "INSERT INTO destinations (node, failures, next_attempt_at, last_error) VALUES (?, ?, ?, ?) " +
        "ON CONFLICT (node) DO UPDATE SET failures = excluded.failures, next_attempt_at = excluded.next_attempt_at, last_error = excluded.last_error",
    ),
    deleteDestination: db.prepare<[Buffer]>("DELETE FROM destinations WHERE node = ?"),
    selectSent: db.prepare<[Buffer, number], string>(`SELECT json FROM mailbox WHERE owner = ? AND side = ${SIDE.sent} AND id = ?`).pluck(),
  };
}
