// The SQLite store's checkpointer thread (see wal-checkpointer.ts): copies committed WAL frames
// back into the database file in the background, so that no commit waits for a checkpoint. Plain
// JavaScript, like sqlite-writer.js, so that it runs from the TypeScript sources and from dist/.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { guarded } from "./thread-guard.js";

const { control } = workerData;

let db;
let timer;
let failing = false;

function connection() {
  if (db === undefined) {
    db = new Database(workerData.file);
    // PASSIVE never waits: it copies what no reader still needs and leaves the rest for next time.
    db.pragma("busy_timeout = 0");
    // FULL: the WAL is synced before its frames are copied, and the database file after.
    db.pragma("synchronous = FULL");
  }
  return db;
}

function checkpoint() {
  try {
    guarded(control, () => connection().pragma("wal_checkpoint(PASSIVE)"));
    failing = false;
  } catch (error) {
    // Another connection's checkpoint (a writer past its fallback size) holds the lock: next time.
    // Anything else is told once per run of failures; the writers' own checkpoints still bound the WAL.
    const code = error && error.code;
    if (code === "WRITER_STOPPED") return; // its process is exiting (thread-guard.js)
    if (code !== "SQLITE_BUSY" && !failing) {
      failing = true;
      parentPort.postMessage({ error: { message: String(error && error.message), code } });
    }
  }
  timer = setTimeout(checkpoint, workerData.intervalMs);
}

parentPort.on("message", (message) => {
  if (message !== "close") return;
  clearTimeout(timer);
  if (db) guarded(control, () => db.close());
  parentPort.close();
});
timer = setTimeout(checkpoint, workerData.intervalMs);
