// Where the SQLite retention sweep's cost goes, per message it deletes, and what a different layout
// would change: a diagnostic, run by hand (`node bench/sweep-anatomy.mjs` in packages/relay after a
// build; not part of `pnpm bench`, no target). It gives the evidence behind the relay README's
// "Retention and deletion" and the consent-retention bench's getInbox figure (2b).
//
// On a store like consent-retention's (lib.mjs `seed`: BENCH_SA_MESSAGES, 240,000, among 1,200
// accounts writing to each other at random, appended as a node appends them), in a temp dir:
//  1. The B-trees' shape (dbstat): pages, interior pages, depth. `mailbox` keeps each received
//     message's JSON (~740 bytes) in its WITHOUT ROWID rows, whose interior cells hold whole rows.
//  2. The relay's own sweep (the store's writer thread and checkpointer, `sweepExpired`) deleting
//     BENCH_SA_SWEPT (60,000) messages in passes of PASSES (3,300: consent-retention's B, a look every
//     2 s at ~1,650 stored/s; 10,000: retention.ts SWEEP_BATCH, what a node with the default
//     retention, a look a minute, deletes per pass from ~170 stored/s up): process CPU and bytes
//     written to disk per message (`/proc/self/io`), median of BENCH_SA_ROUNDS (3) fresh copies.
//  3. The same passes' deletes table by table, one transaction each (the writer's statements,
//     WRITER_SCHEMA), WAL pages written and CPU per message: what each table costs.
//  4. The alternative this rules out: each JSON in a rowid table of its own (`bodies`, one row per
//     message, deleted as one range) and mailbox rows without it, rebuilt from the same store in
//     append order. Its sweep (3.) and a getInbox page (the newest 21 rows of one of 200 inboxes in
//     turn, one read transaction, a 2 MiB cache like the relay's readers) as ratios to the layout
//     as it is, measured in the same run.
// Its lines are harness.mjs's verdict lines with no target ("target none · -"), then the closing table.
// Env: BENCH_SA_MESSAGES (240000), BENCH_SA_SWEPT (60000), BENCH_SA_ROUNDS (3).
// Every temp dir is removed at the end, on error and on SIGINT/SIGTERM/SIGHUP.
import { copyFileSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { percentile, seed } from "./lib.mjs";
import { envInt, header, log, out as figure, runBench, tempDir, verdict } from "./harness.mjs";
import { openSqliteStore, WRITER_SCHEMA } from "../dist/storage/sqlite.js";
import { SWEEP_BATCH } from "../dist/retention.js";

const MESSAGES = envInt("BENCH_SA_MESSAGES", 240_000);
const SWEPT = envInt("BENCH_SA_SWEPT", 60_000);
const ROUNDS = envInt("BENCH_SA_ROUNDS", 3);
const PASSES = [3300, SWEEP_BATCH];
const ACCOUNTS = 1200;
const READS = 40_000;

/** The temp dir of the run (harness.mjs removes it at the end, on error and on a signal). */
let root;
const median = (values) => percentile([...values].sort((a, b) => a - b), 50);
const fixed = (n, digits = 1) => n.toFixed(digits);
const cpuMicros = (since) => {
  const used = process.cpuUsage(since);
  return { user: used.user, system: used.system, total: used.user + used.system };
};
/** A message that does not expire during a part (stored now; retention a minute). */
const warmUp = (n) => ({
  from: `0x${"11".repeat(20)}`,
  to: `0x${"22".repeat(20)}`,
  message: "00",
  timestamp: Date.now(),
  signature: `0x${"33".repeat(65)}`,
  senderReceipt: `0x${"44".repeat(65)}`,
  receiverReceipt: `0x${"55".repeat(65)}`,
  digest: Buffer.alloc(32, n + 1),
});
const diskWritten = () => Number(/write_bytes: (\d+)/.exec(readFileSync("/proc/self/io", "utf8"))[1]);
let copies = 0;
/** A fresh copy of `file` (its WAL folded in) in the temp dir. */
function copyOf(file) {
  const copy = path.join(root, `copy-${++copies}.sqlite`);
  copyFileSync(file, copy);
  return copy;
}
const removeDatabase = (file) => {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
};

async function main() {
  header("neutral relay sweep anatomy (a diagnostic: no target)");
  root = tempDir("sweep-anatomy");
  log(`sweep anatomy: seeding ${MESSAGES.toLocaleString("en-US")} messages among ${ACCOUNTS} accounts`);
  const seeded = path.join(root, "seeded");
  await seed({ dir: seeded, messages: MESSAGES, userCount: ACCOUNTS, deep: 0, chunk: 20_000 });
  const current = path.join(seeded, "neutral.sqlite");
  {
    // Nothing expires until a part dates it.
    const db = new Database(current);
    db.prepare("UPDATE messages SET accepted_at = ?").run(Date.now() + 24 * 3_600_000);
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
  }
  const apart = path.join(root, "apart.sqlite");
  {
    copyFileSync(current, apart);
    const db = new Database(apart);
    db.pragma("cache_size = -262144");
    db.transaction(() =>
      db.exec(`
        CREATE TABLE bodies (id INTEGER PRIMARY KEY, json TEXT NOT NULL);
        CREATE TABLE mailbox_slim (owner BLOB NOT NULL, side INTEGER NOT NULL, id INTEGER NOT NULL, peer BLOB NOT NULL, ts INTEGER NOT NULL,
          PRIMARY KEY (owner, side, id)) WITHOUT ROWID;
        INSERT INTO bodies SELECT id, json FROM mailbox WHERE side = 1 ORDER BY id;
        INSERT INTO mailbox_slim SELECT owner, side, id, peer, ts FROM mailbox ORDER BY id, side;
        DROP TABLE mailbox;
        ALTER TABLE mailbox_slim RENAME TO mailbox;`),
    )();
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
  }

  // 1. Shape.
  for (const [label, file] of [
    ["as it is", current],
    ["JSON apart", apart],
  ]) {
    const db = new Database(file, { readonly: true });
    const tables = db
      .prepare(
        "SELECT name, count(*) AS pages, sum(pagetype = 'internal') AS interior, (max(length(path)) - 1) / 4 + 1 AS depth FROM dbstat WHERE name IN ('mailbox', 'bodies', 'pairs', 'messages') GROUP BY name ORDER BY pages DESC",
      )
      .all();
    db.close();
    figure(`# shape, ${label}: ${tables.map((t) => `${t.name} ${t.pages.toLocaleString("en-US")} pages (${fixed((100 * t.interior) / t.pages)} % interior), depth ${t.depth}`).join("; ")}`);
  }

  // 2. The relay's sweep.
  for (const pass of PASSES) {
    const runs = [];
    for (let round = 0; round < ROUNDS; round++) {
      const file = copyOf(current);
      const db = new Database(file);
      db.prepare("UPDATE messages SET accepted_at = 0 WHERE id <= ?").run(SWEPT);
      db.pragma("wal_checkpoint(TRUNCATE)");
      db.close();
      const store = openSqliteStore({ file, retentionMs: 60_000 });
      // Untimed: the first append starts the writer and checkpointer threads (~0.1 s of CPU).
      await store.append(warmUp(round));
      const cpu = process.cpuUsage();
      const disk = diskWritten();
      let swept = 0;
      for (;;) {
        const deleted = await store.sweepExpired(pass);
        swept += deleted;
        if (deleted === 0 || swept >= SWEPT) break;
      }
      // What the checkpointer copies of it back into the database, at its next pass.
      await new Promise((resolve) => setTimeout(resolve, 600));
      const used = cpuMicros(cpu);
      const written = diskWritten() - disk;
      await store.close();
      removeDatabase(file);
      if (swept !== SWEPT) throw new Error(`the sweep deleted ${swept} messages, not ${SWEPT}`);
      runs.push({ cpu: used.total / swept, system: used.system / swept, disk: written / swept / 1024 });
    }
    verdict({
      name: `the relay's sweep, passes of ${pass.toLocaleString("en-US")}`,
      figure:
        `${fixed(median(runs.map((r) => r.cpu)))} µs CPU per message (${fixed(median(runs.map((r) => r.system)))} µs of it in the kernel), ` +
        `${fixed(median(runs.map((r) => r.disk)))} KiB written to disk (median of ${ROUNDS}: ${runs.map((r) => fixed(r.cpu)).join(" / ")} µs)`,
      measured: `${fixed(median(runs.map((r) => r.cpu)))} µs, ${fixed(median(runs.map((r) => r.disk)))} KiB per message`,
    });
  }

  // 3. and 4.: table by table, both layouts.
  const { sql, sides } = WRITER_SCHEMA;
  function anatomy(source, pass, withBodies) {
    const file = copyOf(source);
    const db = new Database(file);
    db.pragma("wal_autocheckpoint = 0");
    db.pragma("cache_size = -32768"); // the writer's (sqlite.ts WRITER_CACHE_KIB)
    db.pragma("synchronous = FULL");
    const pageSize = db.pragma("page_size", { simple: true });
    const walPages = () => {
      try {
        return Math.max(0, (statSync(`${file}-wal`).size - 32) / (pageSize + 24));
      } catch {
        return 0;
      }
    };
    const oldest = db.prepare("SELECT id, sender, recipient FROM messages WHERE id >= ? ORDER BY id LIMIT ?");
    const deleteMailboxBelow = db.prepare(sql.deleteMailboxBelow);
    const deletePairBelow = db.prepare(sql.deletePairBelow);
    const deleteMessagesBelow = db.prepare(sql.deleteMessagesBelow);
    const deleteBodiesBelow = withBodies ? db.prepare("DELETE FROM bodies WHERE id < ?") : undefined;
    const totals = {};
    const passes = Math.max(1, Math.floor(SWEPT / pass));
    let from = 0;
    for (let p = 0; p < passes; p++) {
      db.pragma("wal_checkpoint(TRUNCATE)");
      const rows = oldest.all(from, pass);
      const end = rows[rows.length - 1].id + 1;
      from = end;
      /** The distinct keys of `keyOf`, in key order (as the writer's pass runs them). */
      const keys = (keyOf) => {
        const byHex = new Map();
        for (const row of rows) {
          const key = keyOf(row);
          byHex.set(key.map((bytes) => bytes.toString("hex")).join(""), key);
        }
        return [...byHex.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([, key]) => key);
      };
      const part = (name, run) => {
        const pagesBefore = walPages();
        const cpu = process.cpuUsage();
        db.transaction(run)();
        const total = (totals[name] ??= { cpu: 0, pages: 0 });
        total.cpu += cpuMicros(cpu).total;
        total.pages += walPages() - pagesBefore;
      };
      part("received", () => {
        for (const [owner] of keys((row) => [row.recipient])) {
          deleteMailboxBelow.run(owner, sides.received, end);
          deleteMailboxBelow.run(owner, sides.requests, end);
        }
      });
      part("sent", () => {
        for (const [owner] of keys((row) => [row.sender])) deleteMailboxBelow.run(owner, sides.sent, end);
      });
      part("pairs", () => {
        for (const [sender, recipient] of keys((row) => [row.sender, row.recipient])) deletePairBelow.run(sender, recipient, end);
      });
      part(withBodies ? "messages+bodies" : "messages", () => {
        deleteMessagesBelow.run(end);
        deleteBodiesBelow?.run(end);
      });
    }
    db.close();
    removeDatabase(file);
    const swept = passes * pass;
    const all = Object.values(totals).reduce((sum, t) => ({ cpu: sum.cpu + t.cpu, pages: sum.pages + t.pages }), { cpu: 0, pages: 0 });
    return { cpu: all.cpu / swept, pages: all.pages / swept, parts: Object.entries(totals).map(([name, t]) => `${name} ${fixed(t.cpu / swept)} µs, ${(t.pages / swept).toFixed(2)} pages`) };
  }
  function inboxReads(file, statement) {
    const db = new Database(file, { readonly: true });
    db.pragma("cache_size = -2048"); // the readers' (sqlite.ts DEFAULT_CACHE_KIB)
    const owners = db.prepare("SELECT DISTINCT owner FROM mailbox WHERE side = 1 LIMIT 200").pluck().all();
    const page = db.prepare(statement).pluck();
    const read = db.transaction((owner) => page.all(owner, sides.received, 0, Number.MAX_SAFE_INTEGER, 21));
    for (let i = 0; i < 2000; i++) read(owners[i % owners.length]);
    const cpu = process.cpuUsage();
    let rows = 0;
    for (let i = 0; i < READS; i++) rows += read(owners[i % owners.length]).length;
    const micros = cpuMicros(cpu).total / READS;
    db.close();
    return { micros, rows };
  }
  for (const pass of PASSES) {
    const asIs = [];
    const jsonApart = [];
    for (let round = 0; round < ROUNDS; round++) {
      asIs.push(anatomy(current, pass, false));
      jsonApart.push(anatomy(apart, pass, true));
    }
    const mid = (list) => list.find((r) => r.cpu === median(list.map((x) => x.cpu))) ?? list[0];
    const [a, b] = [mid(asIs), mid(jsonApart)];
    verdict({
      name: `the sweep's deletes by table, passes of ${pass.toLocaleString("en-US")}, JSON apart`,
      figure: `${fixed(b.cpu)} µs, ${b.pages.toFixed(2)} pages (${b.parts.join("; ")})`,
      baseline: `as it is: ${fixed(a.cpu)} µs CPU, ${a.pages.toFixed(2)} pages written per message (${a.parts.join("; ")})`,
      ratio: `CPU ratio to as it is ${(b.cpu / a.cpu).toFixed(2)}, pages ${(b.pages / a.pages).toFixed(2)} (median of ${ROUNDS})`,
      measured: `${fixed(b.cpu)} / ${fixed(a.cpu)} µs, ratio ${(b.cpu / a.cpu).toFixed(2)}; pages ${(b.pages / a.pages).toFixed(2)}`,
    });
  }
  const readsAsIs = [];
  const readsApart = [];
  for (let round = 0; round < ROUNDS; round++) {
    readsAsIs.push(inboxReads(current, "SELECT json FROM mailbox WHERE owner = ? AND side = ? AND id > ? AND id < ? ORDER BY id DESC LIMIT +?"));
    readsApart.push(
      inboxReads(apart, "SELECT b.json FROM mailbox AS m JOIN bodies AS b ON b.id = m.id WHERE m.owner = ? AND m.side = ? AND m.id > ? AND m.id < ? ORDER BY m.id DESC LIMIT +?"),
    );
  }
  // Both layouts hold the same messages, so the same reads return as many rows.
  if (readsAsIs.some((r) => r.rows !== readsApart[0].rows) || readsApart.some((r) => r.rows !== readsApart[0].rows)) {
    throw new Error(`the layouts' reads returned different rows: ${[...readsAsIs, ...readsApart].map((r) => r.rows).join(", ")}`);
  }
  const [readA, readB] = [median(readsAsIs.map((r) => r.micros)), median(readsApart.map((r) => r.micros))];
  verdict({
    name: "a getInbox page in SQLite (the newest 21 rows, or all, of one of 200 inboxes), JSON apart",
    figure: `${fixed(readB)} µs CPU`,
    baseline: `as it is ${fixed(readA)} µs CPU`,
    ratio: readB / readA,
    note: `median of ${ROUNDS}: ${readsAsIs.map((r) => fixed(r.micros)).join(" / ")} and ${readsApart.map((r) => fixed(r.micros)).join(" / ")} µs; ${fixed(readsAsIs[0].rows / READS)} rows a page`,
    measured: `${fixed(readB)} / ${fixed(readA)} µs, ratio ${(readB / readA).toFixed(2)}`,
  });
}

await runBench({ name: "sweep-anatomy" }, main);
