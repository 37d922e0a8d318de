// Runs batches of appends as SQLite transactions: the writer thread's work (sqlite-writer.js), also
// run on the calling thread by the inline writer (sqlite-append-writer.ts). Plain JavaScript, like
// sqlite-writer.js, so that it runs from the TypeScript sources and from dist/.
import Database from "better-sqlite3";
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
 */

/**
 * Opens the writer's connection and prepares its statements. `run(batch)` commits the batch as one
 * IMMEDIATE transaction and answers per append its new id, or the stored original of a resend;
 * it throws if the batch could not be committed (nothing of it is then stored).
 *
 * @param {AppendBatchOptions} options
 * @returns {{ run(batch: (import("./sqlite-append-writer.js").WireAppend | import("./sqlite-append-writer.js").WireSettle)[]): import("./sqlite-append-writer.js").WireResult[], close(): void }}
 */
export function openAppendBatches(options) {
  return guarded(options.control, () => openBatches(options));
}

/** @param {AppendBatchOptions} options */
function openBatches(options) {
  const { sql, sides, idHead, control } = options;
  const db = new Database(options.file);
  // Another process's writer may hold the write lock. SQLite's own busy handler sleeps 1, 2, 5, 10…
  // ms between tries, long next to a commit here; whenUnlocked retries every 0.2 ms instead.
  db.pragma("busy_timeout = 0");
  db.pragma("synchronous = " + options.synchronous);
  if (options.cacheSize !== undefined) db.pragma("cache_size = " + options.cacheSize);
  db.pragma("wal_autocheckpoint = " + options.walAutocheckpoint);
  const findByDigest = db.prepare(sql.findByDigest).pluck();
  const insertMessage = db.prepare(sql.insertMessage);
  const insertMailbox = db.prepare(sql.insertMailbox);
  const insertPair = db.prepare(sql.insertPair);
  const insertOutbox = db.prepare(sql.insertOutbox);
  const deleteOutbox = db.prepare(sql.deleteOutbox);
  const updateSent = db.prepare(sql.updateSent);
  const selectJson = db.prepare(sql.selectJson).pluck();
  const hexBytes = (hex) => Buffer.from(hex.startsWith("0x") ? hex.slice(2) : hex, "hex");
  const appendAll = db.transaction((batch) =>
    batch.map((m) => {
      if (m.settle) {
        // Only an entry still in the outbox is settled: a late second settlement leaves the first.
        if (deleteOutbox.run(m.settle.id).changes === 1) updateSent.run(m.settle.json, hexBytes(m.settle.sender), sides.sent, m.settle.id);
        return 0;
      }
      const digest = hexBytes(m.digest);
      const from = hexBytes(m.from);
      const to = hexBytes(m.to);
      const existing = findByDigest.get(m.timestamp, digest);
      if (existing !== undefined) {
        // The digest covers the recipient, so the original went to this same mailbox; a message
        // to another node has only its sender's copy here, with its JSON (schema version 6).
        const json = selectJson.get(to, sides.received, existing) ?? selectJson.get(from, sides.sent, existing);
        if (json === undefined || json === "") throw new Error("message " + existing + " is missing from its recipient's mailbox");
        return { id: existing, json };
      }
      const id = Number(insertMessage.run(m.timestamp, digest, from, Date.now()).lastInsertRowid);
      const json = idHead + id + '"' + m.tail;
      if (m.route === "out") {
        insertMailbox.run(from, sides.sent, id, to, m.timestamp, json);
        insertPair.run(from, to, id);
        insertOutbox.run(id, hexBytes(m.destination), m.lane ?? 0, from, Date.now());
        return id;
      }
      insertMailbox.run(to, sides.received, id, from, m.timestamp, json);
      // The sender's row keeps no JSON (schema version 5): reads take the recipient's. A ~770-byte
      // copy here made the sender's mailbox leaves split every few appends; see sqlite-migrations.ts.
      // A message delivered from another node has no sender's copy here.
      if (m.route !== "in") insertMailbox.run(from, sides.sent, id, to, m.timestamp, "");
      insertPair.run(from, to, id);
      return id;
    }),
  );
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
  return {
    run: (batch) => whenUnlocked(() => appendAll.immediate(batch)),
    close: () => guarded(control, () => db.close()),
  };
}
