// The verifiable mailbox's log on the seeded bench store (issue 35): how long schema versions 11 and
// 15 take to give every stored copy its position and leaf, and the log its tiles (the upgrade of an
// existing node), and the bytes the log adds per message. The store of run.mjs is copied, versions
// 15 and 11 undone on the copy (sqlite-migrations.ts `undoVersion15Sql`, `undoVersion11Sql`,
// untimed), and the copy opened again: the migration is
// timed, against a plain `VACUUM INTO` copy of the same database made in the same run (both read
// and write every page once).
// Report only ("target none"), except the bytes per message, whose target (≤ 128) is the issue's.
// Env: BENCH_MESSAGES (1000000), BENCH_USERS (10000): the store (lib.mjs seededStore);
// BENCH_MAILBOX_LOG=0 skips it. The copies are removed at the end, on error and on a signal.
import { copyFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { openSqliteStore } from "../dist/storage/sqlite.js";
import { undoVersion11Sql, undoVersion15Sql } from "../dist/storage/sqlite-migrations.js";
import { seededStore } from "./lib.mjs";
import { fmt, header, log, out as figure, runBench, settings, tempDir, verdict } from "./harness.mjs";

/** Bytes SQLite keeps for `tables` (their B-trees), from the dbstat table. */
function tableBytes(db, tables) {
  return db.prepare(`SELECT coalesce(sum(pgsize), 0) AS bytes FROM dbstat WHERE name IN (${tables.map(() => "?").join(", ")})`).pluck().get(...tables);
}

async function main() {
  header("neutral relay mailbox log (schema versions 11 and 15) benchmark");
  const store = await seededStore({ messages: settings.messages, userCount: settings.users, deep: settings.deep, log });
  figure(`# the store of ${fmt(store.messages)} messages among ${fmt(store.userCount)} users`);
  const work = tempDir("mailbox-log");
  const file = path.join(work, "neutral.sqlite");
  copyFileSync(path.join(store.dir, "neutral.sqlite"), file);

  const db = new Database(file);
  const copies = db.prepare("SELECT count(*) FROM mailbox WHERE seq IS NOT NULL").pluck().get();
  db.exec("VACUUM"); // both measurements on packed B-trees
  const withLog = { log: tableBytes(db, ["mailbox_log", "log_accounts", "sqlite_autoindex_log_accounts_1", "log_tiles"]), mailbox: tableBytes(db, ["mailbox"]) };
  db.exec(undoVersion15Sql);
  db.exec(undoVersion11Sql);
  db.exec("VACUUM");
  const withoutLog = { mailbox: tableBytes(db, ["mailbox"]) };
  let started = performance.now();
  db.exec(`VACUUM INTO '${path.join(work, "plain.sqlite")}'`);
  const plainSeconds = (performance.now() - started) / 1000;
  db.close();

  started = performance.now();
  await openSqliteStore({ file }).close();
  const migrationSeconds = (performance.now() - started) / 1000;
  const check = new Database(file, { readonly: true });
  const positioned = check.prepare("SELECT count(*) FROM mailbox_log").pluck().get();
  check.close();
  if (positioned !== copies) throw new Error(`the migration gave ${positioned} positions, the appends had given ${copies}`);

  verdict({
    name: "schema versions 11 and 15 on an existing store: positions, leaves and tiles for every copy",
    figure: `${fmt(migrationSeconds, 1)} s for ${fmt(copies)} copies (${fmt(copies / migrationSeconds)} copies/s)`,
    baseline: `VACUUM INTO of the same database ${fmt(plainSeconds, 1)} s`,
    ratio: migrationSeconds / plainSeconds,
    label: "log migration ÷ VACUUM INTO",
  });
  const perMessage = (withLog.log + withLog.mailbox - withoutLog.mailbox) / store.messages;
  verdict({
    name: "bytes the log adds per stored message (mailbox_log, log_accounts, log_tiles and mailbox.seq)",
    figure: `${fmt(perMessage)} B/message (log ${fmt(withLog.log / copies, 1)} B/copy, ${fmt(copies / store.messages, 2)} copies/message)`,
    target: "≤ 128 B",
    pass: perMessage <= 128,
    label: "log bytes per message",
    measured: `${fmt(perMessage)} B`,
  });
}

await runBench({ name: "mailbox-log", skip: "BENCH_MAILBOX_LOG" }, main);
