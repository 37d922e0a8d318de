// The bounds a node enforces against hostile clients (issue 19, findings 2-5), one line each:
// `node bench/bounds.mjs` in packages/relay after a build (`pnpm bench` runs it after run.mjs;
// BENCH_BOUNDS=0 skips it there). Each line prints the figure, the baseline measured in this same
// run, their ratio, the target and PASS or FAIL. A FAIL is a finding, not a crash: the exit status
// is non-zero only when the bench itself could not measure (a relay that would not start, ...).
// Loopback only (127.0.0.0/8): the honest client is 127.0.0.1, the floods come from other loopback
// addresses (the idle connections from one, the stalled bodies from 15: see below).
// Env: BENCH_BOUNDS=0 (skip), BENCH_BOUNDS_ONLY ("1,2,3,4": which bounds), BENCH_BOUNDS_PAGES (300:
//      page pairs timed for the scan bound), BENCH_BOUNDS_SCAN_MESSAGES (200000),
//      BENCH_BOUNDS_IDLE (3000 idle connections), BENCH_BOUNDS_STALLED (1500 stalled bodies),
//      BENCH_BOUNDS_STALL_SECONDS (10), BENCH_BOUNDS_IDLE_SOURCES (1: the idle flood's addresses),
//      BENCH_BOUNDS_STALLED_SOURCES (15: the stalled bodies' addresses, 100 connections each, so that
//      a per-address connection limit admits them all and what is measured is the bodies' memory),
//      BENCH_BOUNDS_RELAY_ARGS (flags added to every relay, e.g. "--max-page-scan 1000000" to see a bound fail).
// Every relay, flood process and temp dir is removed at the end, on error and on SIGINT/SIGTERM.
import { spawn, spawnSync, fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const SELF = fileURLToPath(import.meta.url);
const MiB = 2 ** 20;

// ---------------------------------------------------------------------------------------------
// Pure helpers (bounds.test.mjs)

export const fmt = (n, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const mb = (bytes, digits = 1) => `${fmt(bytes / MiB, digits)} MB`;

/** Median of a list of numbers (the lower of the middle two for an even count); NaN for none. */
export function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** One bound's line: "name: figure · baseline · ratio · target · PASS|FAIL[ · note]". */
export function boundLine({ name, figure, baseline, ratio, target, pass, note }) {
  const ratioText = typeof ratio === "number" ? (Number.isFinite(ratio) ? `ratio ${ratio.toFixed(2)}` : "ratio n/a") : ratio;
  return [`${name}: ${figure}`, `baseline ${baseline}`, ratioText, `target ${target}`, pass ? "PASS" : "FAIL", ...(note ? [note] : [])].join(" · ");
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
function request(url, { method = "GET", headers = {}, body, agent = false, timeoutMs = 10_000, maxBytes = 64 * MiB, localAddress = "127.0.0.1" } = {}) {
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
          finish({ ok, status: response.statusCode, text: Buffer.concat(chunks).toString("utf8") });
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
async function call(url, body, { bearer, agent, timeoutMs = 10_000 } = {}) {
  const answer = await request(url, { method: "POST", headers: jsonHeaders(bearer), body: JSON.stringify(body), agent, timeoutMs });
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
// Cleanup: every relay, flood process and temp dir this run made, also on error and signals.

const live = { processes: new Set(), dirs: new Set() };

function killTree(pid, signal) {
  for (const child of childPidsOf(pid)) {
    try {
      process.kill(child, signal);
    } catch {
      // gone
    }
  }
  try {
    process.kill(pid, signal);
  } catch {
    // gone
  }
}

function childPidsOf(pid) {
  const result = spawnSync("ps", ["--ppid", String(pid), "-o", "pid="], { encoding: "utf8", timeout: 5000 });
  return (result.stdout ?? "")
    .split("\n")
    .map((line) => Number(line.trim()))
    .filter((n) => n > 0);
}

/** Synchronous last resort: SIGKILL what is left, remove the temp dirs. */
function cleanupNow() {
  for (const child of live.processes) if (child.exitCode === null && child.signalCode === null) killTree(child.pid, "SIGKILL");
  live.processes.clear();
  for (const dir of live.dirs) rmSync(dir, { recursive: true, force: true });
  live.dirs.clear();
}

function tempDir(label) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `neutral-bounds-${label}-`));
  live.dirs.add(dir);
  return dir;
}

function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
  live.dirs.delete(dir);
}

// ---------------------------------------------------------------------------------------------
// Relays

/**
 * Starts dist/main.js on a free loopback port and waits (≤ 60 s) until /health answers and its
 * workers exist. The process is registered for cleanup from its spawn on, so a relay that never
 * serves is stopped too.
 */
async function launchRelay(lib, { dataDir, workers, extraArgs = [] }) {
  const port = await within(lib.freePort(), 10_000, "free port");
  const args = [
    ...(process.env.BENCH_RELAY_NODE_ARGS ? process.env.BENCH_RELAY_NODE_ARGS.split(" ") : []),
    lib.MAIN,
    "--host", "127.0.0.1",
    "--port", String(port),
    "--data-dir", dataDir,
    "--workers", String(workers),
    "--rate-limit", "0",
    "--log-level", "warn",
    "--domain", lib.DOMAIN,
    ...extraArgs,
    ...(process.env.BENCH_BOUNDS_RELAY_ARGS ? process.env.BENCH_BOUNDS_RELAY_ARGS.split(" ").filter(Boolean) : []),
  ];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  live.processes.add(child);
  let output = "";
  const keep = (chunk) => {
    output = (output + chunk).slice(-8000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  if (process.env.BENCH_VERBOSE) child.stderr.pipe(process.stderr);
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
    fds: () => pids().reduce((sum, pid) => sum + fdCount(pid), 0),
    async stop() {
      if (!exited()) child.kill("SIGTERM");
      try {
        await within(exit, 15_000, "relay stop");
      } catch {
        killTree(child.pid, "SIGKILL");
        await within(exit, 5000, "relay kill").catch(() => {});
      }
      live.processes.delete(child);
    },
  };
  const deadline = Date.now() + 60_000;
  let last = "no /health answer yet";
  for (;;) {
    if (exited()) {
      live.processes.delete(child);
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
  const child = fork(SELF, ["--flood"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  live.processes.add(child);
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
    live.processes.delete(child);
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
  const hardStop = setTimeout(() => process.exit(0), 120_000);
  hardStop.unref();
  process.on("disconnect", () => process.exit(0));
  const spec = await new Promise((resolve) => process.once("message", resolve));
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

// ---------------------------------------------------------------------------------------------
// The bounds

const int = (name, fallback) => {
  const value = process.env[name];
  if (value === undefined || value === "") return fallback;
  if (!/^\d+$/.test(value) || Number(value) <= 0) throw new Error(`${name} must be a positive integer`);
  return Number(value);
};

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
    return boundLine({
      name: "answer size",
      figure: `${answer.truncated ? "MORE than " : ""}${fmt(answer.bytes)} bytes answered to one batch of ${ENTRIES} × getInbox(limit ${LIMIT}) over a mailbox of 101 messages of 64 KiB (${shape}; ${fmt(answer.ms)} ms)`,
      baseline: `the answer budget ${fmt(budgetBytes)} bytes (${budgetSource}; unbounded, ${ENTRIES} full pages would be ${fmt(unbounded)} bytes, ${fmt(unbounded / budgetBytes, 1)} × it)`,
      ratio,
      target: "<= 1.05 (at most one message over), node alive after",
      pass: ratio <= 1.05 && complete && alive && !changed,
      note: alive ? `nodeInfo after: answered in ${after.ms.toFixed(1)} ms${changed ? `; ${changed}` : ""}` : `node NOT answering after (${after.error ?? after.status})${changed ? `; ${changed}` : ""}`,
    });
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
    return boundLine({
      name: "scan cost",
      figure: `sparse page getChat {chat, until: 1} limit 20 on a chat of ${fmt(MESSAGES)} messages, p50 ${sparseP50.toFixed(2)} ms (${sparseShape}; nodeInfo.limits.maxPageScan ${maxScan ?? "ABSENT"})`,
      baseline: `first page getChat {chat} limit 20, p50 ${firstP50.toFixed(2)} ms; ${sparse.length} of each, interleaved, one keep-alive connection, --workers 1${capped}`,
      ratio,
      target: "<= 10 (issue 19, before the fix: 76 ms against well under 1 ms)",
      pass: ratio <= 10 && failures.length === 0 && !changed,
      note: [failures.length ? `${failures.length} requests FAILED (${failures[0]})` : "", changed].filter(Boolean).join("; ") || undefined,
    });
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
    return boundLine({
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
    });
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
    return boundLine({
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
    });
  } finally {
    if (flood) await flood.close();
    await relay.stop();
    removeDir(dir);
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  if (process.env.BENCH_BOUNDS === "0") {
    process.stderr.write("bounds: skipped (BENCH_BOUNDS=0)\n");
    return 0;
  }
  const lib = { ...(await import("./lib.mjs")), ...(await import("../dist/storage/sqlite.js")) };
  const only = (process.env.BENCH_BOUNDS_ONLY ?? "1,2,3,4").split(",").map((s) => Number(s.trim()));
  const log = (text) => process.stderr.write(`${text}\n`);
  const out = (text) => process.stdout.write(`${text}\n`);
  const helpRun = spawnSync(process.execPath, [lib.MAIN, "--help"], { encoding: "utf8", timeout: 15_000 });
  const help = `${helpRun.stdout ?? ""}${helpRun.stderr ?? ""}`;
  const flags = flagDefaults(help);
  const ctx = { help, flags, log };
  const cpus = os.cpus();
  out(`# neutral relay bounds, ${new Date().toISOString()}: node ${process.version}, ${cpus.length} CPUs (${cpus[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM`);
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
  const bounds = [
    [1, answerSize],
    [2, scanCost],
    [3, connectionsHeld],
    [4, stalledBodies],
  ];
  let crashed = 0;
  const runStarted = performance.now();
  for (const [n, bound] of bounds) {
    if (!only.includes(n)) continue;
    log(`bound ${n}: ${bound.name}`);
    try {
      out(`${n} ${await within(bound(lib, ctx), 240_000, `bound ${n}`)}`);
    } catch (error) {
      crashed++;
      out(`${n} ERROR: the bench could not measure this bound: ${String(error.message).trim().replace(/\s*\n\s*/g, " | ")}`);
    }
  }
  out(`# ${((performance.now() - runStarted) / 1000).toFixed(0)} s`);
  return crashed ? 1 : 0;
}

const invoked = process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url;
if (invoked && process.argv[2] === "--flood") {
  await floodChild();
} else if (invoked) {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.once(signal, () => {
      process.stderr.write(`bounds: ${signal}, stopping every relay and flood, removing temp dirs\n`);
      cleanupNow();
      process.exit(130);
    });
  }
  process.once("exit", cleanupNow);
  let code = 1;
  try {
    code = await main();
  } catch (error) {
    process.stderr.write(`bounds: crashed: ${error.stack ?? error}\n`);
  } finally {
    cleanupNow();
  }
  process.exitCode = code;
}
