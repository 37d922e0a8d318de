// The bench's PostgreSQL copy of its SQLite store (postgres.mjs `copyStore`) carries the mailbox log:
// every position with its leaf, and the tiles, as the SQLite store has them (without them the copy
// failed on mailbox.seq NOT NULL, and every PostgreSQL figure with it); and `removeAdded` takes a
// send run's positions and the tiles they completed out again, so that the next run appends as the
// first did.
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../testing/temp.js";
import { postgresUrl } from "../test/postgres.js";
import { findPostgresBinDir } from "../dist/testing/postgres.js";
import { openPostgresStore } from "../dist/storage/postgres.js";
import { openSqliteStore } from "../dist/storage/sqlite.js";
import { seed, users } from "./lib.mjs";
import { copyStore, psqlPath, removeAdded, withDatabase } from "./postgres.mjs";

const USERS = 3;
const database = `neutral_bench_test_${randomBytes(6).toString("hex")}`;
let dir;
beforeAll(() => {
  dir = tempDir("neutral-bench-postgres-");
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}, 60_000);

const hex = (bytes) => Buffer.from(bytes).toString("hex");

describe("the bench's PostgreSQL copy", () => {
  it("has the SQLite store's log (positions, leaves, tiles), and a send run's additions are removed with theirs", { timeout: 180_000 }, async () => {
    await seed({ dir, messages: 300, userCount: USERS, deep: 0 });
    const file = path.join(dir, "neutral.sqlite");
    // The SQLite store's whole log, as it serves it (positions are logged a tile at a time: schema version 17).
    const sqliteStore = openSqliteStore({ file });
    const sqliteLog = [];
    for (const owner of users(USERS).map((user) => user.address.toLowerCase()).sort()) {
      for (const entry of await sqliteStore.log(owner, 1, 1000)) sqliteLog.push({ owner: owner.slice(2), seq: entry.seq, leaf: entry.leafHash.slice(2) });
    }
    await sqliteStore.close();
    const sqlite = new Database(file, { readonly: true });
    const sqliteTiles = sqlite.prepare("SELECT lower(hex(a.address)) AS owner, t.level, t.idx, lower(hex(t.hash)) AS hash FROM log_tiles t JOIN log_accounts a ON a.n = t.account ORDER BY 1, 2, 3").all();
    sqlite.close();
    expect(sqliteLog).toHaveLength(600);
    expect(sqliteTiles.length).toBeGreaterThan(0);

    const url = withDatabase(postgresUrl, database);
    const copied = await copyStore({ adminUrl: postgresUrl, url, database, file, psql: psqlPath(findPostgresBinDir()), log: () => {} });
    expect(copied.mailboxRows).toBe(600);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const log = async () => (await client.query("SELECT owner, seq::int AS seq, leaf_hash FROM mailbox_log ORDER BY owner, seq")).rows.map((row) => ({ owner: hex(row.owner), seq: row.seq, leaf: hex(row.leaf_hash) }));
      const tiles = async () => (await client.query("SELECT owner, level::int AS level, idx::int AS idx, hash FROM log_tiles ORDER BY owner, level, idx")).rows.map((row) => ({ owner: hex(row.owner), level: row.level, idx: row.idx, hash: hex(row.hash) }));
      expect(await log()).toEqual(sqliteLog);
      expect(await tiles()).toEqual(sqliteTiles);
      // Every copy's position is its log's: the mailbox rows point at the leaves copied.
      const unmatched = await client.query("SELECT count(*)::int AS n FROM mailbox b LEFT JOIN mailbox_log l ON l.owner = b.owner AND l.seq = b.seq AND l.id = b.id WHERE l.id IS NULL");
      expect(unmatched.rows[0].n).toBe(0);

      // Two send runs through the store (each completes tiles), each removed after.
      const addresses = users(USERS).map((user) => user.address);
      const signature = () => `0x${hex(crypto.getRandomValues(new Uint8Array(64)))}1b`;
      for (let run = 0; run < 2; run++) {
        const store = await openPostgresStore({ url, poolSize: 2 });
        try {
          const results = await Promise.all(
            Array.from({ length: 80 }, (_, i) =>
              store.append({
                from: addresses[i % USERS],
                to: addresses[(i + 1) % USERS],
                message: "ab".repeat(40),
                timestamp: Date.now() + i,
                signature: signature(),
                senderReceipt: signature(),
                receiverReceipt: signature(),
                digest: crypto.getRandomValues(new Uint8Array(32)),
              }),
            ),
          );
          expect(results.every((result) => result.created)).toBe(true);
        } finally {
          await store.close();
        }
        expect((await tiles()).length).toBeGreaterThan(sqliteTiles.length);
        const removed = await removeAdded(client, copied.maxId);
        expect(removed).toEqual({ messages: 80, mailboxRows: 160 });
        expect(await log()).toEqual(sqliteLog);
        expect(await tiles()).toEqual(sqliteTiles);
      }
    } finally {
      await client.end();
    }
  });
});
