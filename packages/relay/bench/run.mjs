// The relay's benchmark suite: `pnpm bench` (or `node bench/run.mjs` in packages/relay, after a build).
// Prints one verdict line per figure (harness.mjs: figure, the baseline measured in this same run,
// the ratio, the target, PASS or MISS), then the closing table of them all. The exit status is
// non-zero only when the bench itself could not measure (a missed target is a finding).
// Env: BENCH_MESSAGES (1000000), BENCH_USERS (10000), BENCH_SECONDS (10 per timed run),
//      BENCH_ROUNDS (3 timed rounds of each SQLite relay figure and of PostgreSQL's getInbox,
//      interleaved; the median is judged),
//      BENCH_CONNECTIONS (32), BENCH_SEND_CONNECTIONS (64), BENCH_SEND_MESSAGES (6000 x BENCH_SECONDS:
//      pre-signed per send run), BENCH_WORKERS ("1,2"), BENCH_SEND=0 to skip the send figures,
//      BENCH_READ=0 to skip the getInbox figures (both also apply to PostgreSQL), BENCH_PROOF=0 to skip
//      getInbox with proofs ÷ without (the verifiable mailbox; BENCH_PROOF_FORM "bound", the default
//      and what the SDK asks: one multiproof a page, no position the messages state (`omitBound`),
//      "compact": one multiproof, every position listed, or "positions": a proof per position; BENCH_PROOF_ANEW=0 to skip the same
//      proven load on a relay that keeps no proof, --kept-proofs-mib 0), BENCH_DEEP=0 to skip
//      the deep page, BENCH_BASELINE=0 to skip the bare node:http baselines,
//      BENCH_POSTGRES=0 to skip the PostgreSQL figures (bench/postgres.mjs), BENCH_POSTGRES_REPLICAS ("1,2"),
//      BENCH_LOG_BASELINE=0 to skip sends with the mailbox log ÷ without (relay-without-log.mjs),
//      BENCH_SEND_BODY_BYTES (unset: each sent body 32-100 random bytes; N: every body N bytes),
//      BENCH_RELAY_NODE_ARGS (node flags of the relays), BENCH_VERBOSE (the relays' stderr).
// Every relay, baseline server and temp dir is removed at the end, on error and on SIGINT/SIGTERM/SIGHUP.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { openSqliteStore } from "../dist/storage/sqlite.js";
import { BENCH_DIR, cpuSeconds, curve, machineBusySeconds, percentile, resetStore, seededStore, signedMessage, startBaseline, startRelay, token, users, warmFile } from "./lib.mjs";
import { envInt, envList, envOn, fmt, header, log, ms, out as figure, removeDir, runBench, settings, tempDir, verdict } from "./harness.mjs";
import { cryptoLoopOnCores } from "./crypto-loop.mjs";
import { postgresFigures } from "./postgres.mjs";
import { medianRound, ratiosBrief, roundsText } from "./rounds.mjs";
import { ISSUE_38 } from "./targets.mjs";

const MESSAGES = settings.messages;
const USERS = settings.users;
const SECONDS = settings.seconds;
/** Timed rounds of each SQLite relay figure (reads and sends) and of PostgreSQL's reads, interleaved; each line gives the median. */
const ROUNDS = settings.rounds;
const CONNECTIONS = settings.connections;
/** Sends: group commit batches what is in flight, so the figure depends on concurrent senders. */
const SEND_CONNECTIONS = settings.sendConnections;
/** Bytes of each sent message's body; 0 (unset): 32 to 100 at random. */
const SEND_BODY_BYTES = envInt("BENCH_SEND_BODY_BYTES", 0);
const WORKERS = envList("BENCH_WORKERS", "1,2");
/** Sends are also timed on the relay without the mailbox log's rows (issue 35: with the log ÷ without, ≥ 0.9). */
const LOG_BASELINE = envOn("BENCH_LOG_BASELINE");
const WITHOUT_LOG = path.join(BENCH_DIR, "relay-without-log.mjs");
const POSTGRES_REPLICAS = envList("BENCH_POSTGRES_REPLICAS", "1,2");
const DEEP = settings.deep;
const LIMIT = 20;
/** The proofs asked of reads: one multiproof per page (spec 3.1.0, what the SDK asks), or one proof per position. */
const PROOF_FORMS = {
  bound: { request: { compact: true, omitBound: true }, name: "one multiproof a page, no position its messages state" },
  compact: { request: { compact: true }, name: "one multiproof a page" },
  positions: { request: {}, name: "a proof per position" },
};
const PROOF_FORM = process.env.BENCH_PROOF_FORM ?? "bound";
if (!Object.hasOwn(PROOF_FORMS, PROOF_FORM)) throw new Error(`BENCH_PROOF_FORM is one of ${Object.keys(PROOF_FORMS).join(", ")}, not ${PROOF_FORM}`);
const PROOF_REQUEST = PROOF_FORMS[PROOF_FORM].request;
const RSS_BUDGET = 200 * 1024 * 1024;
/** getInbox ÷ one bare node:http process (the first read target); issue 38's figures are judged by targets.mjs. */
const READ_TARGET = 0.6;

/** The closing table's short figure: "12,916 req/s, ratio 0.56 (0.56 / 0.57 / 0.54)". */
const measured = (rate, summary) => `${rate}, ratio ${ratiosBrief(summary)}`;
/** CPU cores kept busy during a run: server / load generator / everything else on the machine. */
const cores = (run) =>
  `${run.serverCores.toFixed(2)}/${run.clientCores.toFixed(2)}/${Math.max(0, run.machineCores - run.serverCores - run.clientCores).toFixed(2)}`;

// ---------------------------------------------------------------------------------------------
// Load generation: autocannon in this process. Each connection serves its own slice of the users
// (connection c: users i with i % CONNECTIONS == c) the way a real client keeps its own token on
// its own keep-alive connection; so with --workers N a token meets one worker, which verifies it
// once and then serves it from its cache, as in a long-running node.

/**
 * Runs autocannon; `next(slot, state)` returns the {headers, body} of a connection's next request.
 * `warm(slot, state)` returns a connection's warm-up requests first, then `undefined`
 * once that connection is warm: the timed window (`duration` s) begins when every connection is
 * warm, on the same connections. A token is verified by the process its connection lands on, so a
 * warm-up on connections of its own would leave the timed run's connections to verify again
 * wherever the relay's cluster happens to hand them. The window ends when the bench stops
 * autocannon (which takes a further 0.25–0.75 s to wind down; that time is not counted), and
 * only responses inside it count, latencies too (from autocannon's "response" events, sub-ms
 * resolution). `url` may be a list (replicas): the connections are split evenly, one autocannon
 * instance per URL, all running at once; a connection keeps its slot and its server.
 * `databaseCpu()`: CPU seconds a database server has used so far, for its cores.
 */
async function load({ url, next, warm, duration, connections = CONNECTIONS, server, databaseCpu }) {
  const urls = Array.isArray(url) ? url : [url];
  const share = (total, k) => Math.floor(total / urls.length) + (k < total % urls.length ? 1 : 0);
  const pids = server?.pids() ?? [];
  const latencies = new Float64Array(4_000_000);
  let count = 0;
  let ok = 0;
  let warmRequests = 0;
  /** The counters when the timed window began, and when it ended; undefined until then. */
  let window;
  let end;
  let instances = [];
  const counters = () => ({ at: performance.now(), cpu: cpuSeconds(pids), primary: cpuSeconds(pids.slice(0, 1)), database: databaseCpu?.() ?? 0, machine: machineBusySeconds(), self: process.cpuUsage() });
  const begin = () => {
    window = counters();
    setTimeout(() => {
      end = counters();
      for (const instance of instances) instance.stop();
    }, duration * 1000);
  };
  let slots = 0;
  let warmConnections = 0;
  instances = urls.map((target, k) => {
    const instance = autocannon({
      url: target,
      connections: share(connections, k),
      duration: duration + 600, // a bound only: the run is stopped `duration` s after the window begins
      timeout: 30,
      requests: [
        {
          method: "POST",
          path: "/",
          state: { slot: -1, n: 0, warm: true }, // cloned per connection by autocannon: per-connection state
          setupRequest(request) {
            const state = request.state;
            if (state.slot < 0) state.slot = slots++;
            let warmRequest;
            if (state.warm) {
              warmRequest = warm(state.slot, state);
              if (warmRequest) warmRequests++;
              else {
                state.warm = false;
                if (++warmConnections === connections) begin();
              }
            }
            const { headers, body } = warmRequest ?? next(state.slot, state);
            request.headers = headers;
            request.body = body;
            return request;
          },
        },
      ],
    });
    instance.on("response", (_client, status, _bytes, responseTime) => {
      if (!window || end) return;
      if (status >= 200 && status < 300) ok++;
      if (count < latencies.length) latencies[count++] = responseTime;
    });
    return instance;
  });
  const results = await Promise.all(instances);
  if (!window || !end) throw new Error("load: the run ended before its timed window did");
  const seconds = (end.at - window.at) / 1000;
  const sorted = latencies.subarray(0, count).sort();
  const sum = (field) => results.reduce((total, result) => total + result[field], 0);
  const selfSeconds = (end.self.user - window.self.user + end.self.system - window.self.system) / 1e6;
  return {
    ok,
    /** 2xx responses of the whole run, warm-up included, and the warm-up requests sent. */
    okTotal: sum("2xx"),
    warmRequests,
    bad: sum("non2xx") + sum("errors") + sum("timeouts"),
    perSecond: ok / seconds,
    seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    /** Cores the server (all its processes), the database server and the load generator kept busy. */
    serverCores: (end.cpu - window.cpu) / seconds,
    /** Of the server's, its first process's: a relay with workers, its primary (the one SQLite writer every append waits on). */
    primaryCores: (end.primary - window.primary) / seconds,
    databaseCores: (end.database - window.database) / seconds,
    clientCores: selfSeconds / seconds,
    machineCores: (end.machine - window.machine) / seconds,
  };
}

/** Per-connection slices of `count` items (item i → slot i % connections). */
function slices(count, connections = CONNECTIONS) {
  return Array.from({ length: connections }, (_, slot) => {
    const list = [];
    for (let i = slot; i < count; i += connections) list.push(i);
    return list;
  });
}

const jsonHeaders = (bearer) => ({ "content-type": "application/json", authorization: `Bearer ${bearer}` });

// ---------------------------------------------------------------------------------------------

async function main() {
  const cpus = os.cpus();
  header("neutral relay benchmark", `, secp256k1 ${curve.implementation}`);
  figure(
    `# load generator: autocannon in the bench process, ${CONNECTIONS} keep-alive connections, ${SECONDS} s per timed run; ` +
      `it shares the ${cpus.length} CPUs with the server under test, so every figure (baselines too) is measured under that contention`,
  );
  figure(
    `# rounds: each SQLite relay figure is timed in ${ROUNDS} round(s), interleaved with the other configurations, each round ` +
      `with its own baseline just before and after it; a line gives the median round's figures (the lower of the middle two ` +
      `for an even count) and every round's ratio, and is judged by the median (memory by its largest round)`,
  );

  // -- the store -------------------------------------------------------------------------------
  log(`store: ${MESSAGES} messages, ${USERS} users, deep mailbox of ${DEEP}`);
  const store = await seededStore({ messages: MESSAGES, userCount: USERS, deep: DEEP, log });
  const leftovers = await resetStore(store.dir, store.maxId);
  const warmStarted = performance.now();
  const { bytes: dbBytes, dropped } = warmFile(path.join(store.dir, "neutral.sqlite"));
  log(`read the ${fmt(dbBytes / 2 ** 20)} MB database file in 8 KiB pages in ${((performance.now() - warmStarted) / 1000).toFixed(1)} s (OS page cache)`);
  figure(
    `# store: ${fmt(MESSAGES)} messages among ${fmt(USERS)} users (random senders and recipients; user 0 receives ${fmt(DEEP)}), ` +
      `${store.cached ? `cached in ${path.relative(process.cwd(), store.dir)}` : "seeded now"}: seeding took ${store.seedSeconds.toFixed(0)} s ` +
      `(${fmt(MESSAGES / store.seedSeconds)} msg/s through the store's append()). Seeded signatures, receipts and digests are random ` +
      `well-formed hex, not real signatures (the send figures below use real ones)` +
      (leftovers > 0 ? `; removed ${leftovers} messages a previous run sent` : "") +
      `. The ${fmt(dbBytes / 2 ** 20)} MB database file is put into the OS page cache first, as on a long-running node: ` +
      (dropped ? "dropped from it, then" : "NOT dropped from it first (dd iflag=nocache failed: pages cached earlier keep their layout), then") +
      " read in 8 KiB pages in a random order, as the node's own reads would bring it in",
  );

  // -- users and tokens ----------------------------------------------------------------------
  log("tokens: signing one SIWE token per user");
  const people = users(USERS);
  const tokens = people.map((u) => token(u));
  const readSlices = slices(USERS);
  /**
   * A read load of one body per user: `next`, a random user of the connection's slice; `warm`, the
   * warm-up, each user of the connection's slice once, in order.
   */
  const readLoad = (bodies) => {
    const request = (i) => ({ headers: jsonHeaders(tokens[i]), body: bodies[i] });
    return {
      next: (slot) => {
        const list = readSlices[slot % readSlices.length];
        return request(list[Math.floor(Math.random() * list.length)]);
      },
      warm: (slot, state) => {
        const list = readSlices[slot % readSlices.length];
        state.warmed ??= 0;
        return state.warmed < list.length ? request(list[state.warmed++]) : undefined;
      },
    };
  };
  const inboxBody = (i, params) => Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: i + 1, method: "neutralService_getInbox", params }));
  const { next: readRequest, warm: readWarm } = readLoad(people.map((_, i) => inboxBody(i, [{}, LIMIT])));
  // getInbox with and without `proof` (the verifiable mailbox), the same page by name: the warm-up
  // visits every user once, so the heads are signed then and the timed window measures the proofs.
  const pairedReads = {
    plain: readLoad(people.map((_, i) => inboxBody(i, { inboxFilter: {}, limit: LIMIT }))),
    proof: readLoad(people.map((_, i) => inboxBody(i, { inboxFilter: {}, limit: LIMIT, proof: PROOF_REQUEST }))),
  };

  // The baseline's payload: a real 20-message page of this store, as the relay would answer it.
  const reader = openSqliteStore({ file: path.join(store.dir, "neutral.sqlite"), migrate: false });
  let sample = 1;
  let page = await reader.page({ owner: people[sample].address, ranges: [{ side: "received" }], order: "desc", limit: LIMIT });
  while (page.messages.length < LIMIT && sample < USERS - 1) {
    sample++;
    page = await reader.page({ owner: people[sample].address, ranges: [{ side: "received" }], order: "desc", limit: LIMIT });
  }
  const payload = { address: people[sample].address, data: page.messages.map((m) => JSON.parse(m.json)), end: page.end };
  const tmp = tempDir("run");
  const payloadFile = path.join(tmp, "payload.json");
  writeFileSync(payloadFile, JSON.stringify(payload));
  const payloadBytes = Buffer.byteLength(JSON.stringify({ jsonrpc: "2.0", id: 1, result: [payload] }));
  figure(`# getInbox: params [{}, ${LIMIT}], a random user of ${fmt(USERS)} per request (${fmt(USERS)} distinct bearer tokens); a page is ~${fmt(payloadBytes)} bytes`);

  // -- reads ---------------------------------------------------------------------------------
  const withBaselines = envOn("BENCH_BASELINE");
  const bareBaseline = async (workers, seconds) => {
    log(`baseline: bare node:http, ${workers} process(es)`);
    const server = await startBaseline({ payloadFile, workers });
    const result = await load({ url: server.url, warm: readWarm, next: readRequest, duration: seconds, server });
    await server.stop();
    return result;
  };
  // The issue's 1-process baseline is measured around each relay run (half before, half after,
  // averaged), as the crypto loop is: the machine's speed drifts within one bench run.
  const around = (before, after) => {
    const mean = (field) => (before[field] + after[field]) / 2;
    return { perSecond: mean("perSecond"), p50: mean("p50"), p99: mean("p99"), serverCores: mean("serverCores"), clientCores: mean("clientCores"), machineCores: mean("machineCores") };
  };

  // Rounds: each relay figure is timed ROUNDS times, the rounds interleaved (w1, w2, w1, w2, ...)
  // so that the machine's drift over minutes spreads over every configuration; each line gives
  // the median round and every round's ratio.
  const none = { perSecond: NaN, p50: NaN, p99: NaN, serverCores: NaN, clientCores: NaN, machineCores: NaN };
  const readRounds = Object.fromEntries(WORKERS.map((workers) => [workers, []]));
  const proofRounds = [];
  /** Bytes of the proof of the probe page (the first account's), each round. */
  const proofBytes = [];
  let deepFigures;
  for (let round = 0; round < (envOn("BENCH_READ") ? ROUNDS : 0); round++) {
    for (const workers of WORKERS) {
      const before = withBaselines ? await bareBaseline(1, SECONDS / 2) : undefined;
      // Issue 38's baseline for a relay with workers: a bare cluster of as many processes, around the run too.
      const clusterBefore = withBaselines && workers > 1 ? await bareBaseline(workers, SECONDS / 2) : undefined;
      log(`relay: --workers ${workers}, getInbox (round ${round + 1} of ${ROUNDS})`);
      const relay = await startRelay({ dataDir: store.dir, workers });
      await checkInbox(relay.url, people, tokens);
      const result = await load({ url: relay.url, warm: readWarm, next: readRequest, duration: SECONDS, server: relay });
      const memory = { bytes: relay.rss(), each: relay.rssEach(), pss: relay.pss(), processes: relay.pids().length };
      if (envOn("BENCH_PROOF") && workers === WORKERS[0]) {
        // Plain and proven in turn on the same relay, their order swapped every round. An error is
        // HTTP 200 too: one proven page is checked first.
        const probe = await fetch(relay.url, { method: "POST", ...pairedReads.proof.warm(0, {}) }).then((response) => response.json());
        const proven = probe.result?.[0]?.proof;
        // Every position listed (a message to oneself has two), or (`omitBound`) none: each message of
        // the seeded store states its own.
        const data = probe.result?.[0]?.data ?? [];
        const listed = proven?.positions.length;
        if (!proven?.head || (PROOF_FORM === "bound" ? listed !== 0 : listed < data.length) || (PROOF_FORM !== "positions") !== Array.isArray(proven.multiproof)) {
          throw new Error(`getInbox with proof answered ${JSON.stringify(probe).slice(0, 300)}`);
        }
        proofBytes.push(JSON.stringify(proven).length);
        const pair = {};
        for (const kind of round % 2 === 0 ? ["plain", "proof"] : ["proof", "plain"]) {
          log(`relay: --workers ${workers}, getInbox by name, ${kind === "proof" ? "with" : "without"} proof (round ${round + 1} of ${ROUNDS})`);
          pair[kind] = await load({ url: relay.url, ...pairedReads[kind], duration: SECONDS, server: relay });
        }
        proofRounds.push({ ...pair, ratio: pair.proof.perSecond / pair.plain.perSecond, rss: relay.rss() });
      }
      if (!deepFigures && envOn("BENCH_DEEP")) deepFigures = await deepPages(relay.url, people[0], tokens[0], reader);
      await relay.stop();
      if (envOn("BENCH_PROOF") && envOn("BENCH_PROOF_ANEW") && workers === WORKERS[0]) {
        // The same proven load on a relay that keeps no proof (--kept-proofs-mib 0): every read
        // reads the log and hashes, as when each read finds its account's log grown.
        log(`relay: --workers ${workers} --kept-proofs-mib 0, getInbox by name, with proof (round ${round + 1} of ${ROUNDS})`);
        const anew = await startRelay({ dataDir: store.dir, workers, extraArgs: ["--kept-proofs-mib", "0"] });
        proofRounds.at(-1).anew = await load({ url: anew.url, ...pairedReads.proof, duration: SECONDS, server: anew });
        await anew.stop();
      }
      // Two baselines, each around the run: one bare node:http process (the first read target's), and
      // (issue 38's, for a relay with workers) a bare cluster of as many processes as the relay has
      // workers. Both share the 2 CPUs with the load generator.
      const cluster = clusterBefore ? around(clusterBefore, await bareBaseline(workers, SECONDS / 2)) : undefined;
      const base = before ? around(before, await bareBaseline(1, SECONDS / 2)) : none;
      readRounds[workers].push({ result, base, cluster, memory, ratio: result.perSecond / base.perSecond, clusterRatio: cluster ? result.perSecond / cluster.perSecond : NaN });
    }
  }
  for (const workers of WORKERS.filter((n) => readRounds[n].length > 0)) {
    const summary = medianRound(readRounds[workers], (run) => run.ratio);
    const { result, base } = summary.run;
    const failed = readRounds[workers].reduce((total, run) => total + run.result.bad, 0);
    verdict({
      name: `getInbox --workers ${workers}`,
      figure: `${fmt(result.perSecond)} req/s, p50 ${ms(result.p50)}, p99 ${ms(result.p99)}${failed ? ` (${failed} FAILED)` : ""}`,
      baseline: `bare node:http, 1 process, just before and after: ${fmt(base.perSecond)} req/s, p50 ${ms(base.p50)}, p99 ${ms(base.p99)}`,
      ratio: roundsText(summary),
      target: `>= ${READ_TARGET}`,
      pass: summary.ratio >= READ_TARGET && !failed,
      note: `CPU cores busy server/load generator/other processes: relay ${cores(result)}, baseline ${cores(base)}`,
      measured: measured(`${fmt(result.perSecond)} req/s`, summary),
    });
    if (workers > 1 && readRounds[workers].every((run) => run.cluster)) {
      // Issue 38's figure: the same rounds, against the bare cluster of as many processes.
      const clustered = medianRound(readRounds[workers], (run) => run.clusterRatio);
      const { result: ours, cluster } = clustered.run;
      verdict({
        name: `getInbox --workers ${workers} ÷ a bare node:http cluster of ${workers} processes`,
        label: `getInbox --workers ${workers} ÷ bare, ${workers} processes`,
        figure: `${fmt(ours.perSecond)} req/s, p50 ${ms(ours.p50)}, p99 ${ms(ours.p99)}${failed ? ` (${failed} FAILED)` : ""}`,
        baseline: `bare node:http, ${workers} processes, just before and after: ${fmt(cluster.perSecond)} req/s, p50 ${ms(cluster.p50)}, p99 ${ms(cluster.p99)}`,
        ratio: roundsText(clustered),
        target: `>= ${ISSUE_38.readsVsBareCluster}`,
        pass: clustered.ratio >= ISSUE_38.readsVsBareCluster && !failed,
        note: `CPU cores busy server/load generator/other processes: relay ${cores(ours)}, baseline ${cores(cluster)}`,
        measured: measured(`${fmt(ours.perSecond)} req/s`, clustered),
      });
    }
  }
  if (proofRounds.length > 0) {
    const summary = medianRound(proofRounds, (run) => run.ratio);
    const { proof, plain } = summary.run;
    const failed = proofRounds.reduce((total, run) => total + run.proof.bad + run.plain.bad, 0);
    verdict({
      name: `getInbox with proofs (${PROOF_FORMS[PROOF_FORM].name}), --workers ${WORKERS[0]} (the verifiable mailbox)`,
      figure: `${fmt(proof.perSecond)} req/s, p50 ${ms(proof.p50)}, p99 ${ms(proof.p99)}${failed ? ` (${failed} FAILED)` : ""}`,
      baseline: `the same pages without proof, same relay, same round: ${fmt(plain.perSecond)} req/s, p50 ${ms(plain.p50)}, p99 ${ms(plain.p99)}`,
      ratio: roundsText(summary),
      target: ">= 0.85",
      pass: summary.ratio >= 0.85 && !failed,
      note:
        `params by name {inboxFilter: {}, limit: 20[, proof: ${JSON.stringify(PROOF_REQUEST)}]}; every head signed in the warm-up (an unchanged log is not signed again); ` +
        `the first account's proof ${fmt(Math.min(...proofBytes))}–${fmt(Math.max(...proofBytes))} bytes; ` +
        `relay RSS after both loads, largest round: ${fmt(Math.max(...proofRounds.map((run) => run.rss)) / 1024 / 1024, 1)} MB`,
      measured: measured(`${fmt(proof.perSecond)} req/s`, summary),
    });
    if (proofRounds.every((run) => run.anew)) {
      const anew = medianRound(proofRounds, (run) => run.anew.perSecond / run.plain.perSecond);
      const run = anew.run;
      const failedAnew = proofRounds.reduce((total, one) => total + one.anew.bad, 0);
      verdict({
        name: `getInbox with proofs made anew (--kept-proofs-mib 0), --workers ${WORKERS[0]}`,
        label: "getInbox with proofs made anew ÷ without",
        figure: `${fmt(run.anew.perSecond)} req/s, p50 ${ms(run.anew.p50)}, p99 ${ms(run.anew.p99)}${failedAnew ? ` (${failedAnew} FAILED)` : ""}`,
        baseline: `the same pages without proof, the other relay, same round: ${fmt(run.plain.perSecond)} req/s`,
        ratio: roundsText(anew),
        ...(failedAnew > 0 && { pass: false }),
        note: "no target: what a proven read costs when its account's log grew since the last one (the line above keeps proofs, and this load reads each account's unchanged page again and again)",
        measured: measured(`${fmt(run.anew.perSecond)} req/s`, anew),
      });
    }
  }
  await reader.close();
  if (deepFigures) {
    const ratio = deepFigures.http.deep / deepFigures.http.first;
    verdict({
      name: `deep page p50 over HTTP, mailbox of ${fmt(DEEP)}`,
      figure: `page at the oldest ${ms(deepFigures.http.deep)}`,
      baseline: `first page ${ms(deepFigures.http.first)}`,
      ratio,
      target: "<= 1.2",
      pass: ratio <= 1.2,
      measured: `${ms(deepFigures.http.deep)} / ${ms(deepFigures.http.first)}, ratio ${ratio.toFixed(2)}`,
    });
  }
  if (deepFigures) {
    const ratio = deepFigures.store.deep / deepFigures.store.first;
    verdict({
      name: "deep page p50 in the store (store.page, no HTTP)",
      figure: `at the oldest ${(deepFigures.store.deep * 1000).toFixed(1)} us`,
      baseline: `first page ${(deepFigures.store.first * 1000).toFixed(1)} us`,
      ratio,
      target: "<= 1.2",
      pass: ratio <= 1.2,
      measured: `${(deepFigures.store.deep * 1000).toFixed(1)} us / ${(deepFigures.store.first * 1000).toFixed(1)} us, ratio ${ratio.toFixed(2)}`,
    });
  }
  // One process: its VmRSS. Several: VmRSS counts the pages they share (the node binary, libraries)
  // once per process, so the memory the relay takes is their PSS total; the VmRSS sum is printed too.
  // The budget is judged by the largest round, not the median.
  for (const workers of WORKERS.filter((n) => readRounds[n].length > 0)) {
    const measuredOf = ({ memory }) => (memory.processes > 1 ? memory.pss : memory.bytes);
    const runs = readRounds[workers];
    const largest = runs.reduce((top, run) => (measuredOf(run) > measuredOf(top) ? run : top));
    const { bytes, each, pss, processes } = largest.memory;
    const mb = (n) => fmt(n / 2 ** 20, 1);
    const size = measuredOf(largest);
    const rounds = runs.length > 1 ? `, the largest of ${runs.length} rounds (${runs.map((run) => mb(measuredOf(run))).join(" / ")} MB)` : "";
    verdict({
      name: processes > 1 ? `memory after the getInbox load, --workers ${workers}` : `RSS after the getInbox load, --workers ${workers}`,
      figure:
        processes > 1
          ? `${mb(pss)} MB PSS over ${processes} processes${rounds} (VmRSS ${each.map(mb).join(" + ")} = ${mb(bytes)} MB, shared pages counted per process)`
          : `${mb(bytes)} MB VmRSS${rounds} (PSS ${mb(pss)} MB)`,
      baseline: "budget 200 MB",
      ratio: size / RSS_BUDGET,
      target: "< 1",
      pass: size < RSS_BUDGET,
      measured: `${mb(size)} MB ${processes > 1 ? "PSS" : "VmRSS"} (largest round), ratio ${(size / RSS_BUDGET).toFixed(2)}`,
    });
  }

  // -- sends ---------------------------------------------------------------------------------
  const sent = envOn("BENCH_SEND") ? await sends(store, people) : [];

  // -- PostgreSQL ----------------------------------------------------------------------------
  if (envOn("BENCH_POSTGRES")) {
    await postgresFigures({
      store,
      people,
      tokens,
      readRequest,
      readWarm,
      sqliteReadWindow: async () => {
        log("relay: --workers 1, getInbox (PostgreSQL's baseline)");
        const relay = await startRelay({ dataDir: store.dir, workers: 1 });
        try {
          await checkInbox(relay.url, people, tokens);
          return await load({ url: relay.url, warm: readWarm, next: readRequest, duration: SECONDS, server: relay });
        } finally {
          await relay.stop();
        }
      },
      sqliteSend: sent.find((run) => run.workers === 1 && !run.fresh)?.result,
      replicas: POSTGRES_REPLICAS,
      doReads: envOn("BENCH_READ"),
      doSends: envOn("BENCH_SEND"),
      constants: { MESSAGES, SECONDS, ROUNDS, CONNECTIONS, SEND_CONNECTIONS, SEND_MESSAGES: settings.sendMessages },
      tools: { load, around, checkInbox, presign, sendLoad, figure, log, fmt, ms },
    });
  }
  removeDir(tmp);
}

/** A sample of users' first pages must be full, well-formed JSON-RPC results (errors would be HTTP 200 too). */
async function checkInbox(url, people, tokens) {
  for (let k = 0; k < 20; k++) {
    const i = Math.floor(Math.random() * people.length);
    const response = await fetch(url, { method: "POST", headers: jsonHeaders(tokens[i]), body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_getInbox", params: [{}, LIMIT] }) });
    const body = await response.json();
    const result = body.result?.[0];
    if (response.status !== 200 || !result || result.address !== people[i].address || !Array.isArray(result.data)) {
      throw new Error(`getInbox check failed for user ${i}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    }
  }
}

/** p50 of the first page vs a page at the oldest messages of user 0's mailbox; interleaved so drift hits both alike. */
async function deepPages(url, deepUser, deepToken, reader) {
  const rpc = (params) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_getInbox", params });
  const oldest = await reader.page({ owner: deepUser.address, ranges: [{ side: "received" }], order: "asc", limit: LIMIT + 1 });
  const cursor = oldest.messages[LIMIT]?.id ?? oldest.messages.at(-1).id + 1;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const post = (body) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const request = http.request(url, { method: "POST", agent, headers: { ...jsonHeaders(deepToken), "content-length": Buffer.byteLength(body) } }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ ms: performance.now() - started, text }));
      });
      request.on("error", reject);
      request.end(body);
    });
  const firstBody = rpc([{}, LIMIT]);
  const deepBody = rpc([{}, LIMIT, null, String(cursor)]);
  const deepCheck = JSON.parse((await post(deepBody)).text).result[0];
  const firstCheck = JSON.parse((await post(firstBody)).text).result[0];
  if (deepCheck.data.length !== LIMIT || firstCheck.data.length !== LIMIT || BigInt(deepCheck.data[0].id) >= BigInt(cursor)) {
    throw new Error(`deep page check failed: ${JSON.stringify(deepCheck).slice(0, 200)}`);
  }
  const rounds = 3000;
  const first = [];
  const deep = [];
  for (let k = 0; k < 300; k++) await post(k % 2 ? firstBody : deepBody); // warm
  for (let k = 0; k < rounds; k++) {
    first.push((await post(firstBody)).ms);
    deep.push((await post(deepBody)).ms);
  }
  agent.destroy();
  const p50 = (list) => percentile(list.sort((a, b) => a - b), 50);

  const time = async (query) => {
    const started = performance.now();
    await reader.page(query);
    return performance.now() - started;
  };
  const base = { owner: deepUser.address, ranges: [{ side: "received" }], order: "desc", limit: LIMIT };
  const storeFirst = [];
  const storeDeep = [];
  for (let k = 0; k < 20_000; k++) {
    storeFirst.push(await time(base));
    storeDeep.push(await time({ ...base, before: cursor }));
  }
  return { http: { first: p50(first), deep: p50(deep) }, store: { first: p50(storeFirst), deep: p50(storeDeep) } };
}

// ---------------------------------------------------------------------------------------------
// Sends: real signatures, pre-signed before the timed run, many senders each with its own token.

/** `count` client-signed messages: sender j % senderCount (so message j's sender is people[j % senderCount]), random recipients. */
function presign(people, senderCount, count) {
  const list = [];
  for (let j = 0; j < count; j++) {
    const from = people[j % senderCount];
    const to = people[Math.floor(Math.random() * people.length)];
    const body = randomBytes(SEND_BODY_BYTES || 32 + Math.floor(Math.random() * 69)).toString("hex");
    list.push(signedMessage(from, to, body));
  }
  return list;
}

/**
 * One timed send run of `list` (from `presign`) against a relay, or replicas (`url` a list): first
 * the senders' tokens are warmed (one read each, on the connection that will send with it), then
 * each of SEND_CONNECTIONS connections sends its senders' messages, in order, for SECONDS.
 * `repeats`: sends of a message its connection had sent already (it ran out of new ones).
 * `acknowledged`: sends answered 2xx in the whole run, including those of connections that were
 * warm before the timed window began (the store must hold them all).
 */
async function sendLoad({ url, server, databaseCpu, list, senderTokens }) {
  const senderCount = senderTokens.length;
  const senderSlices = slices(senderCount, SEND_CONNECTIONS);
  const bodies = list.map((m, j) => Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: j + 1, method: "neutralService_sendMessage", params: [m] })));
  const warmBody = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_getInbox", params: [{}, 1] }));
  // Per connection: the messages whose sender belongs to its slice, in order.
  const bySlot = Array.from({ length: SEND_CONNECTIONS }, () => []);
  list.forEach((_, j) => bySlot[(j % senderCount) % SEND_CONNECTIONS].push(j));
  let repeats = 0;
  const result = await load({
    url,
    connections: SEND_CONNECTIONS,
    duration: SECONDS,
    server,
    databaseCpu,
    warm: (slot, state) => {
      const senders = senderSlices[slot];
      state.warmed ??= 0;
      return state.warmed < senders.length ? { headers: jsonHeaders(senderTokens[senders[state.warmed++]]), body: warmBody } : undefined;
    },
    next: (slot, state) => {
      const mine = bySlot[slot];
      if (state.n >= mine.length) repeats++;
      const j = mine[state.n++ % mine.length];
      return { headers: jsonHeaders(senderTokens[j % senderCount]), body: bodies[j] };
    },
  });
  return { result, repeats, acknowledged: result.okTotal - result.warmRequests };
}

/** The SQLite send figures; returns each run's { workers, fresh, result }. */
async function sends(store, people) {
  const senderCount = Math.min(people.length, 2000);
  const perRun = settings.sendMessages;
  const senderTokens = people.slice(0, senderCount).map((u) => token(u));

  // The crypto baseline is measured around each relay run (half before, half after, averaged): the
  // machine's speed drifts by several per cent within one bench run, and a baseline taken once at
  // the start made the later ratios scatter with it.
  const cryptoSeconds = Math.min(SECONDS, 5) / 2;
  // Each relay with the log beside the same relay without its rows (relay-without-log.mjs), run
  // one after the other in every round.
  const targets = WORKERS.flatMap((workers) =>
    [true, false].flatMap((fresh) => [{ workers, fresh, log: true }, ...(LOG_BASELINE ? [{ workers, fresh, log: false }] : [])]),
  );
  const rounds = targets.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    // Signed afresh each round: a message's timestamp must be within 5 minutes of the node's clock
    // (seeds/README.md §8, clock skew), and a whole round of sends takes minutes.
    log(`sends: pre-signing ${WORKERS.length} x ${perRun} messages from ${senderCount} senders, bodies of ${SEND_BODY_BYTES || "32-100"} bytes (round ${round + 1} of ${ROUNDS})`);
    const lists = new Map(WORKERS.map((workers) => [workers, presign(people, senderCount, perRun)]));
    for (const [t, { workers, fresh, log: withLog }] of targets.entries()) {
      const list = lists.get(workers);
      const dataDir = fresh ? tempDir("send") : store.dir;
      const maxId = fresh ? 0 : store.maxId;
      log(`relay${withLog ? "" : " without the log"}: --workers ${workers}, sendMessage into ${fresh ? "a fresh store" : "the seeded store"} (round ${round + 1} of ${ROUNDS})`);
      const cryptoBefore = await cryptoLoopOnCores(list, cryptoSeconds, workers);
      const relay = await startRelay({ dataDir, workers, ...(!withLog && { main: WITHOUT_LOG }) });
      const { result, repeats, acknowledged } = await sendLoad({ url: relay.url, server: relay, list, senderTokens });
      await relay.stop();
      const cryptoAfter = await cryptoLoopOnCores(list, cryptoSeconds, workers);
      const cryptoRate = (cryptoBefore.perSecond + cryptoAfter.perSecond) / 2;
      const cryptoPerThread = [...cryptoBefore.each, ...cryptoAfter.each].reduce((sum, rate) => sum + rate, 0) / (2 * workers);
      // Every acknowledged send must be stored exactly once (JSON-RPC errors would also be HTTP 200).
      const db = new Database(path.join(dataDir, "neutral.sqlite"), { readonly: true });
      const stored = db.prepare("SELECT count(*) AS n FROM messages WHERE id > ?").get(maxId).n;
      // The relay without the log is measured without it, or not at all.
      const positioned = withLog ? 0 : db.prepare("SELECT count(*) AS n FROM mailbox_log WHERE id > ?").get(maxId).n;
      db.close();
      if (positioned > 0) throw new Error(`the relay without the log (relay-without-log.mjs) stored ${positioned} positions`);
      const removed = fresh ? stored : await resetStore(dataDir, maxId);
      if (fresh) removeDir(dataDir);
      // In-flight sends at the end of the run are stored but not counted by autocannon.
      const countOk = stored >= acknowledged - repeats && stored <= acknowledged + SEND_CONNECTIONS && removed === stored;
      const expected = countOk ? undefined : `${acknowledged - repeats}..${acknowledged + SEND_CONNECTIONS}`;
      rounds[t].push({ result, stored, repeats, expected, cryptoRate, cryptoPerThread, ratio: result.perSecond / cryptoRate });
    }
  }
  const results = [];
  for (const [t, { workers, fresh, log: withLog }] of targets.entries()) {
    if (!withLog) {
      logCost(workers, fresh, rounds[t - 1], rounds[t]);
      continue;
    }
    const summary = medianRound(rounds[t], (run) => run.ratio);
    const { result, stored, repeats, cryptoRate, cryptoPerThread } = summary.run;
    // A count that disagrees with the acknowledgements in any round fails the line, as a failed request does.
    const miscounted = rounds[t].filter((run) => run.expected).map((run) => `${fmt(run.stored)} stored, EXPECTED ${run.expected}`);
    const failed = rounds[t].reduce((total, run) => total + run.result.bad, 0);
    verdict({
      name: `sendMessage --workers ${workers}, ${fresh ? "fresh store" : `${fmt(MESSAGES)}-message store`}, ${SEND_CONNECTIONS} connections`,
      figure:
        `${fmt(result.perSecond)} msg/s, p50 ${ms(result.p50)}, p99 ${ms(result.p99)} ` +
        `(${fmt(stored)} new messages stored${repeats ? `, ${repeats} repeats` : ""}${miscounted.length ? `; ${miscounted.join("; ")}` : ""}${failed ? `; ${failed} FAILED` : ""}; ` +
        `synchronous=FULL, into ${fresh ? "a fresh, empty store" : `the ${fmt(MESSAGES)}-message store`})`,
      baseline:
        `per-send crypto loop on ${workers} thread(s) at once, as many as the relay's workers, just before and after: ${fmt(cryptoRate)} /s` +
        (workers > 1 ? ` (${fmt(cryptoPerThread)} /s a thread)` : ""),
      ratio: roundsText(summary),
      target: `>= ${ISSUE_38.sendsVsCrypto}`,
      pass: summary.ratio >= ISSUE_38.sendsVsCrypto && !failed && miscounted.length === 0,
      note: `CPU cores busy relay/load generator/other processes ${cores(result)}${workers > 1 ? `; of the relay's, the primary's (its one writer) ${result.primaryCores.toFixed(2)}` : ""}`,
      measured: measured(`${fmt(result.perSecond)} msg/s`, summary),
    });
    results.push({ workers, fresh, result });
  }
  return results;
}

/**
 * The line of sends with the mailbox log ÷ the same relay without its rows: each round's ratio of the
 * two runs made one after the other in it, judged by the median (target ≥ 0.9, issue 35).
 */
function logCost(workers, fresh, withLog, withoutLog) {
  const paired = withLog.map((run, r) => ({ withLog: run, withoutLog: withoutLog[r], ratio: run.result.perSecond / withoutLog[r].result.perSecond }));
  const summary = medianRound(paired, (run) => run.ratio);
  const failed = [...withLog, ...withoutLog].reduce((total, run) => total + run.result.bad, 0);
  const miscounted = withoutLog.filter((run) => run.expected).map((run) => `without the log: ${fmt(run.stored)} stored, EXPECTED ${run.expected}`);
  const { withLog: a, withoutLog: b } = summary.run;
  verdict({
    name: `sendMessage with the mailbox log ÷ without, --workers ${workers}, ${fresh ? "fresh store" : `${fmt(MESSAGES)}-message store`}, ${SEND_CONNECTIONS} connections`,
    label: `sends with the log ÷ without, --workers ${workers}, ${fresh ? "fresh" : `${fmt(MESSAGES)}`}`,
    figure: `${fmt(a.result.perSecond)} msg/s, p99 ${ms(a.result.p99)}${miscounted.length ? `; ${miscounted.join("; ")}` : ""}${failed ? `; ${failed} FAILED` : ""}`,
    baseline: `the relay without the log's rows (bench/relay-without-log.mjs), the run beside it: ${fmt(b.result.perSecond)} msg/s, p99 ${ms(b.result.p99)}`,
    ratio: roundsText(summary),
    target: ">= 0.9",
    pass: summary.ratio >= 0.9 && !failed && miscounted.length === 0,
    measured: measured(`${fmt(a.result.perSecond)} / ${fmt(b.result.perSecond)} msg/s`, summary),
  });
}

await runBench({ name: "run" }, main);
