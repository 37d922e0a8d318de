// The time to back up the seeded bench store with `neutral-relay backup`, against a plain file copy
// of the same database (fs.copyFile, then fsync) measured in the same run.
// Then the same backup while a relay on that store takes sends: sends/s and the longest wait between
// two acknowledgements, during the backup against the seconds before it.
// No target is set: both lines end "target none · -" (harness.mjs's verdict line), and the closing
// table ends the run. The exit status is non-zero only when the bench could not measure.
// Env: BENCH_MESSAGES (1000000), BENCH_USERS (10000): the store of run.mjs, seeded and cached in
// bench/.data/ (lib.mjs seededStore); BENCH_BACKUP_ROUNDS (3): interleaved rounds, medians reported;
// BENCH_BACKUP_ONLINE=0 skips the part under load; BENCH_BACKUP=0 skips it all; BENCH_BACKUP_OUT:
// where the copies go (default bench/.data/backup-out; e.g. /dev/shm/… for no disk writes).
// The relay and the copies are removed at the end, on error and on SIGINT/SIGTERM/SIGHUP.
import { execFile } from "node:child_process";
import { closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { BENCH_DIR, MAIN, machineBusySeconds, percentile, resetStore, seededStore, signedMessage, startRelay, sendLoadWindow, token, users } from "./lib.mjs";
import { envInt as int, envOn, fmt, header, log, out as figure, removeDir, runBench, settings, trackDir, verdict } from "./harness.mjs";

const MESSAGES = settings.messages;
const USERS = settings.users;
const ROUNDS = int("BENCH_BACKUP_ROUNDS", 3);
const DEEP = settings.deep;
const median = (values) => percentile([...values].sort((a, b) => a - b), 50);

/** Set by main(): the seeded store, its database file, and where the copies go. */
let store;
let database;
let out;

function plainCopy(target) {
  const started = performance.now();
  copyFileSync(database, target);
  const fd = openSync(target, "r");
  fsyncSync(fd); // the backup's file is synced too
  closeSync(fd);
  return (performance.now() - started) / 1000;
}

async function backup(target, minimum = MESSAGES) {
  const started = performance.now();
  const { stdout } = await promisify(execFile)(process.execPath, [MAIN, "backup", target, "--data-dir", store.dir, "--json"], { maxBuffer: 1 << 20 });
  const seconds = (performance.now() - started) / 1000;
  const result = JSON.parse(stdout);
  if (result.messages < minimum) throw new Error(`the backup holds ${result.messages} messages, fewer than the ${minimum} acknowledged before it`);
  return { seconds, copy: result.copySeconds, check: result.checkSeconds, steps: result.steps, restarts: result.restarts };
}

async function main() {
  header("neutral relay backup benchmark");
  figure(`# backup: the store of ${fmt(MESSAGES)} messages among ${fmt(USERS)} users; ${ROUNDS} rounds`);
  store = await seededStore({ messages: MESSAGES, userCount: USERS, deep: DEEP, log });
  database = path.join(store.dir, "neutral.sqlite");
  // The plain copy is only a consistent one of a database whose WAL is folded in and empty.
  const db = new Database(database);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  const bytes = statSync(database).size;
  out = trackDir(process.env.BENCH_BACKUP_OUT ?? path.join(BENCH_DIR, ".data", "backup-out"));
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  // Untimed: both read the file once first, so neither pays for bringing it into the page cache.
  rmSync(path.join(out, "warm"), { force: true });
  plainCopy(path.join(out, "warm"));
  rmSync(path.join(out, "warm"), { force: true });

  const copies = [];
  const backups = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const busyBefore = machineBusySeconds();
    const roundStarted = performance.now();
    const copyFile = path.join(out, "copy.sqlite");
    const backupFile = path.join(out, "backup.sqlite");
    const first = round % 2 === 1 ? "copy" : "backup"; // interleaved: the machine's drift falls on both
    for (const which of first === "copy" ? ["copy", "backup"] : ["backup", "copy"]) {
      if (which === "copy") copies.push(plainCopy(copyFile));
      else backups.push(await backup(backupFile));
    }
    rmSync(copyFile, { force: true });
    rmSync(backupFile, { force: true });
    const b = backups.at(-1);
    // The bench keeps one core busy at most (the copy, or the backup process); more is someone else's.
    const busy = (machineBusySeconds() - busyBefore) / ((performance.now() - roundStarted) / 1000);
    figure(`#   round ${round} (machine busy ${busy.toFixed(2)} cores of 2): fs.copyFile ${copies.at(-1).toFixed(2)} s | backup ${b.seconds.toFixed(2)} s (copy ${b.copy.toFixed(2)} s in ${b.steps} steps, ${b.restarts} restarts; integrity_check ${b.check.toFixed(2)} s)`);
  }

  const mb = bytes / 1e6;
  const copySeconds = median(copies);
  const backupSeconds = median(backups.map((b) => b.seconds));
  const backupCopy = median(backups.map((b) => b.copy));
  const check = median(backups.map((b) => b.check));
  verdict({
    name: `backup of the ${MESSAGES}-message store (${mb.toFixed(0)} MB)`,
    label: "backup, idle node",
    figure:
      `${backupSeconds.toFixed(2)} s, ${(mb / backupSeconds).toFixed(0)} MB/s ` +
      `(backup API ${backupCopy.toFixed(2)} s, ${(mb / backupCopy).toFixed(0)} MB/s; integrity_check ${check.toFixed(2)} s; the process included)`,
    baseline: `fs.copyFile + fsync ${copySeconds.toFixed(2)} s, ${(mb / copySeconds).toFixed(0)} MB/s`,
    ratio: `ratio backup ÷ copy ${(backupSeconds / copySeconds).toFixed(2)} (backup API alone ${(backupCopy / copySeconds).toFixed(2)}), medians of ${ROUNDS} rounds`,
    measured: `${backupSeconds.toFixed(2)} s / ${copySeconds.toFixed(2)} s, ratio ${(backupSeconds / copySeconds).toFixed(2)}`,
  });

  if (envOn("BENCH_BACKUP_ONLINE")) await online();
  removeDir(out);
}

/** The backup while a relay (`--workers 1`) on the store takes sends from 64 connections. */
async function online() {
  const SENDERS = 1000;
  const BEFORE = 10; // seconds of sends before the backup starts; the window's first 2 are left out
  const WINDOW = 180; // at most: the window closes a second after the backup
  const people = users(SENDERS);
  const tokens = people.map((u) => token(u));
  const PRESIGNED = 60_000;
  log(`under load: signing ${PRESIGNED.toLocaleString("en")} messages (more are signed as the senders run out)`);
  const body = (k) => (k + 1).toString(16).padStart(64, "0");
  const list = Array.from({ length: PRESIGNED }, (_, k) => signedMessage(people[k % SENDERS], people[(k * 7 + 1) % SENDERS], body(k)));
  let fresh = PRESIGNED;
  const relay = await startRelay({ dataDir: store.dir, workers: 1 });
  const acks = new Float64Array(1_000_000);
  let count = 0;
  let opened = 0;
  let walMax = 0;
  const wal = `${database}-wal`;
  const backupFile = path.join(out, "online.sqlite");
  let started;
  const backupRun = new Promise((resolve, reject) => (started = { resolve, reject })).then(async () => {
    const ackedBefore = count;
    const at = performance.now();
    const poll = setInterval(() => (walMax = Math.max(walMax, existsSync(wal) ? statSync(wal).size : 0)), 50);
    try {
      const result = await backup(backupFile, MESSAGES + ackedBefore);
      return { ...result, started: at, ended: performance.now(), ackedBefore };
    } finally {
      clearInterval(poll);
    }
  });
  let b;
  try {
    await sendLoadWindow({
      url: relay.url,
      connections: 64,
      list,
      senderTokens: tokens,
      duration: WINDOW,
      counters: () => performance.now(),
      onOpen: () => {
        opened = performance.now();
        setTimeout(started.resolve, BEFORE * 1000);
      },
      onAnswer: (stored) => {
        if (stored) acks[count++] = performance.now();
      },
      whenExhausted: (sender) => signedMessage(people[sender], people[(sender * 7 + 1) % SENDERS], body(fresh++)),
      // The sends stop a second after the backup.
      until: backupRun.then(() => new Promise((resolve) => setTimeout(resolve, 1000))),
    });
    b = await backupRun;
  } finally {
    await relay.stop();
    log(`backup: removed the ${await resetStore(store.dir, store.maxId)} messages sent into the cached store`);
  }
  if (b.ended > opened + WINDOW * 1000) throw new Error("the backup outlasted the send window");
  const times = acks.subarray(0, count);
  const within = (from, to) => times.filter((t) => t >= from && t < to);
  const longestGap = (list_, from, to) => {
    let gap = 0;
    let last = from;
    for (const t of list_) (gap = Math.max(gap, t - last)), (last = t);
    return Math.max(gap, to - last);
  };
  const beforeFrom = opened + 2000;
  const sendsBefore = within(beforeFrom, b.started);
  const sendsDuring = within(b.started, b.ended);
  const rateBefore = sendsBefore.length / ((b.started - beforeFrom) / 1000);
  const rateDuring = sendsDuring.length / ((b.ended - b.started) / 1000);
  // The command's phases, from its own timings: start-up and copy, then integrity_check and the rename.
  const checkFrom = b.ended - b.check * 1000;
  const rateCopying = within(b.started, checkFrom).length / ((checkFrom - b.started) / 1000);
  const rateChecking = within(checkFrom, b.ended).length / ((b.ended - checkFrom) / 1000);
  verdict({
    name: "backup under load (relay --workers 1, 64 connections sending)",
    label: "backup under load: sends/s during ÷ before",
    figure:
      `${b.seconds.toFixed(2)} s (copy ${b.copy.toFixed(2)} s, ${b.restarts} restarts; integrity_check ${b.check.toFixed(2)} s), ` +
      `holding all ${b.ackedBefore} sends acknowledged before it started; sends ${rateDuring.toFixed(0)}/s during it`,
    baseline: `sends ${rateBefore.toFixed(0)}/s in the ${((b.started - beforeFrom) / 1000).toFixed(0)} s before`,
    ratio:
      `ratio ${(rateDuring / rateBefore).toFixed(2)} ` +
      `(while it copies ${rateCopying.toFixed(0)}/s, ${(rateCopying / rateBefore).toFixed(2)}; while it checks ${rateChecking.toFixed(0)}/s, ${(rateChecking / rateBefore).toFixed(2)})`,
    note: `longest wait between two acknowledgements ${longestGap(sendsDuring, b.started, b.ended).toFixed(0)} ms during, ${longestGap(sendsBefore, beforeFrom, b.started).toFixed(0)} ms before; WAL up to ${(walMax / 1e6).toFixed(0)} MB`,
    measured: `${b.seconds.toFixed(2)} s; ${rateDuring.toFixed(0)} / ${rateBefore.toFixed(0)} sends/s, ratio ${(rateDuring / rateBefore).toFixed(2)}`,
  });
}

await runBench({ name: "backup", skip: "BENCH_BACKUP" }, main);
