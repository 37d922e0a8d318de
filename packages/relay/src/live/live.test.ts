// Live delivery against real relays on loopback (SQLite): catch-up then live without a window,
// resume after a cut connection, a killed worker and a killed node, limits, bad input, slow
// consumers, token expiry and shutdown.
import { rmSync } from "node:fs";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { serves } from "../../test/clients.js";
import { inIdOrder, sendMany, subscribe, type LiveEvent, type Stream } from "../../test/live.js";
import { TEST_KEYS, wallet, type TestWallet } from "../../test/wallets.js";
import { call, startRelay, tempDir, type RunningRelay, type StartOptions } from "../../testing/index.js";

const alice = wallet(TEST_KEYS.alice);
const bob = wallet(TEST_KEYS.bob);

let running: RunningRelay[] = [];
let streams: Stream[] = [];
afterEach(async () => {
  for (const stream of streams) stream.close();
  streams = [];
  await Promise.all(running.map((relay) => relay.crash()));
  running = [];
});

const relayWith = async (options: StartOptions = {}) => {
  const relay = await startRelay(options);
  running.push(relay);
  return relay;
};
const open = async (url: string, token: string, options: Parameters<typeof subscribe>[2] = {}) => {
  const stream = await subscribe(url, token, options);
  streams.push(stream);
  return stream;
};
const tokens = async (relay: Pick<RunningRelay, "domain">, ...users: TestWallet[]) => Promise.all(users.map((user) => user.token({ domain: relay.domain })));
const caughtUp = (events: LiveEvent[]) => events.some((event) => event.method === "neutralService_caughtUp");
const lastId = (stream: Stream) => stream.ids().at(-1);
/** `promise`, or a failure naming the step that did not finish within `ms` (rather than the whole test's timeout). */
const within = <T>(promise: Promise<T>, ms: number, step: string): Promise<T> =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${step}: not done within ${ms} ms`)), ms).unref())]);

describe("live delivery (neutralService_subscribe)", () => {
  it("streams the stored messages after the cursor, then caught-up, then each new message once, in id order, also those committed while the catch-up was read", { timeout: 60_000 }, async () => {
    const relay = await relayWith();
    const [aliceToken, bobToken] = await tokens(relay, alice, bob);
    const before = (await sendMany(relay, alice, aliceToken!, bob.address, 30)).sort((a, b) => Number(a) - Number(b));
    // 300 more while the stream opens and reads its catch-up.
    const during = sendMany(relay, alice, aliceToken!, bob.address, 300, 16);
    const stream = await open(relay.url, bobToken!, { after: before[9] });
    const sent = [...before.slice(10), ...(await during)];
    await stream.until((events) => events.filter((event) => event.method === "neutralService_message").length >= sent.length);
    const ids = stream.ids();
    expect(ids).toHaveLength(sent.length);
    expect(inIdOrder(ids)).toBe(true);
    expect([...ids].sort()).toEqual([...sent].sort());
    expect(stream.events.filter((event) => event.method === "neutralService_caughtUp")).toHaveLength(1);
    const message = stream.events.find((event) => event.method === "neutralService_message")!;
    expect(message.params.message).toMatchObject({ id: message.id, from: alice.address, to: bob.address, sender_receipt: expect.stringMatching(/^0x/) });
    // What getInbox returns for the same id is what the stream sent.
    const page = (await call(relay.url, "neutralService_getInbox", [{}, 1, String(BigInt(message.id!) - 1n)], bobToken)).body.result[0] as { data: unknown[] };
    expect(page.data[0]).toEqual(message.params.message);
  });

  it("selects as getInbox and getChat do: sent messages with direction, one chat with `chat`", { timeout: 60_000 }, async () => {
    const relay = await relayWith();
    const carol = wallet(TEST_KEYS.carol);
    const [aliceToken, bobToken, carolToken] = await tokens(relay, alice, bob, carol);
    const sent = await open(relay.url, aliceToken!, { filter: { direction: "sent" } });
    const chat = await open(relay.url, bobToken!, { filter: { chat: carol.address } });
    await Promise.all([sent.until(caughtUp), chat.until(caughtUp)]);
    const [toBob] = await sendMany(relay, alice, aliceToken!, bob.address, 1);
    const [carolToBob] = await sendMany(relay, carol, carolToken!, bob.address, 1);
    const [bobToCarol] = await sendMany(relay, bob, bobToken!, carol.address, 1);
    await sent.until((events) => events.some((event) => event.id === toBob));
    await chat.until((events) => events.some((event) => event.id === bobToCarol));
    expect(sent.ids()).toEqual([toBob]);
    expect(chat.ids()).toEqual([carolToBob, bobToCarol]);
  });

  it("resumes exactly once, in order, after a cut connection, a killed worker and a killed node (kill -9, restart) while 1,000 messages are sent", { timeout: 180_000 }, async () => {
    const dataDir = tempDir();
    try {
      let relay = await relayWith({ dataDir, workers: 2, args: ["--log-level", "debug"] });
      const [aliceToken, bobToken] = await tokens(relay, alice, bob);
      const received: string[] = [];
      let stream = await open(relay.url, bobToken!, { after: "0" });
      const sending = sendMany(relay, alice, aliceToken!, bob.address, 1000, 8);
      const resume = async () => {
        received.push(...stream.ids());
        stream.close();
        for (const deadline = Date.now() + 60_000; ; ) {
          if (Date.now() > deadline) throw new Error(`resuming after ${received.length} messages: no stream within 60 s`);
          try {
            stream = await open(relay.url, bobToken!, { lastEventId: received.at(-1) ?? "0", headersTimeoutMs: 10_000 });
            if (stream.status === 200) return;
          } catch {
            // the node is restarting, or the connection went to a worker as it died and nobody answers it
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      const progress = (count: number) => stream.until(() => received.length + stream.ids().length >= count, 60_000);

      await progress(100);
      await resume(); // 1. the subscriber's connection cut

      await progress(300);
      // 2. the worker serving the stream killed: kill one worker; if the stream lives on, it is on the other: kill that one.
      const workers = [...new Set(relay.logs.filter((log) => log.msg === "worker listening").map((log) => log.pid as number))];
      expect(workers).toHaveLength(2);
      process.kill(workers[0]!, "SIGKILL");
      const cut = await Promise.race([stream.done, new Promise((resolve) => setTimeout(() => resolve("alive"), 1000))]);
      if (cut === "alive") process.kill(workers[1]!, "SIGKILL");
      await within(stream.done, 30_000, "the stream cut by the killed worker"); // a reset, or a close without the last chunk: no end event
      expect(stream.events.some((event) => event.method === "neutralService_end")).toBe(false);
      await resume();

      await progress(600);
      // 3. the whole node killed and restarted on its data.
      await relay.crash();
      running = running.filter((other) => other !== relay);
      relay = await relayWith({ dataDir, workers: 2, args: ["--port", new URL(relay.url).port] });
      await resume();

      const sent = await within(sending, 90_000, "the 1,000 sends");
      await stream.until(() => received.length + stream.ids().length >= 1000, 60_000);
      received.push(...stream.ids());
      expect(inIdOrder(received)).toBe(true);
      expect(new Set(received)).toEqual(new Set(sent));
      expect(received).toHaveLength(1000);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("reaches subscribers on every worker, whichever worker stored the message", { timeout: 60_000 }, async () => {
    const relay = await relayWith({ workers: 2 });
    const [aliceToken, bobToken] = await tokens(relay, alice, bob);
    // Connections are dealt round-robin: six streams land on both workers.
    const all = await Promise.all(Array.from({ length: 6 }, () => open(relay.url, bobToken!)));
    await Promise.all(all.map((stream) => stream.until(caughtUp)));
    const sent = await sendMany(relay, alice, aliceToken!, bob.address, 40, 4);
    await Promise.all(all.map((stream) => stream.until(() => stream.ids().length >= 40)));
    for (const stream of all) expect(stream.ids()).toEqual([...sent].sort((a, b) => Number(a) - Number(b)));
  });

  it("ends a stream when its token expires, with the reason and where to resume", { timeout: 30_000 }, async () => {
    const relay = await relayWith();
    const [aliceToken] = await tokens(relay, alice);
    const now = Date.now();
    const shortToken = await bob.token({ domain: relay.domain, issuedAt: new Date(now - 1000), expirationTime: new Date(now + 1500) });
    const stream = await open(relay.url, shortToken);
    const [id] = await sendMany(relay, alice, aliceToken!, bob.address, 1);
    expect(await stream.done).toBe("ended");
    expect(stream.events.at(-1)).toMatchObject({ method: "neutralService_end", params: { reason: "token-expired", cursor: id } });
  });

  it("ends every stream with the shutdown reason when the node stops", { timeout: 30_000 }, async () => {
    const relay = await relayWith();
    const [bobToken] = await tokens(relay, bob);
    const stream = await open(relay.url, bobToken!);
    await stream.until(caughtUp);
    const stopped = relay.stop("SIGTERM");
    expect(await stream.done).toBe("ended");
    expect(stream.events.at(-1)).toMatchObject({ method: "neutralService_end", params: { reason: "shutdown" } });
    expect((await stopped).code).toBe(0);
  });

  it("keeps at most --max-subscriptions-per-account streams of an account (a new one ends the oldest: reason limit) and at most --max-subscriptions per process (one more: 429, -32029)", { timeout: 60_000 }, async () => {
    const relay = await relayWith({ args: ["--max-subscriptions-per-account", "2", "--max-subscriptions", "3", "--keep-alive-ms", "200"] });
    const [aliceToken, bobToken] = await tokens(relay, alice, bob);
    const first = await open(relay.url, bobToken!);
    const second = await open(relay.url, bobToken!);
    await Promise.all([first.until(caughtUp), second.until(caughtUp)]);
    const third = await open(relay.url, bobToken!);
    expect(await first.done).toBe("ended");
    expect(first.events.at(-1)).toMatchObject({ method: "neutralService_end", params: { reason: "limit" } });
    await third.until(caughtUp);
    const aliceStream = await open(relay.url, aliceToken!); // the process's third
    await aliceStream.until(caughtUp);
    const refused = await open(relay.url, aliceToken!);
    expect(refused.status).toBe(429);
    expect(refused.refusal).toMatchObject({ error: { code: -32029, data: { reason: "subscriptions", limit: 3 } } });
    // nodeInfo reports the limits; keep-alives flow on idle streams.
    const info = (await call(relay.url, "neutralService_nodeInfo", [])).body.result[0] as { limits: Record<string, number> };
    expect(info.limits).toMatchObject({ maxSubscriptions: 3, maxSubscriptionsPerAccount: 2, keepAliveMs: 200, subscriptionStallMs: 30_000 });
    await second.until(() => second.comments >= 2, 5000);
  });

  it("answers bad input with clear errors and keeps serving: no Accept, a batch, bad filters and cursors, no token", { timeout: 60_000 }, async () => {
    const relay = await relayWith();
    const [bobToken] = await tokens(relay, bob);
    const body = (params: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 7, method: "neutralService_subscribe", params });
    const post = (text: string, headers: Record<string, string>) =>
      fetch(relay.url, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${bobToken}`, ...headers }, body: text });
    const plain = await post(body([]), {});
    expect(plain.status).toBe(406);
    expect(await plain.json()).toMatchObject({ id: 7, error: { code: -32600, message: expect.stringContaining("text/event-stream") } });
    const batch = await post(`[${body([])}]`, { accept: "text/event-stream" });
    expect(await batch.json()).toMatchObject([{ id: 7, error: { code: -32600, message: expect.stringContaining("not in a batch") } }]);
    for (const params of [{ filter: { chat: "0x12" } }, { filter: { direction: "both" } }, { filter: { chat: bob.address, from: alice.address } }, { after: "-1" }, { after: "01" }, { nope: 1 }, [{}, "1", 3]]) {
      const bad = await post(body(params), { accept: "text/event-stream" });
      expect(bad.headers.get("content-type")).toBe("application/json");
      expect(await bad.json(), JSON.stringify(params)).toMatchObject({ id: 7, error: { code: -32602 } });
    }
    const badCursor = await post(body([]), { accept: "text/event-stream", "last-event-id": "abc" });
    expect(await badCursor.json()).toMatchObject({ error: { code: -32602, data: { field: "Last-Event-ID" } } });
    const noToken = await fetch(relay.url, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream" }, body: body([]) });
    expect(noToken.status).toBe(401);
    expect(await serves(relay.url)).toBe(true);
  });

  it("at --max-subscriptions-per-account (8): 8 streams stay open; each one past it ends the account's oldest, 40 times over", { timeout: 60_000 }, async () => {
    const relay = await relayWith({ args: ["--max-subscriptions-per-account", "8"] });
    const [bobToken] = await tokens(relay, bob);
    const atLimit = await Promise.all(Array.from({ length: 8 }, () => open(relay.url, bobToken!)));
    await Promise.all(atLimit.map((stream) => stream.until(caughtUp)));
    let live = atLimit;
    for (let i = 0; i < 40; i++) {
      const newest = await open(relay.url, bobToken!);
      await newest.until(caughtUp);
      const [oldest, ...rest] = live;
      expect(await within(oldest!.done, 10_000, `stream ${i} past the limit`)).toBe("ended");
      expect(oldest!.events.at(-1)).toMatchObject({ method: "neutralService_end", params: { reason: "limit" } });
      live = [...rest, newest];
    }
    for (const stream of live) expect(stream.events.every((event) => event.method !== "neutralService_end")).toBe(true);
    expect(await serves(relay.url)).toBe(true);
  });

  it("ends a consumer that reads nothing (reason slow-consumer) once its buffer stays full, and goes on serving", { timeout: 60_000 }, async () => {
    const relay = await relayWith({ args: ["--subscription-buffer-bytes", "4096", "--subscription-stall-ms", "500", "--max-message-bytes", "65536"] });
    const [aliceToken, bobToken] = await tokens(relay, alice, bob);
    const socket = connect(Number(new URL(relay.url).port), "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_subscribe", params: [] });
    socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${bobToken}\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    socket.pause();
    // 200 messages of 64 KiB of ciphertext: about 26 MB of events, far past what loopback buffers hold.
    const big = "ab".repeat(65_536);
    for (let i = 0; i < 200; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          const answer = await call(relay.url, "neutralService_sendMessage", [await alice.sign({ to: bob.address, message: big })], aliceToken);
          expect(answer.status).toBe(200);
        }),
      );
    }
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    await new Promise((resolve) => setTimeout(resolve, 1500)); // past the stall bound
    socket.resume();
    await new Promise<void>((resolve) => socket.once("end", () => resolve()));
    socket.destroy();
    const text = Buffer.concat(chunks).toString("latin1");
    const ids = [...text.matchAll(/\nid: (\d+)\n/g)].length;
    expect(ids).toBeGreaterThan(0);
    expect(ids).toBeLessThan(200); // the node did not read the whole backlog into memory for it
    expect(text).toMatch(/"method":"neutralService_end","params":\{"reason":"slow-consumer"/);
    expect(await serves(relay.url)).toBe(true);
  });
});
