// Shared helpers of the benchmark suite (see run.mjs): users, tokens, signed records, seeding,
// relays, CPU and memory readings. Plain ESM over the relay's build output. The settings, the verdict
// line, the closing table and the cleanup registry are harness.mjs's.
import { createHash, randomBytes } from "node:crypto";
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import autocannon from "autocannon";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildSiweMessage, encodeBearerToken, hashTypedData, personalMessageDigest, tokenExpiry } from "@neutral/protocol";
import { loadSecp256k1 } from "../dist/crypto/secp256k1.js";
import { messageDigest } from "../dist/crypto/eip712.js";
import { openSqliteStore } from "../dist/storage/sqlite.js";
import { childPids, settings, trackProcess } from "./harness.mjs";

export { childPids };

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const MAIN = path.join(BENCH_DIR, "..", "dist", "main.js");
export const DOMAIN = "bench.neutral.invalid";
export const curve = loadSecp256k1();

const hex = (bytes) => Buffer.from(bytes).toString("hex");

/** The i-th benchmark user: a deterministic key (so a cached store keeps its meaning) and its address. */
export function user(i) {
  const privateKey = createHash("sha256").update(`neutral-bench-user:${i}`).digest();
  return { privateKey, address: curve.addressOf(privateKey) };
}

export function users(count) {
  return Array.from({ length: count }, (_, i) => user(i));
}

/** A SIWE bearer token (seeds/README.md §6), signed with the native curve: EIP-191 personal_sign of the text. */
export function token(u, { nonce = randomBytes(8).toString("hex"), lifetimeMs = 3 * 3_600_000 } = {}) {
  const issuedAt = Date.now();
  const text = buildSiweMessage({ domain: DOMAIN, address: u.address, uri: `http://${DOMAIN}/`, nonce, issuedAt, expiresAt: tokenExpiry(issuedAt, lifetimeMs) });
  return encodeBearerToken(text, `0x${hex(curve.sign(personalMessageDigest(text), u.privateKey))}`);
}

/** A client-signed sendMessage param (seeds/README.md “Signatures and receipts”), signed with the native curve. */
export function signedMessage(from, to, message, timestamp = Date.now()) {
  const fields = { from: from.address, to: to.address, message, timestamp };
  return { ...fields, signature: `0x${hex(curve.sign(messageDigest(fields), from.privateKey))}` };
}

/** A node key (0x + 64 hex, for --node-key) derived from `label`, and the node address it signs as. */
export function nodeKey(label) {
  const privateKey = createHash("sha256").update(`neutral-bench-node:${label}`).digest();
  return { key: `0x${hex(privateKey)}`, address: curve.addressOf(privateKey) };
}

/** A HomeRecord (openrpc.json "Federation") homing `u` at the node `node` (0x address), signed by `u` with the native curve: EIP-712 `Home`. */
export function homeRecord(u, node, timestamp = Date.now()) {
  const message = { account: u.address, node: node.toLowerCase(), timestamp };
  return { ...message, signature: `0x${hex(curve.sign(hashTypedData({ primaryType: "Home", message }), u.privateKey))}` };
}

/** A ConsentRecord (openrpc.json "Consent") of `u` about `peer` (0x address): EIP-712 `Consent`, signed with the native curve. */
export function consentRecord(u, peer, state, timestamp = Date.now()) {
  const message = { account: u.address, peer: peer.toLowerCase(), state, timestamp };
  return { ...message, signature: `0x${hex(curve.sign(hashTypedData({ primaryType: "Consent", message }), u.privateKey))}` };
}

/** A ConsentPolicy of `u` ("open" or "allowed-only"): EIP-712 `ConsentPolicy`, signed with the native curve. */
export function consentPolicy(u, mode, timestamp = Date.now()) {
  const message = { account: u.address, mode, timestamp };
  return { ...message, signature: `0x${hex(curve.sign(hashTypedData({ primaryType: "ConsentPolicy", message }), u.privateKey))}` };
}

// ---------------------------------------------------------------------------------------------
// Seeding

/**
 * Fills `dir`/neutral.sqlite through the storage layer's own append() (group-committed: every
 * append issued in one tick is one transaction). Signatures, receipts and digests are random but
 * well-formed (0x + 130 hex, v = 1b/1c): real ones would cost three secp256k1 operations each.
 * User 0 is the "deep" mailbox: it receives `deep` messages spread over the whole id range; the
 * others are sent between random users, so every mailbox's rows interleave with everyone's.
 */
export async function seed({ dir, messages, userCount, deep, chunk = 5000, onProgress, receiptKey }) {
  mkdirSync(dir, { recursive: true });
  const addresses = users(userCount).map((u) => u.address);
  const store = openSqliteStore({ file: path.join(dir, "neutral.sqlite"), synchronous: "normal", cacheSizeKiB: 512 * 1024, ...(receiptKey && { receiptKey }) });
  const start = Date.now();
  const span = 30 * 24 * 3_600_000;
  const firstTs = start - span - 3_600_000;
  const deepShare = deep / messages;
  const sig = (bytes, at) => `0x${bytes.toString("hex", at, at + 64)}${bytes[at + 64] & 1 ? "1c" : "1b"}`;
  for (let done = 0; done < messages; done += chunk) {
    const n = Math.min(chunk, messages - done);
    const appends = [];
    for (let k = 0; k < n; k++) {
      const i = done + k;
      const bodyBytes = 32 + Math.floor(Math.random() * 69); // 64..200 hex characters
      const r = randomBytes(32 + 65 * 3 + bodyBytes);
      const fromIndex = Math.floor(Math.random() * userCount);
      const toIndex = Math.random() < deepShare ? 0 : 1 + Math.floor(Math.random() * (userCount - 1));
      appends.push(
        store.append({
          from: addresses[fromIndex],
          to: addresses[toIndex],
          message: r.toString("hex", 227),
          timestamp: firstTs + Math.floor((i * span) / messages),
          signature: sig(r, 32),
          // With `receiptKey` the store signs both receipts over the copies' positions, as a node
          // does for every message it stores from spec 3.0.0: the message states them.
          ...(!receiptKey && { senderReceipt: sig(r, 97), receiverReceipt: sig(r, 162) }),
          digest: r.subarray(0, 32),
        }),
      );
    }
    await Promise.all(appends);
    onProgress?.(done + n, (Date.now() - start) / 1000);
  }
  await store.close();
  return (Date.now() - start) / 1000;
}

// ---------------------------------------------------------------------------------------------
// Processes

/** A free TCP port on loopback (bound then released). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU seconds (user + system) used so far by these processes. */
export function cpuSeconds(pids) {
  const tick = 100; // USER_HZ on Linux
  let total = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      total += (Number(fields[11]) + Number(fields[12])) / tick;
    } catch {
      // gone
    }
  }
  return total;
}

/** Bytes these processes caused to be written to storage so far (`write_bytes` of /proc/<pid>/io: page-cache writeback included). */
export function diskWriteBytes(pids) {
  let total = 0;
  for (const pid of pids) {
    try {
      total += Number(/^write_bytes:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return total;
}

/** CPU seconds the whole machine spent busy so far (all processes, kernel included). */
export function machineBusySeconds() {
  const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n", 1)[0].trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number);
  return (user + nice + system + irq + softirq + steal) / 100;
}

/** Proportional set size of one process (shared pages split among their users), bytes. */
export function pssOf(pid) {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** VmRSS of one process, bytes. */
export function rssOf(pid) {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) * 1024 : 0;
}

/**
 * Spawns `args` under node and waits until GET /health answers and `workers` children (if > 1) exist.
 * The child is in harness.mjs's cleanup registry from its spawn on (killed with its workers on exit,
 * an exception or a signal, even before it serves). `onSpawn(child)`: called at once with it.
 */
export async function startProcess({ args, port, workers = 1, env = {}, onSpawn }) {
  const child = trackProcess(spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } }));
  onSpawn?.(child);
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  if (settings.verbose) child.stderr.pipe(process.stderr);
  let exited = false;
  const exit = new Promise((resolve) => child.on("exit", (code, signal) => ((exited = true), resolve({ code, signal }))));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`${args.join(" ")} exited before serving:\n${output}`);
    if (Date.now() > deadline) throw new Error(`${args.join(" ")} did not serve within 60 s:\n${output}`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok && (workers <= 1 || childPids(child.pid).length >= workers)) break;
    } catch {
      // not yet
    }
    await sleep(100);
  }
  if (workers > 1) await sleep(1000); // let every worker finish starting
  return {
    url,
    pid: child.pid,
    output: () => output,
    /** Bytes: the process plus its children. */
    rss: () => [child.pid, ...childPids(child.pid)].reduce((sum, pid) => sum + rssOf(pid), 0),
    pss: () => [child.pid, ...childPids(child.pid)].reduce((sum, pid) => sum + pssOf(pid), 0),
    /** VmRSS of each process, bytes, the primary first. */
    rssEach: () => [child.pid, ...childPids(child.pid)].map(rssOf),
    pids: () => [child.pid, ...childPids(child.pid)],
    async stop() {
      if (!exited) child.kill("SIGTERM");
      const timer = setTimeout(() => !exited && child.kill("SIGKILL"), 20_000);
      const result = await exit;
      clearTimeout(timer);
      return result;
    },
  };
}

/**
 * `port`: a fixed one (e.g. a node restarted where its peers expect it); default a free one.
 * `main`: the entry to run (default dist/main.js; run.mjs's relay without the log is another).
 */
export async function startRelay({ dataDir, workers, extraArgs = [], env, port: fixedPort, onSpawn, main = MAIN }) {
  const port = fixedPort ?? (await freePort());
  const args = [
    ...settings.relayNodeArgs,
    main,
    "--host", "127.0.0.1",
    "--port", String(port),
    "--data-dir", dataDir,
    "--workers", String(workers),
    "--rate-limit", "0",
    "--log-level", "warn",
    "--domain", DOMAIN,
    ...extraArgs,
  ];
  return startProcess({ args, port, workers, env, onSpawn });
}

export async function startBaseline({ payloadFile, workers }) {
  const port = await freePort();
  return startProcess({ args: [path.join(BENCH_DIR, "baseline-server.mjs"), String(port), payloadFile, String(workers)], port, workers });
}

// ---------------------------------------------------------------------------------------------
// Data-dir cache

/** A seeded store under bench/.data/, reused while its parameters match. */
export async function seededStore({ messages, userCount, deep, log }) {
  // v2: seeded by schema version 5's appends (sent rows without JSON). A v1 store still opens (the
  // migration rewrites nothing), but its rows are laid out as an upgraded node's, not a new one's.
  // v3: every message's receipts signed by the store over its copies' positions (`LogReceipt`, spec
  // 3.0.0), with the node key the relays then find in the folder: each message states its positions
  // (`sender_seq`, `receiver_seq`), as every message a node stored since 3.0.0 does. A v2 store's
  // messages state none (their receipts were given, unbound), as those of a node older than 3.0.0.
  const key = `m${messages}-u${userCount}-d${deep}-v3`;
  const dir = path.join(BENCH_DIR, ".data", key);
  const marker = path.join(dir, "seeded.json");
  if (existsSync(marker)) {
    const info = JSON.parse(readFileSync(marker, "utf8"));
    // A store seeded by an older relay gets this relay's migrations now, not in a timed run.
    await openSqliteStore({ file: path.join(dir, "neutral.sqlite") }).close();
    return { dir, ...info, cached: true };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const receiptKey = nodeKey("seeded-store");
  writeFileSync(path.join(dir, "node.key"), `${receiptKey.key}\n`, { mode: 0o600 });
  let lastReport = Date.now();
  const seconds = await seed({
    dir,
    messages,
    userCount,
    deep,
    receiptKey: Buffer.from(receiptKey.key.slice(2), "hex"),
    chunk: Math.min(100_000, messages),
    onProgress: (done, elapsed) => {
      if (Date.now() - lastReport > 10_000 || done === messages) {
        lastReport = Date.now();
        log(`  seeding: ${done}/${messages} messages in ${elapsed.toFixed(0)} s (${Math.round(done / elapsed)} msg/s)`);
      }
    },
  });
  const Database = (await import("better-sqlite3")).default;
  const db = new Database(path.join(dir, "neutral.sqlite"));
  const maxId = db.prepare("SELECT max(id) AS id FROM messages").get().id;
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  const info = { messages, userCount, deep, maxId, seedSeconds: seconds, seededAt: new Date().toISOString() };
  writeFileSync(marker, JSON.stringify(info, null, 2));
  return { dir, ...info, cached: false };
}

/** The database page size (SQLite's and PostgreSQL's): the unit in which a node reads its files. */
const DATABASE_PAGE = 8192;

/**
 * Puts a database file into the OS page cache the way a long-running node's own I/O does, so that
 * first-touch disk reads do not set the figures: its cached pages are dropped first (`dd
 * iflag=nocache`), then it is read one 8 KiB page at a time, in a random order.
 *
 * Not one sequential pass: on this machine's disk (`read_ahead_kb` 8192) a sequential read fills the
 * page cache with folios of up to several MB, which a node never has (its file comes into the cache
 * through its own 8 KiB writes and random reads). Each 8 KiB write into such a folio makes the
 * kernel walk all its buffer heads (`ext4_block_write_begin`), and the writer's system time per
 * append into the 1M store rose from ~115 to 156–200 µs, while a page read got ~10 % faster
 * (bench/HISTORY.md, "How the bench measures").
 *
 * Returns the bytes read and whether the file's earlier cached pages could be dropped.
 */
export function warmFile(file) {
  if (!existsSync(file)) return { bytes: 0, dropped: true };
  const dropped = spawnSync("dd", [`if=${file}`, "iflag=nocache", "count=0"], { stdio: "ignore" }).status === 0;
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const order = Uint32Array.from({ length: Math.ceil(size / DATABASE_PAGE) }, (_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    const buffer = Buffer.allocUnsafe(DATABASE_PAGE);
    for (const page of order) readSync(fd, buffer, 0, DATABASE_PAGE, page * DATABASE_PAGE);
    return { bytes: size, dropped };
  } finally {
    closeSync(fd);
  }
}

/** Removes what a previous benchmark run sent into a cached store (ids above the seeded ones). */
export async function resetStore(dir, maxId) {
  const Database = (await import("better-sqlite3")).default;
  const db = new Database(path.join(dir, "neutral.sqlite"));
  // mailbox is clustered by (owner, side, id): find each row by its sender, not by a scan.
  const added = db.prepare("SELECT id, sender FROM messages WHERE id > ?");
  const recipient = db.prepare("SELECT peer FROM mailbox WHERE owner = ? AND side = 2 AND id = ?").pluck();
  const drop = db.prepare("DELETE FROM mailbox WHERE owner = ? AND side = ? AND id = ? RETURNING seq");
  // Their positions go too (schema version 11): the owners' logs end where the seeding left them.
  const dropPosition = db.prepare("DELETE FROM mailbox_log WHERE account = (SELECT n FROM log_accounts WHERE address = ?) AND seq = ?");
  // And the tiles those positions completed (a tile is kept once its last position is): left, the
  // next run's appends would keep the same tile again, and the primary key refuses it, failing the
  // append (a JSON-RPC error, HTTP 200: miscounted as acknowledged sends).
  const dropTiles = db.prepare(
    "DELETE FROM log_tiles WHERE account = (SELECT n FROM log_accounts WHERE address = @owner) AND " +
      "((idx + 1) << level) > coalesce((SELECT max(l.seq) FROM mailbox_log AS l JOIN log_accounts AS a ON a.n = l.account WHERE a.address = @owner), 0)",
  );
  const dropPair = db.prepare("DELETE FROM pairs WHERE sender = ? AND recipient = ? AND id = ?");
  const removed = db.transaction(() => {
    const owners = new Map();
    for (const { id, sender } of added.all(maxId)) {
      const to = recipient.get(sender, id);
      const forget = (owner, side) => {
        const row = drop.get(owner, side, id);
        if (row?.seq != null) {
          dropPosition.run(owner, row.seq);
          owners.set(owner.toString("hex"), owner);
        }
      };
      forget(sender, 2);
      if (to) {
        forget(to, 1);
        dropPair.run(sender, to, id);
      }
    }
    for (const owner of owners.values()) dropTiles.run({ owner });
    return db.prepare("DELETE FROM messages WHERE id > ?").run(maxId).changes;
  })();
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  return removed;
}

// ---------------------------------------------------------------------------------------------
// Statistics

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export const jsonHeaders = (bearer) => ({ "content-type": "application/json", authorization: `Bearer ${bearer}` });

/** Sender indexes 0…count-1 dealt to `connections` slots: slot c gets the i with i % connections == c. */
export function slices(count, connections) {
  return Array.from({ length: connections }, (_, slot) => {
    const list = [];
    for (let i = slot; i < count; i += connections) list.push(i);
    return list;
  });
}

/**
 * The send load of federation.mjs and live.mjs: autocannon in this process on `connections`
 * keep-alive connections. Connection c serves the senders i with i % connections == c, each with
 * its own bearer token (`senderTokens[i]`); it first sends one getInbox per token of its slice (the
 * relay verifies a token once, then serves it from its cache), and the timed window (`duration` s)
 * opens once every connection is warm. Then each connection sends its share of `list` (pre-signed
 * messages, sender j % senderTokens.length), in order; one that has sent all of its own asks
 * `whenExhausted(senderIndex)` for the message to send (default: its own again, counted in `repeats`).
 *
 * `counters()` is snapshotted when the window opens and ends (`window`, `end`; `onOpen` runs at the
 * opening). Inside the window every answer to a send goes to `onAnswer(stored, status, text)`
 * (`stored`: a 200 carrying the sender's receipt), a connection error as `onAnswer(false, 0, text)`.
 * Returns the window's sorted latencies (ms), the snapshots, the sends answered stored over the
 * whole run (`acknowledged`, warm-up included) and `repeats`. `until` (a promise) closes the
 * window early when it settles (backup.mjs: once the backup is done).
 */
export async function sendLoadWindow({ url, connections, list, senderTokens, duration, counters, onOpen = () => {}, onAnswer, whenExhausted, until }) {
  const senderCount = senderTokens.length;
  // Each connection sends as senders of its own: a connection without one would send nothing valid.
  if (senderCount < connections) throw new Error(`sendLoadWindow: ${senderCount} senders for ${connections} connections; each connection needs one at least`);
  const senderSlices = slices(senderCount, connections);
  const bodies = list.map((m, j) => Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: j + 1, method: "neutralService_sendMessage", params: [m] })));
  const warmBody = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_getInbox", params: [{}, 1] }));
  const bySlot = Array.from({ length: connections }, () => []);
  list.forEach((_, j) => bySlot[(j % senderCount) % connections].push(j));
  const latencies = new Float64Array(4_000_000);
  let count = 0;
  let repeats = 0;
  let acknowledged = 0;
  let window;
  let end;
  let instance;
  let warmConnections = 0;
  let slots = 0;
  let timer;
  const close = () => {
    if (end) return;
    end = counters();
    clearTimeout(timer); // closed early by `until`: the window's timer would keep the process alive
    instance.stop();
  };
  const begin = () => {
    window = counters();
    onOpen();
    timer = setTimeout(close, duration * 1000);
    until?.then(close, close);
  };
  instance = autocannon({
    url,
    connections,
    duration: duration + 600, // a bound only: stopped `duration` s after the window opens
    timeout: 30,
    requests: [
      {
        method: "POST",
        path: "/",
        state: { slot: -1, n: 0, warm: true, warmed: 0 }, // per connection
        setupRequest(request) {
          const state = request.state;
          if (state.slot < 0) state.slot = slots++;
          if (state.warm) {
            const senders = senderSlices[state.slot];
            if (state.warmed < senders.length) {
              request.headers = jsonHeaders(senderTokens[senders[state.warmed++]]);
              request.body = warmBody;
              return request;
            }
            state.warm = false;
            if (++warmConnections === connections) begin();
          }
          const mine = bySlot[state.slot];
          if (state.n >= mine.length && whenExhausted) {
            const sender = senderSlices[state.slot][state.n++ % senderSlices[state.slot].length];
            request.headers = jsonHeaders(senderTokens[sender]);
            request.body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_sendMessage", params: [whenExhausted(sender)] });
            return request;
          }
          if (state.n >= mine.length) repeats++;
          const j = mine[state.n++ % mine.length];
          request.headers = jsonHeaders(senderTokens[j % senderCount]);
          request.body = bodies[j];
          return request;
        },
        onResponse(status, body) {
          const text = String(body);
          if (text.includes('"data":[')) return; // a warm-up getInbox
          const stored = status === 200 && text.includes('"sender_receipt"') && !text.includes('"error"');
          if (stored) acknowledged++;
          if (!window || end) return;
          onAnswer(stored, status, text);
        },
      },
    ],
  });
  // A connection error is a failed send too (e.g. the node resetting connections over a limit).
  instance.on("reqError", (error) => {
    if (!window || end) return;
    onAnswer(false, 0, `connection error ${error?.code ?? error?.message ?? error}`);
  });
  instance.on("response", (_client, _status, _bytes, responseTime) => {
    if (!window || end) return;
    if (count < latencies.length) latencies[count++] = responseTime;
  });
  await instance;
  if (!window || !end) throw new Error("load: the run ended before its timed window did");
  return { latencies: latencies.subarray(0, count).sort(), window, end, acknowledged, repeats };
}

/** This process's open-file limits (`/proc/<pid>/limits`). */
export function openFileLimit(pid = process.pid) {
  const match = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m.exec(readFileSync(`/proc/${pid}/limits`, "utf8"));
  const value = (text) => (text === "unlimited" ? Infinity : Number(text));
  return match ? { soft: value(match[1]), hard: value(match[2]) } : { soft: Infinity, hard: Infinity };
}

/**
 * Raises this process's soft open-file limit to `needed` (the relays and floods it spawns inherit
 * it), or throws saying what to do: `ulimit -n`, or lower the knob `lowerIt` names.
 */
export function ensureOpenFiles(needed, lowerIt) {
  const { soft, hard } = openFileLimit();
  if (soft >= needed) return soft;
  if (hard >= needed) {
    const result = spawnSync("prlimit", ["--pid", String(process.pid), `--nofile=${needed}:${hard === Infinity ? "unlimited" : hard}`], { encoding: "utf8" });
    if (result.status === 0 && openFileLimit().soft >= needed) return needed;
  }
  throw new Error(`the open-file limit is ${soft} (hard ${hard}); ${needed} are needed: run \`ulimit -n ${needed}\` first, or set ${lowerIt} lower`);
}
