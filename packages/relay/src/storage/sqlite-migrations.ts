import type { Database } from "better-sqlite3";
import { MAILBOX_ROLE_BYTE, mailboxLeafHash, type MailboxRole } from "@neutral/protocol";
import { nativeSha256 } from "../crypto/sha256.js";
import { wholeTiles } from "../mailbox-log/tree.js";
import type { Migration } from "./store.js";

/** A step of the SQLite schema: its SQL, then (in the same transaction) what SQL alone cannot do. */
export interface SqliteMigration extends Migration {
  backfill?: (db: Database) => void;
}

/**
 * The schema, in order. Append new migrations; never edit an applied one.
 *
 * `mailbox` holds each message twice, once per side (fan-out on write), as a WITHOUT ROWID table
 * clustered by (owner, side, id): a page of one mailbox is a handful of adjacent B-tree pages
 * however the writes interleaved, and a keyset seek costs the same at any depth. The recipient's
 * row keeps the message's wire JSON so a read serializes nothing (the sender's too before
 * version 5). `key_bundles` (version 2) is the key directory.
 * `pairs` (version 3) finds the messages two accounts exchanged: one small row per message where an
 * index on mailbox had two, one per side; the JSON is then read from the recipient's row.
 */
export const migrations: readonly SqliteMigration[] = [
  {
    version: 1,
    name: "messages and mailboxes",
    sql: `
      CREATE TABLE messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        digest BLOB NOT NULL UNIQUE,
        sender BLOB NOT NULL,
        accepted_at INTEGER NOT NULL
      );
      CREATE TABLE mailbox (
        owner BLOB NOT NULL,
        side INTEGER NOT NULL,
        id INTEGER NOT NULL,
        peer BLOB NOT NULL,
        ts INTEGER NOT NULL,
        json TEXT NOT NULL,
        PRIMARY KEY (owner, side, id)
      ) WITHOUT ROWID;
      CREATE INDEX mailbox_by_peer ON mailbox (owner, side, peer, id);
    `,
  },
  {
    // One row per account: its current key bundle (the greatest timestamp wins). `updated_at` is
    // when this node last replaced it, for operators.
    version: 2,
    name: "key bundles",
    sql: `
      CREATE TABLE key_bundles (
        account BLOB PRIMARY KEY,
        key BLOB NOT NULL,
        ts INTEGER NOT NULL,
        signature BLOB NOT NULL,
        updated_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    // Every append inserted two random entries into mailbox_by_peer; a pairs row is one, and
    // smaller. Storage-only, into the 1M-message bench store: see the relay README.
    version: 3,
    name: "pairs instead of mailbox_by_peer",
    sql: `
      CREATE TABLE pairs (
        sender BLOB NOT NULL,
        recipient BLOB NOT NULL,
        id INTEGER NOT NULL,
        PRIMARY KEY (sender, recipient, id)
      ) WITHOUT ROWID;
      INSERT INTO pairs (sender, recipient, id) SELECT owner, peer, id FROM mailbox WHERE side = 2 ORDER BY owner, peer, id;
      DROP INDEX mailbox_by_peer;
    `,
  },
  {
    // The digest's own index put every append's entry at a random place in a B-tree that outgrows
    // the page cache: one more page for each commit to write twice (WAL, then checkpoint). Keyed
    // by (ts, digest), a resend is found as before (the digest covers the timestamp) and new
    // entries land together at the end. The table is rebuilt to drop the UNIQUE constraint's index;
    // ids and the AUTOINCREMENT sequence are kept.
    version: 4,
    name: "messages by timestamp and digest",
    sql: `
      CREATE TABLE messages_v4 (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        ts INTEGER NOT NULL,
        digest BLOB NOT NULL,
        sender BLOB NOT NULL,
        accepted_at INTEGER NOT NULL
      );
      INSERT INTO messages_v4 (id, ts, digest, sender, accepted_at)
        SELECT m.id, b.ts, m.digest, m.sender, m.accepted_at FROM messages AS m
        JOIN mailbox AS b ON b.owner = m.sender AND b.side = 2 AND b.id = m.id ORDER BY m.id;
      UPDATE sqlite_sequence SET seq = max(seq, (SELECT seq FROM sqlite_sequence WHERE name = 'messages')) WHERE name = 'messages_v4';
      DROP TABLE messages;
      ALTER TABLE messages_v4 RENAME TO messages;
      CREATE UNIQUE INDEX messages_by_time ON messages (ts, digest);
    `,
  },
  {
    // From this version on, a message's sent-side mailbox row keeps an empty JSON column: reads
    // of the sent side take the JSON from the recipient's row (one primary-key lookup per
    // message), resends find the original there. Each append then writes one ~770-byte row where
    // it wrote two, and the sender's mailbox leaves no longer split every few appends
    // (storage-only, into copies of the 1M-message bench store: about a third less CPU per
    // append; the relay README has the figures). Rows stored before keep their copy (reads accept both), so
    // the migration rewrites nothing; its version stops an older relay, which would serve the
    // empty column, from opening the file.
    version: 5,
    name: "sent rows without JSON",
    sql: `SELECT 1;`,
  },
  {
    // Federation (issue 21). A message to an account homed on another node keeps its JSON in the
    // sender's row (there is no recipient's row here) and waits in `outbox`, written in the same
    // transaction; one delivered from another node has only its recipient's row. `destinations`
    // keeps each node's backoff across restarts; `peer_pins` the address first seen at a peer's URL.
    version: 6,
    name: "federation: home records, outbox, destinations, peer pins",
    sql: `
      CREATE TABLE home_records (
        account BLOB PRIMARY KEY,
        node BLOB NOT NULL,
        ts INTEGER NOT NULL,
        signature BLOB NOT NULL,
        updated_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        destination BLOB NOT NULL,
        lane INTEGER NOT NULL,
        sender BLOB NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX outbox_by_destination ON outbox (destination, lane, id);
      CREATE INDEX outbox_by_age ON outbox (created_at);
      CREATE TABLE destinations (
        node BLOB PRIMARY KEY,
        failures INTEGER NOT NULL,
        next_attempt_at INTEGER NOT NULL,
        last_error TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE peer_pins (
        url TEXT PRIMARY KEY,
        address BLOB NOT NULL,
        pinned_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    // Retention and deletion (issue 24). The sweep deletes a message's rows by its id, which needs
    // both owners: `messages` gains the recipient (filled from `pairs`, one row per message; new
    // rows get it at append). A message deleted by its owners keeps its `messages` row until the
    // retention sweep: a resend of it is recognised (and answered its original) instead of stored
    // again. Adding a column rewrites nothing.
    version: 7,
    name: "messages know their recipient",
    sql: `
      ALTER TABLE messages ADD COLUMN recipient BLOB;
      UPDATE messages SET recipient = p.recipient FROM pairs AS p WHERE p.id = messages.id AND p.sender = messages.sender;
    `,
  },
  {
    // Consent (issue 24): an account's signed records about peers (state 0 none, 1 allowed, 2
    // blocked) and its policy (mode 1 open, 2 allowed-only); the newest timestamp wins. Messages
    // into a recipient's requests folder are mailbox rows of side 3.
    version: 8,
    name: "consent",
    sql: `
      CREATE TABLE consent (
        account BLOB NOT NULL,
        peer BLOB NOT NULL,
        state INTEGER NOT NULL,
        ts INTEGER NOT NULL,
        signature BLOB NOT NULL,
        PRIMARY KEY (account, peer)
      ) WITHOUT ROWID;
      CREATE TABLE consent_policy (
        account BLOB PRIMARY KEY,
        mode INTEGER NOT NULL,
        ts INTEGER NOT NULL,
        signature BLOB NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    // A sender's end for a message (issue 24, `ExpiringMessage`): its id and when it expires, so
    // the sweep finds the expired ones through the index without reading any message.
    version: 9,
    name: "sender-set expiry",
    sql: `
      CREATE TABLE message_expiry (id INTEGER PRIMARY KEY, expires INTEGER NOT NULL);
      CREATE INDEX message_expiry_by_time ON message_expiry (expires);
    `,
  },
  {
    // Swept messages' digests (issue 33, finding 8): the retention sweep deletes a message's `messages`
    // row, which is what recognises a resend or a second delivery of it; a message swept while it
    // could still arrive again (its `accepted_at` within the node's window for deliveries: the retry
    // period and the clock skew) leaves its (ts, digest) and id here, and the sweep forgets them
    // once that window is over. An append looks here too: the message is answered as stored, and
    // not stored again.
    version: 10,
    name: "swept digests",
    sql: `
      CREATE TABLE swept_digests (
        ts INTEGER NOT NULL,
        digest BLOB NOT NULL,
        id INTEGER NOT NULL,
        accepted_at INTEGER NOT NULL,
        PRIMARY KEY (ts, digest)
      ) WITHOUT ROWID;
      CREATE INDEX swept_digests_by_age ON swept_digests (accepted_at);
    `,
  },
  {
    // The verifiable mailbox (issue 35, openrpc.json "The verifiable mailbox"): every copy in an
    // account's mailbox takes the next position of the account's log, in the append's transaction,
    // and keeps it when the copy is deleted. `mailbox_log` is the log: per position the message id,
    // the copy's role (1 received, 2 sent) and its leaf hash, 32 bytes, so that the Merkle tree's
    // leaves are read without the messages (which retention deletes). `log_tiles` keeps the roots of
    // the whole aligned subtrees of 2^8, 2^16, … positions (mailbox-log/tree.ts, TILE_HEIGHT): a
    // root or a proof then reads at most 256 leaves or tiles a level. It is keyed by a number per
    // account (`log_accounts`), not the 20-byte address: a position then takes ~48 bytes, not ~65
    // (bench/mailbox-log.mjs). `mailbox.seq` is a copy's position, for reads that prove themselves.
    // Copies stored before get positions here, per owner in id order (a message to oneself:
    // received, then sent): `backfillPositions`.
    version: 11,
    name: "mailbox log positions",
    sql: `
      CREATE TABLE log_accounts (
        n INTEGER PRIMARY KEY,
        address BLOB NOT NULL UNIQUE
      );
      CREATE TABLE mailbox_log (
        account INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        id INTEGER NOT NULL,
        role INTEGER NOT NULL,
        leaf BLOB NOT NULL,
        PRIMARY KEY (account, seq)
      ) WITHOUT ROWID;
      CREATE TABLE log_tiles (
        account INTEGER NOT NULL,
        level INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        hash BLOB NOT NULL,
        PRIMARY KEY (account, level, idx)
      ) WITHOUT ROWID;
      ALTER TABLE mailbox ADD COLUMN seq INTEGER;
    `,
    backfill: backfillPositions,
  },
  {
    // Deleted positions with their reason (issue 35, openrpc.json `LogRemoval`): a copy its account
    // deletes keeps its position, and the position now keeps the account's signed request, so that
    // the log shows the deletion was the account's. `deletion_requests` holds each request once (as
    // the JSON the account signed, up to 100 ids); `log_removals` points each removed position at
    // it (~16 bytes a position, paid only by deleted ones). Copies deleted before have no request
    // to keep: their positions carry no reason.
    version: 12,
    name: "deletion reasons",
    sql: `
      CREATE TABLE deletion_requests (
        n INTEGER PRIMARY KEY,
        request TEXT NOT NULL
      );
      CREATE TABLE log_removals (
        account INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        request INTEGER NOT NULL,
        PRIMARY KEY (account, seq)
      ) WITHOUT ROWID;
    `,
  },
  {
    // Expiry and retention reasons (issue 35, openrpc.json `LogExpiry`, `LogRetention`): a message
    // its sender's end removes keeps, by its id, what recomputes its digest without the body (its
    // parties, timestamp, end and the body's keccak-256: ~100 bytes, paid only by expired messages); the
    // retention sweep keeps its floor, one row: a position whose message id is below it went by
    // the retention. Messages swept before carry no reason, or the retention's once a pass runs.
    version: 13,
    name: "expiry and retention reasons",
    sql: `
      CREATE TABLE expired_messages (
        id INTEGER PRIMARY KEY,
        sender BLOB NOT NULL,
        recipient BLOB NOT NULL,
        ts INTEGER NOT NULL,
        expires INTEGER NOT NULL,
        message_hash BLOB NOT NULL
      );
      CREATE TABLE retention_floor (
        n INTEGER PRIMARY KEY CHECK (n = 1),
        below INTEGER NOT NULL
      );
    `,
  },
  {
    // An account's log at its former homes (openrpc.json `LogPage.prior`): the head each import
    // brought, signed by that node, the largest per node (a few hundred bytes per account that moved).
    // `n` keeps the order heads were first given in.
    version: 14,
    name: "prior heads",
    sql: `
      CREATE TABLE prior_heads (
        account BLOB NOT NULL,
        node BLOB NOT NULL,
        size INTEGER NOT NULL,
        n INTEGER NOT NULL,
        head TEXT NOT NULL,
        PRIMARY KEY (account, node)
      ) WITHOUT ROWID;
    `,
  },
  {
    // Tiles of 16 positions (mailbox-log/tree.ts TILE_HEIGHT 4, was 8): a proof then reads at most
    // 16 leaves or tiles a level, not 256 (a 20-message page's proofs read the whole log of an
    // account of a few hundred positions before). The tiles of levels 8, 16, … are the same at
    // either height; those of levels 4, 12, 20, … are added here, per account from its leaves.
    version: 15,
    name: "mailbox log tiles of 16",
    sql: "",
    backfill: backfillTilesOf16,
  },
  {
    // The retention a removal states (openrpc.json `LogRetention.retentionSeconds`, spec 3.2.0): the
    // least the sweep's floor was raised under. A floor raised before has none (NULL): its positions
    // state no retention, since a larger one than removed them would let a client show their
    // removal came too soon.
    version: 16,
    name: "the retention the floor was raised under",
    sql: "ALTER TABLE retention_floor ADD COLUMN retention_seconds INTEGER;",
  },
  {
    // Positions logged a tile at a time (issue 35): a copy's position goes into `mailbox_log` when
    // its account's log completes a tile of 16 (with the tile), or before the copy goes (a deletion,
    // the retention, an end) or when it comes from the account's history (an import). Until then
    // its entry is its mailbox row's: `seq`, and the leaf hashed from the row and the message's
    // digest. An append so writes one B-tree page fewer per copy (the account's log tail, a random
    // page of its own each: bench/HISTORY.md). No data changes: every position stored before is
    // logged. A relay of version 16 would take the unlogged positions again: this version keeps it
    // from opening the file, and `undoVersion17` logs them for a downgrade.
    version: 17,
    name: "positions logged a tile at a time",
    sql: "",
  },
];

/**
 * Undoes version 17 for a downgrade to a relay that logs every position at once: the positions not
 * in `mailbox_log` yet go into it, with their leaves. Run it with every relay stopped, before
 * {@link undoVersion16Sql}.
 */
export function undoVersion17(db: Database): void {
  db.transaction(() => {
    const unlogged = db
      .prepare<[], [number, Buffer, number, number, number, Buffer, Buffer]>(
        "SELECT a.n, b.owner, b.seq, b.id, b.side, b.peer, m.digest FROM mailbox AS b JOIN log_accounts AS a ON a.address = b.owner JOIN messages AS m ON m.id = b.id " +
          "WHERE b.seq IS NOT NULL AND NOT EXISTS (SELECT 1 FROM mailbox_log AS l WHERE l.account = a.n AND l.seq = b.seq)",
      )
      .raw()
      .all();
    const insertPosition = db.prepare("INSERT INTO mailbox_log (account, seq, id, role, leaf) VALUES (?, ?, ?, ?, ?)");
    for (const [account, owner, seq, id, side, peer, digest] of unlogged) {
      const role: MailboxRole = side === 2 ? "sent" : "received";
      insertPosition.run(account, seq, id, MAILBOX_ROLE_BYTE[role], Buffer.from(mailboxLeafHash({ account: owner, seq, role, peer, digest }, nativeSha256)));
    }
    db.prepare("DELETE FROM schema_migrations WHERE version = 17").run();
  }).immediate();
}

/** The tiles of levels 4, 12, 20, … of every account's log (version 15): those of height 8 are kept. */
function backfillTilesOf16(db: Database): void {
  const accounts = db.prepare<[], number>("SELECT n FROM log_accounts").pluck().all();
  const leavesOf = db.prepare<[number], Buffer>("SELECT leaf FROM mailbox_log WHERE account = ? ORDER BY seq").pluck();
  const insertTile = db.prepare("INSERT OR IGNORE INTO log_tiles (account, level, idx, hash) VALUES (?, ?, ?, ?)");
  for (const account of accounts) {
    const leaves = leavesOf.all(account);
    if (leaves.length < 16) continue;
    for (const { level, index, hash } of wholeTiles(leaves, 4)) if (level % 8 !== 0) insertTile.run(account, level, index, Buffer.from(hash));
  }
}

/** Positions and leaves for the copies stored before schema version 11: one owner at a time, in id order. */
function backfillPositions(db: Database): void {
  const owners = db.prepare<[], Buffer>("SELECT DISTINCT owner FROM mailbox").pluck().all();
  const copies = db
    .prepare<[Buffer], [number, number, Buffer, Buffer]>(
      "SELECT b.side, b.id, b.peer, m.digest FROM mailbox AS b JOIN messages AS m ON m.id = b.id WHERE b.owner = ? ORDER BY b.id, b.side = 2",
    )
    .raw();
  const insertAccount = db.prepare<[Buffer]>("INSERT INTO log_accounts (address) VALUES (?)");
  const insertPosition = db.prepare("INSERT INTO mailbox_log (account, seq, id, role, leaf) VALUES (?, ?, ?, ?, ?)");
  const setPosition = db.prepare("UPDATE mailbox SET seq = ? WHERE owner = ? AND side = ? AND id = ?");
  const insertTile = db.prepare("INSERT INTO log_tiles (account, level, idx, hash) VALUES (?, ?, ?, ?)");
  for (const owner of owners) {
    const account = insertAccount.run(owner).lastInsertRowid;
    const leaves: Uint8Array[] = [];
    for (const [side, id, peer, digest] of copies.all(owner)) {
      const seq = leaves.length + 1;
      const role: MailboxRole = side === 2 ? "sent" : "received";
      const leaf = mailboxLeafHash({ account: owner, seq, role, peer, digest }, nativeSha256);
      leaves.push(leaf);
      insertPosition.run(account, seq, id, MAILBOX_ROLE_BYTE[role], Buffer.from(leaf));
      setPosition.run(seq, owner, side, id);
    }
    // Tiles of 256 positions, the height of version 11 (version 15 adds those of 16).
    for (const { level, index, hash } of wholeTiles(leaves, 8)) insertTile.run(account, level, index, Buffer.from(hash));
  }
}

/**
 * Undoes version 16 for a downgrade to a relay of spec 3.1: the retention the floor was raised under
 * goes. Run it with every relay stopped, before {@link undoVersion15Sql}.
 */
export const undoVersion16Sql = `
  BEGIN IMMEDIATE;
  ALTER TABLE retention_floor DROP COLUMN retention_seconds;
  DELETE FROM schema_migrations WHERE version = 16;
  COMMIT;
`;

/**
 * Undoes version 15 for a downgrade to a relay that reads tiles of 256 positions: the tiles of 16
 * go (those of 256 stay). Run it with every relay stopped, before {@link undoVersion14Sql}.
 */
export const undoVersion15Sql = `
  BEGIN IMMEDIATE;
  DELETE FROM log_tiles WHERE level % 8 <> 0;
  DELETE FROM schema_migrations WHERE version = 15;
  COMMIT;
`;

/**
 * Undoes version 14 for a downgrade to a relay that keeps no former homes' heads: they go. Run it
 * with every relay stopped, before {@link undoVersion13Sql}.
 */
export const undoVersion14Sql = `
  BEGIN IMMEDIATE;
  DROP TABLE prior_heads;
  DELETE FROM schema_migrations WHERE version = 14;
  COMMIT;
`;

/**
 * Undoes version 13 for a downgrade to a relay that keeps no expiry or retention reasons: the
 * positions keep their place and lose those reasons. Run it with every relay stopped, before
 * {@link undoVersion12Sql}.
 */
export const undoVersion13Sql = `
  BEGIN IMMEDIATE;
  DROP TABLE retention_floor;
  DROP TABLE expired_messages;
  DELETE FROM schema_migrations WHERE version = 13;
  COMMIT;
`;

/**
 * Undoes version 12 for a downgrade to a relay that keeps no deletion reasons: the positions keep
 * their place, and lose the requests that deleted their copies. Run it with every relay stopped,
 * before {@link undoVersion11Sql}.
 */
export const undoVersion12Sql = `
  BEGIN IMMEDIATE;
  DROP TABLE log_removals;
  DROP TABLE deletion_requests;
  DELETE FROM schema_migrations WHERE version = 12;
  COMMIT;
`;

/**
 * Undoes version 11 for a downgrade to a relay without the mailbox log: positions and leaves go (a
 * later upgrade gives the copies then stored new positions, in id order). Run it with every relay
 * stopped, before {@link undoVersion10Sql}.
 */
export const undoVersion11Sql = `
  BEGIN IMMEDIATE;
  DROP TABLE mailbox_log;
  DROP TABLE log_tiles;
  DROP TABLE log_accounts;
  ALTER TABLE mailbox DROP COLUMN seq;
  DELETE FROM schema_migrations WHERE version = 11;
  COMMIT;
`;

/**
 * Undoes version 10 for a downgrade to a relay that does not remember swept digests: a message
 * swept while it could still arrive again may then be stored again. Run it with every relay
 * stopped, before {@link undoVersion9Sql}.
 */
export const undoVersion10Sql = `
  BEGIN IMMEDIATE;
  DROP TABLE swept_digests;
  DELETE FROM schema_migrations WHERE version = 10;
  COMMIT;
`;

/**
 * Undoes version 5 for a downgrade to a relay that knows only version 4: copies each sent row's
 * JSON back from its recipient's row and forgets the version. Run it with every relay stopped
 * (`sqlite3 neutral.sqlite < file`, or through better-sqlite3), after {@link undoVersion6Sql}; the
 * file grows by the copies.
 */
export const undoVersion5Sql = `
  BEGIN IMMEDIATE;
  UPDATE mailbox AS s SET json = (SELECT r.json FROM mailbox AS r WHERE r.owner = s.peer AND r.side = 1 AND r.id = s.id)
    WHERE s.side = 2 AND s.json = '';
  DELETE FROM schema_migrations WHERE version = 5;
  COMMIT;
`;

/**
 * Undoes version 9 for a downgrade to a relay without sender-set expiry: the messages that carry an
 * end keep their `expires` in their JSON but are kept until the retention sweep or their owners
 * delete them. Run it with every relay stopped, before {@link undoVersion8Sql}.
 */
export const undoVersion9Sql = `
  BEGIN IMMEDIATE;
  DROP TABLE message_expiry;
  DELETE FROM schema_migrations WHERE version = 9;
  COMMIT;
`;

/**
 * Undoes version 8 for a downgrade to a relay without consent: the requests folders' messages move
 * into their recipients' inboxes (an older relay knows no other folder), the consent tables go.
 * Run it with every relay stopped, before {@link undoVersion7Sql} if going further back.
 */
export const undoVersion8Sql = `
  BEGIN IMMEDIATE;
  UPDATE mailbox SET side = 1 WHERE side = 3;
  DROP TABLE consent;
  DROP TABLE consent_policy;
  DELETE FROM schema_migrations WHERE version = 8;
  COMMIT;
`;

/**
 * Undoes version 7 for a downgrade to a relay without retention and deletion: messages forget their
 * recipient. Messages already deleted stay deleted. Run it with every relay stopped, after
 * {@link undoVersion8Sql} and before {@link undoVersion6Sql}.
 */
export const undoVersion7Sql = `
  BEGIN IMMEDIATE;
  ALTER TABLE messages DROP COLUMN recipient;
  DELETE FROM schema_migrations WHERE version = 7;
  COMMIT;
`;

/**
 * Undoes version 6 for a downgrade to a relay without federation: the messages still waiting in
 * the outbox turn failed (their senders see why), and federation's tables go. Run it with every
 * relay stopped, before {@link undoVersion5Sql} if going further back.
 */
export const undoVersion6Sql = `
  BEGIN IMMEDIATE;
  UPDATE mailbox SET json = substr(json, 1, length(json) - length('"status":"pending"}')) || '"status":"failed","reason":"not delivered: the node was downgraded"}'
    WHERE side = 2 AND id IN (SELECT id FROM outbox) AND json LIKE '%"status":"pending"}';
  DROP TABLE outbox;
  DROP TABLE destinations;
  DROP TABLE home_records;
  DROP TABLE peer_pins;
  DELETE FROM schema_migrations WHERE version = 6;
  COMMIT;
`;

/** Applies the migrations not yet applied, each in its own transaction; safe to race from several processes. */
export function migrate(db: Database): number[] {
  db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)");
  const applied: number[] = [];
  const isApplied = db.prepare<[number], { version: number }>("SELECT version FROM schema_migrations WHERE version = ?");
  const record = db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
  for (const migration of migrations) {
    db.transaction(() => {
      if (isApplied.get(migration.version)) return;
      db.exec(migration.sql);
      migration.backfill?.(db);
      record.run(migration.version, migration.name, Date.now());
      applied.push(migration.version);
    }).immediate();
  }
  return applied;
}

/** The highest schema version this code knows; a database beyond it was written by newer software. */
export const latestSchemaVersion = migrations[migrations.length - 1]!.version;
