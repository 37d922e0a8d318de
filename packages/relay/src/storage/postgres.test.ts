import { randomBytes } from "node:crypto";
import pg from "pg";
import { MESSAGE_JSON_ID_HEAD, mailboxLeafHash, toHex, type MailboxRole } from "@neutral/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeStoreConformance, everyStoreCall, randomAddress, randomDigest, testMessage } from "../../testing/store-conformance.js";
import { SchemaTooNewError, StoreClosedError } from "../errors.js";
import { describeDatabaseUrl, openPostgresStore, type PostgresStore } from "./postgres.js";
import { latestSchemaVersion, migrations } from "./postgres-migrations.js";
import { createTestSchema, type TestSchema } from "../../test/postgres.js";
import { TILE_HEIGHT, wholeTiles } from "../mailbox-log/tree.js";
import { fromHex } from "@neutral/protocol";

describeStoreConformance("postgres", async () => {
  const schema = await createTestSchema();
  return {
    store: await openPostgresStore({ url: schema.url }),
    reopen: (options) => openPostgresStore({ url: schema.url, ...options }),
    cleanup: () => schema.drop(),
  };
});

describe("PostgreSQL store specifics", () => {
  let schema: TestSchema;
  const stores: PostgresStore[] = [];
  const open = async (options: { migrate?: boolean; poolSize?: number; retentionMs?: number } = {}) => {
    const store = await openPostgresStore({ url: schema.url, ...options });
    stores.push(store);
    return store;
  };
  beforeEach(async () => {
    schema = await createTestSchema();
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    await schema.drop();
  });

  it("space the sweep frees is reused after PostgreSQL's vacuum: a second fill takes no more room", { timeout: 60_000 }, async () => {
    const retentionMs = 1000;
    const store = await open({ retentionMs });
    const size = async () => (await schema.query<{ bytes: number }>("SELECT pg_total_relation_size('mailbox')::bigint AS bytes")).rows[0]!.bytes;
    // Random ciphertext, as real bodies are: TOAST would compress a repeated one to nothing.
    const body = () => randomBytes(4096).toString("hex");
    const fill = (start: number) =>
      Promise.all(Array.from({ length: 500 }, (_, i) => store.append(testMessage(randomAddress(), randomAddress(), { message: body(), timestamp: start + i }))));
    await fill(1_767_225_600_000);
    const first = Number(await size());
    await new Promise((resolve) => setTimeout(resolve, retentionMs + 1100));
    let swept = 0;
    for (let deleted = -1; deleted !== 0; ) swept += deleted = await store.sweepExpired(200);
    expect(swept).toBe(500);
    // What autovacuum does on its own schedule, now: marks the deleted rows' space free for reuse.
    await schema.query("VACUUM mailbox");
    await fill(1_767_225_700_000);
    const second = Number(await size());
    console.log(`[reclaim] PostgreSQL mailbox: ${first} bytes with 500 messages of 4 KiB, ${second} after sweeping them, VACUUM and 500 more`);
    expect(second, "the second fill reused the first's space").toBeLessThan(first * 1.25);
  });

  it("keeps the whole tiles of each account at TILE_HEIGHT as positions are stored, the same as the backfills of migrations 9 and 12 and as the SQLite writer's", { timeout: 90_000 }, async () => {
    // The SQL keeps tiles of 16 positions (levels 4, 8, …): the height the tree reads.
    expect(TILE_HEIGHT).toBe(4);
    expect(migrations.find(({ version }) => version === 12)?.sql).toContain("neutral_keep_tiles(p_owner, next_seq, 4)");
    const store = await open();
    const [alice, bob] = [randomAddress(), randomAddress()];
    await Promise.all(Array.from({ length: 600 }, (_, i) => store.append(i % 3 ? testMessage(alice, bob) : testMessage(bob, alice))));
    const leavesOf = async (owner: string) => (await store.log(owner, 1, 1000)).map((entry) => fromHex(entry.leafHash));
    const expected = async (owner: string, height: number) => wholeTiles(await leavesOf(owner), height).map(({ level, index, hash }) => ({ level, index, hash: toHex(hash) }));
    const kept = async (owner: string, levels: number[]) =>
      (await Promise.all(levels.map(async (level) => (await store.logTiles(owner, level, 0, 1000)).map(({ index, hash }) => ({ level, index, hash: toHex(hash) }))))).flat();
    for (const owner of [alice, bob]) {
      expect(await kept(owner, [4, 8])).toEqual(await expected(owner, 4));
      expect((await kept(owner, [4, 8])).map(({ level }) => level)).toEqual([...Array(37).fill(4), ...Array(2).fill(8)]);
    }
    // Migration 9's backfill (tiles of 256), then migration 12's (of 16): the same ones.
    await schema.query("DELETE FROM log_tiles");
    await schema.query("SELECT neutral_backfill_tiles(8)");
    await schema.query("SELECT neutral_backfill_tiles(4)");
    for (const owner of [alice, bob]) expect(await kept(owner, [4, 8])).toEqual(await expected(owner, 4));
    // Several levels, with tiles of 2 levels (4 positions): each level from the one below.
    await schema.query("DELETE FROM log_tiles");
    await schema.query("SELECT neutral_backfill_tiles(2)");
    const levels = [2, 4, 6, 8];
    const tiles = await kept(bob, levels);
    expect(tiles).toEqual(await expected(bob, 2));
    // 600 positions: 150 tiles at level 2, 37 at 4, 9 at 6, 2 at 8 (each from four below).
    expect(levels.map((level) => tiles.filter((tile) => tile.level === level).length)).toEqual([150, 37, 9, 2]);
  });

  it("builds a message's JSON in the append function with the protocol's id head (the one SQL copy of it)", () => {
    const heads = migrations.flatMap((migration) => [...migration.sql.matchAll(/row_json := '([^']*)' \|\| next_id/g)].map((match) => match[1]));
    expect(heads.length).toBeGreaterThan(0);
    for (const head of heads) expect(head).toBe(MESSAGE_JSON_ID_HEAD);
  });

  it("a connection cut while a transaction holds it fails that call, and the process and the store go on (pg-pool listens for a checked-out client's errors only while it is idle)", { timeout: 30_000 }, async () => {
    const store = await open();
    const [alice, bob] = [randomAddress(), randomAddress()];
    const message = testMessage(alice, bob);
    // Another connection holds the id counter's lock: the import waits for it inside its transaction.
    const locker = new pg.Client({ connectionString: schema.url });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("SELECT last_id FROM id_counter WHERE singleton FOR UPDATE");
      const lockerPid = (await locker.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
      const importing = store.importMessages(bob, [{ fields: { ...message, receiverReceipt: message.receiverReceipt! }, digest: message.digest }]);
      const outcome = importing.then(
        () => "stored",
        (error: Error) => error.message,
      );
      let waiting: number | undefined;
      for (let tries = 0; waiting === undefined && tries < 200; tries++) {
        waiting = (await schema.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", [lockerPid])).rows[0]?.pid;
        if (waiting === undefined) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(waiting, "the import's backend waits for the lock").toBeDefined();
      await schema.query("SELECT pg_terminate_backend($1)", [waiting]);
      expect(await outcome).toMatch(/terminat/i);
    } finally {
      await locker.query("ROLLBACK").catch(() => {});
      await locker.end();
    }
    // Still serving, on a fresh connection: the lost one was not given back to the pool.
    expect((await store.append(testMessage(alice, bob))).created).toBe(true);
    expect(await store.importMessages(bob, [{ fields: { ...message, receiverReceipt: message.receiverReceipt! }, digest: message.digest }])).toEqual([expect.objectContaining({ created: true })]);
  });

  it("records every migration and creates the schema in the URL's search_path", async () => {
    await open();
    const { rows } = await schema.query<{ version: number; name: string }>("SELECT version, name FROM schema_migrations ORDER BY version");
    expect(rows).toEqual(migrations.map(({ version, name }) => ({ version, name })));
    const tables = await schema.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1", [schema.name]);
    expect(tables.rows.map((row) => row.table_name)).toEqual(["consent", "consent_policy", "deletion_requests", "destinations", "expired_messages", "home_records", "id_counter", "key_bundles", "log_removals", "log_tiles", "mailbox", "mailbox_log", "message_expiry", "messages", "node_identity", "outbox", "peer_pins", "prior_heads", "retention_floor", "schema_migrations", "swept_digests"]);
  });

  /** Every mailbox row's `seq` names its own log entry (same id, role of its side): 0 when so. */
  const strayCopies = async () =>
    Number(
      (
        await schema.query<{ count: string }>(
          "SELECT count(*) AS count FROM mailbox b LEFT JOIN mailbox_log l ON l.owner = b.owner AND l.seq = b.seq " +
            "WHERE l.id IS DISTINCT FROM b.id OR l.role <> CASE WHEN b.side = 2 THEN 2 ELSE 1 END",
        )
      ).rows[0]!.count,
    );

  it("version 7 numbers the copies already stored: per owner in id order, received before sent, with their leaves", async () => {
    // A database at version 6, filled through version 6's append function.
    await schema.query("CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)");
    for (const migration of migrations.filter(({ version }) => version <= 6)) {
      await schema.query(migration.sql);
      await schema.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, 0)", [migration.version, migration.name]);
    }
    const [a, b, c, remote] = [randomAddress(), randomAddress(), randomAddress(), randomAddress()];
    // [from, to, route]: 0 local, 1 outbound, 2 inbound, 3 local into the requests folder.
    const sent: [string, string, number][] = [[a, b, 0], [a, a, 0], [c, b, 3], [b, a, 0], [a, remote, 1], [remote, b, 2]];
    const digests = sent.map(() => randomDigest());
    const bytes = (address: string) => Buffer.from(address.slice(2), "hex");
    const { rows } = await schema.query<{ stored_id: string }>(
      "SELECT stored_id FROM neutral_append_routed($1::bytea[], $2::bytea[], $3::bytea[], $4::bigint[], $5::text[], $6::smallint[], $7::bytea[], $8::smallint[], $9::bigint)",
      [
        digests.map((digest) => Buffer.from(digest)),
        sent.map(([from]) => bytes(from)),
        sent.map(([, to]) => bytes(to)),
        sent.map((_, i) => 1_767_225_600_000 + i),
        sent.map(() => ',"x":1}'),
        sent.map(([, , route]) => route),
        sent.map(([, , route]) => (route === 1 ? bytes(randomAddress()) : null)),
        sent.map(() => 0),
        Date.now(),
      ],
    );
    const ids = rows.map((row) => Number(row.stored_id));
    // Account a deleted her received copy of message 3 before the upgrade: it gets no position.
    await schema.query("DELETE FROM mailbox WHERE owner = $1 AND side = 1 AND id = $2", [bytes(a), ids[3]]);
    const store = await open();
    const entries = (account: string, copies: [number, MailboxRole][]) =>
      copies.map(([i, role], n) => {
        const [from, to] = sent[i]!;
        const leaf = { account, seq: n + 1, role, peer: role === "received" ? from : to, digest: digests[i]! };
        return { seq: n + 1, id: ids[i]!, role, leafHash: toHex(mailboxLeafHash(leaf)) };
      });
    expect(await store.log(a, 1, 100)).toEqual(entries(a, [[0, "sent"], [1, "received"], [1, "sent"], [4, "sent"]]));
    expect(await store.log(b, 1, 100)).toEqual(entries(b, [[0, "received"], [2, "received"], [3, "sent"], [5, "received"]]));
    expect(await store.log(c, 1, 100)).toEqual(entries(c, [[2, "sent"]]));
    expect(await store.logSize(remote)).toBe(0);
    expect(await strayCopies()).toBe(0);
    // New copies go on from there.
    await store.append(testMessage(c, a));
    expect(await store.log(a, 5, 10)).toMatchObject([{ seq: 5, role: "received" }]);
    expect(await strayCopies()).toBe(0);
  });

  it("applies the migrations once when several replicas start at the same moment", async () => {
    const opened = await Promise.all(Array.from({ length: 5 }, () => open()));
    expect(opened).toHaveLength(5);
    const { rows } = await schema.query<{ count: string }>("SELECT count(*) AS count FROM schema_migrations");
    expect(Number(rows[0]!.count)).toBe(migrations.length);
    const counter = await schema.query<{ count: string }>("SELECT count(*) AS count FROM id_counter");
    expect(Number(counter.rows[0]!.count)).toBe(1);
  });

  it("refuses a database whose schema is newer than this relay, with or without migrating", async () => {
    await (await open()).close();
    await schema.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, 'from the future', 0)", [latestSchemaVersion + 1]);
    await expect(openPostgresStore({ url: schema.url })).rejects.toThrow(/newer than this relay/);
    await expect(openPostgresStore({ url: schema.url, migrate: false })).rejects.toBeInstanceOf(SchemaTooNewError);
  });

  it("refuses every call once closed with StoreClosedError (code STORE_CLOSED)", async () => {
    const store = await open();
    await store.close();
    for (const [name, call] of everyStoreCall(store)) await expect(call(), name).rejects.toMatchObject({ name: "StoreClosedError", code: "STORE_CLOSED" });
    await expect(store.append(testMessage(randomAddress(), randomAddress()))).rejects.toBeInstanceOf(StoreClosedError);
  });

  it("never puts the password of the URL in what it logs", () => {
    expect(describeDatabaseUrl("postgres://neutral:s3cret@db.internal:5432/relay?sslmode=require")).toBe("postgres://db.internal:5432/relay");
    expect(describeDatabaseUrl("not a url with s3cret")).not.toContain("s3cret");
  });

  it("stores one node key however many replicas ask for one at once", async () => {
    const replicas = await Promise.all([open(), open(), open()]);
    let generated = 0;
    const keys = await Promise.all(
      replicas.flatMap((store) => [1, 2].map(() => store.nodeKey(() => (generated++, new Uint8Array(randomBytes(32)))))),
    );
    const distinct = new Set(keys.map((key) => Buffer.from(key.privateKey).toString("hex")));
    expect(distinct.size).toBe(1);
    expect(keys.filter((key) => key.created)).toHaveLength(1);
    expect(generated).toBeGreaterThanOrEqual(1);
    const later = await (await open()).nodeKey(() => {
      throw new Error("a stored key must not be generated again");
    });
    expect(Buffer.from(later.privateKey).toString("hex")).toBe([...distinct][0]);
  });

  it("stores a message sent to two replicas at the same moment once", async () => {
    const [a, b] = await Promise.all([open(), open()]);
    for (let round = 0; round < 20; round++) {
      const message = testMessage(randomAddress(), randomAddress());
      const [first, second] = await Promise.all([a.append(message), b.append({ ...message, digest: new Uint8Array(message.digest) })]);
      expect(first.stored).toEqual(second.stored);
      expect([first.created, second.created].sort()).toEqual([false, true]);
    }
    const { rows } = await schema.query<{ count: string }>("SELECT count(*) AS count FROM messages");
    expect(Number(rows[0]!.count)).toBe(20);
  });

  it("replicas appending to the same accounts at once give each account's log positions with no gap, in id order", async () => {
    const replicas = await Promise.all(Array.from({ length: 3 }, () => open({ poolSize: 3 })));
    const accounts = Array.from({ length: 4 }, () => randomAddress());
    await Promise.all(
      replicas.flatMap((store, r) =>
        Array.from({ length: 60 }, (_, i) => store.append(testMessage(accounts[(r + i) % 4]!, accounts[(r * 3 + i * 5) % 4]!))),
      ),
    );
    for (const account of accounts) {
      const log = await replicas[0]!.log(account, 1, 1000);
      expect(log.map((entry) => entry.seq)).toEqual(log.map((_, i) => i + 1));
      expect(await replicas[1]!.logSize(account)).toBe(log.length);
      const ids = log.map((entry) => entry.id);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
    }
    const copies = await schema.query<{ count: string }>("SELECT count(*) AS count FROM mailbox");
    expect(Number(copies.rows[0]!.count)).toBe(replicas.length * 60 * 2);
    expect(await strayCopies()).toBe(0);
  });

  it("a reader walking forward with `after` during concurrent appends on several replicas sees every message once, in id order", async () => {
    // Writers on four stores (four pools, as four replicas, each with its own append transaction
    // in flight) append concurrently in small bursts; the reader pages forward from its last id the
    // whole time. Were ids handed out by a sequence, a smaller id committing after a larger one was
    // read would be skipped: tried, this test then fails on most runs.
    const replicas = await Promise.all(Array.from({ length: 4 }, () => open({ poolSize: 3 })));
    const reader = await open({ poolSize: 2 });
    const owner = randomAddress();
    const bursts = 60;
    const burstSize = (burst: number) => 1 + (burst % 4);
    const acknowledged = new Set<number>();
    let writing = true;
    const writer = async (store: PostgresStore) => {
      for (let burst = 0; burst < bursts; burst++) {
        const results = await Promise.all(Array.from({ length: burstSize(burst) }, () => store.append(testMessage(randomAddress(), owner))));
        for (const result of results) acknowledged.add(result.stored.id);
      }
    };
    const seen: number[] = [];
    const read = async () => {
      let after = 0;
      for (;;) {
        const done = !writing; // one more full pass after the writers finish
        const page = await reader.page({ owner, ranges: [{ side: "received" }], order: "asc", after, limit: 5 });
        for (const message of page.messages) seen.push(message.id);
        if (page.messages.length > 0) after = page.messages[page.messages.length - 1]!.id;
        if (done && page.end) return;
      }
    };
    const reading = read();
    await Promise.all(replicas.flatMap((store) => [writer(store), writer(store)]));
    writing = false;
    await reading;
    const perWriter = Array.from({ length: bursts }, (_, burst) => burstSize(burst)).reduce((sum, n) => sum + n, 0);
    expect(acknowledged.size).toBe(replicas.length * 2 * perWriter);
    expect(seen).toEqual([...acknowledged].sort((x, y) => x - y));
  });
});
