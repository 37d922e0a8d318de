// What an event stream holds for its client counts like an unread answer (issue 33, finding 1): its
// unsent events count against its client's and the process's bounds (`heldBytes`), a stalled stream
// is dropped first when the process needs room, and a client that reads a little now and then
// cannot keep a stream it does not keep up with.
import { createServer, type Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createDispatcher } from "./dispatcher.js";
import { RpcError } from "./errors.js";
import { createHttpHandler, type HttpHandlerOptions } from "./http.js";
import { service } from "./neutral-service.js";
import { alice, createTestHandlers, message, type TestContext, type TestFeed } from "../test/handlers.js";

const KiB = 1024;

let server: Server | undefined;
const sockets = new Set<net.Socket>();

afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function start(options: Partial<HttpHandlerOptions<TestContext>>): Promise<{ port: number; feed: TestFeed }> {
  const { handlers, feed } = createTestHandlers();
  const handler = createHttpHandler<TestContext>({
    dispatcher: createDispatcher<TestContext>({ service, handlers }),
    authenticate(authorization) {
      if (authorization === "Bearer alice") return { auth: { address: alice } };
      throw RpcError.unauthorized("missing token");
    },
    streams: { keepAliveMs: 15_000, bufferBytes: 64 * KiB, stallMs: 500 },
    ...options,
  });
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, feed };
}

/** A message whose event is ~130 KB: 64 KiB of ciphertext, as hex. */
const big = (id: number) => ({ ...message(id), message: "ab".repeat(64 * KiB) });

const request = (body: string, accept = "application/json") =>
  `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: ${accept}\r\nAuthorization: Bearer alice\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const SUBSCRIBE = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_subscribe", params: [] });
const NODE_INFO = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_nodeInfo", params: [] });

/** A connection from `localAddress` (a client of its own) that has sent `text`. */
async function connect(port: number, localAddress: string, text: string): Promise<net.Socket> {
  const socket = net.connect({ host: "127.0.0.1", port, localAddress });
  sockets.add(socket);
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  socket.write(text);
  return socket;
}

/** The status line's code of the first response on `socket`. */
function statusOf(socket: net.Socket, timeoutMs = 10_000): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error("no answer in time")), timeoutMs);
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  });
}

const closed = (socket: net.Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once("close", () => resolve())));
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Opens a stream from `localAddress` that reads nothing (until the caller does), and pushes enough
 * 64 KiB messages that its unsent events back up into the process once `settleMs` have passed.
 */
async function stalledStream(port: number, feed: TestFeed, localAddress: string, settleMs = 1000): Promise<net.Socket> {
  const socket = await connect(port, localAddress, request(SUBSCRIBE, "text/event-stream"));
  socket.pause();
  for (let i = 0; i < 100 && feed.open === 0; i++) await settle(10);
  const first = Number(feed.stored.at(-1)!.id) + 1;
  // ~200 events of 130 KB: far more than loopback's socket buffers take.
  feed.push(...Array.from({ length: 200 }, (_, i) => big(first + i)));
  await settle(settleMs);
  return socket;
}

describe("memory held by event streams", () => {
  it("a stalled stream's unsent events count against its client's bound: its next request is refused (429) until the stream is gone", async () => {
    const { port, feed } = await start({ heldBytes: { total: 64 * 1024 * KiB, perClient: 128 * KiB, idleMs: 60_000 }, writeTimeoutMs: 60_000, streams: { bufferBytes: 64 * KiB, stallMs: 60_000 } });
    const stream = await stalledStream(port, feed, "127.0.0.21");
    const refused = await connect(port, "127.0.0.21", request(NODE_INFO));
    expect(await statusOf(refused)).toBe(429);
    const other = await connect(port, "127.0.0.22", request(NODE_INFO));
    expect(await statusOf(other)).toBe(200);
    stream.destroy();
    await settle(200);
    const again = await connect(port, "127.0.0.21", request(NODE_INFO));
    expect(await statusOf(again)).toBe(200);
  }, 30_000);

  it("at the process's total, a stalled stream idle past idleMs is dropped so that another client gets in", async () => {
    const { port, feed } = await start({ heldBytes: { total: 160 * KiB, perClient: 0, idleMs: 300 }, writeTimeoutMs: 60_000, streams: { bufferBytes: 64 * KiB, stallMs: 60_000 } });
    const stream = await stalledStream(port, feed, "127.0.0.23");
    // A body that does not fit beside what the stream holds (64 KiB and one ~128 KiB event at most, at least one event).
    const body = NODE_INFO + " ".repeat(100 * KiB);
    const other = await connect(port, "127.0.0.24", request(body));
    expect(await statusOf(other)).toBe(200);
    // The stream's connection was dropped to make room: what the client had not read yet, then its end.
    stream.resume();
    await closed(stream);
    for (let i = 0; i < 100 && feed.open > 0; i++) await settle(20);
    expect(feed.open).toBe(0);
  }, 30_000);

  it("at the process's total, a stream behind its client is dropped for another client's request even while its client still reads a little", async () => {
    const { port, feed } = await start({ heldBytes: { total: 160 * KiB, perClient: 0, idleMs: 60_000 }, writeTimeoutMs: 60_000, streams: { bufferBytes: 64 * KiB, stallMs: 60_000 } });
    const stream = await stalledStream(port, feed, "127.0.0.27");
    // It reads 4 KiB every 100 ms: never idle, but behind.
    const sipping = setInterval(() => stream.read(4 * KiB), 100);
    try {
      await settle(500);
      const other = await connect(port, "127.0.0.28", request(NODE_INFO + " ".repeat(100 * KiB)));
      expect(await statusOf(other)).toBe(200); // not 503: the stream made room
      for (let i = 0; i < 100 && feed.open > 0; i++) await settle(20);
      expect(feed.open).toBe(0);
    } finally {
      clearInterval(sipping);
    }
  }, 30_000);

  it("ends a client that reads a little now and then, less than bufferBytes per stallMs while events wait for it", async () => {
    const { port, feed } = await start({});
    const stream = await stalledStream(port, feed, "127.0.0.25");
    // 8 KiB every 100 ms: 80 KiB/s, under the 64 KiB per 500 ms it must take while behind.
    const sipping = setInterval(() => stream.read(8 * KiB), 100);
    try {
      for (let i = 0; i < 150 && feed.open > 0; i++) await settle(100);
      expect(feed.open).toBe(0);
    } finally {
      clearInterval(sipping);
    }
  }, 30_000);

  it("keeps a client that reads steadily, more than bufferBytes per stallMs, through a long backlog", async () => {
    // A stall window of 2 s: on a loaded 2-core machine this test's own event loop may not run for
    // half a second, and a client that does not run reads nothing (which the node rightly ends).
    const { port, feed } = await start({ streams: { keepAliveMs: 15_000, bufferBytes: 64 * KiB, stallMs: 2000 } });
    const stream = await stalledStream(port, feed, "127.0.0.26", 0);
    let received = 0;
    stream.on("data", (chunk: Buffer) => (received += chunk.length));
    // Reads at full speed half of each 200 ms: far more than the 64 KiB per 2 s asked of it.
    const reading = setInterval(() => (stream.isPaused() ? stream.resume() : stream.pause()), 100);
    try {
      for (let i = 0; i < 400 && received < 200 * 128 * KiB; i++) await settle(100);
      expect(received).toBeGreaterThan(200 * 128 * KiB); // every event came (each ~128.3 KiB)
      expect(feed.open).toBe(1); // and the stream is still open
    } finally {
      clearInterval(reading);
    }
  }, 60_000);
});
