import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { messageJson, messageJsonTail, type AcceptedMessage } from "../message.js";
import { BASE_TIMESTAMP, CONFORMANCE_NODE_KEY, describeStoreConformance, randomAddress, testKeyBundle, testMessage, type TestMessage } from "../../testing/store-conformance.js";
import { DEFAULT_CACHE_KIB, WRITER_CACHE_KIB, WRITER_SCHEMA, openSqliteStore, startStoreWriter } from "./sqlite.js";
import { RECLAIM_STEP_PAGES, SWEEP_STEP_ROWS, openAppendBatches } from "./sqlite-append-batch.js";
import { TILE_HEIGHT, wholeTiles } from "../mailbox-log/tree.js";
import { toHex } from "@neutral/protocol";
import type { WireAppend } from "./sqlite-append-writer.js";
import { latestSchemaVersion, migrate, migrations, undoVersion5Sql, undoVersion6Sql, undoVersion7Sql, undoVersion8Sql, undoVersion9Sql, undoVersion10Sql, undoVersion11Sql, undoVersion12Sql, undoVersion13Sql, undoVersion14Sql, undoVersion15Sql, undoVersion16Sql, undoVersion17 } from "./sqlite-migrations.js";
import type { AppendResult, LogEntry, MailboxRange, MessageStore, PageQuery, StoredKeyBundle } from "./store.js";

type Connection = Database.Database;

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), "neutral-sqlite-"));

describeStoreConformance("sqlite", async () => {
  const dir = tempDir();
  const file = path.join(dir, "relay.db");
  return {
    store: openSqliteStore({ file }),
    reopen: async (options) => openSqliteStore({ file, ...options }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

// As the relay's cluster primary commits its workers' appends: on its own thread.
describeStoreConformance("sqlite, writer on the calling thread", async () => {
  const dir = tempDir();
  const file = path.join(dir, "relay.db");
  // The writer signs the receipts, with the key the suite gives its stores.
  const open = (options?: { retentionMs?: number; sweptDigestsMs?: number }) => openSqliteStore({ file, writer: startStoreWriter({ file, inline: true, receiptKey: CONFORMANCE_NODE_KEY }), ...options });
  return { store: open(), reopen: async (options) => open(options), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
});

/** The connections `body` makes better-sqlite3 open (seen through their first `prepare`). */
function connectionsOpenedBy<T>(body: () => T): { result: T; connections: Connection[] } {
  const prepare = vi.spyOn(Database.prototype, "prepare");
  try {
    const result = body();
    const connections = [...new Set(prepare.mock.contexts as Connection[])];
    return { result, connections };
  } finally {
    prepare.mockRestore();
  }
}

describe("SQLite store specifics", () => {
  let dir: string;
  let file: string;
  const toClose: { close(): unknown }[] = [];

  beforeEach(() => {
    dir = tempDir();
    file = path.join(dir, "relay.db");
  });

  afterEach(async () => {
    for (const handle of toClose.splice(0).reverse()) await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (options: { synchronous?: "full" | "normal"; migrate?: boolean; cacheSizeKiB?: number; retentionMs?: number } = {}): MessageStore => {
    const store = openSqliteStore({ file, ...options });
    toClose.push(store);
    return store;
  };
  /** A separate connection to the same file, as another process would have. */
  const connect = (options: Database.Options = {}): Connection => {
    const db = new Database(file, options);
    toClose.push(db);
    return db;
  };

  describe("space reclaimed (retention and deletion)", () => {
    /** The database's size in pages as every connection sees it (the WAL included), and its free pages. */
    const pages = (db: Connection) => ({ total: db.pragma("page_count", { simple: true }) as number, free: db.pragma("freelist_count", { simple: true }) as number });

    it("a new database gives the pages its sweep frees back to the file system (auto_vacuum INCREMENTAL)", { timeout: 30_000 }, async () => {
      const retentionMs = 1000;
      const store = open({ retentionMs });
      const other = connect();
      expect(other.pragma("auto_vacuum", { simple: true }), "INCREMENTAL").toBe(2);
      const empty = pages(other).total;
      const body = "ab".repeat(4096); // 4 KiB of ciphertext a message
      await Promise.all(Array.from({ length: 1000 }, (_, i) => store.append(testMessage(randomAddress(), randomAddress(), { message: body, timestamp: BASE_TIMESTAMP + i }))));
      const full = pages(other).total;
      expect(full - empty, "1000 messages of 4 KiB take over 4 MB").toBeGreaterThan((4 * 1024 * 1024) / 8192);
      await new Promise((resolve) => setTimeout(resolve, retentionMs + 1100));
      let swept = 0;
      for (let deleted = -1; deleted !== 0; ) swept += deleted = await store.sweepExpired(500);
      expect(swept).toBe(1000);
      const after = pages(other);
      console.log(`[reclaim] SQLite: ${empty} pages empty, ${full} with 1000 messages of 4 KiB, ${after.total} after the sweep (${after.free} free)`);
      expect(after.total - empty, "the file is back near its empty size").toBeLessThan((full - empty) / 10);
      expect(after.free).toBeLessThan(50);
    });

    it("keeps what a sweep frees for the next appends while it is under an eighth of the file, instead of giving it back and growing again", { timeout: 30_000 }, async () => {
      const retentionMs = 1000;
      const store = open({ retentionMs });
      const other = connect();
      const body = "ab".repeat(4096);
      const fill = (count: number, from: number) =>
        Promise.all(Array.from({ length: count }, (_, i) => store.append(testMessage(randomAddress(), randomAddress(), { message: body, timestamp: BASE_TIMESTAMP + from + i }))));
      await fill(1000, 0);
      await new Promise((resolve) => setTimeout(resolve, retentionMs + 1100));
      const full = pages(other);
      expect(await store.sweepExpired(100)).toBe(100); // about a tenth of the file
      const swept = pages(other);
      expect(swept.total, "not given back").toBe(full.total);
      expect(swept.free).toBeGreaterThan(90);
      expect(swept.free).toBeLessThan(full.total / 8);
      await fill(100, 1000);
      const refilled = pages(other);
      expect(refilled.total - full.total, "the appends reused the freed pages").toBeLessThan(swept.free / 4);
      // Past an eighth: given back, all of it (fewer pages than a step) in the sweep's own transaction.
      expect(await store.sweepExpired(200)).toBe(200);
      expect(pages(other).total).toBeLessThan(refilled.total - 150);
      expect(pages(other).free).toBeLessThan(pages(other).total / 8);
    });

    it(`gives back at most ${RECLAIM_STEP_PAGES} pages a sweep transaction, the rest in the next ones, even those that delete nothing`, { timeout: 60_000 }, async () => {
      const retentionMs = 1000;
      const store = open({ retentionMs });
      const other = connect();
      const body = "ab".repeat(4096);
      await Promise.all(Array.from({ length: 3000 }, (_, i) => store.append(testMessage(randomAddress(), randomAddress(), { message: body, timestamp: BASE_TIMESTAMP + i }))));
      await new Promise((resolve) => setTimeout(resolve, retentionMs + 1100));
      const full = pages(other);
      expect(await store.sweepExpired(3000)).toBe(3000);
      const first = pages(other);
      // incremental_vacuum(N) takes N pages off the freelist; a pointer-map page may go with them.
      expect(full.total - first.total).toBeGreaterThanOrEqual(RECLAIM_STEP_PAGES);
      expect(full.total - first.total).toBeLessThanOrEqual(RECLAIM_STEP_PAGES + 8);
      expect(first.free, "more was freed than one step gives back").toBeGreaterThan(0);
      // The sweep of sender-set ends runs every second and finds nothing due: it goes on giving back,
      // a step each time, while over an eighth of the file is free.
      let previous = first;
      let steps = 0;
      while (previous.free > previous.total / 8) {
        expect(await store.sweepSenderExpired(100, Date.now())).toBe(0);
        const now = pages(other);
        expect(previous.total - now.total).toBeGreaterThan(0);
        expect(previous.total - now.total).toBeLessThanOrEqual(RECLAIM_STEP_PAGES + 8);
        previous = now;
        expect(++steps).toBeLessThan(10);
      }
      // What stays: the mailbox log, whose positions outlive their messages (schema version 11).
      const logPages = other
        .prepare<[], number>("SELECT count(*) FROM dbstat WHERE name IN ('mailbox_log', 'log_accounts', 'sqlite_autoindex_log_accounts_1')")
        .pluck()
        .get()!;
      expect(logPages).toBeGreaterThan(20);
      expect(previous.total - logPages, "back near an empty file with the log").toBeLessThan(100);
      // Nothing more to give back: the next sweep leaves the file alone.
      expect(await store.sweepSenderExpired(100, Date.now())).toBe(0);
      expect(pages(other)).toEqual(previous);
    });

    it("a database made before auto_vacuum keeps working: its freed pages are reused", { timeout: 30_000 }, async () => {
      const old = connect();
      old.pragma("auto_vacuum = NONE");
      migrate(old);
      const store = open({ retentionMs: 60_000 });
      const alice = randomAddress();
      const bob = randomAddress();
      const { stored } = await store.append(testMessage(alice, bob, { message: "cd".repeat(8192) }));
      expect(await store.deleteMessages(bob, [stored.id])).toEqual({ pending: [] });
      expect(await store.deleteMessages(alice, [stored.id])).toEqual({ pending: [] });
      expect(old.pragma("auto_vacuum", { simple: true })).toBe(0);
      expect(pages(old).free, "freed pages are kept for reuse").toBeGreaterThan(0);
    });
  });

  describe("the retention pass (rows grouped by owner, deleted in steps)", () => {
    // Addresses that sort first: their groups are deleted in a pass's first step.
    const first = "0x0000000000000000000000000000000000000001";
    const second = "0x0000000000000000000000000000000000000002";
    const expired = async (retentionMs: number) => new Promise((resolve) => setTimeout(resolve, retentionMs + 1100));

    it(`deletes a pass in steps of about ${SWEEP_STEP_ROWS} rows, each a transaction of its own, the messages themselves last`, { timeout: 60_000 }, async () => {
      const retentionMs = 1000;
      const writer = startStoreWriter({ file, inline: true, checkpointer: false });
      const store = openSqliteStore({ file, writer, retentionMs });
      toClose.push(store, writer);
      const other = connect({ readonly: true });
      const count = (sql: string) => other.prepare(sql).pluck().get() as number;
      // 1,500 messages: a received row, a sent row and a pair each, 4,500 rows.
      const ids = [];
      for (let i = 0; i < 1500; i += 100) {
        ids.push(...(await Promise.all(Array.from({ length: 100 }, (_, k) => store.append(testMessage(i + k < 10 ? first : randomAddress(), randomAddress()))))).map((r) => r.stored.id));
      }
      await expired(retentionMs);
      const below = Math.max(...ids) + 1;
      const steps = [];
      for (;;) {
        const step = await writer.append({ sweep: { below, limit: 10_000, rememberFrom: Date.now() } });
        steps.push(step);
        expect(steps.length).toBeLessThan(10);
        if (typeof step === "object" && "done" in step && step.done) break;
        // Committed: another connection sees the rows of this step gone, the messages still there.
        expect(count("SELECT count(*) FROM messages")).toBe(1500);
        if (steps.length === 1) expect(count(`SELECT count(*) FROM mailbox WHERE owner = X'${first.slice(2)}'`), "the first owner's group went first").toBe(0);
      }
      expect(steps).toEqual([{ deleted: 0, done: false }, { deleted: 0, done: false }, { deleted: 1500, done: true }]);
      expect(count("SELECT count(*) FROM messages") + count("SELECT count(*) FROM mailbox") + count("SELECT count(*) FROM pairs")).toBe(0);
      // Nothing left: the next pass finds nothing, in one step.
      expect(await writer.append({ sweep: { below, limit: 10_000, rememberFrom: Date.now() } })).toEqual({ deleted: 0, done: true });
    });

    it("a step whose transaction fails leaves the pass where it was: the next step does that work again", { timeout: 60_000 }, async () => {
      const retentionMs = 1000;
      const writer = startStoreWriter({ file, inline: true, checkpointer: false });
      const store = openSqliteStore({ file, writer, retentionMs });
      toClose.push(store, writer);
      for (let i = 0; i < 1500; i += 100) await Promise.all(Array.from({ length: 100 }, () => store.append(testMessage(randomAddress(), randomAddress()))));
      await expired(retentionMs);
      const sweep = { sweep: { below: 1_000_000, limit: 10_000, rememberFrom: Date.now() } };
      expect(await writer.append(sweep)).toEqual({ deleted: 0, done: false });
      // The second step shares its transaction with an entry SQLite refuses: both are rolled back.
      const broken = { from: randomAddress(), to: randomAddress(), timestamp: BASE_TIMESTAMP, digest: 42, tail: "" } as unknown as WireAppend; // a digest that is no hex
      const [step, refused] = await Promise.allSettled([writer.append(sweep), writer.append(broken)]);
      expect(step.status).toBe("rejected");
      expect(refused.status).toBe("rejected");
      // Done in the steps that were to come, and complete: nothing is left of any of the 1,500.
      expect(await writer.append(sweep)).toEqual({ deleted: 0, done: false });
      expect(await writer.append(sweep)).toEqual({ deleted: 1500, done: true });
      const other = connect({ readonly: true });
      for (const table of ["messages", "mailbox", "pairs"]) expect(other.prepare(`SELECT count(*) FROM ${table}`).pluck().get(), table).toBe(0);
    });

    it("takes with it a copy imported, mid-pass, under the id of a message it is deleting", { timeout: 60_000 }, async () => {
      const retentionMs = 1000;
      const store = open({ retentionMs });
      // Delivered from another node for the second account: only its received copy is here.
      const delivered = testMessage(first, second, { route: { kind: "inbound" } });
      const { stored } = await store.append(delivered);
      for (let i = 0; i < 1500; i += 100) await Promise.all(Array.from({ length: 100 }, () => store.append(testMessage(randomAddress(), randomAddress()))));
      await expired(retentionMs);
      // The sender moves here and imports its copy while the pass runs: its group (it sorts first)
      // went in the pass's first step, before the import commits.
      const sweeping = store.sweepExpired(10_000);
      const importing = store.importMessages(first, [{ fields: { ...delivered, receiverReceipt: delivered.receiverReceipt! }, digest: delivered.digest }]);
      expect(await importing).toEqual([expect.objectContaining({ id: stored.id, created: true })]);
      expect(await sweeping).toBe(1501);
      // With the policy off, nothing of it is left: not the imported copy either.
      const reopened = open();
      for (const owner of [first, second]) {
        expect(await reopened.page({ owner, ranges: [{ side: "sent" }, { side: "received" }], order: "asc", after: 0, limit: 10 })).toEqual({ messages: [], end: true });
      }
      const rows = connect({ readonly: true }).prepare("SELECT count(*) FROM mailbox").pluck().get();
      expect(rows).toBe(0);
    });
  });

  describe("footprint and migrated (metrics, GET /ready)", () => {
    it("counts the messages stored (a resend is not one) and the file's pages, as another connection sees them", async () => {
      const store = open();
      const message = testMessage(randomAddress(), randomAddress());
      await store.append(message);
      await store.append(message);
      await store.append(testMessage(randomAddress(), randomAddress()));
      const db = connect({ readonly: true });
      const pages = db.pragma("page_count", { simple: true }) as number;
      expect(await store.footprint()).toEqual({ bytes: pages * 8192, messages: 2 });
    });

    it("says the schema is behind when a migration is missing", async () => {
      await open().close();
      connect().prepare("DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)").run();
      expect(await open({ migrate: false }).migrated()).toBe(false);
    });
  });

  describe("pragmas", () => {
    it("puts the file in WAL mode (seen from another connection)", async () => {
      const store = open();
      await store.append(testMessage(randomAddress(), randomAddress()));
      const other = connect({ readonly: true });
      expect(other.pragma("journal_mode", { simple: true })).toBe("wal");
    });

    it("runs its own connection with synchronous FULL by default, NORMAL when asked", () => {
      // `synchronous` belongs to a connection (another one would report its own default:
      // better-sqlite3 builds with DEFAULT_WAL_SYNCHRONOUS=1), so this asks the store's connection
      // on this thread itself. A writer thread's own connection can't be seen from here.
      const { connections: full } = connectionsOpenedBy(() => open());
      expect(full).toHaveLength(1);
      expect(full[0]!.name).toBe(file);
      expect(full[0]!.pragma("synchronous", { simple: true })).toBe(2); // FULL
      expect(full[0]!.pragma("journal_mode", { simple: true })).toBe("wal");

      const { connections: normal } = connectionsOpenedBy(() => open({ synchronous: "normal" }));
      expect(normal).toHaveLength(1);
      expect(normal[0]!.pragma("synchronous", { simple: true })).toBe(1); // NORMAL
    });

    it("gives its connection a 2 MiB page cache, not better-sqlite3's 16 MB, unless told otherwise", () => {
      const { connections: byDefault } = connectionsOpenedBy(() => open());
      expect(byDefault[0]!.pragma("cache_size", { simple: true })).toBe(-DEFAULT_CACHE_KIB);
      expect(DEFAULT_CACHE_KIB).toBe(2048);
      expect(connect().pragma("cache_size", { simple: true })).toBe(-16000); // what a plain connection gets
      const { connections: bulk } = connectionsOpenedBy(() => open({ cacheSizeKiB: 65536 }));
      expect(bulk[0]!.pragma("cache_size", { simple: true })).toBe(-65536);
    });

    it("reads through a memory map of the size asked for, none unless asked", () => {
      const { connections: plain } = connectionsOpenedBy(() => open());
      expect(plain[0]!.pragma("mmap_size", { simple: true })).toBe(0);
      const { result: store, connections: mapped } = connectionsOpenedBy(() => openSqliteStore({ file, mmapBytes: 64 * 1024 * 1024 }));
      toClose.push(store);
      expect(mapped[0]!.pragma("mmap_size", { simple: true })).toBe(64 * 1024 * 1024);
    });

    it("gives the writer's connection a 32 MiB page cache (the sweep's deletes touch pages all over the file)", async () => {
      open(); // creates the schema
      const prepare = vi.spyOn(Database.prototype, "prepare");
      try {
        const writer = startStoreWriter({ file, inline: true, checkpointer: false });
        toClose.push(writer);
        expect(await writer.append({ sweep: { below: 1, limit: 1, rememberFrom: 0 } })).toEqual({ deleted: 0, done: true });
        const connections = [...new Set(prepare.mock.contexts as Connection[])];
        expect(connections).toHaveLength(1);
        expect(connections[0]!.pragma("cache_size", { simple: true })).toBe(-WRITER_CACHE_KIB);
        expect(WRITER_CACHE_KIB).toBe(32768);
      } finally {
        prepare.mockRestore();
      }
    });
  });

  describe("migrations", () => {
    const recorded = (db: Connection) =>
      db.prepare<[], { version: number; name: string; applied_at: number }>("SELECT version, name, applied_at FROM schema_migrations ORDER BY version").all();

    it("records every migration in schema_migrations and creates the schema", () => {
      const started = Date.now();
      open();
      const other = connect({ readonly: true });
      const rows = recorded(other);
      expect(rows.map(({ version, name }) => ({ version, name }))).toEqual(migrations.map(({ version, name }) => ({ version, name })));
      for (const row of rows) expect(row.applied_at).toBeGreaterThanOrEqual(started - 1000);
      expect(Math.max(...rows.map((r) => r.version))).toBe(latestSchemaVersion);
      const objects = other.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name").all().map((r) => r.name);
      expect(objects).toEqual(
        expect.arrayContaining(["key_bundles", "mailbox", "messages", "messages_by_time", "pairs", "schema_migrations", "home_records", "outbox", "outbox_by_destination", "destinations", "peer_pins", "message_expiry", "message_expiry_by_time", "swept_digests", "swept_digests_by_age", "mailbox_log", "log_accounts", "log_tiles", "deletion_requests", "log_removals", "expired_messages", "retention_floor", "prior_heads"]),
      );
      expect(objects).not.toContain("mailbox_by_peer");
      expect(objects).not.toContain("messages_v4");
      // The digest's own UNIQUE index is gone with the rebuilt table (schema version 4).
      expect(other.prepare("SELECT count(*) AS n FROM sqlite_master WHERE tbl_name = 'messages' AND type = 'index'").get()).toEqual({ n: 1 });
      expect(latestSchemaVersion).toBe(17);
    });

    it("upgrades a version-1 database: key_bundles added, pairs filled, messages rebuilt; the messages stay, chats read, resends are found, ids go on", async () => {
      // A database as the relay before key bundles left it: migration 1 only, one message stored.
      const v1 = connect();
      v1.exec("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)");
      v1.exec(migrations[0]!.sql);
      v1.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (1, ?, 1)").run(migrations[0]!.name);
      const [alice, bob] = [randomAddress(), randomAddress()];
      const message = testMessage(alice, bob);
      const json = messageJson(1, message);
      v1.prepare("INSERT INTO messages (id, digest, sender, accepted_at) VALUES (1, ?, ?, 1)").run(Buffer.from(message.digest), Buffer.from(alice.slice(2), "hex"));
      const insert = v1.prepare("INSERT INTO mailbox (owner, side, id, peer, ts, json) VALUES (?, ?, 1, ?, ?, ?)");
      insert.run(Buffer.from(bob.slice(2), "hex"), 1, Buffer.from(alice.slice(2), "hex"), message.timestamp, json);
      insert.run(Buffer.from(alice.slice(2), "hex"), 2, Buffer.from(bob.slice(2), "hex"), message.timestamp, json);
      expect(v1.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'key_bundles'").get()).toEqual({ n: 0 });
      // Ids above 1 were handed out before (AUTOINCREMENT never reuses one): the rebuild keeps that.
      v1.prepare("UPDATE sqlite_sequence SET seq = 7 WHERE name = 'messages'").run();

      const store = open();
      expect(recorded(v1).map((row) => [row.version, row.applied_at === 1])).toEqual([
        [1, true],
        [2, false],
        [3, false],
        [4, false],
        [5, false],
        [6, false],
        [7, false],
        [8, false],
        [9, false],
        [10, false],
        [11, false],
        [12, false],
        [13, false],
        [14, false],
        [15, false],
        [16, false],
        [17, false],
      ]);
      // Version 7 gave the message its recipient, from pairs.
      expect(v1.prepare("SELECT id, ts, sender, accepted_at, recipient FROM messages").all()).toEqual([
        { id: 1, ts: message.timestamp, sender: Buffer.from(alice.slice(2), "hex"), accepted_at: 1, recipient: Buffer.from(bob.slice(2), "hex") },
      ]);
      expect(await store.page({ owner: bob, ranges: [{ side: "received" }], order: "desc", limit: 20 })).toEqual({ messages: [{ id: 1, json }], end: true });
      expect(v1.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'mailbox_by_peer'").get()).toEqual({ n: 0 });
      const chat = (owner: string, peer: string) =>
        store.page({ owner, ranges: [{ side: "received", peer }, { side: "sent", peer }], order: "desc", limit: 20 });
      expect(await chat(bob, alice)).toEqual({ messages: [{ id: 1, json }], end: true });
      expect(await chat(alice, bob)).toEqual({ messages: [{ id: 1, json }], end: true });
      expect(await chat(alice, randomAddress())).toEqual({ messages: [], end: true });
      const bundle = testKeyBundle(alice, BASE_TIMESTAMP);
      expect(await store.putKeyBundle(bundle)).toEqual(bundle);
      expect(await store.append(message)).toEqual({ stored: { id: 1, json }, created: false });
      expect((await store.append(testMessage(bob, alice))).stored.id).toBe(8);
      // The old sent row keeps its JSON, a new one has none (version 5); the sent side reads both.
      const later = (await store.append(testMessage(alice, bob))).stored;
      const sentJson = v1.prepare("SELECT id, json FROM mailbox WHERE owner = ? AND side = 2 ORDER BY id");
      expect(sentJson.all(Buffer.from(alice.slice(2), "hex"))).toEqual([{ id: 1, json }, { id: later.id, json: "" }]);
      expect(await store.page({ owner: alice, ranges: [{ side: "sent" }], order: "desc", limit: 20 })).toEqual({ messages: [later, { id: 1, json }], end: true });
      expect(await chat(alice, bob)).toEqual({ messages: [later, { id: 8, json: expect.any(String) }, { id: 1, json }], end: true });
    });

    it("since version 5 keeps a message's JSON in its recipient's row only; the sent side, chats and resends read it there", async () => {
      const store = open();
      const [alice, bob] = [randomAddress(), randomAddress()];
      const message = testMessage(alice, bob);
      const { stored } = await store.append(message);
      const self = (await store.append(testMessage(alice, alice))).stored;
      const rows = connect({ readonly: true }).prepare("SELECT owner, side, id, json FROM mailbox ORDER BY id, side").all();
      const bytes = (address: string) => Buffer.from(address.slice(2), "hex");
      expect(rows).toEqual([
        { owner: bytes(bob), side: 1, id: stored.id, json: stored.json },
        { owner: bytes(alice), side: 2, id: stored.id, json: "" },
        { owner: bytes(alice), side: 1, id: self.id, json: self.json },
        { owner: bytes(alice), side: 2, id: self.id, json: "" },
      ]);
      expect(stored.json).toBe(messageJson(stored.id, message));
      const page = (owner: string, ranges: MailboxRange[]) => store.page({ owner, ranges, order: "desc", limit: 20 });
      expect(await page(alice, [{ side: "sent" }])).toEqual({ messages: [self, stored], end: true });
      expect(await page(alice, [{ side: "sent", peer: bob }])).toEqual({ messages: [stored], end: true });
      expect(await page(alice, [{ side: "received" }, { side: "sent" }])).toEqual({ messages: [self, stored], end: true }); // a note to self once
      expect(await page(bob, [{ side: "received", peer: alice }, { side: "sent", peer: alice }])).toEqual({ messages: [stored], end: true });
      expect(await store.append(message)).toEqual({ stored, created: false });
    });

    it("undoes version 5 for a downgrade: every sent row gets its JSON back from the recipient's row", async () => {
      const store = open();
      const [alice, bob] = [randomAddress(), randomAddress()];
      const stored = [
        (await store.append(testMessage(alice, bob))).stored,
        (await store.append(testMessage(bob, alice))).stored,
        (await store.append(testMessage(alice, alice))).stored,
      ];
      await store.close();
      const db = connect();
      expect(db.prepare("SELECT count(*) AS n FROM mailbox WHERE side = 2 AND json = ''").get()).toEqual({ n: 3 });
      undoVersion17(db);
      db.exec(undoVersion16Sql);
      db.exec(undoVersion15Sql);
      db.exec(undoVersion14Sql);
      db.exec(undoVersion13Sql);
      db.exec(undoVersion12Sql);
      db.exec(undoVersion11Sql);
      db.exec(undoVersion10Sql);
      db.exec(undoVersion9Sql);
      db.exec(undoVersion8Sql);
      db.exec(undoVersion7Sql);
      db.exec(undoVersion6Sql);
      db.exec(undoVersion5Sql);
      const sent = db.prepare("SELECT id, json FROM mailbox WHERE side = 2 ORDER BY id").all();
      expect(sent).toEqual(stored.map(({ id, json }) => ({ id, json })));
      expect(db.prepare("SELECT max(version) AS v FROM schema_migrations").get()).toEqual({ v: 4 });
    });

    it("undoes version 13 for a downgrade: the expiry and retention reasons go, the positions stay; upgrading again starts without them", async () => {
      const first = open();
      const [alice, bob] = [randomAddress(), randomAddress()];
      const ending = testMessage(alice, bob, { expires: Date.now() + 60_000 });
      await first.append(testMessage(alice, bob));
      await first.append(ending);
      expect(await first.sweepSenderExpired(100, ending.expires!)).toBe(1);
      const withReason = await first.log(bob, 1, 100);
      expect(withReason[1]!.removal).toMatchObject({ reason: "expired" });
      await first.close();
      const db = connect();
      undoVersion17(db);
      db.exec(undoVersion16Sql);
      db.exec(undoVersion15Sql);
      db.exec(undoVersion14Sql);
      db.exec(undoVersion13Sql);
      expect(db.prepare("SELECT max(version) AS v FROM schema_migrations").get()).toEqual({ v: 12 });
      expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name IN ('expired_messages', 'retention_floor')").get()).toEqual({ n: 0 });
      const store = open();
      expect(await store.log(bob, 1, 100)).toEqual(withReason.map(({ removal: _removal, ...entry }) => entry));
    });

    it("upgrades a version-10 database: every copy gets its position in id order with its leaf, the same as appends give; appends go on from there", async () => {
      const first = open();
      const [alice, bob, carol] = [randomAddress(), randomAddress(), randomAddress()];
      await first.append(testMessage(alice, bob));
      await first.append(testMessage(alice, alice));
      await first.append({ ...testMessage(carol, alice), folder: "requests" });
      await first.append({ ...testMessage(alice, carol), status: "pending", route: { kind: "outbound", destination: randomAddress() } });
      await first.append({ ...testMessage(carol, bob), route: { kind: "inbound" } });
      const deleted = (await first.append(testMessage(bob, alice))).stored.id;
      await first.deleteMessages(alice, [deleted]);
      // The upgrade knows only the copies still there: alice's deleted copy is not in her log.
      const logs = async (store: MessageStore) => Promise.all([alice, bob, carol].map((owner) => store.log(owner, 1, 100)));
      const expected = await logs(first);
      expected[0] = expected[0]!.filter((entry) => entry.id !== deleted);
      await first.close();
      const db = connect();
      undoVersion17(db);
      db.exec(undoVersion16Sql);
      db.exec(undoVersion15Sql);
      db.exec(undoVersion14Sql);
      db.exec(undoVersion13Sql);
      db.exec(undoVersion12Sql);
      db.exec(undoVersion11Sql);
      expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'mailbox_log'").get()).toEqual({ n: 0 });

      const store = open();
      expect(db.prepare("SELECT max(version) AS v FROM schema_migrations").get()).toEqual({ v: latestSchemaVersion });
      const upgraded = await logs(store);
      // Alice's deleted copy was her last: every other position and leaf is as the appends gave it.
      expect(upgraded).toEqual(expected);
      expect(upgraded[0]!.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5]);
      // Each mailbox row holds its position.
      const positions = db.prepare<[], { owner: Buffer; side: number; id: number; seq: number | null }>("SELECT owner, side, id, seq FROM mailbox ORDER BY owner, seq").all();
      for (const row of positions) {
        const owner = `0x${row.owner.toString("hex")}`;
        const entry = upgraded[[alice, bob, carol].indexOf(owner)]!.find((one) => one.seq === row.seq);
        expect(entry, `${owner} ${row.side} ${row.id}`).toMatchObject({ id: row.id, role: row.side === 2 ? "sent" : "received" });
      }
      expect(positions.every((row) => row.seq !== null)).toBe(true);
      await store.append(testMessage(carol, bob));
      // Bob: alice's message, carol's delivered one, his own to alice, and now carol's: 4. Carol: her request and this one.
      expect((await store.log(bob, 1, 100)).map((entry) => entry.seq)).toEqual([1, 2, 3, 4]);
      expect(await store.logSize(carol)).toBe(2);
    });

    it("undoes version 9 for a downgrade: the sender-set ends go, the messages that had one stay", async () => {
      const store = open();
      const [alice, bob] = [randomAddress(), randomAddress()];
      const message = { ...testMessage(alice, bob), expires: Date.now() + 60_000 };
      const stored = (await store.append(message)).stored;
      await store.close();
      const db = connect();
      expect(db.prepare("SELECT id FROM message_expiry").all()).toEqual([{ id: stored.id }]);
      undoVersion17(db);
      db.exec(undoVersion16Sql);
      db.exec(undoVersion15Sql);
      db.exec(undoVersion14Sql);
      db.exec(undoVersion13Sql);
      db.exec(undoVersion12Sql);
      db.exec(undoVersion11Sql);
      db.exec(undoVersion10Sql);
      expect(db.prepare("SELECT max(version) AS v FROM schema_migrations").get()).toEqual({ v: 9 });
      expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'swept_digests%'").get()).toEqual({ n: 0 });
      db.exec(undoVersion9Sql);
      expect(db.prepare("SELECT max(version) AS v FROM schema_migrations").get()).toEqual({ v: 8 });
      expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'message_expiry%'").get()).toEqual({ n: 0 });
      expect(db.prepare("SELECT json FROM mailbox WHERE side = 1 AND id = ?").get(stored.id)).toEqual({ json: stored.json });
    });

    it("undoes version 6 for a downgrade: messages still waiting for another node turn failed, federation's tables go", async () => {
      const store = open();
      const [alice, bob, carol] = [randomAddress(), randomAddress(), randomAddress()];
      const local = (await store.append(testMessage(alice, bob))).stored;
      const { receiverReceipt: _none, ...fields } = testMessage(alice, carol);
      const pending = (await store.append({ ...fields, status: "pending", route: { kind: "outbound", destination: randomAddress() } })).stored;
      await store.close();
      const db = connect();
      undoVersion17(db);
      db.exec(undoVersion16Sql);
      db.exec(undoVersion15Sql);
      db.exec(undoVersion14Sql);
      db.exec(undoVersion13Sql);
      db.exec(undoVersion12Sql);
      db.exec(undoVersion11Sql);
      db.exec(undoVersion10Sql);
      db.exec(undoVersion9Sql);
      db.exec(undoVersion8Sql);
      db.exec(undoVersion7Sql);
      db.exec(undoVersion6Sql);
      expect(db.prepare("SELECT max(version) AS v FROM schema_migrations").get()).toEqual({ v: 5 });
      expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name IN ('outbox', 'destinations', 'home_records', 'peer_pins')").get()).toEqual({ n: 0 });
      const json = db.prepare<[number], { json: string }>("SELECT json FROM mailbox WHERE side = 2 AND id = ?");
      expect(JSON.parse(json.get(pending.id)!.json)).toEqual({ ...JSON.parse(pending.json), status: "failed", reason: "not delivered: the node was downgraded" });
      expect(json.get(local.id)!.json).toBe("");
    });

    it("fails a sent-side page plainly if a message's recipient row is missing, rather than answering an empty message", async () => {
      const store = open();
      const [alice, bob] = [randomAddress(), randomAddress()];
      const { stored } = await store.append(testMessage(alice, bob));
      connect().prepare("DELETE FROM mailbox WHERE owner = ? AND side = 1 AND id = ?").run(Buffer.from(bob.slice(2), "hex"), stored.id);
      const page = (ranges: MailboxRange[]) => store.page({ owner: alice, ranges, order: "desc", limit: 20 });
      await expect(page([{ side: "sent" }])).rejects.toThrow(/a stored sent message has no JSON/);
      await expect(page([{ side: "sent", peer: bob }])).rejects.toThrow(/a stored sent message has no JSON/);
    });

    it("is idempotent: a reopen, a second store and migrate() again apply nothing", async () => {
      const first = open();
      const { stored } = await first.append(testMessage(randomAddress(), randomAddress()));
      const other = connect();
      const rowsBefore = recorded(other);
      await first.close();
      const second = open();
      open({ migrate: true }); // a second process opening the same file
      expect(recorded(other)).toEqual(rowsBefore); // same rows, same applied_at
      expect(migrate(other)).toEqual([]);
      expect(recorded(other)).toEqual(rowsBefore);
      expect(await second.latestPeer(JSON.parse(stored.json).from)).toBe(JSON.parse(stored.json).to);
    });

    it("applies every migration once to an empty database", () => {
      const db = connect();
      expect(migrate(db)).toEqual(migrations.map((m) => m.version));
      expect(migrate(db)).toEqual([]);
    });

    it("refuses a database whose schema is newer than latestSchemaVersion, and releases it", async () => {
      const store = open();
      await store.append(testMessage(randomAddress(), randomAddress()));
      await store.close();
      const newer = latestSchemaVersion + 1;
      const other = connect();
      other.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(newer, "from the future", Date.now());
      for (const options of [{}, { migrate: false }]) {
        const attempt = connectionsOpenedBy(() => {
          try {
            openSqliteStore({ file, ...options });
            return undefined;
          } catch (error) {
            return error;
          }
        });
        expect(attempt.result).toBeInstanceOf(Error);
        const message = (attempt.result as Error).message;
        expect(message).toContain(file);
        expect(message).toContain(`schema version ${newer}`);
        expect(message).toMatch(/newer/);
        expect(message).toContain(String(latestSchemaVersion));
        // The refused connection is closed, not leaked.
        expect(attempt.connections.length).toBeGreaterThan(0);
        for (const connection of attempt.connections) expect(connection.open).toBe(false);
      }
      // And nothing was changed.
      expect(other.prepare("SELECT max(version) AS v FROM schema_migrations").get()).toEqual({ v: newer });
    });
  });

  describe("the mailbox log's tiles", () => {
    it("the writer keeps every whole tile, each level from the one below (tile height 2: levels 2, 4, 6 within 70 positions)", () => {
      migrate(connect());
      const batches = openAppendBatches({ file, synchronous: "NORMAL", walAutocheckpoint: 1000, ...WRITER_SCHEMA, tileHeight: 2 });
      toClose.push(batches);
      const [alice, bob] = [randomAddress(), randomAddress()];
      const wire = (message: TestMessage): WireAppend => ({ digest: Buffer.from(message.digest).toString("hex"), from: message.from, to: message.to, timestamp: message.timestamp, tail: messageJsonTail(message) });
      // In batches of 1 to 9: a tile's last position may be anywhere in a batch.
      for (let sent = 0, size = 1; sent < 70; sent += size, size = (size % 9) + 1) {
        batches.run(Array.from({ length: Math.min(size, 70 - sent) }, () => wire(testMessage(alice, bob))));
      }
      const db = connect({ readonly: true });
      const account = db.prepare<[Buffer], number>("SELECT n FROM log_accounts WHERE address = ?").pluck().get(Buffer.from(bob.slice(2), "hex"))!;
      // Positions are logged a tile at a time (schema version 17): 69 and 70 wait for the tile of 72.
      const leaves = db.prepare<[number], Buffer>("SELECT leaf FROM mailbox_log WHERE account = ? ORDER BY seq").pluck().all(account);
      expect(leaves).toHaveLength(68);
      const kept = db.prepare<[number], { level: number; idx: number; hash: Buffer }>("SELECT level, idx, hash FROM log_tiles WHERE account = ? ORDER BY level, idx").all(account);
      const expected = wholeTiles(leaves, 2).map(({ level, index, hash }) => ({ level, idx: index, hash: Buffer.from(hash) }));
      expect(expected.map(({ level }) => level)).toEqual([...Array(17).fill(2), ...Array(4).fill(4), 6]);
      expect(kept).toEqual(expected);
    });

    it("a batch that fails after logging a tile leaves the writer as it found the file: the next append takes position 1", () => {
      migrate(connect());
      const batches = openAppendBatches({ file, synchronous: "NORMAL", walAutocheckpoint: 1000, ...WRITER_SCHEMA });
      toClose.push(batches);
      const [alice, bob] = [randomAddress(), randomAddress()];
      const wire = (message: TestMessage): WireAppend => ({ digest: Buffer.from(message.digest).toString("hex"), from: message.from, to: message.to, timestamp: message.timestamp, tail: messageJsonTail(message) });
      // The 16th copy logs bob's first tile; the last entry breaks the transaction (the messages table's ts is NOT NULL).
      const broken = { ...wire(testMessage(alice, bob)), timestamp: null as unknown as number };
      expect(() => batches.run([...Array.from({ length: 16 }, () => wire(testMessage(alice, bob))), broken])).toThrow(/NOT NULL/);
      batches.run([wire(testMessage(alice, bob))]);
      const db = connect({ readonly: true });
      expect(db.prepare("SELECT side, seq FROM mailbox WHERE owner = ?").all(Buffer.from(bob.slice(2), "hex"))).toEqual([{ side: 1, seq: 1 }]);
    });

    it("positions not logged yet (schema version 17) read as logged ones: log, leaves, copies' positions and size are the same once undoVersion17 logs them", async () => {
      const store = open();
      const [alice, bob] = [randomAddress(), randomAddress()];
      const ids: number[] = [];
      for (let i = 0; i < 21; i++) ids.push((await store.append(i % 4 === 3 ? testMessage(bob, alice) : testMessage(alice, bob))).stored.id);
      ids.push((await store.append(testMessage(bob, bob))).stored.id);
      const reads = (s: MessageStore) =>
        Promise.all(
          [alice, bob].map(async (owner) => ({
            size: await s.logSize(owner),
            log: await s.log(owner, 1, 100, { messages: true }),
            across: await s.log(owner, 15, 3),
            leaves: (await s.logLeaves(owner, 1, 30)).map((leaf) => toHex(leaf)),
            someLeaves: (await s.logLeaves(owner, 14, 5)).map((leaf) => toHex(leaf)),
            positions: await s.positions(owner, ids),
          })),
        );
      const before = await reads(store);
      // 21 positions each, and bob's two copies of his note to himself: 16 of each log are logged, a tile.
      expect(before.map(({ size }) => size)).toEqual([21, 23]);
      expect(connect({ readonly: true }).prepare("SELECT count(*) FROM mailbox_log").pluck().get()).toBe(32);
      for (const { log, leaves, across, someLeaves } of before) {
        expect(leaves).toEqual(log.map((entry) => entry.leafHash));
        expect(across.map((entry) => entry.seq)).toEqual([15, 16, 17]);
        expect(someLeaves).toEqual(leaves.slice(13, 18));
      }
      await store.close();
      undoVersion17(connect());
      expect(connect({ readonly: true }).prepare("SELECT count(*) FROM mailbox_log").pluck().get()).toBe(44);
      expect(await reads(open())).toEqual(before);
    });

    it("a note to oneself split by a tile: its sent copy, not logged yet, is read after its received copy, logged under the same id", async () => {
      const store = open();
      const [alice, carol] = [randomAddress(), randomAddress()];
      await store.append(testMessage(alice, carol));
      let note = 0;
      for (let i = 0; i < 8; i++) note = (await store.append(testMessage(carol, carol))).stored.id;
      const reads = async (s: MessageStore) => ({
        size: await s.logSize(carol),
        log: (await s.log(carol, 1, 100)).map(({ seq, id, role, leafHash }) => ({ seq, id, role, leafHash })),
        leaves: (await s.logLeaves(carol, 1, 30)).map((leaf) => toHex(leaf)),
        positions: await s.positions(carol, [note]),
      });
      const before = await reads(store);
      // Positions 2–17 are the eight notes; the last one's received copy (16) completes a tile and is logged.
      expect(connect({ readonly: true }).prepare("SELECT count(*) FROM mailbox_log").pluck().get()).toBe(16);
      expect(before.size).toBe(17);
      expect(before.log.map(({ seq }) => seq)).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
      expect(before.log.slice(15).map(({ id, role }) => ({ id, role }))).toEqual([
        { id: note, role: "received" },
        { id: note, role: "sent" },
      ]);
      expect(before.leaves).toEqual(before.log.map(({ leafHash }) => leafHash));
      expect(before.positions.map(({ seq }) => seq)).toEqual([16, 17]);
      await store.close();
      undoVersion17(connect());
      expect(await reads(open())).toEqual(before);
    });

    it("keeps the whole tiles of each account at TILE_HEIGHT, and the migration keeps the same ones", async () => {
      const store = open();
      const [alice, bob] = [randomAddress(), randomAddress()];
      await Promise.all(Array.from({ length: 600 }, (_, i) => store.append(i % 3 ? testMessage(alice, bob) : testMessage(bob, alice))));
      const tiles = async (s: MessageStore) => Promise.all([alice, bob].flatMap((owner) => [TILE_HEIGHT, 2 * TILE_HEIGHT].map((level) => s.logTiles(owner, level, 0, 100))));
      const before = await tiles(store);
      // 600 positions each: 37 tiles of 16, 2 of 256.
      expect(before.map((kept) => kept.length)).toEqual([37, 2, 37, 2]);
      const leaves = (await store.logLeaves(alice, 1, 600)).map((leaf) => new Uint8Array(leaf));
      expect(before[0]!.map(({ hash }) => toHex(hash))).toEqual(wholeTiles(leaves, TILE_HEIGHT).filter(({ level }) => level === TILE_HEIGHT).map(({ hash }) => toHex(hash)));
      await store.close();
      // Versions 11 (tiles of 256) and 15 (of 16) give an upgraded store the same.
      undoVersion17(connect());
      connect().exec(undoVersion16Sql);
      connect().exec(undoVersion15Sql);
      expect(connect().prepare("SELECT count(*) FROM log_tiles WHERE level = ?").pluck().get(TILE_HEIGHT)).toBe(0);
      connect().exec(undoVersion14Sql);
      connect().exec(undoVersion13Sql);
      connect().exec(undoVersion12Sql);
      connect().exec(undoVersion11Sql);
      expect(await tiles(open())).toEqual(before);
    });
  });

  describe("two stores on one file (the relay's worker processes)", () => {
    it("reads while the other's writer logs tiles: every log and leaf read is a prefix of the final log, with no gap", { timeout: 60_000 }, async () => {
      const [writer, reader] = [open(), open()];
      const [alice, bob] = [randomAddress(), randomAddress()];
      let done = false;
      let stored = 0;
      const appends = (async () => {
        for (let i = 0; i < 40; i++) {
          await Promise.all(Array.from({ length: 5 }, () => writer.append(testMessage(alice, bob))));
          stored += 5;
        }
        done = true;
      })();
      // Each read holds at least what was stored before it began (a tile logged between the store's
      // statements must not cut it short).
      const reads: { before: number; log: LogEntry[]; leaves: string[] }[] = [];
      while (!done) {
        const before = stored;
        reads.push({ before, log: await reader.log(bob, 1, 300), leaves: (await reader.logLeaves(bob, 1, 256)).map((leaf) => toHex(leaf)) });
        await new Promise((resolve) => setImmediate(resolve));
      }
      await appends;
      const final = await reader.log(bob, 1, 300);
      expect(final.map((entry) => entry.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      expect(reads.length).toBeGreaterThan(10);
      for (const { before, log, leaves } of reads) {
        expect(log.length).toBeGreaterThanOrEqual(before);
        expect(leaves.length).toBeGreaterThanOrEqual(before);
        expect(log).toEqual(final.slice(0, log.length));
        expect(leaves).toEqual(final.slice(0, leaves.length).map((entry) => entry.leafHash));
      }
    });

    it("append to one account in turns across tiles: each writer sees what the other logged (positions 1-40, 32 of them logged)", async () => {
      const [a, b] = [open(), open()];
      const [alice, bob] = [randomAddress(), randomAddress()];
      for (let i = 0; i < 40; i++) await (i % 3 === 0 ? a : b).append(testMessage(alice, bob));
      for (const owner of [alice, bob]) {
        expect((await a.log(owner, 1, 100)).map((entry) => entry.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
        expect(await b.logSize(owner)).toBe(40);
      }
      expect(connect({ readonly: true }).prepare("SELECT count(*) FROM mailbox_log").pluck().get()).toBe(64);
    });

    it("both append, concurrently and in turns, with unique ids increasing in each store's order", async () => {
      const [a, b] = [open(), open()];
      const [alice, bob, carol] = [randomAddress(), randomAddress(), randomAddress()];
      const appended: { store: "a" | "b"; result: Promise<AppendResult>; message: ReturnType<typeof testMessage> }[] = [];
      for (let round = 0; round < 5; round++) {
        for (let i = 0; i < 40; i++) {
          const via = (i + round) % 3 === 0 ? "b" : "a";
          const message = testMessage(i % 2 ? alice : bob, i % 5 ? carol : alice);
          appended.push({ store: via, result: (via === "a" ? a : b).append(message), message });
        }
        if (round % 2) await Promise.all(appended.map((x) => x.result)); // alternate same-tick bursts and turns
      }
      const results = await Promise.all(appended.map((x) => x.result));
      const allIds = results.map((r) => r.stored.id);
      expect(new Set(allIds).size).toBe(allIds.length);
      results.forEach((result, i) => {
        expect(result.created).toBe(true);
        expect(result.stored.json).toBe(messageJson(result.stored.id, appended[i]!.message));
      });
      for (const via of ["a", "b"] as const) {
        const mine = appended.flatMap((x, i) => (x.store === via ? [results[i]!.stored.id] : []));
        for (let i = 1; i < mine.length; i++) expect(mine[i]).toBeGreaterThan(mine[i - 1]!);
      }
      // Sequential appends through alternating stores: acceptance order is id order.
      let previous = Math.max(...allIds);
      for (let i = 0; i < 6; i++) {
        const { stored } = await (i % 2 ? a : b).append(testMessage(alice, bob));
        expect(stored.id).toBeGreaterThan(previous);
        previous = stored.id;
      }
      // Both see the same mailbox.
      const readAll = async (store: MessageStore) => {
        const page = await store.page({ owner: carol, ranges: [{ side: "received" }], after: 0, order: "asc", limit: 100 });
        const rest = await store.page({ owner: carol, ranges: [{ side: "received" }], after: page.messages[99]!.id, order: "asc", limit: 100 });
        return [...page.messages, ...rest.messages];
      };
      // Across stores, acceptance (commit) order need not be call order: the walk is in id order.
      const expectedForCarol = results
        .filter((_, i) => appended[i]!.message.to === carol)
        .map((r) => r.stored)
        .sort((x, y) => x.id - y.id);
      expect(expectedForCarol.length).toBeGreaterThan(100);
      expect(await readAll(a)).toEqual(expectedForCarol);
      expect(await readAll(b)).toEqual(expectedForCarol);
      expect(await a.latestPeer(bob)).toBe(alice);
      expect(await b.latestPeer(bob)).toBe(alice);
      // Each account's log has no gap and follows id order, whichever store stored a copy; both read it alike.
      for (const owner of [alice, bob, carol]) {
        const log = await a.log(owner, 1, 1000);
        expect(log.map((entry) => entry.seq)).toEqual(log.map((_, i) => i + 1));
        expect(log.every((entry, i) => i === 0 || entry.id >= log[i - 1]!.id)).toBe(true);
        expect(await b.log(owner, 1, 1000)).toEqual(log);
      }
      expect((await a.logSize(carol)) + (await a.logSize(alice)) + (await a.logSize(bob))).toBe(2 * results.length + 12);
    });

    it("key bundles published through both stores: the greatest timestamp wins, whatever the interleaving", async () => {
      const [a, b] = [open(), open()];
      const account = randomAddress();
      const bundles = Array.from({ length: 40 }, (_, i) => testKeyBundle(account, BASE_TIMESTAMP + ((i * 17) % 40)));
      const answers: Promise<StoredKeyBundle>[] = [];
      bundles.forEach((bundle, i) => answers.push((i % 2 ? a : b).putKeyBundle(bundle)));
      (await Promise.all(answers)).forEach((answer, i) => expect(answer.timestamp).toBeGreaterThanOrEqual(bundles[i]!.timestamp));
      const newest = bundles.find((bundle) => bundle.timestamp === BASE_TIMESTAMP + 39)!;
      expect(await a.getKeyBundle(account)).toEqual(newest);
      expect(await b.getKeyBundle(account)).toEqual(newest);
      // An older one through the other store changes nothing; a newer one is seen by both.
      expect(await b.putKeyBundle(testKeyBundle(account, BASE_TIMESTAMP))).toEqual(newest);
      const later = testKeyBundle(account, BASE_TIMESTAMP + 40);
      expect(await b.putKeyBundle(later)).toEqual(later);
      expect(await a.getKeyBundle(account)).toEqual(later);
    });

    it("a key publish waits for another connection's write lock (busy timeout), then commits", async () => {
      const store = open();
      const account = randomAddress();
      const bundle = testKeyBundle(account, BASE_TIMESTAMP);
      // Another "process" holds the write lock for 300 ms, from a worker thread (this thread blocks in the publish).
      const holder = new Worker(
        `const { workerData, parentPort } = require("node:worker_threads");
         const Database = require(workerData.module);
         const db = new Database(workerData.file);
         db.exec("BEGIN IMMEDIATE");
         parentPort.postMessage("locked");
         Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
         db.exec("COMMIT");
         db.close();`,
        { eval: true, workerData: { file, module: createRequire(import.meta.url).resolve("better-sqlite3") } },
      );
      await new Promise((resolve) => holder.once("message", resolve));
      const started = Date.now();
      expect(await store.putKeyBundle(bundle)).toEqual(bundle);
      expect(Date.now() - started).toBeGreaterThanOrEqual(200);
      await new Promise((resolve) => holder.once("exit", resolve));
      expect(await store.getKeyBundle(account)).toEqual(bundle);
    });

    it("stores a digest sent through both stores in the same tick once", async () => {
      const [a, b] = [open(), open()];
      const [alice, bob] = [randomAddress(), randomAddress()];
      for (let i = 0; i < 10; i++) {
        const message = testMessage(alice, bob);
        const [viaA, viaB] = await Promise.all([a.append(message), b.append({ ...message, digest: new Uint8Array(message.digest) })]);
        expect([viaA!.created, viaB!.created].sort()).toEqual([false, true]);
        expect(viaA!.stored).toEqual(viaB!.stored);
      }
      const page = await b.page({ owner: bob, ranges: [{ side: "received" }], order: "desc", limit: 100 });
      expect(page.messages).toHaveLength(10);
      expect(page.end).toBe(true);
    });
  });

  describe("query plans", () => {
    it("key bundle reads and publishes seek key_bundles by its primary key", async () => {
      const store = open();
      const account = randomAddress();
      await store.putKeyBundle(testKeyBundle(account, 1));
      const probe = connect({ readonly: true });
      const statementProto = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<"get" | "run", (...args: unknown[]) => unknown>;
      const spies = (["get", "run"] as const).map((method) => vi.spyOn(statementProto, method));
      try {
        await store.putKeyBundle(testKeyBundle(account, 2));
        await store.getKeyBundle(account);
        await store.getKeyBundle(randomAddress());
        const statements = spies.flatMap((spy) => spy.mock.calls.map((args, i) => ({ sql: (spy.mock.contexts[i] as { source: string }).source, args })));
        const onKeys = statements.filter(({ sql }) => /\bkey_bundles\b/.test(sql));
        expect(onKeys.length).toBeGreaterThanOrEqual(3);
        const explain = connect({ readonly: true });
        for (const { sql, args } of onKeys) {
          const plan = explain.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).all(...args).map((row) => row.detail);
          expect(plan.join("\n"), sql).not.toMatch(/\bSCAN\b/);
          if (/^\s*SELECT/i.test(sql)) expect(plan, sql).toContainEqual(expect.stringMatching(/^SEARCH key_bundles USING PRIMARY KEY \(account=\?\)/));
        }
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
    });

    it("the writer finds a resend by (ts, digest) in messages_by_time, and reads its JSON by primary key", () => {
      open();
      const explain = connect({ readonly: true });
      const plan = (sql: string, ...args: unknown[]) =>
        explain.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).all(...args).map((row) => row.detail);
      expect(plan(WRITER_SCHEMA.sql.findByDigest, BASE_TIMESTAMP, Buffer.alloc(32))).toEqual(["SEARCH messages USING COVERING INDEX messages_by_time (ts=? AND digest=?)"]);
      expect(plan(WRITER_SCHEMA.sql.selectJson, Buffer.alloc(20), 1, 1)).toEqual(["SEARCH mailbox USING PRIMARY KEY (owner=? AND side=? AND id=?)"]);
      // A delivery's settlement: the outbox entry and the sender's row, each by primary key.
      expect(plan(WRITER_SCHEMA.sql.deleteOutbox, 1)).toEqual(["SEARCH outbox USING INTEGER PRIMARY KEY (rowid=?)"]);
      expect(plan(WRITER_SCHEMA.sql.updateSent, "{}", Buffer.alloc(20), 2, 1)).toEqual(["SEARCH mailbox USING PRIMARY KEY (owner=? AND side=? AND id=?)"]);
      // The retention sweep's ranges: one seek each, never a scan.
      expect(plan(WRITER_SCHEMA.sql.deleteMailboxBelow, Buffer.alloc(20), 1, 10)).toEqual(["SEARCH mailbox USING PRIMARY KEY (owner=? AND side=? AND id<?)"]);
      expect(plan(WRITER_SCHEMA.sql.deletePairBelow, Buffer.alloc(20), Buffer.alloc(20), 10)).toEqual(["SEARCH pairs USING PRIMARY KEY (sender=? AND recipient=? AND id<?)"]);
      expect(plan(WRITER_SCHEMA.sql.deleteOutboxBelow, 10)).toEqual(["SEARCH outbox USING INTEGER PRIMARY KEY (rowid<?)"]);
      expect(plan(WRITER_SCHEMA.sql.deleteMessagesBelow, 10)).toEqual(["SEARCH messages USING INTEGER PRIMARY KEY (rowid<?)"]);
      // Swept digests: an append's probe and the sweep's writes are seeks too.
      expect(plan(WRITER_SCHEMA.sql.findOriginal, { ts: BASE_TIMESTAMP, digest: Buffer.alloc(32) }).filter((step) => /SEARCH|SCAN/.test(step))).toEqual([
        "SEARCH messages USING COVERING INDEX messages_by_time (ts=? AND digest=?)",
        "SEARCH swept_digests USING PRIMARY KEY (ts=? AND digest=?)",
      ]);
      expect(plan(WRITER_SCHEMA.sql.rememberSwept, 10, 0).filter((step) => /SEARCH|SCAN/.test(step))).toEqual(["SEARCH messages USING INTEGER PRIMARY KEY (rowid<?)"]);
      expect(plan(WRITER_SCHEMA.sql.forgetSwept, 0)).toEqual(["SEARCH swept_digests USING INDEX swept_digests_by_age (accepted_at<?)"]);
    });

    const pageQueryPattern = /\bFROM\s+(mailbox|pairs)\b[\s\S]*\bORDER\s+BY\b/i;

    it("keyset pages seek mailbox's primary key, or pairs' and then mailbox's by id; never a scan or a temp B-tree", async () => {
      const store = open();
      const people = Array.from({ length: 6 }, randomAddress);
      const [owner, peer] = [people[0]!, people[1]!];
      const messages = Array.from({ length: 600 }, (_, i) => testMessage(people[i % 6]!, people[(i * 7 + 1) % 6]!));
      messages.push(testMessage(owner, owner), testMessage(owner, peer), testMessage(peer, owner));
      const ids = (await Promise.all(messages.map((m) => store.append(m)))).map((r) => r.stored.id);
      const middle = ids[300]!;

      // Every statement the store runs, with its arguments, seen on the prototype it shares with ours.
      const probe = connect({ readonly: true });
      const statementProto = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<"all" | "get" | "iterate", (...args: unknown[]) => unknown>;
      const spies = (["all", "get", "iterate"] as const).map((method) => vi.spyOn(statementProto, method));
      // In call order across the three methods (time-filtered pages iterate, the others call all).
      const executed = () =>
        spies
          .flatMap((spy) => spy.mock.calls.map((args, i) => ({ sql: (spy.mock.contexts[i] as { source: string }).source, args, order: spy.mock.invocationCallOrder[i]! })))
          .sort((a, b) => a.order - b.order);

      const shapes: { label: string; peer: boolean; cursor: boolean; run: () => Promise<unknown> }[] = [];
      const now = Date.now();
      const bounds: Pick<PageQuery, "after" | "before" | "since" | "until">[] = [
        {},
        { before: middle },
        { after: middle },
        { after: ids[10]!, before: middle },
        { since: 0, until: now * 2 },
        { since: now - 60_000, before: middle },
        { until: now * 2, after: middle },
        { since: 0, until: now * 2, after: ids[10]!, before: middle },
      ];
      const rangeSets: { label: string; ranges: MailboxRange[]; peer: boolean }[] = [
        { label: "received", ranges: [{ side: "received" }], peer: false },
        { label: "sent", ranges: [{ side: "sent" }], peer: false },
        { label: "received from peer", ranges: [{ side: "received", peer }], peer: true },
        { label: "sent to peer", ranges: [{ side: "sent", peer }], peer: true },
        { label: "whole mailbox", ranges: [{ side: "received" }, { side: "sent" }], peer: false },
        { label: "chat", ranges: [{ side: "received", peer }, { side: "sent", peer }], peer: true },
      ];
      for (const { label, ranges, peer: withPeer } of rangeSets) {
        for (const b of bounds) {
          for (const limit of [1, 100]) {
            const order = b.after !== undefined ? "asc" : "desc";
            shapes.push({ label: `${label} ${JSON.stringify(b)} ${order} limit ${limit}`, peer: withPeer, cursor: b.after !== undefined || b.before !== undefined, run: () => store.page({ owner, ranges, ...b, order, limit }) });
          }
        }
      }
      shapes.push({ label: "latestPeer", peer: false, cursor: false, run: () => store.latestPeer(owner) });

      try {
        const explain = connect({ readonly: true });
        let checked = 0;
        for (const shape of shapes) {
          const seen = executed().length;
          await shape.run();
          const statements = executed().slice(seen).filter(({ sql }) => pageQueryPattern.test(sql));
          expect(statements.length, `${shape.label}: ran a query on mailbox`).toBeGreaterThan(0);
          for (const { sql, args } of statements) {
            const plan = explain
              .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
              .all(...args)
              .map((row) => row.detail);
            const text = `${shape.label}\n${sql}\n→ ${plan.join(" | ")}`;
            expect(plan.join("\n"), text).not.toMatch(/TEMP B-TREE/i);
            expect(plan.join("\n"), text).not.toMatch(/\bSCAN\b/);
            // A peer's range walks pairs (the keyset) and reads each message's JSON from its recipient's row.
            const walk = plan.find((detail) => (shape.peer ? /^SEARCH p USING / : /^SEARCH (m|mailbox) USING /).test(detail));
            expect(walk, text).toBeDefined();
            expect(walk, text).toMatch(shape.peer ? /USING PRIMARY KEY \(sender=\? AND recipient=\?/ : /USING PRIMARY KEY \(owner=\? AND side=\?/);
            if (shape.peer) {
              expect(plan.indexOf(walk!), text).toBe(0); // pairs is the outer loop
              expect(plan, text).toContainEqual("SEARCH m USING PRIMARY KEY (owner=? AND side=? AND id=?)");
            }
            // A message's JSON is in its recipient's row (a sent row has none since schema version 5,
            // but for a message to another node): a received range reads its own rows; a sent range,
            // its sender's rows (a message delivered from another node has none), looking the JSON up
            // in the recipient's row when the sent row has none (one primary-key search).
            const sentRows = shape.peer
              ? /m\.owner = p\.sender AND m\.side = 2 AND m\.id = p\.id/.test(sql)
              : args[(sql.slice(0, sql.indexOf("m.side = ?")).match(/\?/g) ?? []).length] === 2;
            if (shape.peer && !sentRows) expect(sql, text).toMatch(/m\.owner = p\.recipient AND m\.side = 1 AND m\.id = p\.id/);
            if (sentRows && /\bjson\b/.test(sql)) {
              expect(plan, text).toContainEqual("CORRELATED SCALAR SUBQUERY 1");
              expect(plan, text).toContainEqual("SEARCH r USING PRIMARY KEY (owner=? AND side=? AND id=?)");
            } else expect(sql, text).not.toMatch(/\br\.json\b/);
            // With a cursor, the seek starts at it (keyset), rather than reading past the skipped rows.
            if (shape.cursor) expect(walk, text).toMatch(/ AND id[<>]\?/);
            checked++;
          }
        }
        expect(checked).toBeGreaterThanOrEqual(shapes.length);
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
    });
  });
});
