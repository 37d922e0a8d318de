// Live delivery figures (neutralService_subscribe, protocol.md §12): `node bench/live.mjs` in
// packages/relay after a build (`pnpm bench` runs it after run.mjs, bounds.mjs and federation.mjs;
// BENCH_LIVE=0 skips it). Like the other benches (harness.mjs), each line prints a figure, the
// baseline measured in this same run, their ratio, the target and PASS or MISS; the closing table of
// the verdicts ends the run. A MISS is a finding, not a crash: the exit status is non-zero only when
// the bench itself could not measure (a relay that would not start, a stream that would not open, ...).
//
// SQLite, the default worker count (one per core: 2 here), `--rate-limit 0`, fresh temp data dirs,
// loopback only. The bench process is the load generator and every client, on the same CPUs.
//
//  1. Open subscriptions, one node. BENCH_LIVE_SUBSCRIPTIONS (10,000) accounts open one stream each
//     (`subscribe` with `{}`: every received message), each on its own connection from one of
//     127.0.1.1, 127.0.1.2, ... (at most 200 streams per source address, under the default per-IP
//     connection limit of 256; `--max-connections` raised to 1.2 × streams + 1,000, 1,000 of them
//     reserved for requests: each worker may hold 0.6 × streams), and idle once
//     caught up. Memory: PSS of the relay's process tree (primary + workers) with the streams open
//     minus before, / streams (also at half the streams, and VmRSS). Target <= 20 KB.
//     Sends: autocannon on BENCH_SEND_CONNECTIONS (64) keep-alive connections, BENCH_LIVE_SENDERS
//     (2,000) senders with their own tokens (warmed first, as run.mjs does), client-signed
//     messages to random subscribed accounts. With the streams open each send wakes one stream and
//     the bench reads its event (every event is counted against the messages stored). Baseline:
//     the same load to the same accounts with no stream open, half the time before the streams are
//     opened and half after they are closed, averaged. In BENCH_LIVE_ROUNDS (3) rounds: after the
//     first (and 1c and 2 below), the streams are opened again, woken and closed, and the load runs
//     with none open again; each round is judged against the runs with none open just before and
//     after it, and the line by the median round. Target: ratio >= 0.95 (issue 38, targets.mjs). Then (1c, no target)
//     the same load to other accounts with the streams still open, which splits 1b's extra relay
//     CPU per send into holding the streams and waking them. A connection that sends all its
//     pre-signed messages (the cluster may hand the workers the connections unevenly: the line says
//     how they were split, by `ss`) signs more during the run, so that every send is a new message.
//  2. Latency of live delivery, same node, streams still open: BENCH_LIVE_LATENCY_RATE (200)
//     sends/s, open loop, for BENCH_LIVE_LATENCY_SECONDS (10), from 16 senders each on its own
//     keep-alive connection, to random subscribed accounts. Per message: notification arrival minus
//     the sendMessage answer's arrival (negative when the event wins), and minus the send's start.
//     Baseline: p50 round trip of getInbox ([{}, 20], one keep-alive connection, one call at a
//     time) on the same node, half just before and half just after. Target: p99 (from the
//     acknowledgement) <= 3x.
//  3. CPU per delivered message, polling vs live: a fresh node per mode and round; BENCH_LIVE_POLL_RECIPIENTS
//     (100) recipients, each on its own connection, receive BENCH_LIVE_POLL_RATE (50) msgs/s for
//     BENCH_LIVE_POLL_SECONDS (10), sent open loop to random recipients. "polling": each recipient
//     calls getInbox [{}, 100, cursor] every 1 s (phases spread over the second), forward from its
//     cursor (again at once while a page is not the end). "live": each recipient holds one stream.
//     "sends only": nobody reads (what the sends alone cost). CPU: user+sys of the relay's process
//     tree (/proc) over the same window in every mode (the sends, then 1.5 s for the last poll), in
//     BENCH_LIVE_POLL_ROUNDS (2) rounds, the modes interleaved, added up. Target: live's CPU per
//     delivered message < polling's (the share above the sends alone is printed too: at 50 msgs/s a
//     send costs several times its CPU at full load, and that dominates both totals).
// Memory per subscription needs thousands of streams to rise above the GC's noise: a quick run with
// a few hundred can print any figure, even a negative one. Every line says how many cores other
// processes kept busy when that was more than 0.15 (another build or test run on the machine).
// Env: BENCH_LIVE=0 (skip), BENCH_LIVE_ONLY ("1,2,3"), BENCH_LIVE_SUBSCRIPTIONS (10000),
//      BENCH_LIVE_SECONDS (10: the timed send run with streams; each baseline half is half of it),
//      BENCH_LIVE_ROUNDS (3: 1b's rounds),
//      BENCH_SEND_CONNECTIONS (64), BENCH_LIVE_SENDERS (2000), BENCH_LIVE_LATENCY_RATE (200),
//      BENCH_LIVE_LATENCY_SECONDS (10), BENCH_LIVE_RTT_CALLS (400: getInbox calls timed, half before
//      and half after), BENCH_LIVE_POLL_RECIPIENTS (100), BENCH_LIVE_POLL_RATE (50),
//      BENCH_LIVE_POLL_SECONDS (10), BENCH_LIVE_POLL_ROUNDS (2), BENCH_LIVE_WORKERS (one per core), BENCH_LIVE_RELAY_ARGS
//      (flags added to every relay), BENCH_RELAY_NODE_ARGS (node flags of the relay, e.g. --cpu-prof).
// Every relay, connection and temp dir is removed at the end, on error and on SIGINT/SIGTERM/SIGHUP.
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import Database from "better-sqlite3";
import { cpuSeconds, curve, ensureOpenFiles, jsonHeaders, machineBusySeconds, percentile, sendLoadWindow, signedMessage, startRelay, token, user } from "./lib.mjs";
import { benchError, envInt as int, envList, fmt, header, log, out as figure, onCleanup, removeDir, runBench, settings, tempDir as benchTempDir, verdict } from "./harness.mjs";
import { medianRound, ratiosBrief, roundsText } from "./rounds.mjs";
import { ISSUE_38 } from "./targets.mjs";

const SUBSCRIPTIONS = int("BENCH_LIVE_SUBSCRIPTIONS", 10_000);
const SECONDS = int("BENCH_LIVE_SECONDS", 10);
const CONNECTIONS = settings.sendConnections;
const SENDERS = int("BENCH_LIVE_SENDERS", 2000);
const LATENCY_RATE = int("BENCH_LIVE_LATENCY_RATE", 200);
const LATENCY_SECONDS = int("BENCH_LIVE_LATENCY_SECONDS", 10);
const RTT_CALLS = int("BENCH_LIVE_RTT_CALLS", 400);
const POLL_RECIPIENTS = int("BENCH_LIVE_POLL_RECIPIENTS", 100);
const POLL_RATE = int("BENCH_LIVE_POLL_RATE", 50);
const POLL_SECONDS = int("BENCH_LIVE_POLL_SECONDS", 10);
const POLL_ROUNDS = int("BENCH_LIVE_POLL_ROUNDS", 2);
/** 1b's rounds: the streams opened, woken and closed again, each round between two runs with none open. */
const ROUNDS = int("BENCH_LIVE_ROUNDS", 3);
const WORKERS = int("BENCH_LIVE_WORKERS", os.availableParallelism());
const ONLY = envList("BENCH_LIVE_ONLY", "1,2,3");
const RELAY_ARGS = process.env.BENCH_LIVE_RELAY_ARGS ? process.env.BENCH_LIVE_RELAY_ARGS.split(" ").filter(Boolean) : [];
/** Messages pre-signed per second of a timed send run (the relay peaks near 4,000/s here; a connection that runs out signs more during the run). */
const SIGN_RATE = 6000;
const LATENCY_SENDERS = 16;
const POLL_INTERVAL_MS = 1000;
/** Streams per loopback source address: under the relay's default per-IP connection limit (256). */
const STREAMS_PER_SOURCE = 200;

const TARGETS = { memory: 20 * 1024, sends: ISSUE_38.sendsWithStreams, latency: 3 };

const ms = (n, digits = 2) => `${fmt(n, digits)} ms`;
const kb = (bytes, digits = 1) => `${fmt(bytes / 1024, digits)} KB`;
const mb = (bytes, digits = 1) => `${fmt(bytes / 2 ** 20, digits)} MB`;
const sleep = (delay) => new Promise((resolve) => setTimeout(resolve, delay));
const sorted = (values) => Float64Array.from(values).sort();
const median = (values) => (values.length ? sorted(values)[Math.floor((values.length - 1) / 2)] : NaN);

/** Other processes above this many cores during a timed run make its figures not comparable (said on the line, not judged). */
const BUSY_CORES = 0.15;
/** A note when other processes kept the machine busy during a timed run (another build or test run on this machine). */
function busy(otherCores) {
  const worst = Math.max(...otherCores);
  return worst > BUSY_CORES ? [`MACHINE BUSY: other processes kept up to ${worst.toFixed(2)} cores busy during a timed run, so this line is not comparable`] : [];
}
/** CPU counters of the relay's processes, the whole machine and this process, to get the other processes' share. */
const cpuNow = (node) => ({ at: performance.now(), each: node.pids().map((pid) => cpuSeconds([pid])), machine: machineBusySeconds(), self: process.cpuUsage() });
function cpuBetween(a, b) {
  const seconds = (b.at - a.at) / 1000;
  const each = b.each.map((cpu, k) => cpu - (a.each[k] ?? 0));
  const relay = each.reduce((sum, n) => sum + n, 0);
  const self = (b.self.user - a.self.user + b.self.system - a.self.system) / 1e6;
  return { seconds, each, relay, self, otherCores: Math.max(0, (b.machine - a.machine - relay - self) / seconds) };
}

// ---------------------------------------------------------------------------------------------
// Cleanup (harness.mjs): every relay from its spawn on (lib.mjs startRelay), every temp dir from its
// creation, every client socket.

const tempDir = (label) => benchTempDir(`live-${label}`);
const sockets = new Set();
onCleanup(() => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
});

/** A relay with the default worker count on a fresh data dir; `stop()` also removes the dir. */
async function relay(label, extraArgs = []) {
  const dataDir = tempDir(label);
  const node = await startRelay({
    dataDir,
    workers: WORKERS,
    extraArgs: [...extraArgs, ...RELAY_ARGS],
  });
  const db = new Database(path.join(dataDir, "neutral.sqlite"), { readonly: true, fileMustExist: true });
  const countMessages = db.prepare("SELECT count(*) AS n FROM messages").pluck();
  return {
    ...node,
    dataDir,
    /** Messages stored so far (read-only; WAL lets it read while the relay writes). */
    messages: () => countMessages.get(),
    async stop() {
      if (db.open) db.close();
      const result = await node.stop();
      removeDir(dataDir);
      return result;
    },
  };
}

/** Loopback source addresses 127.0.1.1, 127.0.1.2, …: one per STREAMS_PER_SOURCE streams. */
function sources(count) {
  return Array.from({ length: count }, (_, k) => `127.0.${1 + Math.floor(k / 250)}.${1 + (k % 250)}`);
}

/** Kernel memory of TCP buffers (all sockets of the machine, both ends of each loopback connection), bytes. */
function tcpKernelBytes() {
  const match = /^TCP:.*\bmem (\d+)/m.exec(readFileSync("/proc/net/sockstat", "utf8"));
  return match ? Number(match[1]) * 4096 : NaN;
}

const openFds = (pid) => {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
};

// ---------------------------------------------------------------------------------------------
// Streams: a minimal SSE reader over node:http, one connection per stream (agent: false). The
// events of every stream are counted in `tally`; `tally.onMessage(id, at)` sees each message event.

const tally = { messages: 0, outOfOrder: 0, keepAlives: 0, ends: 0, endSample: undefined, cut: 0, onMessage: undefined };

/**
 * Opens `neutralService_subscribe` ({} : every received message) as `bearer` from `localAddress`;
 * resolves once the stream has said it caught up, with { close(), messages, status }.
 */
function openStream(url, bearer, localAddress, timeoutMs = 30_000) {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_subscribe", params: {} });
  return new Promise((resolve, reject) => {
    let settled = false;
    let closedHere = false;
    const stream = { messages: 0, lastId: 0, close: () => ((closedHere = true), request.destroy()) };
    const settle = (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        request.destroy();
        reject(error);
      } else resolve(stream);
    };
    const timer = setTimeout(() => settle(new Error(`subscribe: not caught up within ${timeoutMs / 1000} s`)), timeoutMs);
    const request = http.request(url, {
      method: "POST",
      agent: false,
      localAddress,
      headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${bearer}`, "content-length": Buffer.byteLength(body) },
    });
    request.on("socket", (socket) => {
      sockets.add(socket);
      socket.once("close", () => sockets.delete(socket));
    });
    request.on("error", (error) => settle(new Error(`subscribe from ${localAddress}: ${error.code ?? error.message}`)));
    request.on("response", (response) => {
      if (response.statusCode !== 200 || !String(response.headers["content-type"]).startsWith("text/event-stream")) {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => settle(new Error(`subscribe refused: ${response.statusCode} ${text.slice(0, 300)}`)));
        return;
      }
      response.setEncoding("utf8");
      let buffer = "";
      response.on("data", (chunk) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(":")) {
            tally.keepAlives++;
            continue;
          }
          const at = block.indexOf('"method":"');
          const method = at < 0 ? "" : block.slice(at + 10, block.indexOf('"', at + 10));
          if (method === "neutralService_message") {
            stream.messages++;
            tally.messages++;
            const id = block.startsWith("id: ") ? block.slice(4, block.indexOf("\n")) : undefined;
            // Gap-free and once each, in id order: an id at or below the stream's last is a repeat.
            if (id === undefined || Number(id) <= stream.lastId) tally.outOfOrder++;
            else stream.lastId = Number(id);
            if (tally.onMessage) tally.onMessage(id, performance.now());
          } else if (method === "neutralService_caughtUp") settle();
          else if (method === "neutralService_end") {
            tally.ends++;
            tally.endSample ??= block.slice(0, 300);
          }
        }
      });
      response.on("error", () => {});
      response.on("close", () => {
        if (!closedHere) tally.cut++;
        settle(new Error("subscribe: the stream ended before it caught up"));
      });
    });
    request.end(body);
  });
}

/**
 * Opens one stream per token, `inFlight` at a time; token k (counted from `first`) connects from
 * addresses[(first + k) / STREAMS_PER_SOURCE]. Resolves with the streams.
 */
async function openStreams(url, tokens, addresses, { first = 0, inFlight = 100 } = {}) {
  const streams = new Array(tokens.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(inFlight, tokens.length) }, async () => {
      while (next < tokens.length) {
        const k = next++;
        streams[k] = await openStream(url, tokens[k], addresses[Math.floor((first + k) / STREAMS_PER_SOURCE) % addresses.length]);
      }
    }),
  );
  return streams;
}

// ---------------------------------------------------------------------------------------------
// Plain JSON-RPC calls over keep-alive agents.


/** One call; resolves with { status, text, body (parsed or undefined), at (arrival of the answer's end) }. */
function post(url, bearer, payload, agent) {
  const body = typeof payload === "string" ? payload : JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: "POST", agent, headers: { ...jsonHeaders(bearer), "content-length": Buffer.byteLength(body) } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => {
        const at = performance.now();
        let parsed;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: response.statusCode, text, body: parsed, at });
      });
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}

const rpcBody = (method, params) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });

/** The stored message of a sendMessage answer, or throws. */
function storedOf(answer) {
  const message = answer.body?.result?.[0];
  if (answer.status !== 200 || !message?.id || !message.sender_receipt) throw new Error(`sendMessage failed: ${answer.status} ${answer.text.slice(0, 300)}`);
  return message;
}

/** The getInbox page of an answer, or throws. */
function pageOf(answer) {
  const page = answer.body?.result?.[0];
  if (answer.status !== 200 || !page || !Array.isArray(page.data)) throw new Error(`getInbox failed: ${answer.status} ${answer.text.slice(0, 300)}`);
  return page;
}

/** p50 (and p99) of `calls` sequential getInbox [{}, 20] round trips on one keep-alive connection, after a warm-up. */
async function getInboxRtt(url, bearer, calls) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const body = rpcBody("neutralService_getInbox", [{}, 20]);
  try {
    for (let k = 0; k < 50; k++) pageOf(await post(url, bearer, body, agent));
    const times = [];
    for (let k = 0; k < calls; k++) {
      const started = performance.now();
      const answer = await post(url, bearer, body, agent);
      times.push(answer.at - started);
      pageOf(answer);
    }
    return times;
  } finally {
    agent.destroy();
  }
}

/** `count` client-signed messages: sender j % senders.length, a random recipient of `recipients`. */
function presign(senders, recipients, count) {
  const list = [];
  for (let j = 0; j < count; j++) {
    const body = randomBytes(32 + Math.floor(Math.random() * 69)).toString("hex");
    list.push(signedMessage(senders[j % senders.length], recipients[Math.floor(Math.random() * recipients.length)], body));
  }
  return list;
}

/** A getInbox [{}, 1] per token on `agent` (the connection it will be used on verifies it once). */
async function warmTokens(url, tokens, agent) {
  await Promise.all(tokens.map(async (bearer) => pageOf(await post(url, bearer, rpcBody("neutralService_getInbox", [{}, 1]), agent))));
}

// ---------------------------------------------------------------------------------------------
// Send load: lib.mjs `sendLoadWindow` (autocannon in this process), as federation.mjs's send figures.
// Connection c serves the senders i with i % CONNECTIONS == c, each with its own token; each
// connection first sends one getInbox per token of its slice, and the timed window (`duration` s)
// opens once every connection is warm. Only answers inside the window count.

/** Established connections from 127.0.0.1 (the load's, not the streams') per relay process, by `ss`; undefined without it. */
function loadConnectionsPerProcess(node) {
  const port = new URL(node.url).port;
  const result = spawnSync("ss", ["-tnpH", "state", "established", `( sport = :${port} )`], { encoding: "utf8", timeout: 5000 });
  if (result.status !== 0) return undefined;
  const per = new Map(node.pids().slice(1).map((pid) => [pid, 0]));
  for (const line of result.stdout.split("\n")) {
    const match = /127\.0\.0\.1:\d+\s+127\.0\.0\.1:\d+\s.*pid=(\d+)/.exec(line);
    if (match && per.has(Number(match[1]))) per.set(Number(match[1]), per.get(Number(match[1])) + 1);
  }
  return [...per.values()];
}

/**
 * `list`: messages pre-signed for the run (sender j % senderTokens.length). A connection that sends
 * all of its own (it ran faster than the pre-signed rate: the cluster hands connections to its
 * workers unevenly, see `split`) signs more on the spot with `more(sender index)`, counted in `signedLate`.
 */
async function sendLoad({ node, list, senderTokens, duration, more }) {
  let signedLate = 0;
  let split;
  let windowOk = 0;
  let failed = 0;
  let sample;
  const counters = () => ({ at: performance.now(), cpu: cpuSeconds(node.pids()), machine: machineBusySeconds(), self: process.cpuUsage(), events: tally.messages });
  const { latencies: times, window, end, acknowledged } = await sendLoadWindow({
    url: node.url,
    connections: CONNECTIONS,
    list,
    senderTokens,
    duration,
    counters,
    onOpen: () => (split = loadConnectionsPerProcess(node)),
    whenExhausted(sender) {
      signedLate++;
      return more(sender);
    },
    onAnswer(stored, status, text) {
      if (stored) windowOk++;
      else {
        failed++;
        sample ??= status === 0 ? text : `${status} ${text.slice(0, 300)}`;
      }
    },
  });
  const seconds = (end.at - window.at) / 1000;
  const selfSeconds = (end.self.user - window.self.user + end.self.system - window.self.system) / 1e6;
  const serverCores = (end.cpu - window.cpu) / seconds;
  const clientCores = selfSeconds / seconds;
  return {
    perSecond: windowOk / seconds,
    seconds,
    acknowledged,
    failed,
    sample,
    signedLate,
    split,
    eventsInWindow: end.events - window.events,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    serverCores,
    clientCores,
    otherCores: Math.max(0, (end.machine - window.machine) / seconds - serverCores - clientCores),
  };
}

const coresText = (run) => `${run.serverCores.toFixed(2)}/${run.clientCores.toFixed(2)}/${run.otherCores.toFixed(2)}`;

/** PSS and VmRSS of the relay's process tree: the median of 5 samples 300 ms apart. */
async function memoryOf(node) {
  const pss = [];
  const rss = [];
  for (let k = 0; k < 5; k++) {
    if (k) await sleep(300);
    pss.push(node.pss());
    rss.push(node.rss());
  }
  return { pss: median(pss), rss: median(rss), tcp: tcpKernelBytes() };
}

// ---------------------------------------------------------------------------------------------
// 1 and 2: one node, the streams open

async function openSubscriptions() {
  const addresses = sources(Math.ceil(SUBSCRIPTIONS / STREAMS_PER_SOURCE));
  const recipients = Array.from({ length: SUBSCRIPTIONS }, (_, i) => user(i));
  const senders = Array.from({ length: SENDERS }, (_, i) => user(1_000_000 + i));
  log(`tokens: signing ${fmt(SUBSCRIPTIONS + SENDERS)} SIWE tokens`);
  const recipientTokens = recipients.map((u) => token(u));
  const senderTokens = senders.map((u) => token(u));
  // Streams may hold --max-connections less --reserved-connections, split between the workers: room
  // for every stream however the cluster hands the connections out, and 1,000 kept for the sends.
  const node = await relay("streams", ["--max-connections", String(Math.ceil(SUBSCRIPTIONS * 1.2) + 1000), "--reserved-connections", "1000"]);
  let streams = [];
  try {
    const run = async (label, duration, to = recipients) => {
      log(`sends: ${label}, ${duration} s (pre-signing ${fmt(SIGN_RATE * duration)} messages)`);
      const list = presign(senders, to, Math.ceil(SIGN_RATE * duration));
      const before = node.messages();
      const more = (sender) => signedMessage(senders[sender], to[Math.floor(Math.random() * to.length)], randomBytes(48).toString("hex"));
      const result = await sendLoad({ node, list, senderTokens, duration, more });
      return { ...result, storedBefore: before };
    };
    const noneBefore = await run("no stream open (baseline, first half)", SECONDS / 2);
    await sleep(2000);
    const idle = await memoryOf(node);
    const fdsBefore = node.pids().map(openFds);

    // Open the streams, in two halves (memory at each).
    const half = Math.floor(SUBSCRIPTIONS / 2);
    log(`streams: opening ${fmt(SUBSCRIPTIONS)} (one per account, ${addresses.length} source addresses)`);
    let openStarted = performance.now();
    streams = await openStreams(node.url, recipientTokens.slice(0, half), addresses);
    let openSeconds = (performance.now() - openStarted) / 1000;
    await sleep(2000);
    const atHalf = await memoryOf(node);
    openStarted = performance.now();
    const rest = await openStreams(node.url, recipientTokens.slice(half), addresses, { first: half });
    openSeconds += (performance.now() - openStarted) / 1000;
    streams = streams.concat(rest);
    await sleep(2000);
    const full = await memoryOf(node);
    const fdsOpen = node.pids().map(openFds);
    log(`streams: ${fmt(streams.length)} open and caught up in ${openSeconds.toFixed(1)} s; PSS ${mb(idle.pss)} → ${mb(atHalf.pss)} → ${mb(full.pss)}`);

    /** 1b's window: the sends, each waking a stream, then every event of what they stored. */
    const woken = async (label) => {
      const eventsBefore = tally.messages;
      const outOfOrderBefore = tally.outOfOrder;
      const withStreams = await run(`${fmt(SUBSCRIPTIONS)} streams open, each send wakes one (${label})`, SECONDS);
      // Every message stored since the streams opened must reach its stream: the sends in flight when
      // autocannon stopped commit after it, then the stragglers' events arrive.
      await sleep(1000);
      let storedWith = node.messages() - withStreams.storedBefore;
      const deadline = performance.now() + 15_000;
      while (tally.messages - eventsBefore < storedWith && performance.now() < deadline) await sleep(50);
      await sleep(200);
      storedWith = node.messages() - withStreams.storedBefore;
      return { withStreams, storedWith, eventsWith: tally.messages - eventsBefore, outOfOrder: tally.outOfOrder - outOfOrderBefore };
    };
    const endsBefore = tally.ends;
    const cutBefore = tally.cut;
    const eventsBefore = tally.messages;
    const first = await woken(`round 1 of ${ROUNDS}`);
    const { withStreams, storedWith, eventsWith, outOfOrder } = first;
    // The same load to accounts without a stream, the streams still open: what holding them costs
    // every request, apart from waking them (informational).
    const others = Array.from({ length: SUBSCRIPTIONS }, (_, i) => user(500_000 + i));
    const eventsBeforeIdle = tally.messages;
    const idleStreams = await run(`${fmt(SUBSCRIPTIONS)} streams open, sends to other accounts`, SECONDS / 2, others);
    idleStreams.events = tally.messages - eventsBeforeIdle;

    // 2. Latency, same node, streams still open.
    let latency;
    if (ONLY.includes(2)) latency = await latencyRun(node, recipients, recipientTokens, senders);
    const afterLatency = await memoryOf(node);
    /** Events delivered on the first opening (1b's first round, 1c, 2): what `afterLatency` holds after. */
    const delivered = tally.messages - eventsBefore;

    const endsDuring = tally.ends - endsBefore;
    const cutDuring = tally.cut - cutBefore;
    log("streams: closing");
    for (const stream of streams) stream.close();
    streams = [];
    await sleep(2000);
    const closed = await memoryOf(node);
    const noneAfter = await run("no stream open (baseline, second half)", SECONDS / 2);
    // 1b's further rounds: the streams opened again (each catches up on what it was sent before),
    // woken, closed, and the load with none open again; each round against the runs around it.
    const rounds = [{ ...first, before: noneBefore, after: noneAfter, endsDuring, cutDuring }];
    for (let round = 2; round <= ROUNDS; round++) {
      log(`streams: opening ${fmt(SUBSCRIPTIONS)} again (1b, round ${round} of ${ROUNDS})`);
      streams = await openStreams(node.url, recipientTokens, addresses);
      await sleep(2000);
      const [ends, cut] = [tally.ends, tally.cut];
      const timed = await woken(`round ${round} of ${ROUNDS}`);
      const ended = { endsDuring: tally.ends - ends, cutDuring: tally.cut - cut };
      for (const stream of streams) stream.close();
      streams = [];
      await sleep(2000);
      const after = await run(`no stream open (baseline, after round ${round})`, SECONDS / 2);
      rounds.push({ ...timed, ...ended, before: rounds.at(-1).after, after });
    }
    const storedAfter = node.messages();
    await node.stop();
    return {
      noneBefore, noneAfter, withStreams, storedWith, eventsWith, idle, atHalf, full, afterLatency, closed, fdsBefore, fdsOpen,
      openSeconds, half, endsDuring, cutDuring, latency, storedAfter, addresses, outOfOrder, idleStreams, rounds, delivered,
    };
  } finally {
    for (const stream of streams) stream.close();
    await node.stop();
  }
}

/** 2: open-loop sends at LATENCY_RATE/s; per message the event's arrival against the answer's. */
async function latencyRun(node, recipients, recipientTokens, senders) {
  const senderList = senders.slice(0, LATENCY_SENDERS);
  const senderTokens = senderList.map((u) => token(u));
  const agents = senderList.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  try {
    await Promise.all(senderTokens.map((bearer, k) => warmTokens(node.url, [bearer], agents[k])));
    log(`latency: getInbox round trips (${RTT_CALLS / 2}), then ${LATENCY_RATE} sends/s for ${LATENCY_SECONDS} s, then ${RTT_CALLS / 2} more round trips`);
    const rttBefore = await getInboxRtt(node.url, recipientTokens[0], Math.ceil(RTT_CALLS / 2));
    const count = LATENCY_RATE * LATENCY_SECONDS;
    const list = presign(senderList, recipients, count);
    const bodies = list.map((m) => rpcBody("neutralService_sendMessage", [m]));
    const arrivals = new Map();
    tally.onMessage = (id, at) => arrivals.set(id, at);
    const sends = new Array(count);
    const cpuStart = cpuNow(node);
    const started = performance.now();
    const inFlight = [];
    let late = 0;
    for (let j = 0; j < count; j++) {
      const due = started + (j * 1000) / LATENCY_RATE;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      else if (wait < -5) late++;
      const k = j % LATENCY_SENDERS;
      const start = performance.now();
      inFlight.push(
        post(node.url, senderTokens[k], bodies[j], agents[k]).then((answer) => {
          sends[j] = { start, ack: answer.at, id: storedOf(answer).id };
        }),
      );
    }
    await Promise.all(inFlight);
    const cpu = cpuBetween(cpuStart, cpuNow(node));
    const sendSeconds = (performance.now() - started) / 1000;
    const deadline = performance.now() + 10_000;
    while (sends.some((send) => !arrivals.has(send.id)) && performance.now() < deadline) await sleep(20);
    tally.onMessage = undefined;
    const rttAfter = await getInboxRtt(node.url, recipientTokens[0], Math.floor(RTT_CALLS / 2));
    const fromAck = [];
    const fromStart = [];
    const ackTimes = [];
    let missing = 0;
    for (const send of sends) {
      const at = arrivals.get(send.id);
      ackTimes.push(send.ack - send.start);
      if (at === undefined) {
        missing++;
        continue;
      }
      fromAck.push(at - send.ack);
      fromStart.push(at - send.start);
    }
    const rtt = sorted([...rttBefore, ...rttAfter]);
    const ack = sorted(fromAck);
    const start = sorted(fromStart);
    return {
      count,
      sendSeconds,
      late,
      missing,
      beforeAck: fromAck.filter((v) => v < 0).length,
      rttP50: percentile(rtt, 50),
      rttP99: percentile(rtt, 99),
      rttHalves: [median(rttBefore), median(rttAfter)],
      ack: { p50: percentile(ack, 50), p99: percentile(ack, 99), min: ack[0], max: ack[ack.length - 1] },
      start: { p50: percentile(start, 50), p99: percentile(start, 99) },
      sendRtt: { p50: percentile(sorted(ackTimes), 50), p99: percentile(sorted(ackTimes), 99) },
      cpu,
    };
  } finally {
    tally.onMessage = undefined;
    for (const agent of agents) agent.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// 3: polling against live, CPU per delivered message, a fresh node per mode

async function deliveryMode(mode, round) {
  const recipients = Array.from({ length: POLL_RECIPIENTS }, (_, i) => user(2_000_000 + i));
  const senders = Array.from({ length: 10 }, (_, i) => user(3_000_000 + i));
  const recipientTokens = recipients.map((u) => token(u));
  const senderTokens = senders.map((u) => token(u));
  const node = await relay(`poll-${mode}`);
  const sendAgents = senders.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  const pollAgents = recipients.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  let streams = [];
  const acks = new Map();
  const delays = [];
  let delivered = 0;
  let polls = 0;
  let emptyPolls = 0;
  let stopPolling = false;
  const pollers = [];
  try {
    await Promise.all(senderTokens.map((bearer, k) => warmTokens(node.url, [bearer], sendAgents[k])));
    const cursors = recipients.map(() => "0");
    const poll = async (k) => {
      for (;;) {
        polls++;
        const page = pageOf(await post(node.url, recipientTokens[k], rpcBody("neutralService_getInbox", [{}, 100, cursors[k]]), pollAgents[k]));
        if (page.data.length === 0) emptyPolls++;
        const at = performance.now();
        for (const message of page.data) {
          delivered++;
          const ack = acks.get(message.id);
          if (ack !== undefined) delays.push(at - ack);
        }
        if (page.data.length > 0) cursors[k] = page.data[page.data.length - 1].id;
        else if (page.cursor) cursors[k] = page.cursor;
        if (page.end) return;
      }
    };
    if (mode === "polling") {
      for (let k = 0; k < recipients.length; k++) await poll(k); // warm: each token verified on its own connection
      polls = 0;
      emptyPolls = 0;
    } else if (mode === "live") {
      streams = await openStreams(node.url, recipientTokens, ["127.0.0.1"], { inFlight: 20 });
      tally.onMessage = (id, at) => {
        delivered++;
        const ack = acks.get(id);
        if (ack !== undefined) delays.push(at - ack);
      };
    }
    await sleep(1000);
    const count = POLL_RATE * POLL_SECONDS;
    const list = presign(senders, recipients, count);
    const bodies = list.map((m) => rpcBody("neutralService_sendMessage", [m]));
    log(`delivery, ${mode} (round ${round} of ${POLL_ROUNDS}): ${POLL_RATE} msgs/s for ${POLL_SECONDS} s to ${POLL_RECIPIENTS} recipients`);
    const window = cpuNow(node);
    if (mode === "polling") {
      for (let k = 0; k < recipients.length; k++) {
        const phase = (k * POLL_INTERVAL_MS) / recipients.length;
        pollers.push(
          (async () => {
            for (let round = 0; ; round++) {
              const wait = window.at + phase + round * POLL_INTERVAL_MS - performance.now();
              if (wait > 0) await sleep(wait);
              if (stopPolling) return;
              await poll(k);
            }
          })(),
        );
      }
    }
    const inFlight = [];
    for (let j = 0; j < count; j++) {
      const wait = window.at + (j * 1000) / POLL_RATE - performance.now();
      if (wait > 1) await sleep(wait);
      const k = j % senders.length;
      inFlight.push(
        post(node.url, senderTokens[k], bodies[j], sendAgents[k]).then((answer) => {
          const message = storedOf(answer);
          acks.set(message.id, answer.at);
        }),
      );
    }
    await Promise.all(inFlight);
    // The same window in every mode: the sends, then time for the last poll round.
    const closeAt = window.at + POLL_SECONDS * 1000 + 1500;
    await sleep(Math.max(0, closeAt - performance.now()));
    const used = cpuBetween(window, cpuNow(node));
    stopPolling = true;
    await Promise.all(pollers);
    tally.onMessage = undefined;
    return {
      mode,
      count,
      seconds: used.seconds,
      cpu: used.relay,
      each: used.each,
      otherCores: used.otherCores,
      delivered: mode === "sends only" ? count : delivered,
      polls,
      emptyPolls,
      delays,
      benchCpu: used.self,
      stored: node.messages(),
    };
  } finally {
    stopPolling = true;
    tally.onMessage = undefined;
    for (const stream of streams) stream.close();
    for (const agent of [...sendAgents, ...pollAgents]) agent.destroy();
    await node.stop();
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const cpus = os.cpus();
  header("neutral relay live-delivery benchmark", `, secp256k1 ${curve.implementation}`);
  figure(
    `# SQLite, --workers ${WORKERS}, --rate-limit 0, fresh data dirs; the bench process (load generator and every client) shares the ${cpus.length} CPUs with the relay; ` +
      `ratios against baselines measured in this run`,
  );

  const quietStart = { at: performance.now(), machine: machineBusySeconds(), self: process.cpuUsage() };
  await sleep(2000);
  const quiet = cpuBetween({ ...quietStart, each: [] }, { at: performance.now(), each: [], machine: machineBusySeconds(), self: process.cpuUsage() });
  figure(
    `# other processes kept ${quiet.otherCores.toFixed(2)} cores busy in the 2 s before the run` +
      (quiet.otherCores > BUSY_CORES ? " (the machine is NOT quiet: the figures below are not comparable with a quiet run's)" : ""),
  );

  if (ONLY.includes(1) || ONLY.includes(2)) {
    try {
      const needed = SUBSCRIPTIONS + CONNECTIONS + 1000;
      const limit = ensureOpenFiles(needed, "BENCH_LIVE_SUBSCRIPTIONS");
      log(`open files: limit ${limit} for this process and the relays it starts`);
      const r = await openSubscriptions();
      const { idle, atHalf, full, half } = r;
      if (ONLY.includes(1)) {
        const perPss = (full.pss - idle.pss) / SUBSCRIPTIONS;
        const perRss = (full.rss - idle.rss) / SUBSCRIPTIONS;
        const slope = (full.pss - atHalf.pss) / (SUBSCRIPTIONS - half);
        verdict({
          name: `1a memory per open subscription, ${fmt(SUBSCRIPTIONS)} idle caught-up streams`,
          figure:
            `${kb(perPss)} PSS (relay tree PSS ${mb(idle.pss)} with none → ${mb(atHalf.pss)} with ${fmt(half)} → ${mb(full.pss)} with ${fmt(SUBSCRIPTIONS)}; ` +
            `the second half alone ${kb(slope)} each; VmRSS sum ${mb(idle.rss)} → ${mb(full.rss)}: ${kb(perRss)} each; ` +
            `after ${fmt(r.delivered)} events delivered on the open streams (1b, 2) ${mb(r.afterLatency.pss)}, +${kb((r.afterLatency.pss - full.pss) / r.delivered, 2)} per event, GC timing included; ` +
            `after closing the streams ${mb(r.closed.pss)})`,
          baseline: `the same node before the streams, after a ${SECONDS / 2} s send run`,
          ratio: `ratio ${(perPss / TARGETS.memory).toFixed(2)} of the budget`,
          measured: `${kb(perPss)} PSS per stream (${kb(perRss)} VmRSS)`,
          target: `<= ${kb(TARGETS.memory, 0)} per subscription`,
          pass: perPss <= TARGETS.memory,
          note:
            `opened in ${r.openSeconds.toFixed(1)} s from ${r.addresses.length} source addresses; descriptors per process ${r.fdsBefore.join("/")} → ${r.fdsOpen.join("/")} (primary/workers); ` +
            `kernel TCP buffers (both ends, machine-wide) ${mb(idle.tcp)} → ${mb(full.tcp)}, not in PSS`,
        });
        // Each round against the no-stream runs just before and after it; the median round is judged.
        const rounds = r.rounds.map((round) => ({ ...round, base: (round.before.perSecond + round.after.perSecond) / 2 }));
        const summary = medianRound(rounds, (round) => round.withStreams.perSecond / round.base);
        const { withStreams: w, before, after, base } = summary.run;
        const problems = rounds.flatMap((round, k) => {
          const at = rounds.length > 1 ? `round ${k + 1}: ` : "";
          return [
            ...[round.before, round.withStreams, round.after].filter((run) => run.failed).map((run) => `${at}${run.failed} sends FAILED (${run.sample})`),
            ...(round.eventsWith !== round.storedWith ? [`${at}${fmt(round.eventsWith)} events read for ${fmt(round.storedWith)} messages stored: EXPECTED equal`] : []),
            ...(round.outOfOrder ? [`${at}${fmt(round.outOfOrder)} events repeated or out of id order: EXPECTED none`] : []),
            ...busy([round.before, round.withStreams, round.after].map((run) => run.otherCores)).map((text) => `${at}${text}`),
            ...(round.endsDuring ? [`${at}${round.endsDuring} streams ENDED by the node (${tally.endSample})`] : []),
            ...(round.cutDuring ? [`${at}${round.cutDuring} streams CUT`] : []),
          ];
        });
        const { storedWith, eventsWith } = summary.run;
        verdict({
          name: `1b sendMessage with ${fmt(SUBSCRIPTIONS)} streams open, each send to a subscribed account`,
          figure:
            `${fmt(w.perSecond)} sends/s, p50 ${ms(w.p50)}, p99 ${ms(w.p99)} (${fmt(storedWith)} stored, ${fmt(eventsWith)} events read by the bench, ` +
            `${fmt(w.eventsInWindow)} inside the ${w.seconds.toFixed(1)} s window; CPU cores relay/bench/other ${coresText(w)}` +
            `${w.split ? `; connections from 127.0.0.1 (the load's) per worker ${w.split.join("/")}` : ""}${w.signedLate ? `; ${fmt(w.signedLate)} signed during the run` : ""})`,
          baseline:
            `the same load to the same accounts with no stream open, ${SECONDS / 2} s before opening and ${SECONDS / 2} s after closing them: ` +
            `${fmt(base)} sends/s (${fmt(before.perSecond)} / ${fmt(after.perSecond)}), p50 ${ms((before.p50 + after.p50) / 2)}; ` +
            `CPU cores ${coresText(before)} / ${coresText(after)}` +
            `${before.split ? `, connections per worker ${before.split.join("/")} / ${after.split.join("/")}` : ""}; relay CPU per send ${ms((w.serverCores / w.perSecond) * 1000, 3)} with streams, ` +
            `${ms(((before.serverCores + after.serverCores) / 2 / base) * 1000, 3)} without`,
          ratio: roundsText(summary),
          measured: `${fmt(w.perSecond)} / ${fmt(base)} sends/s = ${ratiosBrief(summary)}`,
          target: `>= ${TARGETS.sends}`,
          pass: summary.ratio >= TARGETS.sends && problems.length === 0,
          note: problems.length ? problems.join("; ") : undefined,
        });
      }
      if (ONLY.includes(1)) {
        const base = (r.noneBefore.perSecond + r.noneAfter.perSecond) / 2;
        const baseCpu = ((r.noneBefore.serverCores + r.noneAfter.serverCores) / 2 / base) * 1000;
        const i = r.idleStreams;
        const cpu = (run) => (run.serverCores / run.perSecond) * 1000;
        verdict({
          name: `1c sendMessage with ${fmt(SUBSCRIPTIONS)} streams open but none woken (the same load to ${fmt(SUBSCRIPTIONS)} accounts without a stream)`,
          figure:
            `${fmt(i.perSecond)} sends/s, p50 ${ms(i.p50)}, p99 ${ms(i.p99)}, relay CPU per send ${ms(cpu(i), 3)} (CPU cores relay/bench/other ${coresText(i)}; ` +
            `${i.split ? `load connections per worker ${i.split.join("/")}; ` : ""}` +
            `${fmt(i.events)} events: EXPECTED 0)`,
          baseline: `the no-stream baseline of 1b: ${fmt(base)} sends/s, ${ms(baseCpu, 3)} CPU per send`,
          ratio: i.perSecond / base,
          note:
            `of 1b's extra relay CPU per send (${ms(cpu(r.withStreams) - baseCpu, 3)}), holding the streams ${ms(cpu(i) - baseCpu, 3)}, waking them and sending the events ${ms(cpu(r.withStreams) - cpu(i), 3)}` +
            (busy([i.otherCores]).length ? `; ${busy([i.otherCores])[0]}` : ""),
          measured: `${fmt(i.perSecond)} / ${fmt(base)} sends/s = ${(i.perSecond / base).toFixed(2)}`,
        });
      }
      if (ONLY.includes(2) && r.latency) {
        const l = r.latency;
        const ratio = l.ack.p99 / l.rttP50;
        const problems = [
          ...(l.missing ? [`${l.missing} notifications MISSING`] : []),
          ...(l.late > l.count * 0.01 ? [`${l.late} sends started > 5 ms late: the rate was not steady`] : []),
          ...busy([l.cpu.otherCores]),
        ];
        verdict({
          name: `2 notification latency at ${LATENCY_RATE} sends/s for ${LATENCY_SECONDS} s, ${fmt(SUBSCRIPTIONS)} streams open`,
          figure:
            `from the sendMessage answer to the event: p50 ${ms(l.ack.p50)}, p99 ${ms(l.ack.p99)} (min ${ms(l.ack.min)}, max ${ms(l.ack.max)}; ` +
            `${fmt(l.beforeAck)} of ${fmt(l.count)} events came before their answer); from the send's start: p50 ${ms(l.start.p50)}, p99 ${ms(l.start.p99)} ` +
            `(sendMessage round trip p50 ${ms(l.sendRtt.p50)}, p99 ${ms(l.sendRtt.p99)}; ${fmt(l.count)} sends in ${l.sendSeconds.toFixed(1)} s; ` +
            `CPU cores relay/bench/other ${(l.cpu.relay / l.cpu.seconds).toFixed(2)}/${(l.cpu.self / l.cpu.seconds).toFixed(2)}/${l.cpu.otherCores.toFixed(2)})`,
          baseline: `getInbox [{}, 20] round trip on the same node, one at a time: p50 ${ms(l.rttP50, 3)} (${ms(l.rttHalves[0], 3)} before / ${ms(l.rttHalves[1], 3)} after), p99 ${ms(l.rttP99, 3)}`,
          ratio:
            `p99 ${(l.ack.p99 / l.rttP50).toFixed(2)}x, p50 ${(l.ack.p50 / l.rttP50).toFixed(2)}x a getInbox round trip ` +
            `(from the send's start: p50 ${(l.start.p50 / l.rttP50).toFixed(2)}x, p99 ${(l.start.p99 / l.rttP50).toFixed(2)}x)`,
          measured: `p99 ${ms(l.ack.p99)} = ${ratio.toFixed(2)}x (p50 ${(l.ack.p50 / l.rttP50).toFixed(2)}x; from start p50 ${(l.start.p50 / l.rttP50).toFixed(2)}x, p99 ${(l.start.p99 / l.rttP50).toFixed(2)}x) of ${ms(l.rttP50, 3)}`,
          target: `p99 from the acknowledgement <= ${TARGETS.latency}x`,
          pass: ratio <= TARGETS.latency && problems.length === 0,
          note: problems.length ? problems.join("; ") : undefined,
        });
      }
    } catch (error) {
      benchError(`${ONLY.filter((n) => n === 1 || n === 2).join(" and ")} open subscriptions`, error.stack ?? error);
    }
  }

  if (ONLY.includes(3)) {
    try {
      const runs = {};
      // Rounds, the modes interleaved in each (the machine drifts); a mode's figures add up its rounds.
      const rounds = { "sends only": [], polling: [], live: [] };
      for (let round = 0; round < POLL_ROUNDS; round++) for (const mode of Object.keys(rounds)) rounds[mode].push(await deliveryMode(mode, round + 1));
      for (const [mode, list] of Object.entries(rounds)) {
        const sum = (field) => list.reduce((total, run) => total + run[field], 0);
        const delays = list.flatMap((run) => run.delays);
        runs[mode] = {
          mode,
          count: sum("count"),
          seconds: sum("seconds"),
          cpu: sum("cpu"),
          each: list[0].each.map((_, k) => list.reduce((total, run) => total + (run.each[k] ?? 0), 0)),
          otherCores: Math.max(...list.map((run) => run.otherCores)),
          delivered: sum("delivered"),
          polls: sum("polls"),
          emptyPolls: sum("emptyPolls"),
          delay: delays.length ? { p50: percentile(sorted(delays), 50), p99: percentile(sorted(delays), 99) } : undefined,
          perRound: list.map((run) => (run.cpu / run.delivered) * 1000),
        };
      }
      const send = runs["sends only"];
      const per = (run) => (run.cpu / run.delivered) * 1000;
      const net = (run) => ((run.cpu - send.cpu) / run.delivered) * 1000;
      const text = (run) =>
        `${ms(per(run), 3)}${run.perRound.length > 1 ? ` (rounds ${run.perRound.map((n) => n.toFixed(3)).join(" / ")})` : ""} (${run.cpu.toFixed(2)} CPU s / ${fmt(run.delivered)} delivered; primary/workers ${run.each.map((n) => n.toFixed(2)).join("/")} s; of it ${ms(net(run), 3)} above the sends alone` +
        `${run.polls ? `; ${fmt(run.polls)} getInbox, ${fmt(run.emptyPolls)} empty` : ""}${run.delay ? `; delivered p50 ${ms(run.delay.p50, 1)}, p99 ${ms(run.delay.p99, 1)} after the send's answer` : ""})`;
      const poll = runs.polling;
      const stream = runs.live;
      const problems = [
        ...(poll.delivered !== poll.count ? [`polling got ${fmt(poll.delivered)} of ${fmt(poll.count)}`] : []),
        ...(stream.delivered !== stream.count ? [`live got ${fmt(stream.delivered)} of ${fmt(stream.count)}`] : []),
        ...busy([send.otherCores, poll.otherCores, stream.otherCores]),
      ];
      const ratio = per(stream) / per(poll);
      verdict({
        name: `3 relay CPU per delivered message, ${POLL_RECIPIENTS} recipients, ${POLL_RATE} msgs/s for ${POLL_SECONDS} s, fresh node per mode and round`,
        figure: `live (one stream each) ${text(stream)}`,
        baseline:
          `polling (getInbox every ${POLL_INTERVAL_MS / 1000} s from its cursor) ${text(poll)}; sends alone, nobody reading: ${ms((send.cpu / send.count) * 1000, 3)} per message ` +
          `${send.perRound.length > 1 ? `(rounds ${send.perRound.map((n) => n.toFixed(3)).join(" / ")}) ` : ""}` +
          `(${send.cpu.toFixed(2)} CPU s; primary/workers ${send.each.map((n) => n.toFixed(2)).join("/")} s); each mode ${POLL_ROUNDS} round(s) of the same ${(stream.seconds / POLL_ROUNDS).toFixed(1)} s window, interleaved; ` +
          `other processes ${send.otherCores.toFixed(2)}/${poll.otherCores.toFixed(2)}/${stream.otherCores.toFixed(2)} cores (sends alone/polling/live)`,
        ratio: `ratio live/polling ${ratio.toFixed(2)} (above the sends alone: ${(net(stream) / net(poll)).toFixed(2)})`,
        measured: `live ${ms(per(stream), 3)} / polling ${ms(per(poll), 3)} = ${ratio.toFixed(2)}`,
        target: "live < polling (ratio < 1)",
        pass: ratio < 1 && problems.length === 0,
        note: problems.length ? problems.join("; ") : undefined,
      });
    } catch (error) {
      benchError("3 polling vs live", error.stack ?? error);
    }
  }
}

await runBench({ name: "live", skip: "BENCH_LIVE" }, main);
