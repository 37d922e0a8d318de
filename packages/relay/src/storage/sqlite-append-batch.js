// Runs batches of appends as SQLite transactions: the writer thread's work (sqlite-writer.js), also
// run on the calling thread by the inline writer (sqlite-append-writer.ts). Plain JavaScript, like
// sqlite-writer.js, so that it runs from the TypeScript sources and from dist/.
import * as nodeCrypto from "node:crypto";
import Database from "better-sqlite3";
import { keccak256 } from "../crypto/keccak.js";
import { MAILBOX_ROLE_BYTE, mailboxLeafHash, merkleRoot, messageJsonTail } from "@neutral/protocol";
import { boundMessageTail, digestSigner, signReceipts } from "./receipt-signer.js";
import { guarded, pause } from "./thread-guard.js";

/**
 * @typedef {object} AppendBatchOptions
 * @property {string} file
 * @property {"FULL" | "NORMAL"} synchronous
 * @property {number} [cacheSize] SQLite's `cache_size` (negative: KiB)
 * @property {number} walAutocheckpoint
 * @property {import("./sqlite-append-writer.js").WriterSchema["sql"]} sql
 * @property {import("./sqlite-append-writer.js").WriterSchema["sides"]} sides
 * @property {Int32Array} [control] in a writer thread: its control array (thread-guard.js), so that
 *   its process's exit never cuts a call into SQLite short, and a wait for the write lock ends at once
 * @property {string} idHead
 * @property {number} tileHeight
 * @property {Uint8Array} [receiptKey] the node's key: appends without a `tail` get receipts it signs
 *   over their copies' positions (receipt-signer.js)
 */

/**
 * Rows a step of the retention pass deletes at most, about (one transaction: sends wait behind it,
 * ~20-40 ms here). The pass groups its messages' rows by owner and by pair, so each leaf page is
 * written once a pass rather than once for each of its rows' batches.
 */
export const SWEEP_STEP_ROWS = 2000;

/** Free pages a sweep transaction gives back to the file system at most (16 MiB of 8 KiB pages, ~60 ms here). */
export const RECLAIM_STEP_PAGES = 2048;
/** Free pages are given back while they are over 1/RECLAIM_FRACTION of the file (`reclaimStep`). */
const RECLAIM_FRACTION = 8;

/**
 * Whether the sweep gives pages back now, on any connection to the file: auto_vacuum INCREMENTAL
 * (sqlite.ts) and over 1/RECLAIM_FRACTION of the file free.
 * @param {import("better-sqlite3").Database} db
 */
export function reclaimDue(db) {
  return db.pragma("auto_vacuum", { simple: true }) === 2 && db.pragma("freelist_count", { simple: true }) > db.pragma("page_count", { simple: true }) / RECLAIM_FRACTION;
}

/**
 * Opens the writer's connection and prepares its statements. `run(batch)` commits the batch as one
 * IMMEDIATE transaction and answers per append its new id, or the stored original of a resend;
 * it throws if the batch could not be committed (nothing of it is then stored).
 *
 * @param {AppendBatchOptions} options
 * @returns {{ run(batch: import("./sqlite-append-writer.js").WireEntry[]): import("./sqlite-append-writer.js").WireResult[], close(): void }}
 */
export function openAppendBatches(options) {
  return guarded(options.control, () => openBatches(options));
}

/** SHA-256 natively for the leaves (crypto/sha256.ts says why; this file runs from the sources in a writer thread). */
const sha256 =
  typeof nodeCrypto.hash === "function" ? (/** @type {Uint8Array} */ data) => nodeCrypto.hash("sha256", data, "buffer") : (/** @type {Uint8Array} */ data) => nodeCrypto.createHash("sha256").update(data).digest();

/** Accounts whose log's end the writer keeps (~100 bytes each); past it, it starts over. */
const ENDS_KEPT = 100_000;

/** A retention pass's work item on `pairs` (mailbox sides are 1..3). */
const PAIR = 0;

/** @param {AppendBatchOptions} options */
function openBatches(options) {
  const { sql, sides, idHead, control, tileHeight } = options;
  const sign = options.receiptKey === undefined ? undefined : digestSigner(options.receiptKey);
  const db = new Database(options.file);
  // Another process's writer may hold the write lock. SQLite's own busy handler sleeps 1, 2, 5, 10…
  // ms between tries, long next to a commit here; whenUnlocked retries every 0.2 ms instead.
  db.pragma("busy_timeout = 0");
  db.pragma("synchronous = " + options.synchronous);
  if (options.cacheSize !== undefined) db.pragma("cache_size = " + options.cacheSize);
  db.pragma("wal_autocheckpoint = " + options.walAutocheckpoint);
  const findByDigest = db.prepare(sql.findByDigest).pluck();
  const findOriginal = db.prepare(sql.findOriginal).pluck();
  const rememberSwept = db.prepare(sql.rememberSwept);
  const forgetSwept = db.prepare(sql.forgetSwept);
  const insertMessage = db.prepare(sql.insertMessage);
  const insertMailbox = db.prepare(sql.insertMailbox);
  const logAccount = db.prepare(sql.logAccount).pluck();
  const insertLogAccount = db.prepare(sql.insertLogAccount);
  const lastLogged = db.prepare(sql.lastLogged).pluck();
  const newestOnSide = db.prepare(sql.newestOnSide).pluck();
  /**
   * Each account's last logged position and last position, as this connection last read or wrote
   * them: looked up once, not at every copy (a random page of `mailbox_log` and the newest copy of
   * each side). Cleared when another connection has committed (`data_version`, read inside each
   * IMMEDIATE transaction) and when a transaction fails.
   * @type {Map<number | bigint, { logged: number, last: number }>}
   */
  const ends = new Map();
  let dataVersion = -1;
  /** Where the log of `owner` (account number `account`) stands: `logged`, its last position in `mailbox_log`; `last`, its last position. */
  function endOf(account, owner) {
    let end = ends.get(account);
    if (end === undefined) {
      // The positions after `logged` (schema version 17) are copies still in the mailbox, stored by
      // appends since: each the newest of its side (a copy's id is the largest so far when it is
      // appended), so the last is the newest copy's of one side.
      const logged = lastLogged.get(account) ?? 0;
      let last = logged;
      for (const side of copySides) last = Math.max(last, newestOnSide.get(owner, side) ?? 0);
      for (const copy of taken) if (copy.seq > last && copy.owner.equals(owner)) last = copy.seq;
      if (ends.size >= ENDS_KEPT) ends.clear();
      ends.set(account, (end = { logged, last }));
    }
    return end;
  }
  const unloggedOnSide = db.prepare(sql.unloggedOnSide);
  const insertPosition = db.prepare(sql.insertPosition);
  const selectLeaves = db.prepare(sql.selectLeaves).pluck();
  const selectTiles = db.prepare(sql.selectTiles).pluck();
  const insertTile = db.prepare(sql.insertTile);
  const tileWidth = 2 ** tileHeight;
  const insertPair = db.prepare(sql.insertPair);
  const insertOutbox = db.prepare(sql.insertOutbox);
  const deleteOutbox = db.prepare(sql.deleteOutbox);
  const updateSent = db.prepare(sql.updateSent);
  const selectJson = db.prepare(sql.selectJson).pluck();
  const selectCopySeq = db.prepare(sql.selectCopySeq).pluck();
  const insertDeletionRequest = db.prepare(sql.insertDeletionRequest);
  const insertRemoval = db.prepare(sql.insertRemoval);
  const deleteMailbox = db.prepare(sql.deleteMailbox);
  const deletePair = db.prepare(sql.deletePair);
  const selectMessage = db.prepare(sql.selectMessage);
  const selectExpired = db.prepare(sql.selectExpired).raw();
  const deleteMessage = db.prepare(sql.deleteMessage);
  const insertExpiry = db.prepare(sql.insertExpiry);
  const selectSenderExpired = db.prepare(sql.selectSenderExpired);
  const deleteExpiry = db.prepare(sql.deleteExpiry);
  const deleteExpiryBelow = db.prepare(sql.deleteExpiryBelow);
  const insertExpiredMessage = db.prepare(sql.insertExpiredMessage);
  const raiseRetentionFloor = db.prepare(sql.raiseRetentionFloor);
  const insertPairIfMissing = db.prepare(sql.insertPairIfMissing);
  const deleteMailboxBelow = db.prepare(sql.deleteMailboxBelow);
  const deletePairBelow = db.prepare(sql.deletePairBelow);
  const deleteOutboxBelow = db.prepare(sql.deleteOutboxBelow);
  const deleteMessagesBelow = db.prepare(sql.deleteMessagesBelow);
  // Space freed by deletions goes back to the file system when the database was made with
  // auto_vacuum = INCREMENTAL (sqlite.ts, `reclaimDue`); elsewhere SQLite reuses it for later rows.
  // Given back only while the free pages are over an eighth of the file: while sends keep storing
  // about what the sweep deletes, they reuse the freed pages, and returning them to the file system
  // only for the next appends to grow the file again would cost both (README, "Retention and
  // deletion"). At most RECLAIM_STEP_PAGES per sweep transaction (the sweep looks every second):
  // incremental_vacuum moves pages from the file's end into the holes, ~30 µs a page here, and an
  // unbounded one held the writer (every send) for as long as the whole freelist took.
  function reclaimStep() {
    if (reclaimDue(db)) db.pragma("incremental_vacuum(" + RECLAIM_STEP_PAGES + ")");
  }
  /** The sides an account's copies are on: a received copy is in the inbox or the requests folder. */
  const copySides = [sides.received, sides.requests, sides.sent];
  /**
   * Positions taken by the append in progress (each append starts it anew), read where their mailbox
   * rows may not be written yet: a receipt binds both copies' positions, so a message to oneself
   * takes two before either row is stored. One whose row is written is found in both, the same.
   * @type {{ owner: Buffer, seq: number, id: number, side: number, peer: Buffer, digest: Buffer }[]}
   */
  let taken = [];
  /**
   * Stores `owner`'s copy of message `id` (a mailbox row) under the next position of the owner's
   * log (the verifiable mailbox, schema version 11), in the calling transaction; one from an
   * account's history (`direct`) goes into `mailbox_log` at once.
   * @param {Buffer} owner @param {number} side @param {number} id @param {Buffer} peer
   * @param {number} ts @param {string} json @param {Buffer} digest the message's EIP-712 digest
   * @param {boolean} direct
   */
  function insertCopy(owner, side, id, peer, ts, json, digest, direct) {
    return insertMailbox.run(owner, side, id, peer, ts, json, takePosition(owner, side, id, peer, digest, direct));
  }
  /**
   * The next position of `owner`'s log, taken for its copy of message `id`. The position's entry
   * goes into `mailbox_log` with the rest of the account's unlogged ones once it completes a tile
   * (then the tiles it completes are kept), or at once when `direct`; until then it is read from
   * the copy's mailbox row: a commit then writes no page of the account's log tail per copy (bench/HISTORY.md).
   */
  function takePosition(owner, side, id, peer, digest, direct = false) {
    const account = logAccount.get(owner) ?? insertLogAccount.run(owner).lastInsertRowid;
    const end = endOf(account, owner);
    const seq = ++end.last;
    taken.push({ owner, seq, id, side, peer, digest });
    if (direct || seq % tileWidth === 0) logUpTo(account, owner, end.logged, seq);
    return seq;
  }
  /**
   * Writes `owner`'s positions after `logged` up to `last` into `mailbox_log` (with their leaves),
   * and the tiles `last` completes. What must stay in the log when its copy goes (a deletion, the
   * retention, an end) or may not be the newest of its side (an import) is logged first.
   */
  function logUpTo(account, owner, logged, last) {
    /** @type {Map<number, { id: number, side: number, peer: Buffer, digest: Buffer }>} */
    const copies = new Map();
    for (const side of copySides) for (const { seq, id, peer, digest } of unloggedOnSide.all(owner, side, logged)) copies.set(seq, { id, side, peer, digest });
    for (const copy of taken) if (copy.owner.equals(owner) && copy.seq > logged) copies.set(copy.seq, copy);
    for (let seq = logged + 1; seq <= last; seq++) {
      const copy = copies.get(seq);
      // The positions after `logged` are contiguous by construction; a hole is a damaged store, refused.
      if (copy === undefined) throw new Error(`the mailbox log of account ${account} has no copy at position ${seq}`);
      const role = copy.side === sides.sent ? "sent" : "received";
      insertPosition.run(account, seq, copy.id, MAILBOX_ROLE_BYTE[role], Buffer.from(mailboxLeafHash({ account: owner, seq, role, peer: copy.peer, digest: copy.digest }, sha256)));
    }
    endOf(account, owner).logged = last;
    if (last % tileWidth === 0) keepTiles(account, last);
  }
  /** Logs every position of `owner`'s log, when one of `seqs` (positions of copies about to go; all of them by default) is not logged yet. */
  function logBefore(owner, seqs) {
    const account = logAccount.get(owner);
    if (account === undefined) return;
    const { logged, last } = endOf(account, owner);
    if (last > logged && (seqs === undefined || seqs.some((seq) => seq > logged))) logUpTo(account, owner, logged, last);
  }
  /** Logs `owner`'s positions before the retention deletes its copies on `side` below id `below`, when one of them is not logged yet. */
  function logBeforeSweep(owner, side, below) {
    const account = logAccount.get(owner);
    if (account === undefined) return;
    const { logged } = endOf(account, owner);
    for (const copySide of side === sides.received ? [sides.received, sides.requests] : [side]) {
      if (unloggedOnSide.all(owner, copySide, logged).some((copy) => copy.id < below)) return logBefore(owner);
    }
  }
  /**
   * The position `owner`'s copy of message `id` in `role` took, once the copy is gone (every way a
   * copy goes logs its position first), or undefined.
   */
  function positionOf(owner, id, role) {
    const account = logAccount.get(owner);
    return account === undefined ? undefined : selectPositionOf.get(account, id, MAILBOX_ROLE_BYTE[role]);
  }
  /** Keeps the tiles position `seq` completes: level tileHeight from its leaves, each level above from the one below. */
  function keepTiles(account, seq) {
    let below = selectLeaves.all(account, seq - tileWidth, seq);
    for (let level = tileHeight; seq % 2 ** level === 0; level += tileHeight) {
      const index = seq / 2 ** level - 1;
      insertTile.run(account, level, index, Buffer.from(merkleRoot(below, sha256)));
      if (seq % 2 ** (level + tileHeight) !== 0) break;
      below = selectTiles.all(account, level, index + 1 - tileWidth, index + 1);
    }
  }
  const hexBytes = (hex) => Buffer.from(hex.startsWith("0x") ? hex.slice(2) : hex, "hex");
  /**
   * Deletes `owner`'s copies of the messages `ids`; returns the ids still pending (then deletes
   * nothing). `request` (the account's signed deletion, JSON) is kept for each position removed.
   * With `seqs`, only the copies at those positions go.
   * @param {Buffer} owner @param {number[]} ids @param {string | undefined} request @param {number[] | undefined} seqs
   */
  function remove(owner, ids, request, seqs) {
    const rows = [];
    const pending = [];
    for (const id of ids) {
      const row = selectMessage.get(id);
      if (!row || row.recipient === null) continue;
      const sent = row.sender.equals(owner);
      const received = row.recipient.equals(owner);
      if (!sent && !received) continue; // not the owner's message: nothing of it is in the owner's mailbox
      if (sent && deleteOutboxProbe.get(id) !== undefined) pending.push(id);
      rows.push({ id, sender: row.sender, recipient: row.recipient, sent, received });
    }
    if (pending.length > 0) return { pending };
    const named = seqs === undefined ? undefined : new Set(seqs);
    /** The positions of the copies removed (schema version 12). */
    const removed = [];
    /** Whether `owner`'s copy of `id` on one of `sides` goes: it is there, and at a position named (if any are). */
    const takes = (id, ...copySides) => {
      for (const side of copySides) {
        const seq = selectCopySeq.get(owner, side, id);
        if (seq === undefined) continue;
        if (named !== undefined && !named.has(seq)) return false;
        if (seq !== null) removed.push(seq);
        return true;
      }
      return false;
    };
    for (const row of rows) {
      row.received = row.received && takes(row.id, sides.received, sides.requests);
      row.sent = row.sent && takes(row.id, sides.sent);
    }
    if (removed.length > 0) logBefore(owner, removed);
    for (const { id, sender, recipient, sent, received } of rows) {
      if (received && !sent) {
        // The sender's row may have no JSON of its own (schema version 5): it takes the recipient's first.
        const json = selectJson.get(recipient, sides.received, id);
        if (json !== undefined) updateSent.run(json, sender, sides.sent, id);
      }
      if (received) {
        deleteMailbox.run(recipient, sides.received, id);
        deleteMailbox.run(recipient, sides.requests, id);
      }
      if (sent) deleteMailbox.run(sender, sides.sent, id);
      if (!received && !sent) continue;
      // The pair row goes with the last copy.
      const left = [selectJson.get(recipient, sides.received, id), selectJson.get(recipient, sides.requests, id), selectJson.get(sender, sides.sent, id)];
      if (left.every((json) => json === undefined)) deletePair.run(sender, recipient, id);
    }
    if (request !== undefined && removed.length > 0) {
      const account = logAccount.get(owner);
      const kept = insertDeletionRequest.run(request).lastInsertRowid;
      for (const seq of removed) insertRemoval.run(account, seq, kept);
    }
    return { pending: [] };
  }
  /**
   * The retention pass in progress: the (up to) `limit` oldest messages below the floor, all the
   * messages below `end`. Its work is one item per owner side and per pair, each deleting that
   * key's rows below `below` (an owner with more rows than a step is split); then the messages,
   * outbox entries and sender-set ends below `end` go, and the pass is done. Kept on this thread
   * between steps; a step that does not commit leaves it as it was (`run`).
   *
   * @type {{ end: number, count: number, rememberFrom: number, retentionSeconds: number | undefined, work: { owner: Buffer, peer: Buffer | null, side: number, below: number, rows: number }[], next: number } | undefined}
   */
  let pass;
  function planPass(below, limit, rememberFrom, retentionSeconds) {
    /** @type {[number, string, string | null][]} id, sender and recipient (hex, upper case) */
    const rows = selectExpired.all(below, limit);
    if (rows.length === 0) return undefined;
    const end = rows[rows.length - 1][0] + 1;
    // Keys that sort as the tables do: an owner side is "0", the owner's hex, the side's digit
    // (mailbox's key order: owner, then side); a pair is "1", the sender's and the recipient's hex
    // (pairs' key order). Upper-case hex sorts as its bytes, so one string sort puts every table's
    // keys in key order, owner sides before pairs. Sides are single digits (SIDE in sqlite.ts).
    /** @type {Map<string, { owner: string, peer: string | null, side: number, ids: number[] }>} */
    const keys = new Map();
    const add = (key, owner, peer, side, id) => {
      let entry = keys.get(key);
      if (entry === undefined) keys.set(key, (entry = { owner, peer, side, ids: [] }));
      entry.ids.push(id);
    };
    for (const [id, sender, recipient] of rows) {
      add("0" + sender + sides.sent, sender, null, sides.sent, id);
      if (recipient === null) continue;
      add("0" + recipient + sides.received, recipient, null, sides.received, id);
      add("1" + sender + recipient, sender, recipient, PAIR, id);
    }
    const work = [];
    for (const key of [...keys.keys()].sort()) {
      const { owner: ownerHex, peer: peerHex, side, ids } = /** @type {{ owner: string, peer: string | null, side: number, ids: number[] }} */ (keys.get(key));
      const owner = Buffer.from(ownerHex, "hex");
      const peer = peerHex === null ? null : Buffer.from(peerHex, "hex");
      for (let at = 0; at < ids.length; at += SWEEP_STEP_ROWS) {
        const next = at + SWEEP_STEP_ROWS;
        work.push({ owner, peer, side, below: next < ids.length ? ids[next] : end, rows: Math.min(SWEEP_STEP_ROWS, ids.length - at) });
      }
    }
    return { end, count: rows.length, rememberFrom, retentionSeconds, work, next: 0 };
  }
  function runItem({ owner, peer, side, below }) {
    if (side !== PAIR) logBeforeSweep(owner, side, below);
    if (side === PAIR) deletePairBelow.run(owner, peer, below);
    else if (side === sides.received) {
      // A received copy is in the inbox or the requests folder.
      deleteMailboxBelow.run(owner, sides.received, below);
      deleteMailboxBelow.run(owner, sides.requests, below);
    } else deleteMailboxBelow.run(owner, side, below);
  }
  /** One step of the retention pass (planned by the first): see `WireSweep`. */
  function sweep(below, limit, rememberFrom, retentionSeconds) {
    pass ??= planPass(below, limit, rememberFrom, retentionSeconds);
    if (!pass) {
      forgetSwept.run(rememberFrom);
      reclaimStep();
      return { deleted: 0, done: true };
    }
    for (let budget = SWEEP_STEP_ROWS; budget > 0 && pass.next < pass.work.length; ) {
      const item = pass.work[pass.next++];
      runItem(item);
      budget -= item.rows;
    }
    if (pass.next < pass.work.length) return { deleted: 0, done: false };
    // The log says the positions below the floor went by the retention (schema version 13).
    raiseRetentionFloor.run(pass.end, pass.retentionSeconds ?? null);
    deleteOutboxBelow.run(pass.end);
    // What could still arrive again keeps its digest (a resend, a peer's delivery): answered, not stored again.
    rememberSwept.run(pass.end, pass.rememberFrom);
    forgetSwept.run(pass.rememberFrom);
    deleteMessagesBelow.run(pass.end);
    deleteExpiryBelow.run(pass.end);
    const deleted = pass.count;
    pass = undefined;
    reclaimStep();
    return { deleted, done: true };
  }
  /** A copy imported under the id of a message the pass is deleting goes with it (`importAll`). */
  function passTakes(id, owner, peer, side) {
    if (pass && id < pass.end) pass.work.push({ owner, peer, side, below: pass.end, rows: 1 });
  }
  /** Deletes up to `limit` messages whose sender-set end is at most `now`, every copy and trace; returns how many. */
  function sweepExpiring(now, limit) {
    const rows = selectSenderExpired.all(now, limit);
    for (const row of rows) keepExpired(row);
    purge(rows);
    for (const { id } of rows) deleteExpiry.run(id);
    reclaimStep();
    return rows.length;
  }
  /**
   * What the log keeps of a message its sender's end removed (schema version 13, openrpc.json
   * `ExpiredMessage`): its parties, timestamp, end and body's keccak-256, read from one of its copies
   * before they go. When every copy was deleted by its account first, their positions carry the
   * account's requests and nothing is kept.
   */
  function keepExpired({ id, sender, recipient }) {
    /** @param {string | undefined} json */
    const stored = (json) => (json === undefined || json === "" ? undefined : json);
    const json =
      (recipient === null ? undefined : (stored(selectJson.get(recipient, sides.received, id)) ?? stored(selectJson.get(recipient, sides.requests, id)))) ??
      stored(selectJson.get(sender, sides.sent, id));
    if (json === undefined || recipient === null) return;
    const { message, timestamp, expires } = /** @type {{ message: string, timestamp: number, expires: number }} */ (JSON.parse(json));
    insertExpiredMessage.run(id, sender, recipient, timestamp, expires, Buffer.from(keccak256(Buffer.from(message, "hex"))));
  }
  /** Deletes the messages `rows`: every copy, the outbox entry and the message row. */
  function purge(rows) {
    for (const { id, sender, recipient } of rows) {
      if (recipient !== null) logBefore(recipient);
      logBefore(sender);
      if (recipient !== null) {
        // A received copy is in the inbox or in the requests folder, not both.
        if (deleteMailbox.run(recipient, sides.received, id).changes === 0) deleteMailbox.run(recipient, sides.requests, id);
        deletePair.run(sender, recipient, id);
      }
      deleteMailbox.run(sender, sides.sent, id);
      deleteOutbox.run(id);
      deleteMessage.run(id);
    }
  }
  const deleteOutboxProbe = db.prepare("SELECT 1 FROM outbox WHERE id = ?").pluck();
  // The newest first: a resend looked up here is of a recent message (within its arrival window).
  const selectPositionOf = db.prepare("SELECT seq FROM mailbox_log WHERE account = ? AND id = ? AND role = ? ORDER BY seq DESC LIMIT 1").pluck();
  /**
   * `owner`'s copies of messages from its history, in order: a message already here (same digest)
   * keeps its id, and gets `owner`'s copy only if it has none; a new one gets the next id. Each
   * copy keeps its JSON (its original receipts), even a sender's (schema version 5 leaves those
   * empty only for messages whose recipient's row here has the same JSON).
   */
  function importAll(owner, entries) {
    const imported = entries.map((m) => {
      const digest = hexBytes(m.digest);
      const from = hexBytes(m.from);
      const to = hexBytes(m.to);
      let id = findByDigest.get(m.timestamp, digest);
      if (id === undefined) {
        id = Number(insertMessage.run(m.timestamp, digest, from, Date.now(), to).lastInsertRowid);
        if (m.expires !== undefined) insertExpiry.run(id, m.expires);
      }
      const json = idHead + id + '"' + m.tail;
      let answer;
      let created = false;
      if (to.equals(owner)) {
        const held = selectJson.get(to, sides.received, id) ?? selectJson.get(to, sides.requests, id);
        if (held === undefined) created = insertCopy(to, sides.received, id, from, m.timestamp, json, digest, true).changes === 1;
        answer = held ?? json;
      }
      if (from.equals(owner)) {
        const held = selectJson.get(from, sides.sent, id);
        if (held === undefined) created = insertCopy(from, sides.sent, id, to, m.timestamp, json, digest, true).changes === 1 || created;
        // An empty sent row reads its recipient's JSON.
        answer ??= held === "" ? (selectJson.get(to, sides.received, id) ?? selectJson.get(to, sides.requests, id) ?? json) : (held ?? json);
      }
      insertPairIfMissing.run(from, to, id);
      if (created) {
        passTakes(id, owner, null, to.equals(owner) ? sides.received : sides.sent);
        if (to.equals(owner) && from.equals(owner)) passTakes(id, owner, null, sides.sent);
        passTakes(id, from, to, PAIR);
      }
      return { id, json: answer ?? json, created };
    });
    return { imported };
  }
  const appendAll = db.transaction((batch) => {
    const version = db.pragma("data_version", { simple: true });
    if (version !== dataVersion) {
      ends.clear();
      dataVersion = version;
    }
    return batch.map((m) => {
      taken = [];
      if (m.remove) return remove(hexBytes(m.remove.owner), m.remove.ids, m.remove.request, m.remove.seqs);
      if (m.sweep) return sweep(m.sweep.below, m.sweep.limit, m.sweep.rememberFrom, m.sweep.retentionSeconds);
      if (m.sweepExpiring) return sweepExpiring(m.sweepExpiring.now, m.sweepExpiring.limit);
      if (m.import) return importAll(hexBytes(m.import.owner), m.import.entries);
      if (m.settle) {
        // Only an entry still in the outbox is settled: a late second settlement leaves the first.
        if (deleteOutbox.run(m.settle.id).changes === 1) updateSent.run(m.settle.json, hexBytes(m.settle.sender), sides.sent, m.settle.id);
        return 0;
      }
      const digest = hexBytes(m.digest);
      const from = hexBytes(m.from);
      const to = hexBytes(m.to);
      const existing = findOriginal.get({ ts: m.timestamp, digest });
      if (existing !== undefined) {
        // The digest covers the recipient, so the original went to this same mailbox; a message
        // to another node has only its sender's copy here, with its JSON (schema version 6).
        const json = selectJson.get(to, sides.received, existing) || selectJson.get(from, sides.sent, existing) || selectJson.get(to, sides.requests, existing);
        // Deleted by its owners or swept since (a resend carries the same fields, and receipts are
        // deterministic signatures, over the positions its copies took): the original, as it was answered.
        if (json) return { id: existing, json };
        if (m.tail !== undefined) return { id: existing, json: idHead + existing + '"' + m.tail };
        const seqs = { sender: m.route === "in" ? undefined : positionOf(from, existing, "sent"), receiver: m.route === "out" ? undefined : positionOf(to, existing, "received") };
        return { id: existing, json: idHead + existing + '"' + boundMessageTail(m.fields, m.digest, seqs, sign) };
      }
      const id = Number(insertMessage.run(m.timestamp, digest, from, Date.now(), to).lastInsertRowid);
      if (m.expires !== undefined) insertExpiry.run(id, m.expires);
      const out = m.route === "out";
      const request = m.folder === "requests";
      const receivedSide = request ? sides.requests : sides.received;
      // Positions first (the recipient's copy, then the sender's), so that receipts signed here bind them.
      const receiverSeq = out ? undefined : takePosition(to, receivedSide, id, from, digest);
      const senderSeq = m.route === "in" ? undefined : takePosition(from, sides.sent, id, to, digest);
      // The receipts signed here come with the JSON: a worker of a cluster, which holds the fields,
      // is sent them instead of the JSON (topology/cluster/writer.ts).
      const signed = m.tail === undefined ? signReceipts(m.fields, m.digest, { sender: senderSeq, receiver: receiverSeq }, sign) : undefined;
      const json = idHead + id + '"' + (m.tail ?? messageJsonTail({ ...m.fields, ...signed }));
      const answer = signed === undefined ? id : { id, json, created: true, signed };
      if (out) {
        insertMailbox.run(from, sides.sent, id, to, m.timestamp, json, senderSeq);
        insertPair.run(from, to, id);
        insertOutbox.run(id, hexBytes(m.destination), m.lane ?? 0, from, Date.now());
        return answer;
      }
      insertMailbox.run(to, receivedSide, id, from, m.timestamp, json, receiverSeq);
      // The sender's row keeps no JSON (schema version 5): reads take the recipient's. A ~770-byte
      // copy here made the sender's mailbox leaves split every few appends; see sqlite-migrations.ts.
      // A message delivered from another node has no sender's copy here; one into the recipient's
      // requests folder keeps its JSON in the sender's row too (sent reads look in the inbox only).
      if (m.route !== "in") insertMailbox.run(from, sides.sent, id, to, m.timestamp, request ? json : "", senderSeq);
      insertPair.run(from, to, id);
      return answer;
    });
  });
  const sleeper = control ?? new Int32Array(new SharedArrayBuffer(8));
  function whenUnlocked(run) {
    const deadline = Date.now() + 10000;
    for (;;) {
      try {
        return guarded(control, run);
      } catch (error) {
        if (!error || error.code !== "SQLITE_BUSY" || Date.now() > deadline) throw error;
        pause(sleeper, 0.2); // ends early when the thread is asked to stop: the next try throws
      }
    }
  }
  /** The retention pass's position, put back when a transaction that moved it does not commit. */
  const passAt = () => (pass ? { pass, next: pass.next, items: pass.work.length } : { pass });
  function passBack(at) {
    pass = at.pass;
    if (pass) {
      pass.next = at.next;
      pass.work.length = at.items;
    }
  }
  return {
    run: (batch) => {
      const at = passAt();
      try {
        return whenUnlocked(() => {
          passBack(at);
          try {
            return appendAll.immediate(batch);
          } catch (error) {
            // What the transaction logged is not in the file.
            ends.clear();
            throw error;
          }
        });
      } catch (error) {
        passBack(at);
        throw error;
      }
    },
    close: () => guarded(control, () => db.close()),
  };
}
