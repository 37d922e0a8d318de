// Closing a store, and exiting a process, while its writer thread is in the middle of a batch:
// nothing acknowledged is lost, and the process never crashes. A writer waiting out another
// connection's write lock retries every 0.2 ms; a process exiting meanwhile used to die now and
// then with `FATAL ERROR: v8::ToLocalChecked Empty MaybeLocal` (better-sqlite3 building its error
// in a thread being torn down; storage/thread-guard.js).
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { afterEach, beforeEach, expect, it } from "vitest";
import { everyStoreCall, randomAddress, testMessage } from "../../testing/store-conformance.js";
import { isRelayError, StoreClosedError } from "../errors.js";
import type { AcceptedMessage } from "../message.js";
import { openSqliteStore } from "./sqlite.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "neutral-sqlite-close-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** id → hex digest of every message stored in `file`. */
function storedDigests(file: string): Map<number, string> {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare("SELECT id, hex(digest) AS digest FROM messages").all() as { id: number; digest: string }[];
    return new Map(rows.map((row) => [row.id, row.digest.toLowerCase()]));
  } finally {
    db.close();
  }
}

it("close() while batches are in flight (some waiting for the write lock) commits them all, refuses what comes after, and loses nothing", async () => {
  const file = path.join(dir, "close.sqlite");
  const acknowledged = new Map<number, string>();
  for (let round = 0; round < 16; round++) {
    const store = openSqliteStore({ file, synchronous: "normal" });
    const lock = new Database(file);
    const appends: Promise<void>[] = [];
    const append = (message: AcceptedMessage) =>
      appends.push(store.append(message).then(({ stored }) => void acknowledged.set(stored.id, Buffer.from(message.digest).toString("hex"))));
    for (let turn = 0; turn < 4; turn++) {
      for (let i = 0; i < 6; i++) append(testMessage(randomAddress(), randomAddress()));
      // Every other round another connection takes the write lock for a while: the writer retries.
      if (turn === 1 && round % 2 === 1) {
        lock.exec("BEGIN IMMEDIATE");
        setTimeout(() => lock.exec("COMMIT"), round % 7);
      }
      await nextTurn();
    }
    const closing = store.close();
    const late = store.append(testMessage(randomAddress(), randomAddress())).then(
      () => undefined,
      (error: unknown) => error,
    );
    await closing;
    await expect(Promise.all(appends), `round ${round}`).resolves.toBeDefined(); // every append made before close() is acknowledged
    const refusal = await late;
    expect(refusal).toBeInstanceOf(StoreClosedError);
    expect(isRelayError(refusal) && refusal.code).toBe("STORE_CLOSED");
    if (lock.inTransaction) lock.exec("COMMIT");
    lock.close();
  }
  expect(acknowledged.size).toBe(16 * 4 * 6);
  expect(storedDigests(file)).toEqual(acknowledged);
});

it("a store refuses every call once closed with StoreClosedError (code STORE_CLOSED), not a driver error", async () => {
  const store = openSqliteStore({ file: path.join(dir, "closed.sqlite") });
  await store.append(testMessage(randomAddress(), randomAddress()));
  await store.close();
  for (const [name, call] of everyStoreCall(store)) {
    const error = await call().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error, name).toBeInstanceOf(StoreClosedError);
    expect((error as StoreClosedError).code, name).toBe("STORE_CLOSED");
  }
  await store.close(); // again: fine
});

// A process that exits (process.exit) while its stores' writers are mid-batch: one in a batch that
// fails after a while in SQLite (a slow trigger: the failure is built as the exit tears the thread
// down, which crashed every time before the fix), the others waiting for the write lock.
const EXIT_SCRIPT = (betterSqlite3: string, sqliteStore: string) => `
import { randomBytes } from "node:crypto";
import Database from ${JSON.stringify(betterSqlite3)};
import { openSqliteStore } from ${JSON.stringify(sqliteStore)};
const [dir, stores, exitAfterMs] = process.argv.slice(2);
const address = () => "0x" + randomBytes(20).toString("hex");
const message = (to = address()) => ({ from: address(), to, message: "abcd", timestamp: Date.now(), digest: new Uint8Array(randomBytes(32)),
  signature: "0x" + "1".repeat(130), senderReceipt: "0x" + "2".repeat(130), receiverReceipt: "0x" + "3".repeat(130) });
const acknowledged = [];
const doomed = address();
for (let i = 0; i < Number(stores); i++) {
  const file = dir + "/db" + i + ".sqlite";
  const store = openSqliteStore({ file, synchronous: "normal" });
  const sent = [message(), message()];
  const results = await Promise.all(sent.map((m) => store.append(m)));
  results.forEach((r, k) => acknowledged.push([i, r.stored.id, Buffer.from(sent[k].digest).toString("hex")]));
  const other = new Database(file);
  if (i === 0) {
    other.exec(\`CREATE TRIGGER slow BEFORE INSERT ON pairs WHEN NEW.recipient = x'\${doomed.slice(2)}' BEGIN
      SELECT RAISE(ABORT, 'refused after a while') FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000)
      SELECT count(*) AS n FROM c) WHERE n > 0; END\`);
    other.close();
    store.append(message(doomed)).catch(() => {});
  } else {
    other.exec("BEGIN IMMEDIATE"); // held until the exit: the writer retries
    for (let k = 0; k < 3; k++) store.append(message()).catch(() => {});
  }
}
process.stdout.write(JSON.stringify(acknowledged) + "\\n");
setTimeout(() => process.exit(0), Number(exitAfterMs));
`;

it("a process exiting while its writers are mid-batch (in a failing batch, waiting for the write lock) exits cleanly, every acknowledged message stored", async () => {
  const script = path.join(dir, "exit.mjs");
  const dist = fileURLToPath(new URL("../../dist/storage/sqlite.js", import.meta.url));
  writeFileSync(script, EXIT_SCRIPT(pathToFileURL(createRequire(import.meta.url).resolve("better-sqlite3")).href, pathToFileURL(dist).href));
  for (let i = 0; i < 3; i++) {
    const where = path.join(dir, `run${i}`);
    mkdirSync(where);
    const outcome = await new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [script, where, "4", String(10 + 15 * i)], { timeout: 30_000 }, (_error, stdout, stderr) =>
        resolve({ code: child.exitCode, signal: child.signalCode, stdout, stderr }),
      );
    });
    expect(outcome.stderr, `run ${i}`).toBe("");
    expect({ code: outcome.code, signal: outcome.signal }, `run ${i}`).toEqual({ code: 0, signal: null });
    const acknowledged = JSON.parse(outcome.stdout.trim()) as [number, number, string][];
    expect(acknowledged).toHaveLength(8);
    for (const [store, id, digest] of acknowledged) expect(storedDigests(path.join(where, `db${store}.sqlite`)).get(id), `run ${i}, db${store}, id ${id}`).toBe(digest);
  }
}, 60_000);
