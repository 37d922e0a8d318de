// The bounds a node enforces against hostile clients (issue 19, findings 2-5: bounds 1-4) and against
// hostile clients and peers of federation, live delivery, quotas, consent and retention (issue 33,
// findings 1-8: bounds 5-12), one line each:
// `node bench/bounds.mjs` in packages/relay after a build (`pnpm bench` runs it after run.mjs;
// BENCH_BOUNDS=0 skips it there). Each line prints the figure, the baseline measured in this same
// run, their ratio, the target and PASS or MISS (harness.mjs's verdict line), and the closing table
// ends the run. A MISS is a finding, not a crash: the exit status is non-zero only when the bench
// itself could not measure (a relay that would not start, ...).
// Loopback only (127.0.0.0/8): the honest client is 127.0.0.1, the floods come from other loopback
// addresses (the idle connections from one, the stalled bodies from 15: see below).
//  1 answer size, 2 scan cost, 3 connections held, 4 memory under stalled bodies: see main()'s lines.
//  5 slow streams (finding 1): 512 subscribe streams, 8 per account (the per-account limit), 128 per
//    address, over mailboxes of 120 messages of 64 KiB, that read one socket chunk every 15 s; with
//    --workers 1, then 2, for 60 s each: peak RSS/PSS, survival, honest getInbox p99 from 127.0.0.1,
//    memory per stream (growth / streams) against the documented bound (--subscription-buffer-bytes
//    plus one event), and how soon the RSS is back within 10 % of the idle RSS once the clients go.
//    The attack stops early if the relay's RSS passes BENCH_BOUNDS_SLOW_RSS_CAP_MIB.
//  6 peer capture (finding 2): node A (the victims' real node), senders' nodes S1 (peers: H, A) and
//    S2 (peers: A, H), and H, a hostile peer (a server in this process) that replays each victim's
//    key bundle (copied from A's getKey) and answers deliveries with receipts and a valid
//    DeliveryAnswer signature. 20 messages per case to accounts with only a key bundle at A, A up,
//    then down; baseline: an account with a home record at A, which H replays too.
//  7 refused message stall (finding 3): nodes A and B; one A user sends 6 messages to an
//    "allowed-only" account on B (request quota 5), then 20 honest messages go from other A users to
//    other B users: delivered within 10 s and within 150 s; baseline: 20 before the refused ones.
//  8 idle streams (finding 4): 10,000 idle streams from 40 addresses (250 each, 4 per account), then
//    50 honest getInbox/nodeInfo (a fresh connection each) and one stream from 127.0.0.1; baseline:
//    the same before the streams. --workers 2.
//  9 quota under consent (finding 5): an "allowed-only" account V that allowed F; throwaway strangers
//    send 64 KiB messages (into V's requests folder, 5 each) until V's recipient quota refuses them
//    (--recipient-quota-bytes 20 MiB here, not the default 200 MiB, to keep it short), then F sends 20.
// 10 dead peer (finding 6): a node whose one (pinned) peer accepts connections and never answers; a
//    local send between two accounts with only key bundles, and getKey of each: p50 against the same
//    on a node without peers (50 calls each, or 30 s).
// 11 peer delivery cost (finding 7): this process signs as a peer P of node B (--rate-limit 100, the
//    default; --workers 2) and sends deliveries of 100 messages + 100 new home records, 10 at once,
//    for 20 s: B's CPU per accepted delivery, 429s, honest getInbox p99 from 127.0.6.1.
// 12 swept messages (finding 8): --retention 6s; 5 messages sent and 5 delivered by a peer, swept, then
//    the same signed messages sent and delivered again: how many are stored again.
// Env: BENCH_BOUNDS=0 (skip), BENCH_BOUNDS_ONLY ("1,2,...,12": which bounds), BENCH_BOUNDS_PAGES (300:
//      page pairs timed for the scan bound), BENCH_BOUNDS_SCAN_MESSAGES (200000),
//      BENCH_BOUNDS_IDLE (3000 idle connections), BENCH_BOUNDS_STALLED (1500 stalled bodies),
//      BENCH_BOUNDS_STALL_SECONDS (10), BENCH_BOUNDS_IDLE_SOURCES (1: the idle flood's addresses),
//      BENCH_BOUNDS_STALLED_SOURCES (15: the stalled bodies' addresses, 100 connections each, so that
//      a per-address connection limit admits them all and what is measured is the bodies' memory),
//      BENCH_BOUNDS_SLOW_STREAMS (512), BENCH_BOUNDS_SLOW_MESSAGES (120 per mailbox),
//      BENCH_BOUNDS_SLOW_SECONDS (60), BENCH_BOUNDS_SLOW_READ_EVERY_MS (15000),
//      BENCH_BOUNDS_SLOW_WORKERS ("1,2"), BENCH_BOUNDS_SLOW_RSS_CAP_MIB (6144),
//      BENCH_BOUNDS_CAPTURE_MESSAGES (20), BENCH_BOUNDS_STALL_HONEST (20),
//      BENCH_BOUNDS_STALL_WAIT_SECONDS (150), BENCH_BOUNDS_IDLE_STREAMS (10000),
//      BENCH_BOUNDS_IDLE_STREAM_SOURCES (40), BENCH_BOUNDS_RECIPIENT_QUOTA_MIB (20),
//      BENCH_BOUNDS_STRANGER_SECONDS (90), BENCH_BOUNDS_DEAD_PEER_CALLS (50),
//      BENCH_BOUNDS_DEAD_PEER_SECONDS (30), BENCH_BOUNDS_DELIVERY_SECONDS (20),
//      BENCH_BOUNDS_DELIVERIES (300 pre-signed), BENCH_VERBOSE (relays' stderr),
//      BENCH_BOUNDS_RELAY_ARGS (flags added to every relay, e.g. "--max-page-scan 1000000" to see a bound fail).
// Every relay, flood process, peer server and temp dir is removed at the end, on error and on SIGINT/SIGTERM.
import { spawn, spawnSync, fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  benchError,
  childPids as childPidsOf,
  envInt as int,
  envList,
  fmt,
  header,
  killTree,
  log,
  onCleanup,
  out,
  removeDir,
  runBench,
  settings,
  tempDir as benchTempDir,
  trackProcess,
  verdict,
  verdictWord,
} from "./harness.mjs";

const SELF = fileURLToPath(import.meta.url);
const MiB = 2 ** 20;

// ---------------------------------------------------------------------------------------------
// Pure helpers (bounds.test.mjs)

export { fmt };
export const mb = (bytes, digits = 1) => `${fmt(bytes / MiB, digits)} MB`;

/** Median of a list of numbers (the lower of the middle two for an even count); NaN for none. */
export function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** `--flag ... (default X)` of the relay's --help text: Map flag name (without dashes) → default text. */
export function flagDefaults(helpText) {
  const flags = new Map();
  for (const line of helpText.split("\n")) {
    const match = /^\s+--([a-z][a-z0-9-]*)\s/.exec(line);
    if (!match) continue;
    const value = /\(default:? ([^)]*)\)\s*$/.exec(line);
    flags.set(match[1], value ? value[1].trim() : undefined);
  }
  return flags;
}

/**
 * The relay's limits on client connections, from its --help: flags whose name speaks of
 * connections (not the database pool's, not timeouts), with their numeric default (undefined when
 * not a number or 0 = off) and whether they count per client address.
 */
export function connectionLimitFlags(helpText) {
  const found = [];
  for (const [flag, value] of flagDefaults(helpText)) {
    if (!/conn/.test(flag) || /database|pool|timeout|-ms$|seconds/.test(flag)) continue;
    const number = value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
    found.push({ flag, value: number === 0 ? undefined : number, text: value, perAddress: /(^|-)ip(-|$)|addr|per-client/.test(flag) });
  }
  return found;
}

/** The connections a node with these limits lets `sources` client addresses hold; undefined: no limit. */
export function applicableConnectionLimit(limits, sources) {
  const caps = limits.filter((l) => l.value !== undefined).map((l) => (l.perAddress ? l.value * sources : l.value));
  return caps.length ? Math.min(...caps) : undefined;
}

/**
 * Bytes of the JSON-RPC answer to a batch of `entries` getInbox calls (ids 1..entries) each
 * answered with the same page: `pageJson` is its messages' JSON joined by commas.
 */
export function batchAnswerBytes({ entries, address, pageJson, end = false }) {
  let total = 2 + Math.max(0, entries - 1); // [ ] and the commas between entries
  for (let id = 1; id <= entries; id++) {
    total += Buffer.byteLength(`{"jsonrpc":"2.0","id":${id},"result":[{"address":"${address}","data":[`);
    total += Buffer.byteLength(pageJson);
    total += Buffer.byteLength(`],"end":${end}}]}`);
  }
  return total;
}

/** Loopback source addresses for a flood: `count` addresses from 127.0.<block>.1 on. */
export function floodSources(block, count) {
  return Array.from({ length: count }, (_, k) => `127.0.${block + Math.floor(k / 250)}.${1 + (k % 250)}`);
}

/** The raw HTTP request that opens a `neutralService_subscribe` stream ({} : every received message) as `bearer`. */
export function streamRequestText(port, bearer, params = {}) {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_subscribe", params });
  return (
    `POST / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\n` +
    `Authorization: Bearer ${bearer}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/**
 * Latencies of requests that may fail: `samples` are { ok, ms }. A failed request counts as slower
 * than every answered one (Infinity), so a p99 over a run with failures says so.
 */
export function latencyStats(samples) {
  const times = samples.map((s) => (s.ok ? s.ms : Infinity)).sort((a, b) => a - b);
  const at = (p) => (times.length ? times[Math.min(times.length - 1, Math.max(0, Math.ceil((p / 100) * times.length) - 1))] : NaN);
  return { count: samples.length, answered: samples.filter((s) => s.ok).length, p50: at(50), p99: at(99), max: times.length ? times[times.length - 1] : NaN };
}

/** A latency for a line: "12.3 ms", "FAILED" for Infinity (a request not answered), "n/a" for none. */
export function msText(ms, digits = 1) {
  if (Number.isNaN(ms)) return "n/a";
  if (ms === Infinity) return "FAILED";
  return `${fmt(ms, digits)} ms`;
}

/** Ids stored again: resends answered with an id other than the original's, counted. */
export function storedAgain(originalIds, answeredIds) {
  return answeredIds.filter((id, k) => id !== undefined && id !== originalIds[k]).length;
}

// ---------------------------------------------------------------------------------------------
// Awaiting with a bound

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** `promise`, or an error after `ms`. */
function within(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * One HTTP request; never rejects. Resolves with { ok (2xx), status, ms, bytes, text, truncated,
 * error }. The answer is kept up to `keepBytes` and read up to `maxBytes` (then the request is cut).
 */
function request(url, { method = "GET", headers = {}, body, agent = false, timeoutMs = 10_000, maxBytes = 64 * MiB, localAddress } = {}) {
  localAddress ??= "127.0.0.1";
  return new Promise((resolve) => {
    const started = performance.now();
    let settled = false;
    let bytes = 0;
    const chunks = [];
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ms: performance.now() - started, bytes, ...result });
    };
    const payload = body === undefined ? undefined : Buffer.from(body);
    const req = http.request(
      url,
      { method, agent, localAddress, headers: { ...headers, ...(payload ? { "content-length": payload.length } : {}) } },
      (response) => {
        response.on("data", (chunk) => {
          bytes += chunk.length;
          if (bytes > maxBytes) {
            finish({ ok: false, status: response.statusCode, truncated: true, error: `answer passed ${fmt(maxBytes)} bytes: cut` });
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () => {
          const ok = response.statusCode >= 200 && response.statusCode < 300;
          finish({ ok, status: response.statusCode, headers: response.headers, text: Buffer.concat(chunks).toString("utf8") });
        });
        response.on("error", (error) => finish({ ok: false, status: response.statusCode, error: error.message }));
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, error: `no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on("error", (error) => finish({ ok: false, error: error.code ?? error.message }));
    req.end(payload);
  });
}

const rpc = (method, params, id = 1) => ({ jsonrpc: "2.0", id, method, params });
const jsonHeaders = (bearer) => ({ "content-type": "application/json", ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) });

/** POST one JSON-RPC call; resolves with the request() result plus `result` / `rpcError` of a single answer. */
async function call(url, body, { bearer, agent, timeoutMs = 10_000, localAddress, headers } = {}) {
  const answer = await request(url, { method: "POST", headers: headers ?? jsonHeaders(bearer), body: typeof body === "string" ? body : JSON.stringify(body), agent, timeoutMs, localAddress });
  if (answer.text) {
    try {
      const parsed = JSON.parse(answer.text);
      return { ...answer, result: parsed.result, rpcError: parsed.error, parsed };
    } catch {
      return { ...answer, ok: false, error: `not JSON: ${answer.text.slice(0, 100)}` };
    }
  }
  return answer;
}

// ---------------------------------------------------------------------------------------------
// Cleanup (harness.mjs): every relay, flood process, peer server and temp dir this run made, also on
// error and signals.

const tempDir = (label) => benchTempDir(`bounds-${label}`);

// ---------------------------------------------------------------------------------------------
// Relays

/**
 * Starts dist/main.js on a free loopback port and waits (≤ 60 s) until /health answers and its
 * workers exist. The process is registered for cleanup from its spawn on, so a relay that never
 * serves is stopped too.
 */
async function launchRelay(lib, { dataDir, workers, extraArgs = [], port: fixedPort, rateLimit = 0, nodeKey, peers = [] }) {
  const port = fixedPort ?? (await within(lib.freePort(), 10_000, "free port"));
  const args = [
    ...settings.relayNodeArgs,
    lib.MAIN,
    "--host", "127.0.0.1",
    "--port", String(port),
    "--data-dir", dataDir,
    "--workers", String(workers),
    "--rate-limit", String(rateLimit),
    "--log-level", "warn",
    "--domain", lib.DOMAIN,
    ...(nodeKey ? ["--node-key", nodeKey] : []),
    ...peers.flatMap((peer) => ["--peer", peer]),
    ...extraArgs,
    ...(process.env.BENCH_BOUNDS_RELAY_ARGS ? process.env.BENCH_BOUNDS_RELAY_ARGS.split(" ").filter(Boolean) : []),
  ];
  const child = trackProcess(spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] }));
  let output = "";
  const keep = (chunk) => {
    output = (output + chunk).slice(-8000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  if (settings.verbose) child.stderr.pipe(process.stderr);
  const exit = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const url = `http://127.0.0.1:${port}`;
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const pids = () => (exited() ? [] : [child.pid, ...childPidsOf(child.pid)]);
  const relay = {
    url,
    port,
    pid: child.pid,
    pids,
    alive: () => !exited(),
    output: () => output,
    pss: () => pids().reduce((sum, pid) => sum + lib.pssOf(pid), 0),
    rss: () => pids().reduce((sum, pid) => sum + rssOf(pid), 0),
    exit,
    fds: () => pids().reduce((sum, pid) => sum + fdCount(pid), 0),
    async stop() {
      if (!exited()) child.kill("SIGTERM");
      try {
        await within(exit, 15_000, "relay stop");
      } catch {
        killTree(child.pid, "SIGKILL");
        await within(exit, 5000, "relay kill").catch(() => {});
      }
    },
  };
  const deadline = Date.now() + 60_000;
  let last = "no /health answer yet";
  for (;;) {
    if (exited()) {
      throw new Error(`the relay exited before serving:\n${output}`);
    }
    if (Date.now() > deadline) {
      await relay.stop();
      throw new Error(`the relay did not serve within 60 s (last: ${last}; was dist/ rebuilt meanwhile?):\n${output}`);
    }
    const health = await request(`${url}/health`, { timeoutMs: 2000 });
    const processes = childPidsOf(child.pid).length;
    if (health.ok && (workers <= 1 || processes >= workers)) break;
    last = `/health ${health.ok ? "ok" : (health.error ?? `HTTP ${health.status}`)}, ${processes} worker(s)`;
    await sleep(100);
  }
  if (workers > 1) await sleep(1000); // every worker done starting
  return relay;
}

/** VmRSS of one process, bytes; 0 when it is gone. */
function rssOf(pid) {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function fdCount(pid) {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
}

/** Bytes of TCP buffers the kernel holds (both ends of every loopback connection), from /proc/net/sockstat. */
function tcpKernelBytes() {
  try {
    const pages = /^TCP:.*\bmem (\d+)/m.exec(readFileSync("/proc/net/sockstat", "utf8"))?.[1];
    return pages === undefined ? NaN : Number(pages) * 4096;
  } catch {
    return NaN;
  }
}

/** "workers replaced" / "primary gone" when the relay's processes are not the ones it started with. */
function processChange(relay, before) {
  if (!relay.alive()) return `the relay EXITED (${relay.output().trim().split("\n").slice(-3).join(" | ")})`;
  const now = relay.pids();
  const lost = before.filter((pid) => !now.includes(pid));
  return lost.length ? `${lost.length} relay process(es) DIED and were replaced` : "";
}

// ---------------------------------------------------------------------------------------------
// Floods: a child process of this script (`node bounds.mjs --flood`), so that its sockets and
// memory are its own. The parent sends one { kind, port, count, sources, ... } and later "status"
// and "close"; the child exits when told, when its parent goes away, or after 120 s.

function startFlood(spec) {
  const child = trackProcess(fork(SELF, ["--flood"], { stdio: ["ignore", "inherit", "inherit", "ipc"] }));
  const waiters = [];
  let exitedWith;
  child.on("message", (message) => {
    for (const waiter of waiters.filter((w) => w.type === message.type)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    }
  });
  child.once("exit", (code, signal) => {
    exitedWith = { code, signal };
    for (const waiter of waiters.splice(0)) waiter.reject(new Error(`the flood process exited (${code ?? signal})`));
  });
  const next = (type, ms) =>
    within(
      new Promise((resolve, reject) => {
        if (exitedWith) reject(new Error("the flood process has exited"));
        else waiters.push({ type, resolve, reject });
      }),
      ms,
      `flood ${type}`,
    );
  child.send(spec);
  return {
    pid: child.pid,
    next,
    async status() {
      const answer = next("status", 10_000);
      child.send({ type: "status" });
      return answer;
    },
    async close() {
      if (exitedWith) return undefined;
      const answer = next("closed", 15_000);
      child.send({ type: "close" });
      const closed = await answer.catch(() => undefined);
      const gone = new Promise((resolve) => (exitedWith ? resolve() : child.once("exit", resolve)));
      await within(gone, 5000, "flood exit").catch(() => killTree(child.pid, "SIGKILL"));
      return closed;
    },
  };
}

async function floodChild() {
  let hardStop = setTimeout(() => process.exit(0), 120_000);
  hardStop.unref();
  process.on("disconnect", () => process.exit(0));
  const spec = await new Promise((resolve) => process.once("message", resolve));
  if (spec.maxSeconds) {
    clearTimeout(hardStop);
    hardStop = setTimeout(() => process.exit(0), spec.maxSeconds * 1000);
    hardStop.unref();
  }
  if (spec.kind === "streams") return streamsChild(spec);
  const sockets = [];
  let stopped = false;
  let connectErrors = 0;
  let firstError;
  let closedByPeer = 0;
  const responses = {};
  const chunk = Buffer.alloc(64 * 1024, 0x20); // JSON whitespace: the only body buffer, reused
  const head = Buffer.from(
    spec.kind === "bodies"
      ? `POST / HTTP/1.1\r\nHost: 127.0.0.1:${spec.port}\r\nContent-Type: application/json\r\nContent-Length: ${spec.contentLength}\r\n\r\n`
      : "",
  );
  const pumps = [];

  const pump = async (socket) => {
    let left = spec.bodyBytes;
    while (left > 0 && !stopped && !socket.destroyed) {
      const n = Math.min(left, chunk.length);
      left -= n;
      if (!socket.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
        await new Promise((resolve) => {
          const done = () => {
            socket.off("drain", done);
            socket.off("close", done);
            resolve();
          };
          socket.on("drain", done);
          socket.on("close", done);
        });
      }
    }
  };

  const open = (k) =>
    new Promise((resolve) => {
      const socket = net.connect({ host: "127.0.0.1", port: spec.port, localAddress: spec.sources[k % spec.sources.length] });
      const timer = setTimeout(() => socket.destroy(new Error("connect timeout")), 10_000);
      let connected = false;
      socket.on("error", (error) => {
        if (!connected) {
          connectErrors++;
          firstError ??= error.code ?? error.message;
        }
      });
      socket.on("close", () => {
        clearTimeout(timer);
        if (connected && !stopped) closedByPeer++;
        resolve();
      });
      socket.once("data", (data) => {
        const status = /^HTTP\/1\.[01] (\d{3})/.exec(data.toString("latin1", 0, 32))?.[1] ?? "other";
        responses[status] = (responses[status] ?? 0) + 1;
      });
      socket.on("data", () => {}); // read and drop whatever the node says
      socket.once("connect", () => {
        connected = true;
        clearTimeout(timer);
        sockets.push(socket);
        if (spec.kind === "bodies") {
          socket.write(head);
          pumps.push(pump(socket));
        }
        resolve();
      });
    });

  // At most 200 connects in flight: the node's accept queue is not what is measured.
  for (let k = 0; k < spec.count && !stopped; k += 200) {
    await Promise.all(Array.from({ length: Math.min(200, spec.count - k) }, (_, j) => open(k + j)));
  }
  const status = () => {
    const open = sockets.filter((socket) => !socket.destroyed).length;
    const sent = sockets.reduce((sum, socket) => sum + Math.max(0, socket.bytesWritten - socket.writableLength - head.length), 0);
    return { opened: sockets.length, open, connectErrors, firstError, closedByPeer, bodyBytesSent: sent, responses, rss: process.memoryUsage().rss };
  };
  process.send({ type: "opened", ...status() });
  Promise.all(pumps).then(() => !stopped && process.send({ type: "written", ...status() }));
  process.on("message", (message) => {
    if (message.type === "status") process.send({ type: "status", ...status() });
    if (message.type === "close") {
      const last = status();
      stopped = true;
      for (const socket of sockets) socket.destroy();
      process.send({ type: "closed", ...last }, () => process.exit(0));
    }
  });
}

/**
 * The stream flood (bounds 5 and 8): `count` `neutralService_subscribe` streams on raw sockets,
 * stream k as account `userBase + floor(k / perAccount)` (its SIWE token made here) from
 * `sources[floor(k / perSource)]`. `read: "all"` reads everything the node sends (idle streams
 * over empty mailboxes); `read: "slow"` reads the answer's head, then one socket read (at most
 * 64 KiB) every `readEveryMs` per stream, phases spread over the interval (`readEveryMs` 0: never
 * again).
 */
async function streamsChild(spec) {
  const lib = await import("./lib.mjs");
  const tokens = new Map();
  const tokenOf = (account) => {
    if (!tokens.has(account)) tokens.set(account, lib.token(lib.user(account)));
    return tokens.get(account);
  };
  const streams = [];
  const timers = new Set();
  let stopped = false;
  let connectErrors = 0;
  let firstError;
  let closedByPeer = 0;
  let bytesRead = 0;
  let caughtUp = 0;
  const statuses = {};
  const ends = {};
  const count = (text, stream) => {
    if (!stream.caughtUp && text.includes("neutralService_caughtUp")) {
      stream.caughtUp = true;
      caughtUp++;
    }
    for (const match of text.matchAll(/neutralService_end[^}]*?"reason":"([a-z-]+)"/g)) ends[match[1]] = (ends[match[1]] ?? 0) + 1;
  };
  const open = (k) =>
    new Promise((resolve) => {
      const account = spec.userBase + Math.floor(k / spec.perAccount);
      const localAddress = spec.sources[Math.floor(k / spec.perSource) % spec.sources.length];
      const socket = net.connect({ host: "127.0.0.1", port: spec.port, localAddress });
      const stream = { socket, status: undefined, caughtUp: false };
      let connected = false;
      // An attacker keeps a stream the node has not answered yet: it only stops waiting to open the next ones.
      const timer = setTimeout(resolve, 15_000);
      socket.on("error", (error) => {
        if (!connected || stream.status === undefined) {
          connectErrors++;
          firstError ??= `${error.code ?? error.message}${connected ? " (after connecting)" : ""}`;
        }
      });
      socket.on("close", () => {
        clearTimeout(timer);
        if (stream.status === 200 && !stopped) closedByPeer++;
        resolve();
      });
      socket.on("data", (data) => {
        bytesRead += data.length;
        if (stream.status === undefined) {
          const status = /^HTTP\/1\.[01] (\d{3})/.exec(data.toString("latin1", 0, 32))?.[1] ?? "other";
          stream.status = Number(status) || status;
          statuses[status] = (statuses[status] ?? 0) + 1;
          clearTimeout(timer);
          if (spec.read === "slow") {
            socket.pause();
            if (spec.readEveryMs > 0) {
              const readOnce = () => {
                if (socket.destroyed || stopped) return;
                socket.once("data", () => socket.pause());
                socket.resume();
              };
              const first = setTimeout(() => {
                timers.delete(first);
                readOnce();
                const every = setInterval(readOnce, spec.readEveryMs);
                timers.add(every);
              }, Math.random() * spec.readEveryMs);
              timers.add(first);
            }
          }
          resolve();
        }
        count(data.toString("latin1"), stream);
      });
      socket.once("connect", () => {
        connected = true;
        streams.push(stream);
        socket.write(streamRequestText(spec.port, tokenOf(account)));
      });
    });
  const inFlight = spec.inFlight ?? 200;
  for (let k = 0; k < spec.count && !stopped; k += inFlight) {
    await Promise.all(Array.from({ length: Math.min(inFlight, spec.count - k) }, (_, j) => open(k + j)));
  }
  const status = () => {
    const accepted = streams.filter((s) => s.status === 200);
    return {
      attempted: spec.count,
      connected: streams.length,
      unanswered: streams.filter((s) => s.status === undefined && !s.socket.destroyed).length,
      accepted: accepted.length,
      open: accepted.filter((s) => !s.socket.destroyed).length,
      caughtUp,
      statuses,
      ends,
      connectErrors,
      firstError,
      closedByPeer,
      bytesRead,
      rss: process.memoryUsage().rss,
    };
  };
  process.send({ type: "opened", ...status() });
  process.on("message", (message) => {
    if (message.type === "status") process.send({ type: "status", ...status() });
    if (message.type === "close") {
      const last = status();
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      for (const stream of streams) stream.socket.destroy();
      process.send({ type: "closed", ...last }, () => process.exit(0));
    }
  });
}

// ---------------------------------------------------------------------------------------------
// The bounds

/** Bound 1 (finding 2): one batch of 40 × getInbox(limit 100) over 101 messages of 64 KiB. */
async function answerSize(lib, ctx) {
  const ENTRIES = 40;
  const LIMIT = 100;
  const dir = tempDir("answer");
  const owner = lib.user(0);
  // 101 messages of 64 KiB from the user to itself, through the store (random, well-formed hex).
  const store = lib.openSqliteStore({ file: path.join(dir, "neutral.sqlite"), synchronous: "normal" });
  const sig = (bytes, at) => `0x${bytes.toString("hex", at, at + 64)}${bytes[at + 64] & 1 ? "1c" : "1b"}`;
  const base = Date.now() - 3_600_000;
  await within(
    Promise.all(
      Array.from({ length: 101 }, (_, i) => {
        const r = randomBytes(32 + 65 * 3);
        const body = randomBytes(64 * 1024).toString("hex");
        return store.append({ from: owner.address, to: owner.address, message: body, timestamp: base + i * 1000, signature: sig(r, 32), senderReceipt: sig(r, 97), receiverReceipt: sig(r, 162), digest: r.subarray(0, 32) });
      }),
    ),
    60_000,
    "seeding 101 messages",
  );
  // What one full page is, without a budget: the unbounded answer is 40 of them.
  const full = await within(store.page({ owner: owner.address, ranges: [{ side: "received" }], order: "desc", limit: LIMIT }), 30_000, "full page");
  await within(store.close(), 30_000, "store close");
  const unbounded = batchAnswerBytes({ entries: ENTRIES, address: owner.address, pageJson: full.messages.map((m) => m.json).join(","), end: full.end });

  const relay = await launchRelay(lib, { dataDir: dir, workers: 1 });
  try {
    const started = relay.pids();
    const info = await call(relay.url, rpc("neutralService_nodeInfo", []), { timeoutMs: 10_000 });
    const budget = info.result?.[0]?.limits?.maxResponseBytes ?? ctx.flags.get("max-response-bytes");
    const budgetBytes = Number(budget ?? 4 * MiB);
    const budgetSource = info.result?.[0]?.limits?.maxResponseBytes !== undefined ? "nodeInfo.limits.maxResponseBytes" : "NOT in nodeInfo: assumed";
    const batch = Array.from({ length: ENTRIES }, (_, k) => rpc("neutralService_getInbox", [{}, LIMIT], k + 1));
    const bearer = lib.token(owner);
    const answer = await request(relay.url, { method: "POST", headers: jsonHeaders(bearer), body: JSON.stringify(batch), timeoutMs: 60_000, maxBytes: 64 * MiB });
    let shape = answer.error ?? `HTTP ${answer.status}`;
    let complete = false;
    if (answer.text !== undefined) {
      try {
        const entries = JSON.parse(answer.text);
        const pages = entries.filter((e) => e.result);
        const messages = pages.reduce((sum, e) => sum + e.result[0].data.length, 0);
        const codes = {};
        for (const e of entries.filter((e) => e.error)) codes[e.error.code] = (codes[e.error.code] ?? 0) + 1;
        const errors = Object.entries(codes).map(([code, n]) => `${n} × ${code}`).join(", ");
        shape = `${pages.length} page(s) holding ${pages.map((e) => e.result[0].data.length).join(" + ")} = ${messages} message(s)${errors ? `, ${errors}` : ""}`;
        complete = Array.isArray(entries) && entries.length === ENTRIES && pages.length + Object.values(codes).reduce((a, b) => a + b, 0) === ENTRIES;
        if (!complete) shape += `; ${entries.length} entries answered, EXPECTED ${ENTRIES}`;
      } catch {
        shape = `HTTP ${answer.status}, answer not JSON`;
      }
    }
    const after = await call(relay.url, rpc("neutralService_nodeInfo", []), { timeoutMs: 5000 });
    const alive = after.ok && Array.isArray(after.result);
    const changed = processChange(relay, started);
    const ratio = answer.bytes / budgetBytes;
    return {
      name: "answer size",
      figure: `${answer.truncated ? "MORE than " : ""}${fmt(answer.bytes)} bytes answered to one batch of ${ENTRIES} × getInbox(limit ${LIMIT}) over a mailbox of 101 messages of 64 KiB (${shape}; ${fmt(answer.ms)} ms)`,
      baseline: `the answer budget ${fmt(budgetBytes)} bytes (${budgetSource}; unbounded, ${ENTRIES} full pages would be ${fmt(unbounded)} bytes, ${fmt(unbounded / budgetBytes, 1)} × it)`,
      ratio,
      target: "<= 1.05 (at most one message over), node alive after",
      pass: ratio <= 1.05 && complete && alive && !changed,
      note: alive ? `nodeInfo after: answered in ${after.ms.toFixed(1)} ms${changed ? `; ${changed}` : ""}` : `node NOT answering after (${after.error ?? after.status})${changed ? `; ${changed}` : ""}`,
    };
  } finally {
    await relay.stop();
    removeDir(dir);
  }
}

/** Bound 2 (finding 4): a sparse since/until page against a first page, 200,000-message chat. */
async function scanCost(lib, ctx) {
  const MESSAGES = int("BENCH_BOUNDS_SCAN_MESSAGES", 200_000);
  const PAGES = int("BENCH_BOUNDS_PAGES", 300);
  const CAP_MS = 30_000;
  const dir = tempDir("scan");
  const owner = lib.user(1);
  const peer = lib.user(2);
  const seedStarted = performance.now();
  const store = lib.openSqliteStore({ file: path.join(dir, "neutral.sqlite"), synchronous: "normal", cacheSizeKiB: 256 * 1024 });
  const sig = (bytes, at) => `0x${bytes.toString("hex", at, at + 64)}${bytes[at + 64] & 1 ? "1c" : "1b"}`;
  const base = Date.now() - MESSAGES * 1000 - 3_600_000;
  const chunk = 10_000;
  for (let done = 0; done < MESSAGES; done += chunk) {
    const appends = [];
    for (let k = 0; k < Math.min(chunk, MESSAGES - done); k++) {
      const r = randomBytes(32 + 65 * 3 + 32);
      appends.push(store.append({ from: peer.address, to: owner.address, message: r.toString("hex", 227), timestamp: base + (done + k) * 1000, signature: sig(r, 32), senderReceipt: sig(r, 97), receiverReceipt: sig(r, 162), digest: r.subarray(0, 32) }));
    }
    await within(Promise.all(appends), 120_000, "seeding the chat");
  }
  await within(store.close(), 60_000, "store close");
  ctx.log(`  scan: seeded ${fmt(MESSAGES)} messages from one peer in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

  const relay = await launchRelay(lib, { dataDir: dir, workers: 1 });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: "127.0.0.1" });
  try {
    const started = relay.pids();
    const bearer = lib.token(owner);
    const sparseBody = rpc("neutralService_getChat", [{ chat: peer.address, until: 1 }, 20]);
    const firstBody = rpc("neutralService_getChat", [{ chat: peer.address }, 20]);
    const one = (body) => call(relay.url, body, { bearer, agent, timeoutMs: 15_000 });
    const info = await call(relay.url, rpc("neutralService_nodeInfo", []), { timeoutMs: 10_000 });
    const maxScan = info.result?.[0]?.limits?.maxPageScan;
    const sparseCheck = await one(sparseBody);
    const firstCheck = await one(firstBody);
    const sparsePage = sparseCheck.result?.[0];
    const firstPage = firstCheck.result?.[0];
    if (!firstPage || firstPage.data?.length !== 20) throw new Error(`first page check failed: ${firstCheck.error ?? firstCheck.text?.slice(0, 300)}`);
    if (!sparsePage || sparsePage.data?.length !== 0) throw new Error(`sparse page check failed: ${sparseCheck.error ?? sparseCheck.text?.slice(0, 300)}`);
    const sparseShape = `${sparsePage.end ? "end" : "not the end"}, ${sparsePage.cursor !== undefined ? `cursor ${sparsePage.cursor}` : "NO cursor"}`;
    const sparse = [];
    const first = [];
    const failures = [];
    const deadline = performance.now() + CAP_MS;
    for (let k = 0; k < 20 && performance.now() < deadline; k++) {
      await one(sparseBody);
      await one(firstBody);
    }
    for (let k = 0; k < PAGES && performance.now() < deadline; k++) {
      // Alternate which goes first, so neither always follows the other.
      for (const kind of k % 2 ? ["first", "sparse"] : ["sparse", "first"]) {
        const answer = await one(kind === "sparse" ? sparseBody : firstBody);
        if (!answer.ok || !answer.result) failures.push(answer.error ?? answer.rpcError?.message ?? answer.status);
        (kind === "sparse" ? sparse : first).push(answer.ms);
      }
    }
    const sparseP50 = median(sparse);
    const firstP50 = median(first);
    const ratio = sparseP50 / firstP50;
    const changed = processChange(relay, started);
    const capped = sparse.length < PAGES ? ` (stopped at the ${CAP_MS / 1000} s cap)` : "";
    return {
      name: "scan cost",
      figure: `sparse page getChat {chat, until: 1} limit 20 on a chat of ${fmt(MESSAGES)} messages, p50 ${sparseP50.toFixed(2)} ms (${sparseShape}; nodeInfo.limits.maxPageScan ${maxScan ?? "ABSENT"})`,
      baseline: `first page getChat {chat} limit 20, p50 ${firstP50.toFixed(2)} ms; ${sparse.length} of each, interleaved, one keep-alive connection, --workers 1${capped}`,
      ratio,
      target: "<= 10 (issue 19, before the fix: 76 ms against well under 1 ms)",
      pass: ratio <= 10 && failures.length === 0 && !changed,
      note: [failures.length ? `${failures.length} requests FAILED (${failures[0]})` : "", changed].filter(Boolean).join("; ") || undefined,
    };
  } finally {
    agent.destroy();
    await relay.stop();
    removeDir(dir);
  }
}

/** Bound 3 (finding 3): idle connections held by a 2-worker node, and its recovery after them. */
async function connectionsHeld(lib, ctx) {
  const FLOOD = int("BENCH_BOUNDS_IDLE", 3000);
  const sources = floodSources(1, int("BENCH_BOUNDS_IDLE_SOURCES", 1));
  const dir = tempDir("conns");
  const relay = await launchRelay(lib, { dataDir: dir, workers: 2 });
  let flood;
  try {
    const started = relay.pids();
    const before = relay.fds();
    flood = startFlood({ kind: "idle", port: relay.port, count: FLOOD, sources });
    const opened = await flood.next("opened", 90_000);
    await sleep(2000);
    const held = relay.fds();
    const during = await flood.status();
    const healthDuring = await request(`${relay.url}/health`, { timeoutMs: 5000 });
    const closed = await flood.close();
    flood = undefined;
    const closedAt = performance.now();
    // Recovery: /health and a JSON-RPC call, each on a fresh connection with 2 s to answer, until both do (≤ 10 s).
    let recoveredMs;
    let lastFailure;
    while (performance.now() - closedAt < 10_000) {
      const [health, info] = await Promise.all([
        request(`${relay.url}/health`, { timeoutMs: 2000 }),
        call(relay.url, rpc("neutralService_nodeInfo", []), { timeoutMs: 2000 }),
      ]);
      if (health.ok && info.ok && Array.isArray(info.result)) {
        recoveredMs = performance.now() - closedAt;
        break;
      }
      lastFailure = health.ok ? (info.error ?? info.status) : (health.error ?? health.status);
      await sleep(100);
    }
    await sleep(1000);
    const afterFds = relay.fds();
    const limits = connectionLimitFlags(ctx.help);
    const limit = applicableConnectionLimit(limits, sources.length);
    const heldConnections = held - before;
    const ratio = heldConnections / (limit ?? FLOOD);
    const recovered = recoveredMs !== undefined && recoveredMs <= 2000;
    const bounded = limit !== undefined ? heldConnections <= limit * 1.05 + 8 : heldConnections < FLOOD * 0.9;
    const changed = processChange(relay, started);
    const limitText = limits.length ? limits.map((l) => `--${l.flag} ${l.text ?? "?"}`).join(", ") : "no connection-limit flag in --help";
    return {
      name: "connections held",
      figure: `${fmt(heldConnections)} more fds held by the relay's ${started.length} processes 2 s into a flood of ${fmt(FLOOD)} idle connections (no request) from ${sources.length === 1 ? sources[0] : `${sources.length} addresses`} (${fmt(opened.opened)} connected, ${fmt(during.closedByPeer)} closed by the node, ${fmt(during.open)} still open at the client, ${fmt(opened.connectErrors)} refused${opened.firstError ? `: ${opened.firstError}` : ""}); /health during it: ${healthDuring.ok ? `${healthDuring.ms.toFixed(1)} ms` : `FAILED (${healthDuring.error ?? healthDuring.status})`}`,
      baseline: `${fmt(before)} fds before the flood (${fmt(held)} during, ${fmt(afterFds)} 1 s after it closed)`,
      ratio: `ratio ${ratio.toFixed(2)} of ${limit !== undefined ? `the connection limit ${fmt(limit)}` : `the flood (${limitText})`}`,
      target: `connections held <= the node's connection limit; /health and nodeInfo answer within 2 s of the flood closing`,
      pass: recovered && bounded && !changed && !!closed,
      note: [
        recoveredMs !== undefined ? `recovered in ${recoveredMs.toFixed(0)} ms` : `NOT recovered within 10 s (${lastFailure})`,
        limit === undefined && !bounded ? "NOT bounded: no connection limit, every connection held" : "",
        closed ? "" : "the flood did not confirm closing",
        changed,
      ].filter(Boolean).join("; "),
    };
  } finally {
    if (flood) await flood.close();
    await relay.stop();
    removeDir(dir);
  }
}

/** Bound 4 (finding 5): memory of a 2-worker node while 1,500 request bodies stall 1 byte short. */
async function stalledBodies(lib, ctx) {
  const FLOOD = int("BENCH_BOUNDS_STALLED", 1500);
  const STALL_MS = int("BENCH_BOUNDS_STALL_SECONDS", 10) * 1000;
  const BUDGET = 300 * MiB;
  const CONTENT_LENGTH = MiB;
  const sources = floodSources(2, int("BENCH_BOUNDS_STALLED_SOURCES", 15));
  const dir = tempDir("bodies");
  const relay = await launchRelay(lib, { dataDir: dir, workers: 2 });
  const honestUser = lib.user(3);
  const bearer = lib.token(honestUser);
  const honestCall = () => call(relay.url, rpc("neutralService_getInbox", [{}, 20]), { bearer, timeoutMs: 10_000 });
  let flood;
  try {
    const started = relay.pids();
    const warm = await honestCall(); // its token verified before the baseline
    if (!warm.ok || !warm.result) throw new Error(`honest getInbox failed before the flood: ${warm.error ?? warm.text?.slice(0, 200)}`);
    const idle = [];
    for (let k = 0; k < 3; k++) {
      await sleep(300);
      idle.push(relay.pss());
    }
    const idlePss = median(idle);
    const floodStarted = performance.now();
    flood = startFlood({ kind: "bodies", port: relay.port, count: FLOOD, sources, contentLength: CONTENT_LENGTH, bodyBytes: CONTENT_LENGTH - 1 });
    let peak = 0;
    let peakAt = 0;
    let kernelPeak = 0;
    let written;
    let honest;
    flood.next("written", STALL_MS + 60_000).then((message) => (written = message), () => {});
    const honestAt = floodStarted + STALL_MS / 2;
    let honestPromise;
    while (performance.now() - floodStarted < STALL_MS) {
      const pss = relay.pss();
      kernelPeak = Math.max(kernelPeak, tcpKernelBytes());
      if (pss > peak) {
        peak = pss;
        peakAt = performance.now() - floodStarted;
      }
      // The honest request: mid-stall (or as soon as every body is sent, if that is later than 2 s in).
      if (!honestPromise && (performance.now() >= honestAt || (written && performance.now() - floodStarted > 2000))) {
        honestPromise = honestCall().then((answer) => (honest = answer));
      }
      await sleep(250);
    }
    if (honestPromise) await within(honestPromise, 15_000, "honest request");
    const status = await flood.status();
    const closed = await flood.close();
    flood = undefined;
    await sleep(1500);
    const afterPss = relay.pss();
    const honestAfter = await honestCall();
    const growth = peak - idlePss;
    const ratio = peak / idlePss;
    const answered = honest?.ok && Array.isArray(honest.result) && honest.ms <= 2000;
    const changed = processChange(relay, started);
    const statuses = Object.entries(status.responses).map(([code, n]) => `${fmt(n)} × HTTP ${code}`).join(", ");
    return {
      name: "memory under stalled bodies",
      figure:
        `${mb(peak)} PSS over the relay's ${started.length} processes at the peak (${(peakAt / 1000).toFixed(1)} s in) of ${fmt(FLOOD)} connections from ${sources.length === 1 ? sources[0] : `${sources.length} addresses (${sources[0]}..)`}, ` +
        `each a POST with content-length ${fmt(CONTENT_LENGTH)} and ${fmt(CONTENT_LENGTH - 1)} bytes of body then stalling, ${STALL_MS / 1000} s ` +
        `(${fmt(status.opened)} connected, ${fmt(status.connectErrors)} refused${status.firstError ? `: ${status.firstError}` : ""}, ${fmt(status.closedByPeer)} closed by the node, ${fmt(status.open)} still open at the end; ` +
        `${mb(status.bodyBytesSent, 0)} of body taken by the kernel${written ? ", every writer finished" : ""}${statuses ? `; the node answered ${statuses}` : ""}; ` +
        `TCP buffers in the kernel, both ends, up to ${mb(kernelPeak, 0)}; flood process RSS ${mb(status.rss, 0)})`,
      baseline: `${mb(idlePss)} PSS of the same relay idle just before (${mb(afterPss)} 1.5 s after the flood closed)`,
      ratio,
      target: `growth < ${mb(BUDGET, 0)} (here ${growth >= 0 ? "+" : ""}${mb(growth)}), an honest getInbox from 127.0.0.1 answered within 2 s during the stall`,
      pass: growth < BUDGET && answered && !changed && !!closed,
      note: [
        honest ? (honest.ok && honest.result ? `honest getInbox answered in ${honest.ms.toFixed(1)} ms` : `honest getInbox FAILED (${honest.error ?? `HTTP ${honest.status}${honest.rpcError ? ` ${honest.rpcError.code} ${honest.rpcError.message}` : ""}`}) after ${honest.ms.toFixed(0)} ms`) : "honest getInbox NOT sent",
        `1.5 s after the flood closed: ${honestAfter.ok && honestAfter.result ? `answered in ${honestAfter.ms.toFixed(1)} ms` : `FAILED (${honestAfter.error ?? `HTTP ${honestAfter.status}`})`}`,
        closed ? "" : "the flood did not confirm closing",
        changed,
      ].filter(Boolean).join("; "),
    };
  } finally {
    if (flood) await flood.close();
    await relay.stop();
    removeDir(dir);
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers of bounds 5-12 (issue 33): signed records, node-to-node calls, peers that are not relays.

const hex = (bytes) => `0x${Buffer.from(bytes).toString("hex")}`;
/** The x coordinate of secp256k1's generator: a valid x-only messaging key (nodes only check that it is a point). */
const MESSAGING_KEY = "0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798";

/** A node key for --node-key: { key (0x hex), address, privateKey (bytes) }. */
function nodeOf(lib, label) {
  const { key, address } = lib.nodeKey(label);
  return { key, address, privateKey: Buffer.from(key.slice(2), "hex") };
}

/** `--peer URL#0xADDRESS` of a node listening (or not) on `port` of 127.0.0.1. */
const peerArg = (port, node) => `http://127.0.0.1:${port}#${node.address}`;

/** A KeyBundle of `u` (EIP-712 `KeyBundle`, signed with the native curve). */
function keyBundle(lib, u, timestamp = Date.now()) {
  const message = { account: u.address, key: MESSAGING_KEY, timestamp };
  return { ...message, signature: hex(lib.curve.sign(lib.protocol.hashTypedData({ primaryType: "KeyBundle", message }), u.privateKey)) };
}

/** One bearer token per account for the whole run (a node verifies a token once, then remembers it). */
const tokens = new Map();
function tokenOf(lib, u) {
  if (!tokens.has(u.address)) tokens.set(u.address, lib.token(u));
  return tokens.get(u.address);
}

/** One JSON-RPC call: call()'s answer plus `payload`, its one result (undefined for an error). */
async function rpcTo(url, method, params, options = {}) {
  const answer = await call(url, rpc(method, params), options);
  return { ...answer, payload: Array.isArray(answer.result) ? answer.result[0] : undefined };
}

/** rpcTo that throws unless the call answered a result. */
async function must(url, method, params, options = {}, what = method) {
  const answer = await rpcTo(url, method, params, options);
  if (!answer.ok || !Array.isArray(answer.result)) {
    throw new Error(`${what} at ${url}: ${answer.error ?? `HTTP ${answer.status}`} ${answer.rpcError ? JSON.stringify(answer.rpcError).slice(0, 300) : (answer.text ?? "").slice(0, 200)}`);
  }
  return answer.payload;
}

const publishKey = (lib, url, u) => must(url, "neutralService_publishKey", [keyBundle(lib, u)], { bearer: tokenOf(lib, u) }, `publishKey of ${u.address}`);
const publishHome = (lib, url, u, node) => must(url, "neutralService_publishHome", [lib.homeRecord(u, node.address)], { bearer: tokenOf(lib, u) }, `publishHome of ${u.address}`);

/** Runs `work(item, index)` over `items`, `concurrency` at a time. */
async function pool(items, concurrency, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const k = next++;
        await work(items[k], k);
      }
    }),
  );
}

/** Headers of a node-to-node request signed by `node` (openrpc.json "Federation": NeutralNode over the body's SHA-256). */
function nodeHeaders(lib, node, destination, method, body) {
  const fields = { origin: node.address, destination: destination.toLowerCase(), method, timestamp: Date.now() };
  const signature = hex(lib.curve.sign(lib.protocol.nodeRequestDigest(fields, body), node.privateKey));
  return { "content-type": "application/json", authorization: lib.protocol.encodeNodeAuthorization({ ...fields, signature }) };
}

/** A node-to-node call from `node` to the node at `url` whose address is `destination`; `body` a JSON text or a request. */
async function nodeCall(lib, node, url, destination, method, params, options = {}) {
  const body = typeof params === "string" ? params : JSON.stringify(rpc(method, params));
  const answer = await call(url, body, { ...options, headers: nodeHeaders(lib, node, destination, method, body) });
  return { ...answer, payload: Array.isArray(answer.result) ? answer.result[0] : undefined };
}

/** A RelayedMessage from `from` (homed at `node`) to `to`, with `node`'s sender receipt. */
function relayedMessage(lib, from, to, node, body, timestamp = Date.now()) {
  const signed = lib.signedMessage(from, to, body, timestamp);
  const digest = lib.eip712.messageDigest(signed);
  return { ...signed, sender_receipt: hex(lib.curve.sign(lib.eip712.receiptDigest(digest, "sender"), node.privateKey)) };
}

/**
 * A hostile peer (bound 6): not a relay, a small HTTP server signing as `node`. It answers
 * `neutralService_lookup` with whatever `records` holds for the accounts asked (public, signed
 * records it copied: key bundles, home records), and `neutralService_deliver` with a receiver
 * receipt for every message and a valid DeliveryAnswer signature, keeping the messages
 * (`captured`): what a node must never mistake for the recipient's home. It checks nothing.
 */
async function startHostilePeer(lib, node) {
  const records = new Map(); // account → { homes, keys }
  const captured = [];
  const calls = {};
  const sockets = new Set();
  const answer = (method, params) => {
    const named = (name, index) => (Array.isArray(params) ? params[index] : params?.[name]);
    if (method === "neutralService_nodeInfo") return { address: node.address, software: "bounds hostile peer", version: "0", domains: [], limits: {}, peers: [] };
    if (method === "neutralService_lookup") {
      const homes = [];
      const keys = [];
      for (const account of named("accounts", 0) ?? []) {
        const held = records.get(String(account).toLowerCase());
        if (held) {
          homes.push(...held.homes);
          keys.push(...held.keys);
        }
      }
      return { homes, keys };
    }
    if (method === "neutralService_deliver") {
      const messages = named("messages", 0) ?? [];
      const digests = messages.map((m) => lib.eip712.messageDigest(m));
      const outcomes = digests.map((digest) => ({ receiver_receipt: hex(lib.curve.sign(lib.eip712.receiptDigest(digest, "receiver"), node.privateKey)) }));
      captured.push(...messages);
      return { outcomes, signature: hex(lib.curve.sign(lib.protocol.deliveryAnswerDigest(node.address, digests, JSON.stringify(outcomes)), node.privateKey)) };
    }
    return undefined;
  };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        res.writeHead(400).end();
        return;
      }
      const method = String(body?.method);
      calls[method] = (calls[method] ?? 0) + 1;
      let result;
      try {
        result = answer(method, body.params);
      } catch (error) {
        result = undefined;
        calls.errors = (calls.errors ?? 0) + 1;
        calls.lastError = String(error.message).slice(0, 200);
      }
      const reply = result === undefined ? { jsonrpc: "2.0", id: body.id ?? null, error: { code: -32601, message: "Method not found" } } : { jsonrpc: "2.0", id: body.id ?? null, result: [result] };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await within(new Promise((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve)), 10_000, "hostile peer listen");
  const close = () => {
    for (const socket of sockets) socket.destroy();
    server.close();
    forget();
  };
  const forget = onCleanup(close);
  return { url: `http://127.0.0.1:${server.address().port}`, address: node.address, records, captured, calls, close };
}

/** A peer that does not answer (bound 10): a TCP listener on loopback that accepts every connection and never writes. */
async function startDeadPeer() {
  const sockets = new Set();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("data", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await within(new Promise((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve)), 10_000, "dead peer listen");
  const close = () => {
    for (const socket of sockets) socket.destroy();
    server.close();
    forget();
  };
  const forget = onCleanup(close);
  return { port: server.address().port, accepted: () => accepted, close };
}

/** `count` calls of `one(k)` ({ ok, ms, error }) one after another, stopping at `capMs`; `gapMs` between calls. */
async function sequence(one, { count, capMs, gapMs = 0, until }) {
  const samples = [];
  const started = performance.now();
  for (let k = 0; k < count && performance.now() - started < capMs && !until?.(); k++) {
    samples.push(await one(k));
    if (gapMs) await sleep(gapMs);
  }
  return samples;
}

/** An honest getInbox [{}, 20] as `bearer` on a fresh connection: { ok, ms, error }. */
async function honestInbox(url, bearer, { localAddress = "127.0.0.1", timeoutMs = 10_000 } = {}) {
  const answer = await call(url, rpc("neutralService_getInbox", [{}, 20]), { bearer, timeoutMs, localAddress });
  const ok = answer.ok && Array.isArray(answer.result);
  return { ok, ms: answer.ms, error: ok ? undefined : (answer.error ?? (answer.rpcError ? `${answer.rpcError.code} ${answer.rpcError.message}` : `HTTP ${answer.status}`)) };
}

/** What failed among `samples`: "" or "N FAILED (first error)". */
function failures(samples) {
  const failed = samples.filter((s) => !s.ok);
  return failed.length ? `${failed.length} FAILED (${failed[0].error})` : "";
}

/** p50/p99 of samples in words: "p50 1.2 ms, p99 3.4 ms (50 of 50 answered)". */
function latencyText(samples) {
  const stats = latencyStats(samples);
  return `p50 ${msText(stats.p50)}, p99 ${msText(stats.p99)} (${stats.answered} of ${stats.count} answered${stats.answered < stats.count ? `; ${failures(samples)}` : ""})`;
}

/**
 * Opens one `neutralService_subscribe` stream from `localAddress` and waits (≤ `timeoutMs`) for
 * `neutralService_caughtUp`; closes it. Resolves { ok, ms, status, error }.
 */
function streamOnce(url, bearer, { localAddress = "127.0.0.1", timeoutMs = 5000 } = {}) {
  return new Promise((resolve) => {
    const started = performance.now();
    let done = false;
    let req;
    const finish = (result) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req?.destroy();
      resolve({ ms: performance.now() - started, ...result });
    };
    const body = JSON.stringify(rpc("neutralService_subscribe", {}));
    const timer = setTimeout(() => finish({ ok: false, error: `not caught up within ${timeoutMs} ms` }), timeoutMs);
    req = http.request(
      url,
      { method: "POST", agent: false, localAddress, headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${bearer}`, "content-length": Buffer.byteLength(body) } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
          if (res.statusCode === 200 && text.includes("neutralService_caughtUp")) finish({ ok: true, status: 200 });
        });
        res.on("error", () => {});
        res.on("end", () => finish({ ok: false, status: res.statusCode, error: `HTTP ${res.statusCode} ${text.slice(0, 200)}` }));
        res.on("close", () => finish({ ok: false, status: res.statusCode, error: `HTTP ${res.statusCode}: the stream ended before it caught up` }));
      },
    );
    req.on("error", (error) => finish({ ok: false, error: error.code ?? error.message }));
    req.end(body);
  });
}


/** A message's outcome in a sendMessage answer: "delivered" (both receipts), "pending", "failed", "stored" (a local one) or the error code. */
function sendOutcome(answer) {
  const m = answer.payload;
  if (m) return m.status ?? (m.receiver_receipt ? "delivered" : "stored");
  if (answer.rpcError) return `${answer.rpcError.code}${answer.rpcError.data?.quota ? ` ${answer.rpcError.data.quota}` : answer.rpcError.data?.reason ? ` ${answer.rpcError.data.reason}` : ""}`;
  return answer.error ?? `HTTP ${answer.status}`;
}

/** "3 × delivered, 2 × pending" from a list of outcomes. */
function tallyText(outcomes) {
  const counts = new Map();
  for (const outcome of outcomes) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  return [...counts].map(([outcome, n]) => `${n} × ${outcome}`).join(", ") || "none";
}

/** Bound 5 (issue 33, finding 1): 512 slow `subscribe` streams over mailboxes of 64 KiB messages, with 1 and 2 workers. */
async function slowStreams(lib, ctx) {
  const STREAMS = int("BENCH_BOUNDS_SLOW_STREAMS", 512);
  const MESSAGES = int("BENCH_BOUNDS_SLOW_MESSAGES", 120);
  const READ_EVERY_MS = int("BENCH_BOUNDS_SLOW_READ_EVERY_MS", 15_000);
  const WORKER_COUNTS = envList("BENCH_BOUNDS_SLOW_WORKERS", "1,2").filter((n) => n > 0);
  const PER_ACCOUNT = Number(ctx.flags.get("max-subscriptions-per-account") ?? 8) || 8;
  const PER_SOURCE = 128;
  const USER_BASE = 50_000;
  const ACCOUNTS = Math.ceil(STREAMS / PER_ACCOUNT);
  const sources = floodSources(3, Math.ceil(STREAMS / PER_SOURCE));
  const BODY_BYTES = 64 * 1024;
  const RSS_TARGET = 1536 * MiB;
  const bufferBytes = Number(ctx.flags.get("subscription-buffer-bytes") ?? 65536);
  // What the README documents a stream holds: its buffer, plus the one event that passes it.
  const eventBytes = 2 * BODY_BYTES + 1024;
  const documented = bufferBytes + eventBytes;

  const dir = tempDir("slow");
  const honest = lib.user(4);
  const seedStarted = performance.now();
  const store = lib.openSqliteStore({ file: path.join(dir, "neutral.sqlite"), synchronous: "normal" });
  const sig = (bytes, at) => `0x${bytes.toString("hex", at, at + 64)}${bytes[at + 64] & 1 ? "1c" : "1b"}`;
  const bodies = Array.from({ length: 16 }, () => randomBytes(BODY_BYTES).toString("hex"));
  const sender = lib.user(5);
  const base = Date.now() - 3_600_000;
  const appendOne = (to, i, message) => {
    const r = randomBytes(32 + 65 * 3);
    return store.append({ from: sender.address, to, message, timestamp: base + i, signature: sig(r, 32), senderReceipt: sig(r, 97), receiverReceipt: sig(r, 162), digest: r.subarray(0, 32) });
  };
  for (let a = 0; a < ACCOUNTS; a++) {
    const to = lib.user(USER_BASE + a).address;
    await within(Promise.all(Array.from({ length: MESSAGES }, (_, i) => appendOne(to, a * MESSAGES + i, bodies[(a + i) % bodies.length]))), 120_000, "seeding the mailboxes");
  }
  await within(Promise.all(Array.from({ length: 20 }, (_, i) => appendOne(honest.address, ACCOUNTS * MESSAGES + i, randomBytes(32).toString("hex")))), 30_000, "seeding the honest mailbox");
  await within(store.close(), 60_000, "store close");
  ctx.log(`  slow streams: seeded ${fmt(ACCOUNTS)} mailboxes × ${MESSAGES} messages of 64 KiB in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

  const runs = [];
  try {
    for (const workers of WORKER_COUNTS) runs.push(await slowStreamsRun(lib, ctx, { dir, workers, honest }));
  } finally {
    removeDir(dir);
  }

  const judged = runs.map((run) => {
    const perStream = run.accepted > 0 ? run.held / run.accepted : NaN;
    const pass = run.survived && run.peakRss < RSS_TARGET && run.honestDuring.p99 < 1000 && run.recoveredS !== undefined && run.recoveredS <= 10 && perStream <= 2 * documented;
    const text =
      `--workers ${run.workers}: peak RSS ${mb(run.peakRss)} (PSS ${mb(run.peakPss)}) ${(run.peakAt / 1000).toFixed(0)} s after the streams began to open (the clients left at ${(run.leftAt / 1000).toFixed(0)} s); ${fmt(run.accepted)} streams answered ` +
      `(${fmt(STREAMS)} opened at once from ${sources.length} addresses, ${PER_ACCOUNT} per account, each read ${READ_EVERY_MS ? `one chunk every ${READ_EVERY_MS / 1000} s` : "never"}; answers by the end ${Object.entries(run.status?.statuses ?? {}).map(([code, n]) => `${fmt(n)} × HTTP ${code}`).join(", ") || "none"}` +
      `${run.status?.unanswered ? `, ${fmt(run.status.unanswered)} still unanswered` : ""}${run.status?.connectErrors ? `, ${fmt(run.status.connectErrors)} failed (${run.status.firstError})` : ""}; the clients read ${mb(run.status?.bytesRead ?? 0)} in all; ` +
      `${fmt(run.status?.open ?? 0)} still open at the end, ${fmt(run.status?.closedByPeer ?? 0)} closed by the node${Object.keys(run.status?.ends ?? {}).length ? `, end events ${Object.entries(run.status.ends).map(([r, n]) => `${fmt(n)} × ${r}`).join(", ")}` : ""}); ` +
      `${run.survived ? "the relay SURVIVED" : `the relay DIED: ${run.death}`}${run.stopReason ? ` (attack stopped: ${run.stopReason})` : ""}; ` +
      `the relay used ${run.relayCores.toFixed(2)} cores over the attack${run.otherCores > 0.15 ? ` (MACHINE BUSY: other processes used ${run.otherCores.toFixed(2)} cores)` : ""}; ` +
      `honest getInbox from 127.0.0.1 during it ${latencyText(run.during)}; ` +
      `held per stream ${fmt(perStream / 1024, 0)} KB (RSS growth when the attack ended ${mb(run.held)} / ${fmt(run.accepted)} streams answered; documented bound ${fmt(documented / 1024, 0)} KB = --subscription-buffer-bytes ${fmt(bufferBytes)} + one event, ${(perStream / documented).toFixed(1)}×); ` +
      `back within 10% of the idle RSS (${mb(run.idleRss)}) ${run.recoveredS !== undefined ? `${run.recoveredS.toFixed(1)} s after the clients left` : run.survived ? `NOT within ${run.recoveryCapS} s after the clients left (${mb(run.afterRss)} then)` : "n/a (dead)"}` +
      `${run.changed && run.survived ? `; ${run.changed}` : ""}`;
    return { run, perStream, pass, text };
  });
  const [first, ...others] = judged;
  return {
    name: "slow streams",
    figure: first.text,
    baseline: `the same relay idle just before: RSS ${mb(first.run.idleRss)} (PSS ${mb(first.run.idlePss)}), honest getInbox ${latencyText(first.run.before)}; ${fmt(ACCOUNTS)} mailboxes of ${MESSAGES} messages of 64 KiB (catch-up of ${mb(MESSAGES * (2 * BODY_BYTES + 600), 0)} of JSON each)`,
    ratio: `ratio ${(first.perStream / documented).toFixed(1)} of the documented bound per stream`,
    target: `RSS < ${mb(RSS_TARGET, 0)}, honest p99 < 1 s, back to baseline within 10 s, per stream <= 2 × the documented bound (${fmt((2 * documented) / 1024, 0)} KB); every worker count`,
    pass: judged.every((j) => j.pass),
    note: others.map((j) => `${j.text} · ${verdictWord(j.pass)}`).join(" · ") || undefined,
  };
}

/** One run of bound 5 on the seeded `dir` with `workers`. */
async function slowStreamsRun(lib, ctx, { dir, workers, honest }) {
  const STREAMS = int("BENCH_BOUNDS_SLOW_STREAMS", 512);
  const ATTACK_MS = int("BENCH_BOUNDS_SLOW_SECONDS", 60) * 1000;
  const READ_EVERY_MS = int("BENCH_BOUNDS_SLOW_READ_EVERY_MS", 15_000);
  const CAP = int("BENCH_BOUNDS_SLOW_RSS_CAP_MIB", 6144) * MiB;
  const PER_ACCOUNT = Number(ctx.flags.get("max-subscriptions-per-account") ?? 8) || 8;
  const PER_SOURCE = 128;
  const RECOVERY_CAP_S = 30;
  const sources = floodSources(3, Math.ceil(STREAMS / PER_SOURCE));
  ctx.log(`  slow streams: --workers ${workers}`);
  const relay = await launchRelay(lib, { dataDir: dir, workers });
  let exitInfo;
  let exitAt;
  relay.exit.then((info) => {
    exitInfo = info;
    exitAt = performance.now();
  });
  let flood;
  let honestOn = true;
  let sampling = true;
  try {
    const started = relay.pids();
    const bearer = lib.token(honest);
    const honestCall = () => honestInbox(relay.url, bearer, { timeoutMs: 10_000 });
    await honestCall();
    const before = await sequence(honestCall, { count: 20, capMs: 20_000, gapMs: 100 });
    const idle = [];
    const idlePssList = [];
    for (let k = 0; k < 3; k++) {
      await sleep(300);
      idle.push(relay.rss());
      idlePssList.push(relay.pss());
    }
    const idleRss = median(idle);
    const idlePss = median(idlePssList);
    const floodStarted = performance.now();
    const cpuAt = () => ({ at: performance.now(), relay: lib.cpuSeconds(relay.pids()), machine: lib.machineBusySeconds(), own: lib.cpuSeconds([process.pid, flood?.pid].filter(Boolean)) });
    flood = startFlood({ kind: "streams", port: relay.port, count: STREAMS, sources, perSource: PER_SOURCE, perAccount: PER_ACCOUNT, userBase: 50_000, read: "slow", readEveryMs: READ_EVERY_MS, inFlight: STREAMS, maxSeconds: ATTACK_MS / 1000 + 180 });
    const cpuStart = cpuAt();
    let opened;
    flood.next("opened", ATTACK_MS + 90_000).then((message) => (opened = message), () => {});
    const samples = [];
    const sampler = (async () => {
      while (sampling) {
        if (relay.alive()) samples.push({ at: performance.now() - floodStarted, rss: relay.rss(), pss: relay.pss() });
        await sleep(500);
      }
    })();
    const during = [];
    const honestLoop = (async () => {
      await sleep(2000);
      while (honestOn && relay.alive()) {
        const sample = await honestCall();
        during.push(sample);
        if (settings.verbose) ctx.log(`  honest read ${((performance.now() - floodStarted) / 1000).toFixed(1)} s in: ${sample.ok ? `${sample.ms.toFixed(1)} ms` : sample.error}`);
        await sleep(1000);
      }
    })();
    let stopReason;
    while (performance.now() - floodStarted < ATTACK_MS) {
      if (!relay.alive()) break;
      const last = samples[samples.length - 1];
      if (last && last.rss > CAP) {
        stopReason = `the relay's RSS passed the bench's cap of ${mb(CAP, 0)} (BENCH_BOUNDS_SLOW_RSS_CAP_MIB)`;
        break;
      }
      await sleep(250);
    }
    if (!opened) await flood.next("opened", 30_000).then((message) => (opened = message), () => {});
    const cpuEnd = cpuAt();
    const seconds = (cpuEnd.at - cpuStart.at) / 1000;
    const relayCores = Math.max(0, cpuEnd.relay - cpuStart.relay) / seconds;
    const otherCores = Math.max(0, (cpuEnd.machine - cpuStart.machine - (cpuEnd.relay - cpuStart.relay) - (cpuEnd.own - cpuStart.own)) / seconds);
    const status = await flood.status().catch(() => undefined);
    // What the open streams hold as the attack ends: the RSS then (the last sample, if the relay died), over the streams answered.
    const heldRss = relay.alive() ? relay.rss() : (samples[samples.length - 1]?.rss ?? 0);
    honestOn = false;
    await within(honestLoop, 20_000, "honest reads").catch(() => {});
    const closed = await flood.close();
    flood = undefined;
    const closedAt = performance.now();
    const leftAt = closedAt - floodStarted;
    // Recovery: RSS every 250 ms until back within 10 % of the idle RSS (or the cap).
    const after = [];
    let recoveredS;
    while (relay.alive() && performance.now() - closedAt < RECOVERY_CAP_S * 1000) {
      const rss = relay.rss();
      after.push({ at: performance.now(), value: rss });
      if (rss <= idleRss * 1.1) {
        recoveredS = (performance.now() - closedAt) / 1000;
        break;
      }
      await sleep(250);
    }
    sampling = false;
    await sampler;
    const peak = samples.reduce((best, s) => (s.rss > best.rss ? s : best), { rss: 0, pss: 0, at: 0 });
    const peakPss = samples.reduce((best, s) => Math.max(best, s.pss), 0);
    const survived = relay.alive() && !exitInfo;
    const death = exitInfo ? `${exitInfo.signal ?? `exit code ${exitInfo.code}`} ${((exitAt - floodStarted) / 1000).toFixed(0)} s after the streams began to open (${(/FATAL ERROR[^\n]*/.exec(relay.output())?.[0] ?? relay.output().trim().split("\n").slice(-2).join(" | ")).slice(0, 300)})` : "";
    const accepted = (status ?? closed)?.statuses?.["200"] ?? opened?.statuses?.["200"] ?? 0;
    return {
      workers,
      opened,
      status: status ?? closed,
      accepted,
      idleRss,
      idlePss,
      peakRss: peak.rss,
      peakPss,
      peakAt: peak.at,
      growth: peak.rss - idleRss,
      held: heldRss - idleRss,
      leftAt,
      survived,
      death,
      stopReason,
      before: before,
      during,
      honestDuring: latencyStats(during.length ? during : [{ ok: false, ms: Infinity }]),
      recoveredS,
      recoveryCapS: RECOVERY_CAP_S,
      afterRss: after.length ? after[after.length - 1].value : NaN,
      changed: processChange(relay, started),
      relayCores,
      otherCores,
    };
  } finally {
    honestOn = false;
    sampling = false;
    if (flood) await flood.close();
    await relay.stop();
  }
}

/** Bound 6 (issue 33, finding 2): a hostile peer replaying a bundle-only account's key bundle captures its mail. */
async function peerCapture(lib, ctx) {
  const N = int("BENCH_BOUNDS_CAPTURE_MESSAGES", 20);
  const keys = { A: nodeOf(lib, "bounds-6-A"), S1: nodeOf(lib, "bounds-6-S1"), S2: nodeOf(lib, "bounds-6-S2"), H: nodeOf(lib, "bounds-6-H") };
  const hostile = await startHostilePeer(lib, keys.H);
  const ports = { A: await lib.freePort(), S1: await lib.freePort(), S2: await lib.freePort() };
  const dirs = { A: tempDir("capture-a"), S1: tempDir("capture-s1"), S2: tempDir("capture-s2") };
  const hostileArg = `${hostile.url}#${hostile.address}`;
  const startA = () => launchRelay(lib, { dataDir: dirs.A, workers: 1, port: ports.A, nodeKey: keys.A.key, peers: [peerArg(ports.S1, keys.S1), peerArg(ports.S2, keys.S2)] });
  const relays = [];
  let a;
  try {
    a = await startA();
    // S1 lists the hostile peer first, S2 after A: a tie decided by list order shows as a difference between them.
    const s1 = await launchRelay(lib, { dataDir: dirs.S1, workers: 1, port: ports.S1, nodeKey: keys.S1.key, peers: [hostileArg, peerArg(ports.A, keys.A)] });
    relays.push(s1);
    const s2 = await launchRelay(lib, { dataDir: dirs.S2, workers: 1, port: ports.S2, nodeKey: keys.S2.key, peers: [peerArg(ports.A, keys.A), hostileArg] });
    relays.push(s2);
    const U1 = lib.user(6001);
    const U2 = lib.user(6002);
    const victims = [6011, 6012, 6013, 6014].map((i) => lib.user(i)); // key bundle at A only
    const W = lib.user(6020); // key bundle and home record at A
    await publishHome(lib, s1.url, U1, keys.S1);
    await publishHome(lib, s2.url, U2, keys.S2);
    for (const v of victims) await publishKey(lib, a.url, v);
    await publishKey(lib, a.url, W);
    await publishHome(lib, a.url, W, keys.A);
    // H copies what anyone can read at A: each victim's bundle, W's bundle and home record.
    for (const v of victims) hostile.records.set(v.address, { homes: [], keys: [await must(a.url, "neutralService_getKey", [v.address])] });
    hostile.records.set(W.address, { homes: [await must(a.url, "neutralService_getHome", [W.address])], keys: [await must(a.url, "neutralService_getKey", [W.address])] });

    const sendCase = async (label, s, sender, recipient, { aUp }) => {
      ctx.log(`  capture: ${label}`);
      const body = () => randomBytes(32).toString("hex");
      const answers = await Promise.all(Array.from({ length: N }, (_, k) => rpcTo(s.url, "neutralService_sendMessage", [lib.signedMessage(sender, recipient, body(), Date.now() + k)], { bearer: tokenOf(lib, sender), timeoutMs: 15_000 })));
      await sleep(3000);
      const chat = await rpcTo(s.url, "neutralService_getChat", [{ chat: recipient.address }, 100], { bearer: tokenOf(lib, sender) });
      const sent = (chat.payload?.data ?? []).filter((m) => m.from === sender.address);
      const delivered = sent.filter((m) => m.receiver_receipt && !m.status).length;
      const captured = new Set(hostile.captured.filter((m) => m.to === recipient.address).map((m) => m.signature)).size;
      let stored = "A down";
      if (aUp) {
        const inbox = await rpcTo(a.url, "neutralService_getInbox", [{}, 100], { bearer: tokenOf(lib, recipient) });
        stored = `A stored ${(inbox.payload?.data ?? []).filter((m) => m.from === sender.address).length}`;
      }
      return { label, captured, delivered, stored, answers: tallyText(answers.map(sendOutcome)), text: `${label}: ${captured} captured (S answered ${tallyText(answers.map(sendOutcome))}; S shows ${delivered} delivered; ${stored})` };
    };
    const cases = [];
    cases.push(await sendCase("A up, H listed before A", s1, U1, victims[0], { aUp: true }));
    cases.push(await sendCase("A up, H listed after A", s2, U2, victims[1], { aUp: true }));
    const baseline = await sendCase("W (home record at A, which H replays with W's bundle), A up, H listed before A", s1, U1, W, { aUp: true });
    await a.stop();
    cases.push(await sendCase("A down, H listed before A", s1, U1, victims[2], { aUp: false }));
    cases.push(await sendCase("A down, H listed after A", s2, U2, victims[3], { aUp: false }));
    a = await startA();
    await sleep(5000);
    const later = [];
    for (const [v, sender] of [[victims[2], U1], [victims[3], U2]]) {
      const inbox = await rpcTo(a.url, "neutralService_getInbox", [{}, 100], { bearer: tokenOf(lib, v) });
      later.push((inbox.payload?.data ?? []).filter((m) => m.from === sender.address).length);
    }
    const captured = cases.reduce((sum, c) => sum + c.captured, 0);
    return {
      name: "peer capture",
      figure:
        `messages to accounts with only a key bundle (at A) captured by a hostile peer H replaying that bundle (${N} per case, from a user homed at S, S's peers A and H pinned): ` +
        `${cases.map((c) => c.text).join("; ")}; 5 s after A came back, A holds ${later.join(" + ")} of the A-down messages`,
      baseline: `${baseline.text}`,
      ratio: `${captured} of ${N * cases.length} captured`,
      target: "0 captured in every case (the real node up or down)",
      pass: captured === 0 && baseline.captured === 0,
      note: `H was called ${Object.entries(hostile.calls).filter(([m]) => m.startsWith("neutralService_")).map(([m, n]) => `${m.replace("neutralService_", "")} ${n}`).join(", ") || "never"}${hostile.calls.errors ? `; H failed ${hostile.calls.errors} times (${hostile.calls.lastError})` : ""}`,
    };
  } finally {
    for (const relay of relays) await relay.stop();
    if (a) await a.stop();
    hostile.close();
    for (const dir of Object.values(dirs)) removeDir(dir);
  }
}

/** Bound 7 (issue 33, finding 3): one message B refuses for now (a request quota) holds up A's other deliveries to B. */
async function refusedStall(lib, ctx) {
  const HONEST = int("BENCH_BOUNDS_STALL_HONEST", 20);
  const WAIT_MS = int("BENCH_BOUNDS_STALL_WAIT_SECONDS", 150) * 1000;
  const REFUSED_AFTER = Number(ctx.flags.get("request-quota-messages") ?? 5) || 5;
  const keys = { A: nodeOf(lib, "bounds-7-A"), B: nodeOf(lib, "bounds-7-B") };
  const ports = { A: await lib.freePort(), B: await lib.freePort() };
  const dirs = { A: tempDir("stall-a"), B: tempDir("stall-b") };
  const relays = [];
  try {
    const a = await launchRelay(lib, { dataDir: dirs.A, workers: 1, port: ports.A, nodeKey: keys.A.key, peers: [peerArg(ports.B, keys.B)] });
    relays.push(a);
    const b = await launchRelay(lib, { dataDir: dirs.B, workers: 1, port: ports.B, nodeKey: keys.B.key, peers: [peerArg(ports.A, keys.A)] });
    relays.push(b);
    const stranger = lib.user(7000);
    const R = lib.user(7001);
    const senders = Array.from({ length: 2 * HONEST }, (_, i) => lib.user(7100 + i));
    const recipients = Array.from({ length: 2 * HONEST }, (_, i) => lib.user(7300 + i));
    await pool([stranger, ...senders], 8, (u) => publishHome(lib, a.url, u, keys.A));
    await pool([R, ...recipients], 8, (u) => publishHome(lib, b.url, u, keys.B));
    // A knows where each recipient lives (B announced the records; a getHome at A makes sure).
    await pool([R, ...recipients], 8, async (u) => {
      const home = await must(a.url, "neutralService_getHome", [u.address]);
      if (home?.node !== keys.B.address) throw new Error(`A does not know ${u.address} is homed at B: ${JSON.stringify(home)}`);
    });
    await must(b.url, "neutralService_setConsent", [[], lib.consentPolicy(R, "allowed-only")], { bearer: tokenOf(lib, R) }, "setConsent");

    /** Sends pairs[k] = [from, to] at once through A; each message's latency until its recipient's inbox at B shows it. */
    const timed = async (pairs, capMs) => {
      const started = performance.now();
      const sentAt = new Array(pairs.length).fill(undefined);
      const seen = new Array(pairs.length).fill(undefined);
      const outcomes = new Array(pairs.length).fill(undefined);
      const sends = Promise.all(
        pairs.map(async ([from, to], k) => {
          sentAt[k] = performance.now();
          const answer = await rpcTo(a.url, "neutralService_sendMessage", [lib.signedMessage(from, to, randomBytes(32).toString("hex"))], { bearer: tokenOf(lib, from), timeoutMs: 15_000 });
          outcomes[k] = sendOutcome(answer);
          if (outcomes[k] === "delivered") seen[k] ??= performance.now() - sentAt[k];
        }),
      );
      while (seen.some((s) => s === undefined) && performance.now() - started < capMs) {
        await Promise.all(
          pairs.map(async ([from, to], k) => {
            if (seen[k] !== undefined || sentAt[k] === undefined) return;
            const page = await rpcTo(b.url, "neutralService_getInbox", [{}, 20], { bearer: tokenOf(lib, to), timeoutMs: 5000 });
            if (page.payload?.data?.some((m) => m.from === from.address)) seen[k] = performance.now() - sentAt[k];
          }),
        );
        await sleep(performance.now() - started < 12_000 ? 200 : 1000);
      }
      await within(sends, 30_000, "sends");
      const delivered = seen.filter((s) => s !== undefined);
      const within10 = delivered.filter((s) => s <= 10_000).length;
      const sorted = [...delivered].sort((x, y) => x - y);
      return { within10, delivered: delivered.length, p50: median(sorted), max: sorted.length ? sorted[sorted.length - 1] : NaN, outcomes, waitedS: (performance.now() - started) / 1000 };
    };
    const pairsOf = (from) => Array.from({ length: HONEST }, (_, i) => [senders[from + i], recipients[from + i]]);
    ctx.log("  stall: baseline");
    const baseline = await timed(pairsOf(0), 30_000);
    ctx.log(`  stall: ${REFUSED_AFTER + 1} messages to an allowed-only account`);
    const refusedOutcomes = [];
    for (let k = 0; k <= REFUSED_AFTER; k++) {
      const answer = await rpcTo(a.url, "neutralService_sendMessage", [lib.signedMessage(stranger, R, randomBytes(32).toString("hex"))], { bearer: tokenOf(lib, stranger), timeoutMs: 15_000 });
      refusedOutcomes.push(sendOutcome(answer));
    }
    ctx.log(`  stall: ${HONEST} honest messages, up to ${WAIT_MS / 1000} s`);
    const attack = await timed(pairsOf(HONEST), WAIT_MS);
    const requests = await rpcTo(b.url, "neutralService_getInbox", [{ folder: "requests" }, 100], { bearer: tokenOf(lib, R) });
    const chat = await rpcTo(a.url, "neutralService_getChat", [{ chat: R.address }, 100], { bearer: tokenOf(lib, stranger) });
    const strangerStates = (chat.payload?.data ?? []).filter((m) => m.from === stranger.address).map((m) => m.status ?? (m.receiver_receipt ? "delivered" : "stored"));
    const pct = (x) => (Number.isFinite(x) ? `${fmt(x / 1000, 1)} s` : "n/a");
    return {
      name: "refused message stall",
      figure:
        `after one A user's ${REFUSED_AFTER + 1} messages to an "allowed-only" account on B (request quota ${REFUSED_AFTER}; A answered ${tallyText(refusedOutcomes)}), ` +
        `${attack.within10} of ${HONEST} honest messages from other A users to other B users delivered within 10 s, ${attack.delivered} within ${fmt(attack.waitedS, 0)} s ` +
        `(latency p50 ${pct(attack.p50)}, max ${pct(attack.max)}; sendMessage answered ${tallyText(attack.outcomes)})`,
      baseline: `the same ${HONEST} (other pairs) before the refused ones: ${baseline.within10} within 10 s (p50 ${pct(baseline.p50)}, max ${pct(baseline.max)}; answered ${tallyText(baseline.outcomes)})`,
      ratio: `ratio ${(attack.within10 / Math.max(1, baseline.within10)).toFixed(2)} delivered within 10 s`,
      target: `all ${HONEST} delivered within 10 s while the refused one waits`,
      pass: attack.within10 === HONEST,
      note: `B's requests folder of that account: ${(requests.payload?.data ?? []).length} messages; the stranger's copies at A: ${tallyText(strangerStates)}`,
    };
  } finally {
    for (const relay of relays) await relay.stop();
    for (const dir of Object.values(dirs)) removeDir(dir);
  }
}

/** Bound 8 (issue 33, finding 4): idle streams from 40 addresses, within every per-address and per-account limit, against an honest newcomer. */
async function idleStreams(lib, ctx) {
  const STREAMS = int("BENCH_BOUNDS_IDLE_STREAMS", 10_000);
  const SOURCES = int("BENCH_BOUNDS_IDLE_STREAM_SOURCES", 40);
  const HONEST = 50;
  const perIp = Number(ctx.flags.get("max-connections-per-ip") ?? 256) || 256;
  const perSource = Math.min(Math.ceil(STREAMS / SOURCES), perIp - 6);
  const PER_ACCOUNT = Math.min(4, Number(ctx.flags.get("max-subscriptions-per-account") ?? 8) || 8);
  lib.ensureOpenFiles(STREAMS + 4000, "BENCH_BOUNDS_IDLE_STREAMS");
  const sources = floodSources(10, SOURCES);
  const dir = tempDir("idle-streams");
  const relay = await launchRelay(lib, { dataDir: dir, workers: 2 });
  let flood;
  try {
    const started = relay.pids();
    const honest = lib.user(8000);
    const bearer = tokenOf(lib, honest);
    const one = async (k) => {
      if (k % 2 === 0) return honestInbox(relay.url, bearer, { timeoutMs: 5000 });
      const answer = await call(relay.url, rpc("neutralService_nodeInfo", []), { timeoutMs: 5000 });
      const ok = answer.ok && Array.isArray(answer.result);
      return { ok, ms: answer.ms, error: ok ? undefined : (answer.error ?? `HTTP ${answer.status}`) };
    };
    await one(0);
    const before = await sequence(one, { count: HONEST, capMs: 60_000 });
    const streamBefore = await streamOnce(relay.url, bearer);
    const pssBefore = relay.pss();
    const fdsBefore = relay.fds();
    ctx.log(`  idle streams: opening ${fmt(STREAMS)} from ${SOURCES} addresses`);
    flood = startFlood({ kind: "streams", port: relay.port, count: STREAMS, sources, perSource, perAccount: PER_ACCOUNT, userBase: 80_000, read: "all", maxSeconds: 900 });
    const opened = await flood.next("opened", 600_000);
    await sleep(2000);
    const held = await flood.status();
    const pssHeld = relay.pss();
    const fdsHeld = relay.fds();
    const during = await sequence(one, { count: HONEST, capMs: 60_000 });
    const streamDuring = await streamOnce(relay.url, bearer);
    const heldAfter = await flood.status();
    const closed = await flood.close();
    flood = undefined;
    await sleep(1000);
    const after = await sequence(one, { count: 4, capMs: 10_000 });
    const statsBefore = latencyStats(before);
    const stats = latencyStats(during);
    const changed = processChange(relay, started);
    const statuses = Object.entries(opened.statuses).map(([code, n]) => `${fmt(n)} × HTTP ${code}`).join(", ") || "none";
    return {
      name: "idle streams",
      figure:
        `an honest client from 127.0.0.1 while ${SOURCES} other addresses hold ${fmt(held.open)} idle streams (${fmt(STREAMS)} tried, ${perSource} per address, ${PER_ACCOUNT} per account: ${statuses}` +
        `${opened.connectErrors ? `, ${fmt(opened.connectErrors)} not answered (${opened.firstError})` : ""}; ${fmt(held.caughtUp)} caught up${Object.keys(held.ends).length ? `; end events ${Object.entries(held.ends).map(([r, n]) => `${fmt(n)} × ${r}`).join(", ")}` : ""}): ` +
        `${HONEST} getInbox/nodeInfo, each on a fresh connection: ${latencyText(during)}; its stream ${streamDuring.ok ? `opened and caught up in ${msText(streamDuring.ms)}` : `NOT opened (${streamDuring.error})`}`,
      baseline: `the same before the streams: ${latencyText(before)}; its stream ${streamBefore.ok ? `caught up in ${msText(streamBefore.ms)}` : `NOT opened (${streamBefore.error})`}`,
      ratio: Number.isFinite(stats.p99 / statsBefore.p99) ? `ratio ${(stats.p99 / statsBefore.p99).toFixed(2)} of p99` : "ratio n/a (honest requests failed)",
      target: `every honest request answered, p99 <= 1 s, the honest stream opens`,
      pass: stats.answered === HONEST && stats.p99 <= 1000 && streamDuring.ok && !changed,
      note: [
        `relay PSS ${mb(pssBefore)} before, ${mb(pssHeld)} with the streams (+${mb(pssHeld - pssBefore)}); fds ${fmt(fdsBefore)} → ${fmt(fdsHeld)}`,
        `the attackers still held ${fmt(heldAfter.open)} after the honest client (${fmt(heldAfter.closedByPeer)} closed by the node)`,
        `1 s after they left: ${latencyText(after)}`,
        closed ? "" : "the flood did not confirm closing",
        changed,
      ].filter(Boolean).join("; "),
    };
  } finally {
    if (flood) await flood.close();
    await relay.stop();
    removeDir(dir);
  }
}

/** Bound 9 (issue 33, finding 5): strangers spend an "allowed-only" account's recipient quota, then its allowed sender is refused. */
async function quotaWeapon(lib, ctx) {
  const QUOTA_MIB = int("BENCH_BOUNDS_RECIPIENT_QUOTA_MIB", 20);
  const CAP_MS = int("BENCH_BOUNDS_STRANGER_SECONDS", 90) * 1000;
  const FRIEND = 20;
  const STRANGERS = 5000; // a bound only: the time cap comes first
  const BODY_BYTES = 64 * 1024;
  const defaultQuota = Number(ctx.flags.get("recipient-quota-bytes") ?? 200 * MiB);
  const quotaArgs = QUOTA_MIB * MiB === defaultQuota ? [] : ["--recipient-quota-bytes", String(QUOTA_MIB * MiB)];
  const dir = tempDir("quota");
  const relay = await launchRelay(lib, { dataDir: dir, workers: 1, extraArgs: quotaArgs });
  try {
    const started = relay.pids();
    const V = lib.user(9000);
    const F = lib.user(9001);
    await must(relay.url, "neutralService_setConsent", [[lib.consentRecord(V, F.address, "allowed")], lib.consentPolicy(V, "allowed-only")], { bearer: tokenOf(lib, V) }, "setConsent");
    const bodies = Array.from({ length: 8 }, () => randomBytes(BODY_BYTES).toString("hex"));
    let stamp = Date.now();
    const send = (from, k) => rpcTo(relay.url, "neutralService_sendMessage", [lib.signedMessage(from, V, bodies[k % bodies.length], stamp++)], { bearer: tokenOf(lib, from), timeoutMs: 15_000 });
    const friend = async () => {
      const outcomes = [];
      for (let k = 0; k < FRIEND; k++) outcomes.push(sendOutcome(await send(F, k)));
      return outcomes;
    };
    const friendBefore = await friend();
    ctx.log(`  quota: strangers until V's quota refuses them (at most ${CAP_MS / 1000} s)`);
    const strangerStarted = performance.now();
    let nextStranger = 0;
    let stored = 0;
    let exhaustedBy;
    let exhaustedAt;
    const strangerRefusals = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (!exhaustedBy && nextStranger < STRANGERS && performance.now() - strangerStarted < CAP_MS) {
          const stranger = lib.user(90_000 + nextStranger++);
          for (let k = 0; !exhaustedBy; k++) {
            const answer = await send(stranger, k);
            const outcome = sendOutcome(answer);
            if (answer.payload) {
              stored++;
              continue;
            }
            strangerRefusals.push(outcome);
            const quota = answer.rpcError?.data?.quota;
            if (quota === "recipientQuotaBytes" || quota === "recipientQuotaMessages") {
              exhaustedBy ??= quota;
              exhaustedAt ??= performance.now() - strangerStarted;
            }
            break;
          }
        }
      }),
    );
    const strangerSeconds = (performance.now() - strangerStarted) / 1000;
    const friendAfter = await friend();
    const refusedAfter = friendAfter.filter((o) => o !== "stored" && o !== "delivered").length;
    const refusedBefore = friendBefore.filter((o) => o !== "stored" && o !== "delivered").length;
    const changed = processChange(relay, started);
    return {
      name: "quota under consent",
      figure:
        `${refusedAfter} of ${FRIEND} messages of 64 KiB from F, whom V ("allowed-only") allowed, refused (${tallyText(friendAfter)}) after ${fmt(nextStranger)} throwaway strangers ` +
        `put ${fmt(stored)} messages of 64 KiB (${mb(stored * BODY_BYTES)}) into V's requests folder in ${fmt(strangerSeconds, 1)} s ` +
        `(${exhaustedBy ? `V's quota refused them ${fmt(exhaustedAt / 1000, 1)} s in: ${exhaustedBy}` : `V's quota never refused them within ${CAP_MS / 1000} s`}; strangers' refusals ${tallyText(strangerRefusals)})`,
      baseline: `F's ${FRIEND} before the strangers: ${refusedBefore} refused (${tallyText(friendBefore)})`,
      ratio: `${refusedAfter} of ${FRIEND} refused`,
      target: "0 of the allowed sender's messages refused because of strangers",
      pass: refusedAfter === 0 && refusedBefore === 0 && !changed,
      note: [
        quotaArgs.length ? `--recipient-quota-bytes ${fmt(QUOTA_MIB)} MiB (the default is ${mb(defaultQuota, 0)}; BENCH_BOUNDS_RECIPIENT_QUOTA_MIB) to keep the bench short` : "default --recipient-quota-bytes",
        changed,
      ].filter(Boolean).join("; "),
    };
  } finally {
    await relay.stop();
    removeDir(dir);
  }
}

/** Bound 10 (issue 33, finding 6): a peer that accepts and never answers, and local requests about bundle-only accounts. */
async function deadPeer(lib, ctx) {
  const N = int("BENCH_BOUNDS_DEAD_PEER_CALLS", 50);
  const CAP_MS = int("BENCH_BOUNDS_DEAD_PEER_SECONDS", 30) * 1000;
  const P = lib.user(10_000);
  const Q = lib.user(10_001);
  const measure = async (label, launch) => {
    ctx.log(`  dead peer: ${label}`);
    const dir = tempDir("dead-peer");
    const relay = await launch(dir);
    try {
      const started = relay.pids();
      await publishKey(lib, relay.url, P);
      await publishKey(lib, relay.url, Q);
      const bearer = tokenOf(lib, P);
      await call(relay.url, rpc("neutralService_nodeInfo", []), { bearer }); // P's token verified before timing
      const sends = await sequence(
        async (k) => {
          const answer = await rpcTo(relay.url, "neutralService_sendMessage", [lib.signedMessage(P, Q, randomBytes(32).toString("hex"), Date.now() + k)], { bearer, timeoutMs: 15_000 });
          return { ok: answer.payload !== undefined, ms: answer.ms, error: answer.payload ? undefined : sendOutcome(answer) };
        },
        { count: N, capMs: CAP_MS },
      );
      const keys = await sequence(
        async (k) => {
          const answer = await rpcTo(relay.url, "neutralService_getKey", [(k % 2 ? Q : P).address], { timeoutMs: 15_000 });
          return { ok: answer.payload?.key !== undefined, ms: answer.ms, error: answer.payload ? undefined : (answer.error ?? answer.rpcError?.message ?? "null") };
        },
        { count: N, capMs: CAP_MS },
      );
      return { sends, keys, changed: processChange(relay, started) };
    } finally {
      await relay.stop();
      removeDir(dir);
    }
  };
  const baseline = await measure("a node without peers", (dir) => launchRelay(lib, { dataDir: dir, workers: 1 }));
  const dead = await startDeadPeer();
  let withDead;
  try {
    withDead = await measure("a node whose one peer never answers", (dir) =>
      launchRelay(lib, { dataDir: dir, workers: 1, nodeKey: nodeOf(lib, "bounds-10-A").key, peers: [peerArg(dead.port, nodeOf(lib, "bounds-10-dead"))] }),
    );
  } finally {
    dead.close();
  }
  const s0 = latencyStats(baseline.sends);
  const k0 = latencyStats(baseline.keys);
  const s1 = latencyStats(withDead.sends);
  const k1 = latencyStats(withDead.keys);
  const sendRatio = s1.p50 / s0.p50;
  const keyRatio = k1.p50 / k0.p50;
  const capped = (samples) => (samples.length < N ? ` (${samples.length} of ${N}: the ${CAP_MS / 1000} s cap)` : "");
  return {
    name: "dead peer",
    figure:
      `with one peer that accepts connections and never answers (${dead.accepted()} connections to it): a local sendMessage between two accounts with only key bundles ${latencyText(withDead.sends)}${capped(withDead.sends)}; ` +
      `getKey of each ${latencyText(withDead.keys)}${capped(withDead.keys)}`,
    baseline: `the same on a node without peers: sendMessage ${latencyText(baseline.sends)}, getKey ${latencyText(baseline.keys)}`,
    ratio: `ratio ${sendRatio.toFixed(2)} of send p50, ${keyRatio.toFixed(2)} of getKey p50`,
    target: "<= 2 for both (a local account never waits for peers)",
    pass: sendRatio <= 2 && keyRatio <= 2 && s1.answered === s1.count && k1.answered === k1.count && !withDead.changed,
    note: [baseline.changed, withDead.changed].filter(Boolean).join("; ") || undefined,
  };
}

/** Bound 11 (issue 33, finding 7): a peer's deliveries of 100 messages + 100 new home records each, 10 at once, against B's default rate limit. */
async function peerDeliveryCost(lib, ctx) {
  const SECONDS = int("BENCH_BOUNDS_DELIVERY_SECONDS", 20);
  const DELIVERIES = int("BENCH_BOUNDS_DELIVERIES", 300);
  const CONCURRENCY = 10;
  const PER = 100;
  const RECIPIENTS = 20;
  const HONEST_ADDRESS = "127.0.6.1";
  const rateLimit = Number(ctx.flags.get("rate-limit") ?? 100) || 100;
  const B = nodeOf(lib, "bounds-11-B");
  const P = nodeOf(lib, "bounds-11-P");
  const pPort = await lib.freePort(); // nothing listens there: B never needs to call P here
  const dir = tempDir("delivery-cost");
  const relay = await launchRelay(lib, { dataDir: dir, workers: 2, rateLimit, nodeKey: B.key, peers: [peerArg(pPort, P)] });
  try {
    const started = relay.pids();
    const recipients = Array.from({ length: RECIPIENTS }, (_, i) => lib.user(11_000 + i));
    await pool(recipients, 4, async (u) => {
      // Spaced: B's rate limit applies to the bench's own setup calls too.
      await publishHome(lib, relay.url, u, B);
      await sleep(50);
    });
    const honest = lib.user(11_100);
    const honestBearer = tokenOf(lib, honest);
    const honestCall = () => honestInbox(relay.url, honestBearer, { localAddress: HONEST_ADDRESS, timeoutMs: 10_000 });
    ctx.log(`  delivery cost: signing ${DELIVERIES} deliveries of ${PER} messages from new accounts`);
    const signStarted = performance.now();
    let account = 11_000_000;
    const bodies = [];
    for (let d = 0; d < DELIVERIES; d++) {
      const messages = [];
      const homes = [];
      for (let i = 0; i < PER; i++) {
        const from = lib.user(account++);
        homes.push(lib.homeRecord(from, P.address));
        messages.push(relayedMessage(lib, from, recipients[i % RECIPIENTS], P, randomBytes(32).toString("hex")));
      }
      bodies.push(JSON.stringify(rpc("neutralService_deliver", { messages, homes })));
    }
    ctx.log(`  delivery cost: signed in ${((performance.now() - signStarted) / 1000).toFixed(1)} s`);
    await honestCall();
    const before = await sequence(honestCall, { count: 30, capMs: 15_000, gapMs: 100 });
    // The flood: 10 deliveries in flight; an accepted one takes the next body, a refused one (429) is sent again after 100 ms.
    let next = 0;
    let accepted = 0;
    let refused429 = 0;
    let other = 0;
    let firstOther;
    let receipts = 0;
    let refusals = 0;
    const refusalKinds = [];
    let chargeHeaders;
    let retryAfter;
    const deliveryTimes = [];
    const floodStarted = performance.now();
    const cpu0 = lib.cpuSeconds(relay.pids());
    const running = () => performance.now() - floodStarted < SECONDS * 1000 && next < DELIVERIES;
    const senders = Array.from({ length: CONCURRENCY }, async () => {
      let body;
      while (running()) {
        body ??= bodies[next++];
        if (body === undefined) break;
        const answer = await nodeCall(lib, P, relay.url, B.address, "neutralService_deliver", body, { timeoutMs: 30_000 });
        const headers = Object.entries(answer.headers ?? {}).filter(([name]) => /rate|cost|retry|quota/i.test(name));
        if (headers.length && !chargeHeaders && answer.status === 200) chargeHeaders = headers.map(([n, v]) => `${n}: ${v}`).join(", ");
        if (answer.status === 429) {
          refused429++;
          retryAfter ??= answer.headers?.["retry-after"];
          await sleep(100);
          continue;
        }
        if (answer.ok && Array.isArray(answer.payload?.outcomes)) {
          accepted++;
          deliveryTimes.push({ ok: true, ms: answer.ms });
          for (const outcome of answer.payload.outcomes) {
            if (outcome?.receiver_receipt) receipts++;
            else {
              refusals++;
              if (refusalKinds.length < 3) refusalKinds.push(String(outcome?.refused?.message).slice(0, 80));
            }
          }
        } else {
          other++;
          firstOther ??= answer.error ?? `HTTP ${answer.status} ${answer.rpcError ? `${answer.rpcError.code} ${answer.rpcError.message}` : ""}`;
        }
        body = undefined;
      }
    });
    const during = [];
    const reader = (async () => {
      while (running()) {
        during.push(await honestCall());
        await sleep(100);
      }
    })();
    await within(Promise.all([...senders, reader]), SECONDS * 1000 + 60_000, "the delivery flood");
    const windowS = (performance.now() - floodStarted) / 1000;
    const cpu = lib.cpuSeconds(relay.pids()) - cpu0;
    const statsBefore = latencyStats(before);
    const stats = latencyStats(during);
    const changed = processChange(relay, started);
    const cpuPerDelivery = accepted ? (cpu * 1000) / accepted : NaN;
    return {
      name: "peer delivery cost",
      figure:
        `a peer's neutralService_deliver of ${PER} messages + ${PER} new home records each (new accounts each time), ${CONCURRENCY} at once for ${fmt(windowS, 1)} s against B (--rate-limit ${rateLimit}, --workers 2): ` +
        `${fmt(accepted)} accepted (${fmt(receipts)} receipts, ${fmt(refusals)} messages refused${refusalKinds.length ? `: ${refusalKinds.join(" | ")}` : ""}), ${fmt(refused429)} answered 429${retryAfter ? ` (Retry-After ${retryAfter})` : ""}` +
        `${other ? `, ${fmt(other)} failed otherwise (${firstOther})` : ""}; an accepted delivery answered in p50 ${msText(latencyStats(deliveryTimes).p50, 0)}, max ${msText(latencyStats(deliveryTimes).max, 0)}; ` +
        `B's CPU ${fmt(cpu * 1000, 0)} ms, ${fmt(cpuPerDelivery, 1)} ms per accepted delivery; ` +
        `honest getInbox from ${HONEST_ADDRESS} during it ${latencyText(during)}`,
      baseline: `honest getInbox from ${HONEST_ADDRESS} just before: ${latencyText(before)}`,
      ratio: Number.isFinite(stats.p99 / statsBefore.p99) ? `ratio ${(stats.p99 / statsBefore.p99).toFixed(1)} of p99` : "ratio n/a (honest requests failed)",
      target: "honest p99 < 1 s; a delivery charged what it costs",
      pass: stats.p99 < 1000 && stats.answered === stats.count && !changed,
      note: [
        `what one delivery was charged: ${chargeHeaders ? `answer headers ${chargeHeaders}` : "not reported by the node"}`,
        next >= DELIVERIES ? `the ${DELIVERIES} pre-signed deliveries ran out (BENCH_BOUNDS_DELIVERIES)` : "",
        changed,
      ].filter(Boolean).join("; "),
    };
  } finally {
    await relay.stop();
    removeDir(dir);
  }
}

/** Bound 12 (issue 33, finding 8): with --retention 6s, resends and deliveries of swept messages. */
async function sweptResend(lib, ctx) {
  const N = 5;
  const B = nodeOf(lib, "bounds-12-B");
  const P = nodeOf(lib, "bounds-12-P");
  const pPort = await lib.freePort(); // nothing listens there: B never needs to call P here
  const dir = tempDir("swept");
  const relay = await launchRelay(lib, { dataDir: dir, workers: 1, nodeKey: B.key, peers: [peerArg(pPort, P)], extraArgs: ["--retention", "6s"] });
  let db;
  try {
    const started = relay.pids();
    const X = lib.user(12_000);
    const Y = lib.user(12_001);
    const R = lib.user(12_002);
    for (const u of [X, Y, R]) await publishHome(lib, relay.url, u, B);
    const now = Date.now();
    const signed = Array.from({ length: N }, (_, k) => lib.signedMessage(X, Y, randomBytes(32).toString("hex"), now + k));
    const sendAll = () => Promise.all(signed.map((m) => rpcTo(relay.url, "neutralService_sendMessage", [m], { bearer: tokenOf(lib, X) })));
    const idsOf = (answers) => answers.map((a) => a.payload?.id);
    const first = await sendAll();
    const ids = idsOf(first);
    if (ids.some((id) => id === undefined)) throw new Error(`sendMessage failed: ${tallyText(first.map(sendOutcome))}`);
    const resentBefore = idsOf(await sendAll());
    const senders = Array.from({ length: N }, (_, k) => lib.user(12_100 + k));
    const relayed = senders.map((s, k) => relayedMessage(lib, s, R, P, randomBytes(32).toString("hex"), now + k));
    const homes = senders.map((s) => lib.homeRecord(s, P.address, now));
    const deliver = async () => {
      const answer = await nodeCall(lib, P, relay.url, B.address, "neutralService_deliver", { messages: relayed, homes });
      const outcomes = answer.payload?.outcomes;
      if (!Array.isArray(outcomes)) throw new Error(`deliver: ${answer.error ?? `HTTP ${answer.status}`} ${answer.rpcError ? JSON.stringify(answer.rpcError) : ""}`);
      return outcomes.map((o) => (o?.receiver_receipt ? "receipt" : `refused: ${o?.refused?.message}`));
    };
    const inboxCount = async (u) => (await must(relay.url, "neutralService_getInbox", [{}, 100], { bearer: tokenOf(lib, u) })).data.length;
    const delivered = await deliver();
    const deliveredAgain = await deliver();
    const rBefore = await inboxCount(R);
    const yBefore = await inboxCount(Y);
    // Swept: no read serves them, and the sweep deleted their rows (read-only, WAL).
    const sweepStarted = performance.now();
    while ((await inboxCount(Y)) + (await inboxCount(R)) > 0) {
      if (performance.now() - sweepStarted > 30_000) throw new Error("the messages were still served 30 s after they were stored with --retention 6s");
      await sleep(250);
    }
    db = new lib.Database(path.join(dir, "neutral.sqlite"), { readonly: true, fileMustExist: true });
    let rows;
    for (;;) {
      try {
        rows = db.prepare("SELECT count(*) FROM messages").pluck().get();
      } catch (error) {
        rows = `unknown (${error.message})`;
        await sleep(4000);
        break;
      }
      if (rows === 0 || performance.now() - sweepStarted > 30_000) break;
      await sleep(250);
    }
    const sweptAfterS = (performance.now() - sweepStarted) / 1000;
    await sleep(500);
    const resentAfter = await sendAll();
    const again = storedAgain(ids, idsOf(resentAfter));
    const deliveredAfter = await deliver();
    const yAfter = await inboxCount(Y);
    const rAfter = await inboxCount(R);
    const changed = processChange(relay, started);
    return {
      name: "swept messages",
      figure:
        `with --retention 6s, ${N} messages sent and ${N} delivered by a peer, then swept (no longer served, and the messages table at ${rows} rows, ${fmt(sweptAfterS, 1)} s after the resends before the sweep): ` +
        `the same signed messages sent again (within the clock window): ${again} of ${N} stored again under a new id (answers: ${tallyText(resentAfter.map(sendOutcome))}; the recipient's inbox shows ${yAfter}); ` +
        `delivered again by the peer: ${rAfter} of ${N} stored again (the recipient's inbox shows ${rAfter}; outcomes ${tallyText(deliveredAfter)})`,
      baseline: `before the sweep: the resend answered the original id ${resentBefore.filter((id, k) => id === ids[k]).length} of ${N} (inbox ${yBefore}); the delivery again stored once (inbox ${rBefore}; outcomes ${tallyText(delivered)}, then ${tallyText(deliveredAgain)})`,
      ratio: `${again + rAfter} of ${2 * N} stored again`,
      target: "0 stored again",
      pass: again === 0 && rAfter === 0 && yAfter === 0 && !changed,
      note: changed || undefined,
    };
  } finally {
    db?.close();
    await relay.stop();
    removeDir(dir);
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const lib = {
    ...(await import("./lib.mjs")),
    ...(await import("../dist/storage/sqlite.js")),
    protocol: await import("@neutral/protocol"),
    eip712: await import("../dist/crypto/eip712.js"),
    Database: (await import("better-sqlite3")).default,
  };
  const only = envList("BENCH_BOUNDS_ONLY", "1,2,3,4,5,6,7,8,9,10,11,12");
  const helpRun = spawnSync(process.execPath, [lib.MAIN, "--help"], { encoding: "utf8", timeout: 15_000 });
  const help = `${helpRun.stdout ?? ""}${helpRun.stderr ?? ""}`;
  const flags = flagDefaults(help);
  const ctx = { help, flags, log };
  header("neutral relay bounds");
  out(
    "# What a hostile client can make one node hold (issue 19, findings 2-5), each against a relay of its own on 127.0.0.1 with default limits " +
      "(--rate-limit 0 so that the honest client is never the one throttled); the honest client is 127.0.0.1, each flood comes from " +
      "other loopback addresses, in a child process of the bench. Relay flags now: " +
      ["max-response-bytes", "max-page-scan", "max-body-bytes", ...connectionLimitFlags(help).map((l) => l.flag), ...[...flags.keys()].filter((f) => /timeout|buffer/.test(f))]
        .filter((f, i, all) => all.indexOf(f) === i && flags.has(f))
        .map((f) => `--${f} ${flags.get(f)}`)
        .join(", "),
  );
  out(
    "# 1 answer size: bytes answered to one 3 KB batch of 40 × getInbox(limit 100) over 101 messages of 64 KiB, against the configured answer budget. " +
      "2 scan cost: p50 of a since/until page the filter empties (getChat {chat, until: 1}) on a 200,000-message chat, against a first page of it. " +
      "3 connections held: the relay's extra file descriptors 2 s into 3,000 idle connections from one address, against the connection limit that applies to them, then how soon it serves again once they close. " +
      "4 memory under stalled bodies: the relay's PSS while 1,500 POSTs from 15 addresses (so that a per-address connection limit admits them) stall one byte short of their 1 MiB body, against the same relay idle, and an honest request's latency meanwhile",
  );
  out(
    "# Hostile clients and hostile peers of what came after (issue 33, findings 1-8), same rules; federations are relays on loopback with --node-key and pinned --peer, " +
      "a hostile peer is a small server in this process signing with a node key of its own. " +
      "5 slow streams: 512 subscribe streams (8 per account, 128 per address) that read one chunk every 15 s, over mailboxes of 120 messages of 64 KiB, --workers 1 then 2, 60 s: peak RSS, survival, honest getInbox p99, memory per stream against the documented bound, time back to the idle RSS. " +
      "6 peer capture: a hostile peer replaying a bundle-only account's key bundle, listed before and after the real node A, with A up and down: messages it captured, against an account with a home record at A. " +
      "7 refused message stall: 6 messages from one A user to an allowed-only account on B (request quota 5), then 20 honest messages between other users: delivered within 10 s and 150 s, against the same 20 before. " +
      "8 idle streams: 10,000 idle streams from 40 addresses (250 each, 4 per account), then 50 honest requests and one stream from 127.0.0.1, against the same before. " +
      "9 quota under consent: throwaway strangers fill an allowed-only account's requests folder with 64 KiB messages until its recipient quota refuses (--recipient-quota-bytes 20 MiB), then 20 from the sender it allowed, against the same 20 before. " +
      "10 dead peer: a local send between two bundle-only accounts and getKey, p50, on a node whose one peer accepts and never answers, against a node without peers. " +
      "11 peer delivery cost: a peer's deliveries of 100 messages + 100 new home records, 10 at once for 20 s against B at its default rate limit: B's CPU per delivery, 429s, honest getInbox p99 from another address, against before. " +
      "12 swept messages: --retention 6s, the same signed messages resent and delivered again after the sweep, against the resend before it",
  );
  const bounds = [
    [1, "answer size", answerSize],
    [2, "scan cost", scanCost],
    [3, "connections held", connectionsHeld],
    [4, "memory under stalled bodies", stalledBodies],
    [5, "slow streams", slowStreams],
    [6, "peer capture", peerCapture],
    [7, "refused message stall", refusedStall],
    [8, "idle streams", idleStreams],
    [9, "quota under consent", quotaWeapon],
    [10, "dead peer", deadPeer],
    [11, "peer delivery cost", peerDeliveryCost],
    [12, "swept messages", sweptResend],
  ];
  // Each bound's bound: past it the line is an ERROR (the bound itself may still be winding down).
  const budgets = { 5: 600_000, 7: 360_000, 8: 600_000 };
  for (const [n, name, bound] of bounds) {
    if (!only.includes(n)) continue;
    log(`bound ${n}: ${name}`);
    const boundStarted = performance.now();
    try {
      const row = await within(bound(lib, ctx), budgets[n] ?? 240_000, `bound ${n}`);
      verdict({ ...row, name: `${n} ${row.name}` });
    } catch (error) {
      benchError(`${n} ${name}`, error);
    }
    log(`bound ${n}: ${((performance.now() - boundStarted) / 1000).toFixed(0)} s`);
  }
}

const invoked = process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url;
if (invoked && process.argv[2] === "--flood") {
  await floodChild();
} else if (invoked) {
  await runBench({ name: "bounds", skip: "BENCH_BOUNDS" }, main);
}
