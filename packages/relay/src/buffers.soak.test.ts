// Soak (pnpm test:soak). Memory held for clients (issue 19, findings 5 and 2): floods of stalled
// request bodies and of answers nobody reads are bounded per client address and per process,
// refused cleanly past the bound, and let go of in bounded time. Real relays on loopback; each client from its own address in 127.0.0.0/8.
import type net from "node:net";
import { describe, expect, it } from "vitest";
import { childPids, connectFrom, httpFrom, NODE_INFO, pssBytes, serves, sleep } from "../test/clients.js";
import { call, startRelay, type RunningRelay } from "../testing/index.js";
import { TEST_KEYS, wallet } from "../test/wallets.js";

const MiB = 1024 * 1024;
const alice = wallet(TEST_KEYS.alice);

const relayPids = async (relay: RunningRelay) => [relay.process.pid!, ...(await childPids(relay.process.pid!))];
/** Lets a worker's garbage go, then measures: growth that GC cannot take back is what counts. */
async function settledPss(relay: RunningRelay): Promise<number> {
  await sleep(1000);
  return pssBytes(await relayPids(relay));
}

const head = (length: number, extra = "") => `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`;

describe("memory held for clients", () => {
  it("600 stalled 1 MiB bodies hold at most the configured bytes; a client from another address is served; they are dropped at --request-timeout-ms", { timeout: 120_000 }, async () => {
    const relay = await startRelay({
      workers: 2,
      env: { NEUTRAL_MAX_BUFFERED_BYTES: String(16 * MiB), NEUTRAL_MAX_BUFFERED_BYTES_PER_IP: String(2 * MiB), NEUTRAL_REQUEST_TIMEOUT_MS: "8000", NEUTRAL_HEADERS_TIMEOUT_MS: "8000" },
    });
    const stalled: net.Socket[] = [];
    try {
      expect(await serves(relay.url)).toBe(true);
      const before = await settledPss(relay);
      const body = Buffer.alloc(MiB - 1, 0x20); // JSON whitespace, one byte short of the declared 1 MiB (the largest body allowed)
      for (let i = 0; i < 600; i++) {
        const socket = await connectFrom(relay.url, `127.0.0.${100 + (i % 4)}`);
        socket.on("error", () => {});
        socket.resume(); // takes the 408, and so sees the close
        socket.write(head(MiB));
        socket.write(body);
        stalled.push(socket);
      }
      await sleep(1500); // the node has read what it will read
      const during = await settledPss(relay);
      // Four attacking addresses × 2 MiB × 2 workers = 16 MiB may be held, plus each process's churn.
      expect(during - before, `PSS grew from ${before} to ${during}`).toBeLessThan(120 * MiB);
      const honest = await httpFrom(relay.url, "127.0.0.110", { body: NODE_INFO, timeoutMs: 5000 });
      expect(honest.status).toBe(200);
      // Past the request timeout the stalled ones are closed (408), and what they held goes.
      const closed = await Promise.all(
        stalled.map((socket) => new Promise<boolean>((resolve) => (socket.destroyed ? resolve(true) : (socket.once("close", () => resolve(true)), setTimeout(() => resolve(false), 15_000))))),
      );
      expect(closed.every(Boolean)).toBe(true);
    } finally {
      for (const socket of stalled) socket.destroy();
      await relay.stop();
    }
  });

  it("clients that post reads and never take the answers hold at most the configured bytes; others are served, later the unread answers are abandoned", { timeout: 180_000 }, async () => {
    const relay = await startRelay({
      workers: 2,
      env: {
        NEUTRAL_MAX_BUFFERED_BYTES: String(32 * MiB),
        NEUTRAL_MAX_BUFFERED_BYTES_PER_IP: String(8 * MiB),
        // Long enough that the unread answers still count when the attacker asks again, however long
        // the PSS reading takes on a loaded machine (5 s let them go first in a clean CI run).
        NEUTRAL_WRITE_TIMEOUT_MS: "20000",
        NEUTRAL_SENDER_QUOTA_MESSAGES: "0",
        NEUTRAL_SENDER_QUOTA_BYTES: "0",
        NEUTRAL_RECIPIENT_QUOTA_MESSAGES: "0",
        NEUTRAL_RECIPIENT_QUOTA_BYTES: "0",
      },
    });
    const readers: net.Socket[] = [];
    try {
      // 60 messages of 64 KiB to herself: a page of 100 is as large as an answer may be (several MiB).
      const token = await alice.token({ domain: relay.domain });
      for (let i = 0; i < 60; i++) {
        const sent = await call(relay.url, "neutralService_sendMessage", [await alice.sign({ to: alice.address, message: (i % 256).toString(16).padStart(2, "0").repeat(64 * 1024) })], token);
        expect(sent.status).toBe(200);
      }
      const inbox = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_getInbox", params: [{}, 100] });
      const page = await call(relay.url, "neutralService_getInbox", [{}, 100], token);
      const pageBytes = page.text.length;
      expect(pageBytes).toBeGreaterThan(2 * MiB);
      const before = await settledPss(relay);

      // 60 connections from 3 addresses, 4 pipelined reads each, never read.
      const request = head(inbox.length, `Authorization: Bearer ${token}\r\n`) + inbox;
      for (let i = 0; i < 60; i++) {
        const socket = await connectFrom(relay.url, `127.0.0.${120 + (i % 3)}`);
        socket.on("error", () => {});
        socket.pause();
        socket.write(request.repeat(4));
        readers.push(socket);
      }
      await sleep(3000);
      const during = await settledPss(relay);
      // Unbounded, each connection would make its worker hold what the kernel does not take (MiBs each).
      expect(during - before, `PSS grew from ${before} to ${during}`).toBeLessThan(150 * MiB);

      const honest = await httpFrom(relay.url, "127.0.0.130", { body: inbox, headers: { authorization: `Bearer ${token}` }, timeoutMs: 10_000 });
      expect(honest.status).toBe(200);
      expect(JSON.parse(honest.text).result[0].data).toHaveLength(page.body.result[0].data.length);
      // Each attacking address holds two unread pages per worker (~7.8 of its 8 MiB): a third is refused.
      const asAttacker = () => httpFrom(relay.url, "127.0.0.120", { body: inbox, headers: { authorization: `Bearer ${token}` }, timeoutMs: 10_000 });
      const refused = await asAttacker();
      expect(refused.status, "an address holding its bound is refused").toBe(429);
      expect(refused.headers["retry-after"]).toBe("1");
      expect(JSON.parse(refused.text)).toMatchObject({ error: { code: -32029 } });

      // Past --write-timeout-ms the unread answers' connections are destroyed and what they held goes back.
      let retry = refused;
      for (let i = 0; i < 100 && retry.status !== 200; i++) {
        await sleep(500);
        retry = await asAttacker();
      }
      expect(retry.status).toBe(200);
      expect(await settledPss(relay)).toBeLessThan(during);
    } finally {
      for (const socket of readers) socket.destroy();
      await relay.stop();
    }
  });
});
