import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import v8 from "node:v8";
import vm from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDispatcher } from "./dispatcher.js";
import { service } from "./neutral-service.js";
import { RpcError } from "./errors.js";
import { createHttpHandler } from "./http.js";
import { alice, createTestHandlers, message, type TestContext } from "../test/handlers.js";

let server: Server;
let url: string;
const { handlers, calls, feed } = createTestHandlers();

beforeAll(async () => {
  const dispatcher = createDispatcher<TestContext>({ service, handlers });
  const handler = createHttpHandler<TestContext>({
    dispatcher,
    authenticate(authorization) {
      if (authorization === "Bearer alice") return { auth: { address: alice } };
      throw RpcError.unauthorized("missing token");
    },
    streams: {
      keepAliveMs: 200,
      bufferBytes: 64 * 1024,
      stallMs: 300,
      endEvent: (reason, lastId) => ({ method: "neutralService_end", params: { reason, message: "read faster", ...(lastId !== undefined && { cursor: lastId }) } }),
    },
  });
  server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const subscribeBody = (params: unknown = [], id: unknown = 1) => JSON.stringify({ jsonrpc: "2.0", id, method: "neutralService_subscribe", params });
const post = (body: string, headers: Record<string, string> = {}, signal?: AbortSignal) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer alice", accept: "text/event-stream", ...headers }, body, ...(signal && { signal }) });

interface Frame {
  id?: string;
  data?: { method: string; params: Record<string, unknown> };
  comment?: string;
}

/** Reads SSE frames off a response until `until` says stop (or the stream ends). */
async function readFrames(response: Response, until: (frames: Frame[]) => boolean, { keepOpen = false } = {}): Promise<Frame[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const frames: Frame[] = [];
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const frame: Frame = {};
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) frame.comment = line.slice(1).trim();
        else if (line.startsWith("id: ")) frame.id = line.slice(4);
        else if (line.startsWith("data: ")) frame.data = JSON.parse(line.slice(6)) as Frame["data"];
      }
      frames.push(frame);
    }
    if (until(frames)) {
      if (keepOpen) reader.releaseLock();
      else await reader.cancel();
      break;
    }
  }
  return frames;
}

/** The body of a raw HTTP/1.1 response with chunked transfer encoding. */
function dechunk(raw: Buffer): string {
  let at = raw.indexOf("\r\n\r\n") + 4;
  const parts: Buffer[] = [];
  for (;;) {
    const lineEnd = raw.indexOf("\r\n", at);
    const size = Number.parseInt(raw.subarray(at, lineEnd).toString("latin1"), 16);
    if (!(size > 0)) break;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts).toString("utf8");
}

const waitFor = async (condition: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

/**
 * A server of its own whose `subscribe` handler is `subscribe`, for as long as `use` runs: `open`
 * subscribes on it (with no token: the handler's own authentication says yes to anyone).
 */
async function withSubscribeServer(
  subscribe: typeof handlers.neutralService_subscribe,
  hooks: { onExchange: (exchange: { status: number }) => void; onInternalError?: (error: unknown) => void },
  use: (open: () => Promise<Response>) => Promise<void>,
): Promise<void> {
  const dispatcher = createDispatcher<TestContext>({ service, handlers: { ...createTestHandlers().handlers, neutralService_subscribe: subscribe } });
  const handler = createHttpHandler<TestContext>({ dispatcher, authenticate: () => ({ auth: { address: alice } }), ...hooks });
  const own = createServer(handler);
  await new Promise<void>((resolve) => own.listen(0, "127.0.0.1", resolve));
  try {
    await use(() =>
      fetch(`http://127.0.0.1:${(own.address() as AddressInfo).port}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        body: subscribeBody(),
      }),
    );
  } finally {
    own.closeAllConnections();
    await new Promise<void>((resolve) => own.close(() => resolve()));
  }
}

describe("methods answered as event streams (x-subscription)", () => {
  it("streams the notifications as SSE: each message with its id as the event id, then caught-up, then what is pushed", async () => {
    const response = await post(subscribeBody({ after: "1" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toContain("no-cache");
    setTimeout(() => feed.push(message(4)), 50);
    const frames = (await readFrames(response, (frames) => frames.some((frame) => frame.id === "4"))).filter((frame) => frame.data);
    expect(frames.map((frame) => [frame.id, frame.data!.method])).toEqual([
      ["2", "neutralService_message"],
      ["3", "neutralService_message"],
      [undefined, "neutralService_caughtUp"],
      ["4", "neutralService_message"],
    ]);
    expect(frames[0]!.data).toEqual({ jsonrpc: "2.0", method: "neutralService_message", params: { message: message(2) } });
    await waitFor(() => feed.open === 0); // the client left: the handler's generator was stopped
  }, 15_000);

  it("passes Last-Event-ID to the handler, which lets it win over `after`", async () => {
    const response = await post(subscribeBody({ after: "0" }), { "last-event-id": "3" });
    const frames = await readFrames(response, (frames) => frames.some((frame) => frame.data?.method === "neutralService_caughtUp"));
    expect(frames.filter((frame) => frame.data).map((frame) => frame.data!.method)).toEqual(["neutralService_message", "neutralService_caughtUp"]);
    expect(frames[0]!.id).toBe("4");
    await waitFor(() => feed.open === 0);
  }, 15_000);

  it("sends keep-alive comments while nothing else is sent", async () => {
    const response = await post(subscribeBody({ after: "4" }));
    const frames = await readFrames(response, (frames) => frames.filter((frame) => frame.comment === "keep-alive").length >= 2);
    expect(frames.filter((frame) => frame.comment === "keep-alive").length).toBeGreaterThanOrEqual(2);
    await waitFor(() => feed.open === 0);
  }, 15_000);

  it("ends when the handler's stream ends", async () => {
    feed.endAfterCatchUp = true;
    try {
      const response = await post(subscribeBody({ after: "4" }));
      const frames = await readFrames(response, () => false); // to the end of the body
      expect(frames.at(-1)!.data).toMatchObject({ method: "neutralService_end", params: { reason: "shutdown" } });
    } finally {
      feed.endAfterCatchUp = false;
    }
  }, 15_000);

  it("refuses without Accept: text/event-stream (406, -32600 saying so), in a batch (-32600), and answers the handler's refusal as JSON", async () => {
    const before = calls.length;
    const plain = await post(subscribeBody(), { accept: "application/json" });
    expect(plain.status).toBe(406);
    expect(await plain.json()).toMatchObject({ id: 1, error: { code: -32600, message: expect.stringContaining("Accept: text/event-stream") } });
    const batch = await post(`[${subscribeBody([], 2)}]`);
    expect(await batch.json()).toMatchObject([{ id: 2, error: { code: -32600, message: expect.stringContaining("not in a batch") } }]);
    expect(calls.length).toBe(before); // neither reached the handler

    const refused = await post(subscribeBody({ after: "666" }, 3));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("3");
    expect(await refused.json()).toMatchObject({ id: 3, error: { code: -32029 } });
    const badParams = await post(subscribeBody({ after: "01" }, 4));
    expect(await badParams.json()).toMatchObject({ id: 4, error: { code: -32602 } });
    const noToken = await post(subscribeBody(), { authorization: "" });
    expect(noToken.status).toBe(401);
  }, 15_000);

  it("keeps nothing of an event once it is sent: a long-lived stream's memory does not grow with what it delivered", async () => {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    const collected = new Set<string>();
    const registry = new FinalizationRegistry<string>((id) => collected.add(id));
    const start = Number(feed.stored.at(-1)!.id);
    const response = await post(subscribeBody({ after: String(start) }));
    const ids = Array.from({ length: 200 }, (_, i) => String(start + 1 + i));
    feed.onEvent = (event, id) => registry.register(event, id);
    try {
      setTimeout(() => feed.push(...ids.map((id) => message(Number(id)))), 20);
      await readFrames(response, (frames) => frames.some((frame) => frame.id === ids.at(-1)), { keepOpen: true });
    } finally {
      feed.onEvent = undefined;
    }
    // The stream is still open (the handler waits for more); what it sent must be collectable.
    expect(feed.open).toBe(1);
    for (let i = 0; i < 20 && collected.size < ids.length; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(feed.open).toBe(1);
    expect(collected.size).toBeGreaterThanOrEqual(ids.length - 2);
    await response.body!.cancel();
    await waitFor(() => feed.open === 0);
  }, 15_000);

  it("ends a client that stops reading once its buffer stays full for stallMs, with the end event last, and stops the handler", async () => {
    const big = (id: number) => ({ ...message(id), message: "ab".repeat(32 * 1024) });
    const start = Number(feed.stored.at(-1)!.id);
    // 400 messages of 64 KiB: far more than the loopback socket buffers hold.
    const socket = connect(Number(new URL(url).port), "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    const body = subscribeBody({ after: String(start) });
    socket.write(
      `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nAuthorization: Bearer alice\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    socket.pause(); // reads nothing
    await waitFor(() => feed.open === 1);
    feed.push(...Array.from({ length: 400 }, (_, i) => big(start + 1 + i)));
    await waitFor(() => feed.open === 0, 10_000); // ended as a slow consumer
    // Now read everything it was sent: the end event is last, naming the last id sent.
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.resume();
    await new Promise<void>((resolve) => socket.once("end", () => resolve()));
    socket.destroy();
    const text = dechunk(Buffer.concat(chunks));
    const sentIds = [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
    expect(sentIds.length).toBeGreaterThan(0);
    expect(sentIds.length).toBeLessThan(400); // it did not read the whole feed into memory
    const last = text.trimEnd().split("\n").at(-1)!;
    expect(JSON.parse(last.replace(/^data: /, ""))).toMatchObject({
      method: "neutralService_end",
      params: { reason: "slow-consumer", cursor: String(sentIds.at(-1)) },
    });
  }, 30_000);
});

describe("a handler that does not watch its signal", () => {
  it("ends the stream when the handler fails after its first events: what was sent stays sent, the error goes to onInternalError, the handler is closed", async () => {
    const failures: unknown[] = [];
    const exchanges: number[] = [];
    let closed = false;
    const failing = () => ({
      [Symbol.asyncIterator]() {
        let step = 0;
        return {
          next: async () => {
            step++;
            if (step === 1) return { done: false as const, value: { method: "neutralService_caughtUp" as const, params: {} } };
            await new Promise((resolve) => setTimeout(resolve, 20));
            throw new Error("the store went away");
          },
          return: async () => {
            closed = true;
            return { done: true as const, value: undefined };
          },
        };
      },
    });
    await withSubscribeServer(failing, { onInternalError: (error) => failures.push(error), onExchange: (exchange) => exchanges.push(exchange.status) }, async (open) => {
      const frames = await readFrames(await open(), () => false); // to the end of the body: the stream must end
      expect(frames.map((frame) => frame.data?.method)).toEqual(["neutralService_caughtUp"]);
      await waitFor(() => exchanges.length === 1);
      expect(exchanges).toEqual([200]);
      expect(failures).toHaveLength(1);
      expect((failures[0] as Error).message).toBe("the store went away");
      expect(closed).toBe(true);
    });
  }, 15_000);

  it("ends the stream when the client leaves while the handler waits: the exchange completes, the handler is not waited for", async () => {
    const exchanges: number[] = [];
    let waiting = false;
    // One event, then a wait that nothing ends: not a commit, not the signal.
    const stuck = () =>
      (async function* () {
        yield { method: "neutralService_caughtUp" as const, params: {} };
        waiting = true;
        await new Promise<never>(() => {});
      })();
    await withSubscribeServer(stuck, { onExchange: (exchange) => exchanges.push(exchange.status) }, async (open) => {
      const frames = await readFrames(await open(), (read) => read.length > 0);
      expect(frames[0]!.data?.method).toBe("neutralService_caughtUp");
      await waitFor(() => waiting);
      expect(exchanges).toEqual([]); // still open
      // readFrames cancelled the body: the connection closes, and the stream must end with it.
      await waitFor(() => exchanges.length === 1, 5000);
      expect(exchanges).toEqual([200]);
    });
  }, 15_000);
});
