// What consent checks and the retention sweep cost (issue 24): `node bench/consent-retention.mjs`
// in packages/relay after a build (`pnpm bench` runs it after run.mjs, bounds.mjs, federation.mjs
// and live.mjs; BENCH_CONSENT_RETENTION=0 skips it). Like the other benches (harness.mjs), each line
// prints a figure, the baseline measured in this same run, their ratio, the target (>= 0.95; 2b in
// every round, issue 38: targets.mjs) and PASS or MISS, and the closing table ends the run; the
// exit status is non-zero only when the bench itself could not measure.
//
// Loopback only; SQLite, the default worker count (one per core), `--rate-limit 0` and the four
// storage quotas off (`--sender-…`/`--recipient-quota-… 0`) and `--request-quota-messages 0` on
// every relay, so that no quota is measured; fresh temp data dirs. The bench process is the load
// generator, on the same CPUs. Each part runs two relays side by side, A (baseline) and B
// (measured), and times them in BENCH_CR_ROUNDS rounds, each round one window per relay and
// workload, the order alternating (A B, then B A, ...): a round's ratio is B / A of that round,
// and the figure is the median round (rounds.mjs). Sends: lib.mjs `sendLoadWindow` on
// BENCH_SEND_CONNECTIONS (64) keep-alive connections, BENCH_CR_SENDERS (1,000) senders with their
// own tokens, client-signed messages; the same pre-signed list goes to A and B in a round. Each
// sender writes to 4 of BENCH_CR_RECIPIENTS (200) recipients (so each recipient hears from ~20).
// Reads: getInbox [{}, 20] by the recipients (one token each, connection c serving the recipients
// i with i % connections == c) on BENCH_CONNECTIONS (32) keep-alive connections.
//
//  1. Consent. A: recipients with no consent records and no policy (a send still pays the one
//     store read, `consentFor`, whose answer is "open"). B: every recipient has published, through
//     neutralService_setConsent, an "allowed-only" policy, an "allowed" record for each sender that
//     writes to it and "blocked" records for BENCH_CR_BLOCKED (10) other accounts (EIP-712
//     `ConsentPolicy` and `Consent`, signed with lib.mjs's helpers), so each send pays the full
//     verdict: the record, the policy and the reply probe of "allowed-only". Checked, not timed:
//     a blocked account's send is refused with "not accepted", and no measured send lands in a
//     requests folder.
//  2. Retention sweep. A: `--retention 0`. B: `--retention BENCH_CR_RETENTION` (20 s: the sweep
//     looks every 2 s). Both start from the same pre-filled store (lib.mjs `seed`, 3 x ROUNDS x
//     4,000 x BENCH_CR_SECONDS messages among the bench's accounts: one set per part of B's windows). Retention counts from when
//     the node stored a message, so to make the sweep delete during B's windows and only then,
//     the bench sets the stored time (`messages.accepted_at`) itself: every pre-filled message is
//     first dated an hour ahead (never expiring); when each of B's windows opens, the next ones in
//     id order, as many as A's last sends/s x BENCH_CR_SECONDS (the steady state of a node at full
//     load whose retention is reached: the sweep deletes as fast as the node stores; at most
//     4,000/s; BENCH_CR_EXPIRE_RATE sets a fixed rate instead), are dated to expire evenly over
//     the window's first SECONDS minus one sweep interval (an UPDATE in a worker thread of the
//     bench; its duration is printed); after the window, whatever of them is left and what B
//     stored in the window are dated ahead again (so nothing of B's is swept in A's windows).
//     What the sweep deleted in the window: the pre-filled rows of `messages` counted read-only at
//     the window's edges, with the pages B's file shrank by in the window (while over an eighth
//     of it is free, the sweep gives pages back to the file system) and its free share at the end. (The relay's own `retention: deleted expired messages` line, field
//     `swept`, is logged at info, the level that also logs every request (relay.ts), which would
//     be measured with it; the bench runs at warn like the others and counts the rows instead.)
//     The workers' read floor (store.ts `RetentionFloor`) is looked up by B but, with stored
//     times rewritten behind it, rarely again: at most one index probe per second per worker in a
//     real node, not measurable against ~10,000 reads/s. 2c: the reads again, both relays
//     restarted on their data with `--sqlite-mmap-mib BENCH_CR_MMAP_MIB` (reading the database
//     through a memory map, off by default: relay README, "Retention and deletion"). What a swept
//     message costs, table by table, is measured more precisely by sweep-anatomy.mjs (by hand).
// Each line also gives the relay's CPU per operation, A's ÷ B's, per round: the rate ratio a
// CPU-bound relay with the machine to itself would show, which other processes move less than the
// rates (not judged); and the bytes the relay wrote to disk per operation (/proc/<pid>/io
// `write_bytes`: its WAL and checkpoints), for a cost that is the disk's, not the CPU's. Every line says how many cores other processes kept busy (A/B per round)
// and flags MACHINE BUSY above 0.15.
// Env: BENCH_CONSENT_RETENTION=0 (skip), BENCH_CR_ONLY ("1,2"), BENCH_CR_SECONDS (6: each timed
//      window), BENCH_CR_ROUNDS (5), BENCH_SEND_CONNECTIONS (64), BENCH_CONNECTIONS (32),
//      BENCH_CR_SENDERS (1000), BENCH_CR_RECIPIENTS (200), BENCH_CR_BLOCKED (10),
//      BENCH_CR_RETENTION (20, seconds), BENCH_CR_EXPIRE_RATE (A's sends/s), BENCH_CR_WORKERS (one per
//      core), BENCH_CR_MMAP_MIB (1024; 0 skips 2c), BENCH_RELAY_NODE_ARGS (node flags of the relays, e.g. --cpu-prof).
// Every relay and temp dir is removed at the end, on error and on SIGINT/SIGTERM/SIGHUP.
import { randomBytes } from "node:crypto";
import { copyFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { consentPolicy, consentRecord, cpuSeconds, diskWriteBytes, jsonHeaders, machineBusySeconds, percentile, seed, sendLoadWindow, signedMessage, slices, startRelay, token, user } from "./lib.mjs";
import { benchError, envInt as int, envList, fmt, header, log, out as figure, onCleanup, runBench, settings, tempDir as benchTempDir, verdict } from "./harness.mjs";
import { medianRound, meetsTarget, roundsText } from "./rounds.mjs";
import { ISSUE_38 } from "./targets.mjs";

const require = createRequire(import.meta.url);

const SECONDS = int("BENCH_CR_SECONDS", 6);
const ROUNDS = int("BENCH_CR_ROUNDS", 5);
const CONNECTIONS = settings.sendConnections;
const READ_CONNECTIONS = settings.connections;
const SENDERS = int("BENCH_CR_SENDERS", 1000);
const RECIPIENTS = int("BENCH_CR_RECIPIENTS", 200);
const BLOCKED = int("BENCH_CR_BLOCKED", 10);
const RETENTION = int("BENCH_CR_RETENTION", 20);
/** Messages dated to expire per second of B's window: by default A's last sends/s (the steady state of a full node: the sweep deletes what it stores), at most EXPIRE_CAP. */
const EXPIRE_RATE = process.env.BENCH_CR_EXPIRE_RATE ? int("BENCH_CR_EXPIRE_RATE", 0) : undefined;
const EXPIRE_CAP = EXPIRE_RATE ?? 4000;
const WORKERS = int("BENCH_CR_WORKERS", os.availableParallelism());
/** 2c: the reads of 2b again, both relays reading their database through a memory map of this size (`--sqlite-mmap-mib`); 0 skips 2c. */
const MMAP_MIB = process.env.BENCH_CR_MMAP_MIB === "0" ? 0 : int("BENCH_CR_MMAP_MIB", 1024);
const ONLY = envList("BENCH_CR_ONLY", "1,2");
/** Recipients each sender writes to. */
const FAN_OUT = 4;
/** Messages pre-signed per second of a send window (a connection that runs out signs more during the window). */
const SIGN_RATE = 5500;
const PAGE = 20;
const TARGET = 0.95;
/** The sweep's interval at this retention (retention.ts `sweepIntervalMs`). */
const SWEEP_INTERVAL_S = Math.min(60, Math.max(1, RETENTION / 10));
/** Quotas off on every relay: only consent and retention differ between A and B. */
const QUOTAS_OFF = ["--sender-quota-messages", "0", "--sender-quota-bytes", "0", "--recipient-quota-messages", "0", "--recipient-quota-bytes", "0", "--request-quota-messages", "0"];
const BUSY_CORES = 0.15;

const ms = (n) => `${fmt(n, 2)} ms`;

// ---------------------------------------------------------------------------------------------
// Accounts: senders 0…SENDERS-1, recipients after them, then the accounts recipients block.

const senders = Array.from({ length: SENDERS }, (_, i) => user(i));
const recipients = Array.from({ length: RECIPIENTS }, (_, r) => user(SENDERS + r));
const blockedPool = Array.from({ length: Math.max(BLOCKED * 4, 40) }, (_, b) => user(SENDERS + RECIPIENTS + b));
/** The recipients sender i writes to. */
const targetsOf = (i) => Array.from({ length: FAN_OUT }, (_, k) => (i * FAN_OUT + k) % RECIPIENTS);

// ---------------------------------------------------------------------------------------------
// Cleanup (harness.mjs): every relay from its spawn on (lib.mjs startRelay), every temp dir from its
// creation, the bench's own connection to B's database.

const tempDir = (label) => benchTempDir(`cr-${label}`);

/** A relay on `dataDir` (a fresh one by default) with the quotas off and `extraArgs`. */
async function relay(label, extraArgs, dataDir = tempDir(label)) {
  const node = await startRelay({
    dataDir,
    workers: WORKERS,
    extraArgs: [...QUOTAS_OFF, ...extraArgs],
  });
  return { ...node, label, dataDir };
}

async function rpc(url, bearer, method, params) {
  const response = await fetch(url, { method: "POST", headers: jsonHeaders(bearer), body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return response.json();
}

// ---------------------------------------------------------------------------------------------
// Loads. Both snapshot CPU counters at the window's edges: the relay's processes, the machine and
// this process, whose difference is what other processes (another build, a test run) took.

const counters = (node, extra) => () => ({
  at: performance.now(),
  cpu: cpuSeconds(node.pids()),
  disk: diskWriteBytes(node.pids()),
  machine: machineBusySeconds(),
  self: process.cpuUsage(),
  extra: extra?.(),
});

function cores(window, end) {
  const seconds = (end.at - window.at) / 1000;
  const relayCores = (end.cpu - window.cpu) / seconds;
  const clientCores = (end.self.user - window.self.user + end.self.system - window.self.system) / 1e6 / seconds;
  const otherCores = Math.max(0, (end.machine - window.machine) / seconds - relayCores - clientCores);
  // Bytes the relay had written to disk in the window (its WAL, checkpoints into the database).
  const diskBytes = end.disk !== undefined && window.disk !== undefined ? end.disk - window.disk : NaN;
  return { seconds, relayCores, clientCores, otherCores, diskBytes };
}

/** `count` client-signed messages, message j from sender j % SENDERS to one of its recipients. */
function presign(count) {
  const list = [];
  for (let j = 0; j < count; j++) list.push(freshMessage(j % SENDERS));
  return list;
}
const freshMessage = (i) => {
  const targets = targetsOf(i);
  return signedMessage(senders[i], recipients[targets[Math.floor(Math.random() * targets.length)]], randomBytes(32 + Math.floor(Math.random() * 69)).toString("hex"));
};

async function sendWindow(node, list, senderTokens, extra, onOpen) {
  const tally = { stored: 0, failed: 0, sample: undefined };
  let signedLate = 0;
  const { latencies, window, end } = await sendLoadWindow({
    url: node.url,
    connections: CONNECTIONS,
    list,
    senderTokens,
    duration: SECONDS,
    counters: counters(node, extra),
    onOpen,
    onAnswer(stored, status, text) {
      if (stored) tally.stored++;
      else {
        tally.failed++;
        tally.sample ??= status === 0 ? text : `${status} ${text.slice(0, 300)}`;
      }
    },
    whenExhausted: (i) => (signedLate++, freshMessage(i)),
  });
  const c = cores(window, end);
  return { ...tally, ...c, perSecond: tally.stored / c.seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), signedLate, window, end };
}

/** getInbox [{}, PAGE] by the recipients; each connection warms its tokens first, then the timed window opens. */
async function readWindow(node, recipientTokens, extra, onOpen = () => {}) {
  const bodies = recipientTokens.map((_, i) => Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: i + 1, method: "neutralService_getInbox", params: [{}, PAGE] })));
  const bySlot = slices(recipientTokens.length, READ_CONNECTIONS);
  const latencies = new Float64Array(2_000_000);
  let count = 0;
  let ok = 0;
  let failed = 0;
  let sample;
  let window;
  let end;
  let warmConnections = 0;
  let slots = 0;
  const snapshot = counters(node, extra);
  const instance = autocannon({
    url: node.url,
    connections: READ_CONNECTIONS,
    duration: SECONDS + 600, // a bound only: stopped SECONDS after the window opens
    timeout: 30,
    requests: [
      {
        method: "POST",
        path: "/",
        state: { slot: -1, n: 0, warm: true },
        setupRequest(request) {
          const state = request.state;
          if (state.slot < 0) state.slot = slots++;
          const mine = bySlot[state.slot];
          if (state.warm && state.n >= mine.length) {
            state.warm = false;
            if (++warmConnections === READ_CONNECTIONS) {
              window = snapshot();
              onOpen();
              setTimeout(() => {
                end = snapshot();
                instance.stop();
              }, SECONDS * 1000);
            }
          }
          const i = mine[state.n++ % mine.length];
          request.headers = jsonHeaders(recipientTokens[i]);
          request.body = bodies[i];
          return request;
        },
        onResponse(status, body) {
          if (!window || end) return;
          const text = String(body);
          if (status === 200 && text.includes('"data":[') && !text.includes('"error"')) ok++;
          else {
            failed++;
            sample ??= `${status} ${text.slice(0, 300)}`;
          }
        },
      },
    ],
  });
  instance.on("response", (_client, _status, _bytes, responseTime) => {
    if (!window || end) return;
    if (count < latencies.length) latencies[count++] = responseTime;
  });
  await instance;
  if (!window || !end) throw new Error("read load: the run ended before its timed window did");
  const sorted = latencies.subarray(0, count).sort();
  const c = cores(window, end);
  return { ok, failed, sample, ...c, perSecond: ok / c.seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99), window, end };
}

// ---------------------------------------------------------------------------------------------
// Rounds: A and B alternate within each round (A B, then B A, ...).

/** Runs `run(node, round)` for A and B in each round, alternating who goes first; returns [{a, b}] per round. */
async function rounds(a, b, label, run) {
  const results = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [a, b] : [b, a];
    const entry = {};
    for (const node of order) {
      log(`${label}, round ${round + 1} of ${ROUNDS}: ${node.label}`);
      entry[node === a ? "a" : "b"] = await run(node, round);
    }
    results.push(entry);
  }
  return results;
}

/**
 * One figure: the median round of B / A, with every round's ratio; PASS at >= `target`, by the median
 * or (`everyRound`) by every round. `label`: its name in the closing table.
 */
function judge({ name, label, unit, results, extra = () => "", problems = [], target = TARGET, everyRound = false }) {
  const summary = medianRound(results, (r) => r.b.perSecond / r.a.perSecond);
  const { a, b } = summary.run;
  const worstOther = Math.max(...results.flatMap((r) => [r.a.otherCores, r.b.otherCores]));
  const failures = results.flatMap((r) => [r.a, r.b]).filter((run) => run.failed);
  const notes = [
    ...problems,
    ...failures.map((run) => `${fmt(run.failed)} FAILED (${run.sample})`),
    ...(worstOther > BUSY_CORES ? [`MACHINE BUSY: other processes kept up to ${worstOther.toFixed(2)} cores busy during a window`] : []),
  ];
  const pass = meetsTarget(summary, target, { everyRound }) && failures.length === 0;
  const perOp = (run) => ms((run.relayCores / run.perSecond) * 1000);
  const diskPerOp = (run) => `${fmt(run.diskBytes / run.seconds / run.perSecond / 1024, 1)} KiB written to disk each`;
  // Relay CPU per operation, A's ÷ B's: what the rate ratio would be if the relay had the CPUs to
  // itself and were CPU-bound. Other processes move the rates far more than the CPU per operation.
  const cpu = medianRound(results, (r) => r.a.relayCores / r.a.perSecond / (r.b.relayCores / r.b.perSecond));
  const cpuText = `relay CPU per operation A ÷ B ${cpu.ratio.toFixed(2)} (${cpu.ratios.map((r) => r.toFixed(2)).join(" / ")})`;
  verdict({
    name,
    label,
    figure: `${fmt(b.perSecond)} ${unit}, p50 ${ms(b.p50)}, p99 ${ms(b.p99)} (relay ${b.relayCores.toFixed(2)} cores, ${perOp(b)} CPU, ${diskPerOp(b)}${extra(b, a)})`,
    baseline: `${fmt(a.perSecond)} ${unit}, p50 ${ms(a.p50)}, p99 ${ms(a.p99)} (relay ${a.relayCores.toFixed(2)} cores, ${perOp(a)} CPU, ${diskPerOp(a)})`,
    ratio: `${roundsText(summary)}; ${cpuText}`,
    target: `>= ${target}${everyRound ? " in every round" : ""}`,
    pass,
    note: [`other processes ${results.map((r) => `${r.a.otherCores.toFixed(2)}/${r.b.otherCores.toFixed(2)}`).join(", ")} cores (A/B per round)`, ...notes].join(" · "),
    measured:
      `ratio ${summary.ratio.toFixed(2)} (${summary.ratios.map((r) => r.toFixed(2)).join(" / ")}); ` +
      `CPU A ÷ B ${cpu.ratio.toFixed(2)} (${cpu.ratios.map((r) => r.toFixed(2)).join(" / ")})`,
  });
}

// ---------------------------------------------------------------------------------------------
// 1. Consent

async function consentPart(lists) {
  const a = await relay("consent-A", []);
  const b = await relay("consent-B", []);
  log(`consent: relays A ${a.url} (no records) and B ${b.url} (allowed-only); signing tokens and records`);
  const senderTokens = senders.map((u) => token(u));
  const recipientTokens = recipients.map((u) => token(u));
  const allowedOf = Array.from({ length: RECIPIENTS }, () => []);
  senders.forEach((_, i) => targetsOf(i).forEach((r) => allowedOf[r].push(i)));
  const started = performance.now();
  let records = 0;
  await Promise.all(
    slices(RECIPIENTS, 8).map(async (mine) => {
      for (const r of mine) {
        const me = recipients[r];
        const blocked = Array.from({ length: BLOCKED }, (_, k) => blockedPool[(r + k * 3) % blockedPool.length]);
        const list = [...allowedOf[r].map((i) => consentRecord(me, senders[i].address, "allowed")), ...blocked.map((u) => consentRecord(me, u.address, "blocked"))];
        records += list.length;
        const answer = await rpc(b.url, recipientTokens[r], "neutralService_setConsent", [list, consentPolicy(me, "allowed-only")]);
        if (answer.error || answer.result?.[0]?.records?.length !== list.length) throw new Error(`setConsent: ${JSON.stringify(answer).slice(0, 300)}`);
      }
    }),
  );
  figure(
    `# 1 consent: B holds ${fmt(records)} signed records (${fmt(records / RECIPIENTS, 1)} per recipient: each sender that writes to it allowed, ${BLOCKED} blocked) and ${RECIPIENTS} "allowed-only" policies, ` +
      `published in ${((performance.now() - started) / 1000).toFixed(1)} s; A none`,
  );
  // Checked, not timed: a blocked account is refused on B and stored on A.
  const r0 = 0;
  const blockedSender = blockedPool[r0 % blockedPool.length];
  const blockedToken = token(blockedSender);
  const probe = () => signedMessage(blockedSender, recipients[r0], "00");
  const refused = await rpc(b.url, blockedToken, "neutralService_sendMessage", [probe()]);
  if (refused.error?.data?.reason !== "not accepted") throw new Error(`a blocked sender was not refused on B: ${JSON.stringify(refused).slice(0, 300)}`);
  const accepted = await rpc(a.url, blockedToken, "neutralService_sendMessage", [probe()]);
  if (accepted.error) throw new Error(`a send on A failed: ${JSON.stringify(accepted).slice(0, 300)}`);

  const sends = await rounds(a, b, "consent sends", (node, round) => sendWindow(node, lists[round], senderTokens));
  const reads = await rounds(a, b, "consent reads", (node) => readWindow(node, recipientTokens));
  // No measured send went to a requests folder: every sender is allowed by its recipients.
  let requests = 0;
  for (let r = 0; r < RECIPIENTS; r += Math.ceil(RECIPIENTS / 20)) {
    const answer = await rpc(b.url, recipientTokens[r], "neutralService_getInbox", [{ folder: "requests" }, 100]);
    requests += answer.result?.[0]?.data?.length ?? 0;
  }
  await Promise.all([a.stop(), b.stop()]);
  judge({
    name: `1a sendMessage, each recipient "allowed-only" with its senders allowed (B) vs no consent records (A), ${CONNECTIONS} connections`,
    label: "1a consent: sendMessage",
    unit: "sends/s",
    results: sends,
    problems: requests ? [`${requests} messages in sampled requests folders: EXPECTED 0`] : [],
  });
  judge({
    name: `1b getInbox [{}, ${PAGE}] by the ${RECIPIENTS} recipients, same relays after the sends, ${READ_CONNECTIONS} connections`,
    label: "1b consent: getInbox",
    unit: "req/s",
    results: reads,
  });
}

// ---------------------------------------------------------------------------------------------
// 2. Retention sweep

async function retentionPart(lists) {
  // B's windows: sends (2a), reads (2b) and, unless skipped, mapped reads (2c).
  const prefill = (MMAP_MIB > 0 ? 3 : 2) * ROUNDS * EXPIRE_CAP * SECONDS;
  /** A's sends/s in its last send window (the first B window comes after A's). */
  let sendRateA = EXPIRE_CAP;
  const dirA = tempDir("retention-A");
  const dirB = tempDir("retention-B");
  log(`retention: seeding ${fmt(prefill)} messages`);
  const seedSeconds = await seed({ dir: dirB, messages: prefill, userCount: SENDERS + RECIPIENTS, deep: 0, chunk: 20_000 });
  const fileB = path.join(dirB, "neutral.sqlite");
  const FAR = Date.now() + 3_600_000;
  {
    const db = new Database(fileB);
    db.prepare("UPDATE messages SET accepted_at = ?").run(FAR);
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
  }
  copyFileSync(fileB, path.join(dirA, "neutral.sqlite"));
  let a = await relay("retention-A", ["--retention", "0"], dirA);
  let b = await relay("retention-B", ["--retention", `${RETENTION}s`], dirB);
  figure(
    `# 2 retention: both relays start from the same ${fmt(prefill)} pre-filled messages (seeded in ${seedSeconds.toFixed(1)} s); A --retention 0, B --retention ${RETENTION}s ` +
      `(a sweep every ${SWEEP_INTERVAL_S} s); before each of B's windows ${EXPIRE_RATE ? `${fmt(EXPIRE_RATE * SECONDS)}` : `A's last sends/s x ${SECONDS}`} of them (the next in id order) are dated to expire over its first ${SECONDS - SWEEP_INTERVAL_S} s`,
  );
  const db = new Database(fileB);
  const forgetDb = onCleanup(() => db.open && db.close());
  db.pragma("busy_timeout = 10000");
  const seededLeft = db.prepare("SELECT count(*) FROM messages WHERE id <= ?").pluck();
  const firstSeeded = db.prepare("SELECT min(id) FROM messages").pluck();
  const dater = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     const db = new (require(workerData.module))(workerData.file);
     db.pragma("busy_timeout = 10000");
     const expire = db.prepare("UPDATE messages SET accepted_at = @base + ((id - @from) * @spread) / @count WHERE id >= @from AND id < @from + @count");
     parentPort.on("message", (job) => {
       const started = performance.now();
       expire.run(job);
       parentPort.postMessage(performance.now() - started);
     });`,
    { eval: true, workerData: { module: require.resolve("better-sqlite3"), file: fileB } },
  );
  // A worker thread keeps the process alive: ended by the cleanup too, should a window throw.
  const forgetDater = onCleanup(() => void dater.terminate());
  const unexpire = db.prepare("UPDATE messages SET accepted_at = @far WHERE id >= @from AND accepted_at < @far");
  /** Around one of B's windows: date the next chunk to expire during it, then date what is left (and what B stored) ahead again. */
  const aroundB = async (node, measure) => {
    if (node !== b) return measure(undefined, undefined);
    const chunk = Math.round(Math.min(EXPIRE_CAP, EXPIRE_RATE ?? sendRateA) * SECONDS);
    // From the oldest pre-filled message left: one the sweep did not reach in an earlier window
    // (dated ahead again since) would otherwise hold the floor below this window's.
    const from = firstSeeded.get();
    if (from + chunk - 1 > prefill) throw new Error(`the pre-filled messages ran out (${fmt(prefill)}): set BENCH_CR_EXPIRE_RATE lower`);
    const leftBefore = seededLeft.get(prefill);
    // At the window's opening (its warm-up takes a varying time): an UPDATE of `chunk` rows by id
    // on B's database, in a worker thread so that the load generator does not stop for it; B's
    // writer may wait for its commit. Its duration is printed.
    let dated;
    const onOpen = () => {
      dated = new Promise((resolve) => dater.once("message", resolve));
      dater.postMessage({ base: Date.now() - RETENTION * 1000, from, spread: (SECONDS - SWEEP_INTERVAL_S) * 1000, count: chunk });
    };
    // At the window's edges: the pre-filled messages left, and the file's pages. Over an eighth of
    // the file free, the sweep gives pages back to the file system (sqlite-append-batch.js
    // `reclaimDue`), 2,048 a step, and the file shrinks: work a node whose sends keep up with its
    // deletions does not do, so each line says how many pages went back in B's windows.
    const pageCount = () => db.pragma("page_count", { simple: true });
    const result = await measure(() => ({ left: seededLeft.get(prefill), pages: pageCount() }), onOpen);
    const datingMs = await dated;
    unexpire.run({ far: FAR, from });
    const free = db.pragma("freelist_count", { simple: true }) / pageCount();
    return {
      ...result,
      chunk,
      datingMs,
      free,
      pagesBack: Math.max(0, result.window.extra.pages - result.end.extra.pages),
      deleted: result.window.extra.left - result.end.extra.left,
      deletedBefore: leftBefore - result.window.extra.left,
    };
  };
  const senderTokens = senders.map((u) => token(u));
  const recipientTokens = recipients.map((u) => token(u));
  const sends = await rounds(a, b, "retention sends", async (node, round) => {
    const result = await aroundB(node, (extra, onOpen) => sendWindow(node, lists[round], senderTokens, extra, onOpen));
    if (node === a) sendRateA = result.perSecond;
    return result;
  });
  const reads = await rounds(a, b, "retention reads", (node) => aroundB(node, (extra, onOpen) => readWindow(node, recipientTokens, extra, onOpen)));
  let mappedReads;
  if (MMAP_MIB > 0) {
    // The same relays on the same data, restarted reading through a memory map (config.ts `DEFAULT_SQLITE_MMAP_MIB`).
    await Promise.all([a.stop(), b.stop()]);
    const mapped = ["--sqlite-mmap-mib", String(MMAP_MIB)];
    a = await relay("retention-A", ["--retention", "0", ...mapped], dirA);
    b = await relay("retention-B", ["--retention", `${RETENTION}s`, ...mapped], dirB);
    mappedReads = await rounds(a, b, "retention reads, mapped", (node) => aroundB(node, (extra, onOpen) => readWindow(node, recipientTokens, extra, onOpen)));
  }
  db.close();
  forgetDb();
  forgetDater();
  await dater.terminate();
  await Promise.all([a.stop(), b.stop()]);
  const sweptText = (run) =>
    `; the sweep deleted ${fmt(run.deleted)} of the ${fmt(run.chunk)} dated to expire in this window (${fmt(run.deleted / run.seconds)}/s)` +
    (run.deletedBefore > 0 ? `, ${fmt(run.deletedBefore)} before it opened` : "") +
    `; dating them took ${ms(run.datingMs)} at the opening`;
  const allDeleted = (list) =>
    list.map((r) => fmt(r.b.deleted)).join(" / ") +
    ` messages; pages B's file shrank by in the window (given back by the sweep): ${list.map((r) => fmt(r.b.pagesBack)).join(" / ")}` +
    `; B's file free at the window's end: ${list.map((r) => `${fmt(r.b.free * 100, 1)} %`).join(" / ")}`;
  judge({
    name: `2a sendMessage with the retention sweep deleting (B, --retention ${RETENTION}s) vs --retention 0 (A), ${CONNECTIONS} connections`,
    label: "2a retention sweep: sendMessage",
    unit: "sends/s",
    results: sends,
    extra: (run) => sweptText(run),
  });
  figure(`#   2a swept per round (B's windows): ${allDeleted(sends)}`);
  judge({
    name: `2b getInbox [{}, ${PAGE}] by the ${RECIPIENTS} recipients with the sweep deleting (B) vs --retention 0 (A), ${READ_CONNECTIONS} connections`,
    label: "2b retention sweep: getInbox",
    unit: "req/s",
    results: reads,
    extra: (run) => sweptText(run),
    target: ISSUE_38.readsDuringSweep,
    everyRound: true,
  });
  figure(`#   2b swept per round (B's windows): ${allDeleted(reads)}`);
  if (mappedReads) {
    judge({
      name: `2c getInbox as 2b, both relays --sqlite-mmap-mib ${MMAP_MIB} (reading the database through a memory map)`,
      label: "2c retention sweep: getInbox, mapped",
      unit: "req/s",
      results: mappedReads,
      extra: (run) => sweptText(run),
    });
    figure(`#   2c swept per round (B's windows): ${allDeleted(mappedReads)}`);
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  header("neutral relay consent and retention benchmark");
  const quietFrom = { at: performance.now(), machine: machineBusySeconds(), self: process.cpuUsage() };
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const q = cores({ ...quietFrom, cpu: 0 }, { at: performance.now(), machine: machineBusySeconds(), self: process.cpuUsage(), cpu: 0 });
  figure(`# consent-retention: --workers ${WORKERS}, ${SECONDS} s per window, ${ROUNDS} rounds (A and B alternating); other processes kept ${q.otherCores.toFixed(2)} cores busy in the 2 s before the run`);
  log(`signing ${fmt(ROUNDS)} x ${fmt(SIGN_RATE * SECONDS)} messages`);
  const lists = Array.from({ length: ROUNDS }, () => presign(SIGN_RATE * SECONDS));
  if (ONLY.includes(1)) {
    try {
      await consentPart(lists);
    } catch (error) {
      benchError("1 consent", error.stack ?? error);
    }
  }
  if (ONLY.includes(2)) {
    try {
      await retentionPart(lists);
    } catch (error) {
      benchError("2 retention sweep", error.stack ?? error);
    }
  }
}

await runBench({ name: "consent-retention", skip: "BENCH_CONSENT_RETENTION" }, main);
