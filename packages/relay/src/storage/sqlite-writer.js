// The SQLite store's writer thread (see sqlite.ts): its own connection, running each batch of
// appends as one IMMEDIATE transaction and answering once it is committed. Plain JavaScript, so
// that the same file runs as a worker from the TypeScript sources (tests) and from dist/.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

const { sql, sides } = workerData;
const db = new Database(workerData.file);
// Another process's writer may hold the write lock. SQLite's own busy handler sleeps 1, 2, 5, 10…
// ms between tries, long next to a commit here; this thread retries every 0.2 ms instead.
db.pragma("busy_timeout = 0");
db.pragma("synchronous = " + workerData.synchronous);
if (workerData.cacheSize !== undefined) db.pragma("cache_size = " + workerData.cacheSize);
db.pragma("wal_autocheckpoint = " + workerData.walAutocheckpoint);
const findByDigest = db.prepare(sql.findByDigest).pluck();
const insertMessage = db.prepare(sql.insertMessage);
const insertMailbox = db.prepare(sql.insertMailbox);
const insertPair = db.prepare(sql.insertPair);
const selectJson = db.prepare(sql.selectJson).pluck();
const hexBytes = (hex) => Buffer.from(hex.startsWith("0x") ? hex.slice(2) : hex, "hex");
const appendAll = db.transaction((batch) =>
  batch.map((m) => {
    const digest = hexBytes(m.digest);
    const from = hexBytes(m.from);
    const existing = findByDigest.get(digest);
    if (existing !== undefined) {
      const json = selectJson.get(from, sides.sent, existing);
      if (json === undefined) throw new Error("message " + existing + " is missing from its sender's mailbox");
      return { id: existing, json };
    }
    const to = hexBytes(m.to);
    const id = Number(insertMessage.run(digest, from, Date.now()).lastInsertRowid);
    const json = '{"id":"' + id + '"' + m.tail;
    insertMailbox.run(to, sides.received, id, from, m.timestamp, json);
    insertMailbox.run(from, sides.sent, id, to, m.timestamp, json);
    insertPair.run(from, to, id);
    return id;
  }),
);
const pause = new Int32Array(new SharedArrayBuffer(4));
function whenUnlocked(run) {
  const deadline = Date.now() + 10000;
  for (;;) {
    try {
      return run();
    } catch (error) {
      if (!error || error.code !== "SQLITE_BUSY" || Date.now() > deadline) throw error;
      Atomics.wait(pause, 0, 0, 0.2);
    }
  }
}
parentPort.on("message", (batch) => {
  if (batch === "close") {
    db.close();
    parentPort.close();
    return;
  }
  let reply;
  try {
    reply = { results: whenUnlocked(() => appendAll.immediate(batch)) };
  } catch (error) {
    reply = { error: { message: error instanceof Error ? error.message : String(error), code: error && error.code } };
  }
  parentPort.postMessage(reply);
});
