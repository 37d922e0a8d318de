// The relay process's life: start-up, identity, restarts, crashes, graceful stop, workers, flags.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { call, post, startRelay, tempDir } from "../testing/index.js";
import { TEST_KEYS, wallet, xOnlyKeyOf } from "../test/wallets.js";
import { WORKER_V8_FLAGS } from "./worker-flags.js";

const MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "dist", "main.js");
const alice = wallet(TEST_KEYS.alice);
const bob = wallet(TEST_KEYS.bob);

async function inboxIds(url: string, token: string): Promise<string[]> {
  const ids: string[] = [];
  let before: string | null = null;
  for (;;) {
    const page: { data: { id: string }[]; end: boolean } = (await call(url, "neutralService_getInbox", [{}, 100, null, before], token)).body.result[0];
    ids.push(...page.data.map((message) => message.id));
    if (page.end) return ids;
    before = page.data[page.data.length - 1]!.id;
  }
}

describe("identity and durability", () => {
  it("generates a node key on first start (mode 0600) and keeps identity and messages across a restart", async () => {
    const dataDir = tempDir();
    const first = await startRelay({ dataDir });
    expect(first.logs.some((log) => log.msg === "generated a node key")).toBe(true);
    expect(statSync(path.join(dataDir, "node.key")).mode & 0o777).toBe(0o600);
    const token = await alice.token({ domain: first.domain });
    const sent = await call(first.url, "neutralService_sendMessage", [await alice.sign({ to: bob.address, message: "0102" })], token);
    const bundle = await alice.signKeyBundle({ key: xOnlyKeyOf(TEST_KEYS.carol), timestamp: Date.now() });
    const published = await call(first.url, "neutralService_publishKey", [bundle], token);
    expect(published.body.result[0]).toMatchObject({ account: alice.address, timestamp: bundle.timestamp });
    expect((await first.stop()).code).toBe(0);

    const second = await startRelay({ dataDir });
    expect(second.address).toBe(first.address);
    expect(second.logs.some((log) => log.msg === "generated a node key")).toBe(false);
    const bobToken = await bob.token({ domain: second.domain });
    const inbox = await call(second.url, "neutralService_getInbox", [], bobToken);
    expect(inbox.body.result[0].data).toEqual(sent.body.result);
    expect((await call(second.url, "neutralService_getKey", [alice.address])).body.result).toEqual(published.body.result);
    await second.stop();
  });

  it("loses no acknowledged message when killed with SIGKILL right after the acknowledgements", async () => {
    const dataDir = tempDir();
    const relay = await startRelay({ dataDir });
    const token = await alice.token({ domain: relay.domain });
    const messages = await Promise.all(Array.from({ length: 200 }, (_, i) => alice.sign({ to: bob.address, message: i.toString(16).padStart(4, "0") })));
    const acknowledged = await Promise.all(
      messages.map(async (message) => (await call(relay.url, "neutralService_sendMessage", [message], token)).body.result[0].id as string),
    );
    // More sends in flight when the process dies: some commit, some do not, none half.
    const inFlight = await Promise.all(Array.from({ length: 100 }, (_, i) => alice.sign({ to: bob.address, message: `ee${i.toString(16).padStart(4, "0")}` })));
    const unanswered = inFlight.map((message) => call(relay.url, "neutralService_sendMessage", [message], token).catch(() => undefined));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await relay.crash();
    await Promise.all(unanswered);

    const after = await startRelay({ dataDir });
    const stored = await inboxIds(after.url, await bob.token({ domain: after.domain }));
    expect(stored.length).toBeGreaterThanOrEqual(200);
    expect(new Set(stored)).toEqual(new Set([...acknowledged, ...stored.slice(0, stored.length - 200)]));
    // The mailbox log: each account's positions have no gap and match its copies one for one.
    const db = new Database(path.join(dataDir, "neutral.sqlite"), { readonly: true });
    try {
      for (const account of [alice.address, bob.address]) {
        const owner = Buffer.from(account.slice(2), "hex");
        const copies = db.prepare<[Buffer], { seq: number; id: number }>("SELECT seq, id FROM mailbox WHERE owner = ? ORDER BY seq").all(owner);
        expect(copies.map((entry) => entry.seq)).toEqual(copies.map((_, i) => i + 1));
        expect(copies).toHaveLength(stored.length);
        // Positions go into mailbox_log a tile (16) at a time (schema version 17): the logged ones are the copies' first.
        const logged = db.prepare<[Buffer], { seq: number; id: number }>("SELECT l.seq, l.id FROM log_accounts AS a JOIN mailbox_log AS l ON l.account = a.n WHERE a.address = ? ORDER BY l.seq").all(owner);
        expect(logged).toEqual(copies.slice(0, logged.length));
        expect(copies.length - logged.length).toBeLessThan(16);
      }
    } finally {
      db.close();
    }
    await after.stop();
  });

  it("with several workers, every send gets a unique id and every worker reads them all; the primary commits and checkpoints", async () => {
    const dataDir = tempDir();
    const relay = await startRelay({ workers: 2, dataDir });
    expect(relay.logs.find((log) => log.msg === "listening")?.workers).toBe(2);
    const database = path.join(dataDir, "neutral.sqlite");
    const schemaOnly = statSync(database).size;
    const token = await alice.token({ domain: relay.domain });
    const messages = await Promise.all(Array.from({ length: 60 }, (_, i) => alice.sign({ to: bob.address, message: `ff${i.toString(16).padStart(2, "0")}` })));
    // Fresh connections so the kernel spreads them over both workers.
    const ids = await Promise.all(
      messages.map(async (message) => (await post(relay.url, { jsonrpc: "2.0", id: 1, method: "neutralService_sendMessage", params: [message] }, token, { connection: "close" })).body.result[0].id as string),
    );
    expect(new Set(ids).size).toBe(60);
    // Both workers commit through the primary's one writer: a resend through either is recognised.
    const resent = await Promise.all(
      messages.slice(0, 20).map(async (message) => (await post(relay.url, { jsonrpc: "2.0", id: 2, method: "neutralService_sendMessage", params: [message] }, token, { connection: "close" })).body.result[0].id as string),
    );
    expect(resent).toEqual(ids.slice(0, 20));
    const bobToken = await bob.token({ domain: relay.domain });
    for (let i = 0; i < 4; i++) {
      expect(new Set(await inboxIds(relay.url, bobToken))).toEqual(new Set(ids));
    }
    // The primary's writer has a checkpointer thread beside it, which copies the WAL into the
    // database file while the workers serve.
    for (let i = 0; i < 100 && statSync(database).size <= schemaOnly; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(statSync(database).size).toBeGreaterThan(schemaOnly);
    const { code } = await relay.stop();
    expect(code).toBe(0);
    expect(existsSync(`${database}-wal`)).toBe(false); // closed last, after the workers: the WAL is folded in and removed
    rmSync(dataDir, { recursive: true, force: true });
  });
});

it("replaces a worker that dies, and keeps serving; every worker runs with the worker V8 flags", async () => {
  const relay = await startRelay({ workers: 2, args: ["--log-level", "debug"] });
  // Each worker logs "worker listening" itself (debug), under its own pid.
  const listening = () => new Set(relay.logs.filter((log) => log.msg === "worker listening").map((log) => log.pid));
  const children = async () =>
    (await promisify(execFile)("pgrep", ["-P", String(relay.process.pid)]).catch(() => ({ stdout: "" }))).stdout.split("\n").filter(Boolean).map(Number);
  for (let i = 0; i < 200 && listening().size < 2; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(listening().size).toBe(2); // both serve before one is killed
  const before = await children();
  expect(before).toHaveLength(2);
  const nodeFlags = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  for (const pid of before) expect(nodeFlags(pid)).toEqual(expect.arrayContaining([...WORKER_V8_FLAGS]));
  process.kill(before[0]!, "SIGKILL");
  for (let i = 0; i < 100 && !relay.logs.some((log) => log.msg === "worker exited unexpectedly"); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(relay.logs.find((log) => log.msg === "worker exited unexpectedly")).toMatchObject({ signal: "SIGKILL" });
  for (let i = 0; i < 100 && (await children()).length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  const after = await children();
  expect(after).toHaveLength(2);
  expect(after).not.toContain(before[0]);
  const replacement = after.find((pid) => !before.includes(pid))!;
  for (let i = 0; i < 200 && !listening().has(replacement); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(listening()).toContain(replacement); // the replacement serves too
  expect(nodeFlags(replacement)).toEqual(expect.arrayContaining([...WORKER_V8_FLAGS]));
  for (let i = 0; i < 5; i++) expect((await post(relay.url, { jsonrpc: "2.0", id: i, method: "neutralService_nodeInfo" }, undefined, { connection: "close" })).status).toBe(200);
  expect((await relay.stop()).code).toBe(0);
});

it("started on --port 0, keeps its port when every worker dies at once: their replacements listen where the node did", { timeout: 60_000 }, async () => {
  const relay = await startRelay({ workers: 2, args: ["--port", "0", "--log-level", "debug"] });
  const listening = () => [...new Set(relay.logs.filter((log) => log.msg === "worker listening").map((log) => log.pid as number))];
  for (let i = 0; i < 200 && listening().length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  const first = listening();
  expect(first).toHaveLength(2);
  for (const pid of first) process.kill(pid, "SIGKILL");
  for (let i = 0; i < 400 && listening().length < 4; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(listening()).toHaveLength(4); // two replacements, each serving
  const status = async () => {
    try {
      return (await post(relay.url, { jsonrpc: "2.0", id: 1, method: "neutralService_nodeInfo" }, undefined, { connection: "close" })).status;
    } catch (error) {
      return String((error as { cause?: { code?: string } }).cause?.code ?? error);
    }
  };
  let answer: number | string = "not asked";
  for (let i = 0; i < 100 && answer !== 200; i++) {
    answer = await status();
    if (answer !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(answer, "the node's URL answers again").toBe(200);
  expect((await relay.stop()).code).toBe(0);
});

describe("stopping", () => {
  it("SIGTERM lets an in-flight request finish, then exits 0", async () => {
    const relay = await startRelay();
    const { port } = new URL(relay.url);
    const body = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "neutralService_nodeInfo", params: [] });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, method: "POST", path: "/", headers: { "content-type": "application/json", "content-length": body.length } }, (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, text }));
      });
      req.on("error", reject);
      req.write(body.slice(0, 10)); // the request is in flight: half its body sent
      setTimeout(() => {
        relay.process.kill("SIGTERM");
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 200);
    });
    const { status, text } = await answer;
    expect(status).toBe(200);
    expect(JSON.parse(text).id).toBe(7);
    const exit = await relay.stop();
    expect(exit.code).toBe(0);
    expect(relay.logs.some((log) => log.msg === "stopped")).toBe(true);
  });
});

describe("command line", () => {
  const run = promisify(execFile);

  it("--help lists every flag with its environment variable", async () => {
    const { stdout } = await run(process.execPath, [MAIN, "--help"]);
    for (const flag of ["--host", "--port", "--data-dir", "--domain", "--node-key", "--log-level", "--workers", "--rate-limit"]) expect(stdout).toContain(flag);
    for (const variable of ["NEUTRAL_HOST", "NEUTRAL_PORT", "NEUTRAL_DATA_DIR", "NEUTRAL_DOMAIN", "NEUTRAL_NODE_KEY"]) expect(stdout).toContain(variable);
  });

  it("a bad flag exits 2 naming it, and a bad key is not echoed", async () => {
    const bad = await run(process.execPath, [MAIN, "--port", "99999"]).catch((error: { code: number; stderr: string }) => error);
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr).toContain("--port");
    const secret = `0x${"ab".repeat(31)}`;
    const key = await run(process.execPath, [MAIN, "--node-key", secret]).catch((error: { code: number; stderr: string }) => error);
    expect(key).toMatchObject({ code: 2 });
    expect((key as { stderr: string }).stderr).not.toContain(secret);
  });

  it("takes its settings from NEUTRAL_* variables and uses a configured node key", async () => {
    const relay = await startRelay({ env: { NEUTRAL_NODE_KEY: TEST_KEYS.node, NEUTRAL_DOMAIN: "a.example,b.example:8443" } });
    expect(relay.address).toBe("0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc");
    const info = await call(relay.url, "neutralService_nodeInfo", []);
    expect(info.body.result[0].domains).toEqual(["a.example", "b.example:8443"]);
    const token = await alice.token({ domain: "b.example:8443" });
    expect((await call(relay.url, "neutralService_getInbox", [], token)).status).toBe(200);
    await relay.stop();
  });

  it("reads a --config file (TOML), the variables and flags over it; a bad key stops it with exit 2 naming the file and the key", { timeout: 60_000 }, async () => {
    const dir = tempDir("neutral-config-");
    try {
      const file = path.join(dir, "neutral.toml");
      writeFileSync(file, ['domain = ["file.example"]', "max-batch = 7", "max-message-bytes = 4096", "peer-rate-limit = 0"].join("\n"));
      const relay = await startRelay({ args: ["--config", file, "--max-message-bytes", "2048"] });
      const { limits, domains } = (await call(relay.url, "neutralService_nodeInfo", [])).body.result[0];
      expect(domains).toEqual(["file.example"]);
      expect(limits).toMatchObject({ maxBatch: 7, maxMessageBytes: 2048 });
      expect(limits.peerRateLimit).toBeUndefined();
      await relay.stop();

      writeFileSync(file, "max-batch = 7\nmax-bach = 8\n");
      const bad = await run(process.execPath, [MAIN, "--config", file]).catch((error: { code: number; stderr: string }) => error);
      expect(bad).toMatchObject({ code: 2 });
      expect((bad as { stderr: string }).stderr).toBe(`neutral-relay: ${file}: unknown key "max-bach" (the keys are the flags' names, without --; see --help)\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("rate-limits a client with 429, Retry-After and -32029", async () => {
    const relay = await startRelay({ args: ["--rate-limit", "1"] });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await call(relay.url, "neutralService_nodeInfo", []));
    expect(answers.slice(0, 2).map((answer) => answer.status)).toEqual([200, 200]);
    const limited = answers.find((answer) => answer.status === 429);
    expect(limited?.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(limited?.body.error.code).toBe(-32029);
    expect((await fetch(`${relay.url}/health`)).status).toBe(200); // liveness is never limited
    await relay.stop();
  });
});
