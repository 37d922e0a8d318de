// What the HTTP glue holds for clients is bounded (issue 19, findings 2 and 5): bodies while they
// arrive, answers until the kernel has taken them; answers nobody reads are abandoned.
import { createServer, type Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createDispatcher } from "./dispatcher.js";
import { service, type Handlers } from "./neutral-service.js";
import { createHttpHandler, type HttpHandlerOptions } from "./http.js";
import { createTestHandlers, type TestContext } from "../test/handlers.js";

const MiB = 1024 * 1024;
/** Bigger than what loopback's socket buffers take (~10 MiB): most of an unread answer stays in the process. */
const ANSWER_BYTES = 16 * MiB;

let server: Server | undefined;
let internalErrors: unknown[] = [];
/** How many times the stub has built its big answer. */
let answersBuilt = 0;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A stub whose `nodeInfo` answers ANSWER_BYTES of JSON. */
async function start(options: Partial<HttpHandlerOptions<TestContext>>): Promise<number> {
  const { handlers } = createTestHandlers();
  const big: Handlers<TestContext> = {
    ...handlers,
    neutralService_nodeInfo: () => (answersBuilt++, { address: "0x", software: "x".repeat(ANSWER_BYTES), version: "0", domains: [], limits: { maxLimit: 1, maxBatch: 1, maxBodyBytes: 1, maxMessageBytes: 1, clockSkewMs: 1 } }),
  };
  internalErrors = [];
  answersBuilt = 0;
  const handler = createHttpHandler<TestContext>({
    // The big answer is a size, not a node's info: results are not checked against the spec here.
    dispatcher: createDispatcher<TestContext>({ service, handlers: big, maxResponseBytes: 64 * MiB, validateResults: false }),
    maxBodyBytes: MiB,
    onInternalError: (error) => internalErrors.push(error),
    ...options,
  });
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

const NODE_INFO = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_nodeInfo", params: [] });
const head = (length: number) => `POST / HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

interface Answer {
  status: number;
  headers: string;
  body: string;
}

/**
 * Reads one HTTP response off `socket` (content-length framed). The chunks are kept in a list and
 * joined once: concatenating a 16 MiB answer chunk by chunk copies gigabytes, which on a loaded
 * 2-core machine took longer than the server's write timeout, so the server (rightly) dropped the
 * answer mid-read and this waited for nothing.
 */
function readAnswer(socket: net.Socket, timeoutMs = 30_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let head: { end: number; headers: string; length: number } | undefined;
    const timer = setTimeout(() => reject(new Error(`no answer in time (${received} bytes received)`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (!head) {
        const start = Buffer.concat(chunks);
        const end = start.indexOf("\r\n\r\n");
        if (end < 0) return;
        const headers = start.subarray(0, end).toString("latin1");
        head = { end, headers, length: Number(/content-length: (\d+)/i.exec(headers)?.[1] ?? 0) };
        chunks.splice(0, chunks.length, start);
      }
      if (received < head.end + 4 + head.length) return;
      clearTimeout(timer);
      socket.off("data", onData);
      const all = Buffer.concat(chunks);
      resolve({ status: Number(head.headers.split(" ")[1]), headers: head.headers, body: all.subarray(head.end + 4, head.end + 4 + head.length).toString("utf8") });
    };
    socket.on("data", onData);
    socket.once("error", reject);
  });
}

/** A connection from `localAddress` (127.0.0.0/8: a distinct client each) that has written `text`. */
async function connect(port: number, localAddress: string, text = ""): Promise<net.Socket> {
  const socket = net.connect({ host: "127.0.0.1", port, localAddress });
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  if (text !== "") socket.write(text);
  return socket;
}

/** A client that posts nodeInfo and never reads the answer. */
const hoard = (port: number, localAddress: string) => connect(port, localAddress, head(NODE_INFO.length) + NODE_INFO).then((socket) => socket.pause());

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("memory held for clients", () => {
  it("refuses a client whose unread answers reach its bound (429, -32029, Retry-After) while another client is served", async () => {
    const port = await start({ heldBytes: { total: 200 * MiB, perClient: 40 * MiB }, writeTimeoutMs: 60_000 });
    const unread = [await hoard(port, "127.0.0.2"), await hoard(port, "127.0.0.2")]; // 32 MiB held for 127.0.0.2
    await settle(1500); // the unread answers are written (a loaded 2-core machine may take a while)
    const third = await connect(port, "127.0.0.2", head(NODE_INFO.length) + NODE_INFO);
    const refused = await readAnswer(third);
    expect(refused.status).toBe(429);
    expect(refused.headers).toMatch(/retry-after: 1/i);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: -32029, data: { retryAfter: 1 } } });
    const other = await connect(port, "127.0.0.3", head(NODE_INFO.length) + NODE_INFO);
    const served = await readAnswer(other);
    expect(served.status).toBe(200);
    expect(served.body.length).toBeGreaterThan(ANSWER_BYTES);
    for (const socket of [...unread, third, other]) socket.destroy();
  });

  it("refuses a client at half its bound whose answers lie unread past idleMs before running its next request: pipelined requests cost nothing", async () => {
    const port = await start({ heldBytes: { total: 400 * MiB, perClient: 40 * MiB, idleMs: 300 }, writeTimeoutMs: 60_000 });
    // 20 connections from one address, 3 pipelined requests each, never read: 60 answers of 16 MiB.
    const hoarding = await Promise.all(Array.from({ length: 20 }, () => connect(port, "127.0.0.16", (head(NODE_INFO.length) + NODE_INFO).repeat(3))));
    for (const socket of hoarding) socket.pause();
    await settle(1500); // what will be answered is answered, and the unread answers are idle past 300 ms
    const refused = await readAnswer(await connect(port, "127.0.0.16", head(NODE_INFO.length) + NODE_INFO));
    expect(refused.status).toBe(429);
    // Two fit the bound; a few more are built while the first answers are still being taken (not
    // yet idle). Without the idle rule each connection's requests are built and then refused.
    expect(answersBuilt).toBeLessThanOrEqual(10);
    const other = await readAnswer(await connect(port, "127.0.0.17", head(NODE_INFO.length) + NODE_INFO));
    expect(other.status).toBe(200);
    for (const socket of hoarding) socket.destroy();
  });

  it("refuses with 503 once the process holds its total, whoever asks", async () => {
    const port = await start({ heldBytes: { total: 40 * MiB, perClient: 0, idleMs: 60_000 }, writeTimeoutMs: 60_000 });
    const unread = [await hoard(port, "127.0.0.4"), await hoard(port, "127.0.0.5")];
    await settle(1500); // the unread answers are written (a loaded 2-core machine may take a while)
    const late = await connect(port, "127.0.0.6", head(NODE_INFO.length) + NODE_INFO);
    const refused = await readAnswer(late);
    expect(refused.status).toBe(503);
    expect(refused.headers).toMatch(/retry-after: 1/i);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: -32029 } });
    for (const socket of [...unread, late]) socket.destroy();
  });

  it("abandons an answer its client does not take within writeTimeoutMs, and gives its bytes back", async () => {
    // Long enough that the unread answer is surely written before `early` asks, on a loaded machine.
    const port = await start({ heldBytes: { total: 200 * MiB, perClient: 20 * MiB }, writeTimeoutMs: 5000 });
    const unread = await hoard(port, "127.0.0.7");
    await settle(1500); // the unread answers are written (a loaded 2-core machine may take a while)
    const early = await readAnswer(await connect(port, "127.0.0.7", head(NODE_INFO.length) + NODE_INFO));
    expect(early.status).toBe(429); // the unread answer still counts
    const connections = () => new Promise<number>((resolve) => server!.getConnections((_error, count) => resolve(count)));
    for (let i = 0; i < 150 && (await connections()) > 1; i++) await settle(100);
    expect(await connections()).toBeLessThanOrEqual(1); // the unread answer's connection is gone
    const later = await connect(port, "127.0.0.7", head(NODE_INFO.length) + NODE_INFO);
    expect((await readAnswer(later)).status).toBe(200);
    unread.destroy();
    later.destroy();
  });

  it("at the total, drops exchanges whose client has been idle past idleMs (stalled bodies), so that others get in", async () => {
    const port = await start({ heldBytes: { total: 3 * MiB, perClient: 0, idleMs: 300 }, writeTimeoutMs: 60_000 });
    const body = `{"jsonrpc":"2.0","id":1,"method":"neutralService_getKey","params":["0x${"1".repeat(40)}"],"pad":"${"p".repeat(MiB - 200)}"}`;
    const stalled = await Promise.all(["127.0.0.11", "127.0.0.12", "127.0.0.13"].map((address) => connect(port, address, head(body.length) + body.slice(0, -1))));
    const closed = stalled.map((socket) => new Promise<boolean>((resolve) => (socket.on("error", () => {}), socket.once("close", () => resolve(true)), setTimeout(() => resolve(false), 30_000))));
    await settle(600); // every stalled body is idle past 300 ms now
    // An answer of 16 MiB cannot fit beside them: they are dropped, and it goes out.
    const honest = await connect(port, "127.0.0.14", head(NODE_INFO.length) + NODE_INFO);
    expect((await readAnswer(honest)).status).toBe(200);
    expect(await Promise.all(closed)).toEqual([true, true, true]);
    honest.destroy();
  });

  it("gives back the bytes of an answer queued behind another when its pipelining client hangs up", async () => {
    const port = await start({ heldBytes: { total: 200 * MiB, perClient: 20 * MiB, idleMs: 60_000 }, writeTimeoutMs: 60_000 });
    const pipelining = await connect(port, "127.0.0.15", (head(NODE_INFO.length) + NODE_INFO).repeat(2));
    pipelining.pause();
    await settle(500); // both answered: the first on the socket, the second queued behind it
    pipelining.destroy();
    await settle(1500); // the unread answers are written (a loaded 2-core machine may take a while)
    const later = await connect(port, "127.0.0.15", head(NODE_INFO.length) + NODE_INFO);
    expect((await readAnswer(later)).status).toBe(200); // 16 MiB fits: nothing of the hung-up answers still counts
    later.destroy();
  });

  it("counts bodies as they arrive: a client's second unfinished body past its bound is refused, and bytes of a body its client dropped go back", async () => {
    const port = await start({ heldBytes: { total: 200 * MiB, perClient: 1.5 * MiB }, writeTimeoutMs: 60_000 });
    const padded = (bytes: number) => {
      const text = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_getKey", params: ["0x" + "1".repeat(40)], pad: "" });
      return text.replace('"pad":""', `"pad":"${"p".repeat(bytes - text.length)}"`);
    };
    const body = padded(MiB - 1000);
    const first = await connect(port, "127.0.0.8", head(body.length) + body.slice(0, -1)); // all but its last byte
    await settle(1500); // the unread answers are written (a loaded 2-core machine may take a while)
    const second = await connect(port, "127.0.0.8", head(body.length) + body.slice(0, -1));
    await settle(1500); // the unread answers are written (a loaded 2-core machine may take a while)
    second.write(body.slice(-1));
    const refused = await readAnswer(second);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: -32029 } });
    first.destroy(); // its client gives up: what its body held goes back
    await settle(1500); // the unread answers are written (a loaded 2-core machine may take a while)
    const third = await connect(port, "127.0.0.8", head(body.length) + body);
    expect((await readAnswer(third)).status).toBe(200);
    second.destroy();
    third.destroy();
    expect(internalErrors).toEqual([]); // a body cut off by its client is no error of the server
  });
});
