// The SDK's live delivery (`live()`) against real relays on loopback: catch-up then live, the filter,
// a relay killed (kill -9) and restarted on its data and port under a stream while messages are sent,
// token expiry, abort, refusals, and pending messages that settle across a federation.
import { rmSync } from "node:fs";
import { freePorts, startFederation, startRelay, tempDir, type Federation, type RunningRelay, type StartOptions } from "@neutral/relay/testing";
import { afterEach, describe, expect, it } from "vitest";
import { NeutralError } from "./errors.js";
import { generatePrivateKey } from "./keys.js";
import type { LiveOptions, LiveState } from "./live.js";
import type { DecryptedMessage } from "./messages.js";
import { createNeutral, type Neutral, type NeutralOptions } from "./neutral.js";
import { RpcError, RpcTransportError } from "./rpc.js";
import { TEST_KEYS } from "../test/wallet.js";

/** Reconnections in tests: 50 ms doubling to half a second. */
const FAST = { minDelayMs: 50, maxDelayMs: 500 } as const;

interface Watch {
  readonly messages: DecryptedMessage[];
  readonly states: LiveState[];
  /** How many messages had been yielded when each state was reported (same index as `states`). */
  readonly messagesAtState: number[];
  readonly statuses: DecryptedMessage[];
  /** Settles when the iteration ends: undefined, or what it threw. */
  readonly done: Promise<unknown>;
  abort(): void;
  /** Resolves once `condition` holds; rejects when the iteration ended first or after `timeoutMs`. */
  until(condition: () => boolean, what: string, timeoutMs?: number): Promise<void>;
}

let relays: RunningRelay[] = [];
let watches: Watch[] = [];
afterEach(async () => {
  for (const watch of watches) watch.abort();
  await Promise.all(watches.map((watch) => watch.done));
  watches = [];
  await Promise.all(relays.map((relay) => relay.crash()));
  relays = [];
}, 30_000);

const relayWith = async (options: StartOptions = {}) => {
  const relay = await startRelay(options);
  relays.push(relay);
  return relay;
};

/** Iterates `neutral.live(options)` in the background, recording what it yields and reports. */
function watch(neutral: Neutral, options: LiveOptions = {}): Watch {
  const controller = new AbortController();
  const messages: DecryptedMessage[] = [];
  const states: LiveState[] = [];
  const messagesAtState: number[] = [];
  const statuses: DecryptedMessage[] = [];
  let ended = false;
  const done = (async () => {
    const live = neutral.live({ ...FAST, ...options, signal: controller.signal, onState: (state) => {
        states.push(state);
        messagesAtState.push(messages.length);
      }, onStatus: (message) => statuses.push(message) });
    for await (const message of live) messages.push(message);
  })().then(
    () => undefined,
    (error: unknown) => error,
  );
  void done.finally(() => (ended = true));
  const result: Watch = {
    messages,
    states,
    messagesAtState,
    statuses,
    done,
    abort: () => controller.abort(),
    async until(condition, what, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!condition()) {
        if (ended) throw new Error(`the iteration ended (${String(await done)}) before ${what}; states: ${JSON.stringify(states.map((state) => state.state))}`);
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; ${messages.length} messages, states: ${JSON.stringify(states)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
  watches.push(result);
  return result;
}

const account = (url: string, extra: Partial<NeutralOptions> = {}) => createNeutral({ url, account: generatePrivateKey(), ...extra });
const texts = (messages: readonly DecryptedMessage[]) => messages.map((message) => message.text);
const names = (states: readonly LiveState[]) => states.map((state) => state.state);
const liveCount = (states: readonly LiveState[]) => states.filter((state) => state.state === "live").length;
const inIdOrder = (messages: readonly DecryptedMessage[]) => messages.every((message, i) => i === 0 || BigInt(message.id) > BigInt(messages[i - 1]!.id));

/** Opens a raw subscription with `token` (no SDK); `close` ends it. */
async function rawStream(url: string, token: string): Promise<{ status: number; close(): void }> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_subscribe", params: [] }),
    signal: controller.signal,
  });
  void response.body?.pipeTo(new WritableStream()).catch(() => {});
  return { status: response.status, close: () => controller.abort() };
}

/**
 * A `fetch` for the SDK whose event streams a test can cut (as a reset connection would) and hold
 * back (a reconnection waits until `release`).
 */
function controlledFetch() {
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  let cutCurrent: (() => void) | undefined;
  const controlled: typeof fetch = async (input, init) => {
    if (new Headers(init?.headers).get("accept") !== "text/event-stream") return fetch(input, init);
    await gate;
    const response = await fetch(input, init);
    if (response.body === null) return response;
    const reader = response.body.getReader();
    let errored = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        cutCurrent = () => {
          errored = true;
          controller.error(new TypeError("terminated"));
          void reader.cancel().catch(() => {});
        };
      },
      async pull(controller) {
        const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
        if (errored) return;
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return {
    fetch: controlled,
    cut: () => cutCurrent?.(),
    hold: () => void (gate = new Promise<void>((resolve) => (open = resolve))),
    release: () => {
      gate = undefined;
      open?.();
    },
  };
}

describe("live(): catch-up, then live", () => {
  it("yields every message after `after` (\"0\": the whole mailbox), then each new one as it is stored, decrypted and verified; states connecting, live", { timeout: 60_000 }, async () => {
    const relay = await relayWith();
    const alice = account(relay.url);
    const bob = account(relay.url);
    const bobAddress = await bob.getAddress();
    await bob.ready();
    const stored = [await alice.send(bobAddress, "one"), await alice.send(bobAddress, "two"), await alice.send(bobAddress, "three")];

    const all = watch(bob, { after: "0" });
    await all.until(() => liveCount(all.states) === 1, "caught up");
    expect(texts(all.messages)).toEqual(["one", "two", "three"]);
    expect(all.states).toEqual([
      { state: "connecting", attempt: 1 },
      { state: "live", cursor: stored[2]!.id },
    ]);
    const since = watch(bob, { after: stored[0]!.id });
    await since.until(() => liveCount(since.states) === 1, "the second stream caught up");
    expect(texts(since.messages)).toEqual(["two", "three"]);

    const four = await alice.send(bobAddress, "four ✓");
    await all.until(() => all.messages.length === 4, "the live message");
    const live = all.messages[3]!;
    expect(live).toMatchObject({ id: four.id, from: await alice.getAddress(), to: bobAddress, direction: "received", text: "four ✓", status: "delivered", verified: true, problems: [] });
    await since.until(() => since.messages.length === 3, "the live message on the second stream");
    expect(texts(since.messages)).toEqual(["two", "three", "four ✓"]);
    expect(inIdOrder(all.messages)).toBe(true);
    expect(all.states).toHaveLength(2); // nothing interrupted it
  });

  it("without `after`, yields only messages newer than the newest one at start (found with one getInbox), none lost between the lookup and the stream", { timeout: 60_000 }, async () => {
    const relay = await relayWith();
    const alice = account(relay.url);
    const bobKey = generatePrivateKey();
    const bobAddress = await account(relay.url, { account: bobKey }).getAddress();
    // Bob's fetch sends alice's message right after the node answered the start lookup (getInbox),
    // before the stream opens: the one moment a message could fall between the two.
    let racing: DecryptedMessage | undefined;
    let armed = false;
    const racingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const body = typeof init?.body === "string" ? init.body : "";
      if (armed && racing === undefined && body.includes('"neutralService_getInbox"')) racing = await alice.send(bobAddress, "racing the start");
      return response;
    };
    const bob = account(relay.url, { account: bobKey, fetch: racingFetch });
    await bob.ready();
    await alice.send(bobAddress, "old");
    const sent = await bob.send(await alice.getAddress(), "sent by bob, also old");
    armed = true;
    const fresh = watch(bob);
    // The racing message is part of the stream's catch-up, so it is yielded before the node's
    // caughtUp event, which may come in a later read: wait for both.
    await fresh.until(() => fresh.messages.length === 1 && liveCount(fresh.states) === 1, "the racing message, then live");
    expect(fresh.states[1]).toMatchObject({ state: "live" });
    expect(BigInt((fresh.states[1] as { cursor: string }).cursor)).toBeGreaterThanOrEqual(BigInt(sent.id));
    await alice.send(bobAddress, "new");
    await fresh.until(() => fresh.messages.length === 2, "the new message");
    expect(texts(fresh.messages)).toEqual(["racing the start", "new"]);
    expect(fresh.messages[0]!.id).toBe(racing!.id);
  });

  it("passes the filter through: direction sent (the account's own messages), from, and one chat (both directions)", { timeout: 60_000 }, async () => {
    const relay = await relayWith();
    const [alice, bob, carol] = [account(relay.url), account(relay.url), account(relay.url)];
    const [aliceAddress, bobAddress, carolAddress] = await Promise.all([alice.getAddress(), bob.getAddress(), carol.getAddress()]);
    await Promise.all([alice.ready(), bob.ready(), carol.ready()]);
    const sent = watch(alice, { direction: "sent" });
    const fromCarol = watch(bob, { from: carolAddress });
    const chat = watch(bob, { chat: aliceAddress });
    await Promise.all([sent, fromCarol, chat].map((one) => one.until(() => liveCount(one.states) === 1, "live")));
    await alice.send(bobAddress, "alice to bob");
    await carol.send(bobAddress, "carol to bob");
    await bob.send(aliceAddress, "bob to alice");
    await chat.until(() => chat.messages.length === 2, "the chat's two messages");
    await fromCarol.until(() => fromCarol.messages.length === 1, "carol's message");
    await sent.until(() => sent.messages.length === 1, "alice's sent message");
    expect(texts(chat.messages)).toEqual(["alice to bob", "bob to alice"]);
    expect(chat.messages.map((message) => message.direction)).toEqual(["received", "sent"]);
    expect(texts(fromCarol.messages)).toEqual(["carol to bob"]);
    expect(sent.messages[0]).toMatchObject({ text: "alice to bob", direction: "sent", verified: true });
    expect(() => bob.live({ chat: "0x12" })).toThrow(NeutralError);
    expect(() => bob.live({ chat: aliceAddress, from: carolAddress } as unknown as LiveOptions)).toThrow(/cannot be combined/);
  });
});

describe("live(): resuming", () => {
  it("survives a relay killed (kill -9) and restarted on its data and port while messages are sent: every message exactly once, in id order", { timeout: 120_000 }, async () => {
    const dataDir = tempDir("neutral-live-sdk-");
    try {
      let relay = await relayWith({ dataDir });
      const port = new URL(relay.url).port;
      const alice = account(relay.url);
      const bob = account(relay.url);
      const bobAddress = await bob.getAddress();
      await bob.ready();
      const stream = watch(bob, { after: "0" });
      await stream.until(() => liveCount(stream.states) === 1, "live");

      // 40 messages, one after the other; a send that fails while the node is down is sent again.
      const COUNT = 40;
      const sending = (async () => {
        for (let i = 0; i < COUNT; i++) {
          for (;;) {
            try {
              await alice.send(bobAddress, `m${i}`);
              break;
            } catch (error) {
              if (!(error instanceof RpcTransportError) && !(error instanceof RpcError && (error.status ?? 0) >= 500)) throw error;
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
          }
        }
      })();
      await stream.until(() => stream.messages.length >= 12, "the first messages");
      await relay.crash();
      relays = relays.filter((other) => other !== relay);
      await stream.until(() => stream.states.some((state) => state.state === "reconnecting"), "the SDK to notice");
      await new Promise((resolve) => setTimeout(resolve, 500)); // down for a while: a few attempts fail
      relay = await relayWith({ dataDir, args: ["--port", port] });
      await sending;
      const wanted = new Set(Array.from({ length: COUNT }, (_, i) => `m${i}`));
      await stream.until(() => wanted.size === new Set(texts(stream.messages)).size, "every message after the restart", 60_000);

      // Exactly what the mailbox holds (a send retried after its answer was lost may be stored twice), in id order.
      const mailbox: string[] = [];
      for await (const message of bob.inbox({ after: "0", limit: 100 }).messages()) mailbox.push(message.id);
      expect(stream.messages.map((message) => message.id)).toEqual(mailbox);
      expect(inIdOrder(stream.messages)).toBe(true);
      expect(new Set(texts(stream.messages))).toEqual(wanted);
      expect(stream.messages.every((message) => message.verified)).toBe(true);

      // connecting, live; then after the kill: reconnecting (the cut stream, then refused connections) / connecting pairs; live again.
      const states = names(stream.states);
      expect(states.slice(0, 3)).toEqual(["connecting", "live", "reconnecting"]);
      expect(states.at(-1)).toBe("live");
      expect(liveCount(stream.states)).toBe(2);
      const reconnecting = stream.states.filter((state): state is Extract<LiveState, { state: "reconnecting" }> => state.state === "reconnecting");
      expect(reconnecting.length).toBeGreaterThan(1);
      expect(reconnecting.map((state) => state.attempt)).toEqual(reconnecting.map((_, i) => i + 1));
      for (const state of reconnecting) {
        expect(state.cause.kind === "cut" || (state.cause.kind === "error" && state.cause.error instanceof RpcTransportError)).toBe(true);
        // 50 ms doubling to 500 ms, each 50-100 % of that.
        expect(state.delayMs).toBeGreaterThanOrEqual(Math.min(500, 50 * 2 ** (state.attempt - 1)) / 2);
        expect(state.delayMs).toBeLessThanOrEqual(Math.min(500, 50 * 2 ** (state.attempt - 1)));
      }
      for (let i = 1; i < states.length; i++) if (states[i - 1] === "reconnecting") expect(states[i]).toBe("connecting");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("reconnects after each end the node announces: limit (another stream of the account opened), shutdown (the node stopping, then back)", { timeout: 90_000 }, async () => {
    const dataDir = tempDir("neutral-live-sdk-");
    try {
      let relay = await relayWith({ dataDir, args: ["--max-subscriptions-per-account", "1"] });
      const port = new URL(relay.url).port;
      const alice = account(relay.url);
      const bob = account(relay.url);
      const bobAddress = await bob.getAddress();
      const stream = watch(bob);
      await stream.until(() => liveCount(stream.states) === 1, "live");
      const ended = (reason: string) => stream.states.some((state) => state.state === "reconnecting" && state.cause.kind === "ended" && state.cause.reason === reason);

      const other = await rawStream(relay.url, await bob.token());
      expect(other.status).toBe(200);
      await stream.until(() => ended("limit") && liveCount(stream.states) === 2, "live again after the limit end");
      other.close();
      await alice.send(bobAddress, "after the limit");
      await stream.until(() => stream.messages.length === 1, "the message after the limit end");

      await relay.stop("SIGTERM");
      relays = relays.filter((one) => one !== relay);
      await stream.until(() => ended("shutdown"), "the shutdown end");
      relay = await relayWith({ dataDir, args: ["--port", port, "--max-subscriptions-per-account", "1"] });
      await stream.until(() => liveCount(stream.states) === 3, "live after the restart");
      await alice.send(bobAddress, "after the restart");
      await stream.until(() => stream.messages.length === 2, "the message after the restart");
      expect(texts(stream.messages)).toEqual(["after the limit", "after the restart"]);
      const causes = stream.states.flatMap((state) => (state.state === "reconnecting" ? [state.cause.kind === "ended" ? state.cause.reason : state.cause.kind] : []));
      expect(causes[0]).toBe("limit");
      // Displaced by another stream of the account: it waits half the longest delay, not the shortest.
      const displaced = stream.states.find((state) => state.state === "reconnecting" && state.cause.kind === "ended" && state.cause.reason === "limit");
      expect(displaced?.state === "reconnecting" && displaced.delayMs).toBeGreaterThanOrEqual(250);
      expect(causes[1]).toBe("shutdown");
      expect(causes.slice(2).every((cause) => cause === "error")).toBe(true); // refused connections until the restart
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("resumes with a fresh token when the node ends the stream because the token expired, missing nothing", { timeout: 60_000 }, async () => {
    const relay = await relayWith();
    const alice = account(relay.url);
    const bob = account(relay.url, { tokenLifetimeMs: 4_000 });
    const bobAddress = await bob.getAddress();
    const stream = watch(bob);
    await stream.until(() => liveCount(stream.states) === 1, "live");
    const firstToken = await bob.token();
    await alice.send(bobAddress, "before expiry");
    await stream.until(() => liveCount(stream.states) === 2, "live again after the token expired", 30_000);
    await alice.send(bobAddress, "after expiry");
    await stream.until(() => stream.messages.length === 2, "the message after expiry");
    expect(texts(stream.messages)).toEqual(["before expiry", "after expiry"]);
    // The stream resumes after the last message it yielded. On a loaded machine the token can expire before
    // "before expiry" reaches the first stream; then the second stream resumes from the first one's cursor.
    const yieldedBeforeResume = stream.messagesAtState[4]!;
    const firstCursor = stream.states[1]?.state === "live" ? stream.states[1].cursor : undefined;
    expect(stream.states.slice(0, 5)).toEqual([
      { state: "connecting", attempt: 1 },
      { state: "live", cursor: expect.any(String) },
      { state: "reconnecting", attempt: 1, delayMs: 0, cause: { kind: "ended", reason: "token-expired", message: expect.stringContaining("expired") } },
      { state: "connecting", attempt: 1 },
      { state: "live", cursor: yieldedBeforeResume > 0 ? stream.messages[yieldedBeforeResume - 1]!.id : firstCursor },
    ]);
    expect(await bob.token()).not.toBe(firstToken);
  });
});

describe("live(): stopping and refusals", () => {
  it("stops when the signal aborts: the loop ends without an error and the HTTP stream is closed", { timeout: 60_000 }, async () => {
    // Room for one stream: another account's can open only once the node has let go of the first.
    const relay = await relayWith({ args: ["--max-subscriptions", "1"] });
    const signals: (AbortSignal | null | undefined)[] = [];
    const spy: typeof fetch = (input, init) => {
      if (new Headers(init?.headers).get("accept") === "text/event-stream") signals.push(init?.signal);
      return fetch(input, init);
    };
    const bob = account(relay.url, { fetch: spy });
    const stream = watch(bob);
    await stream.until(() => liveCount(stream.states) === 1, "live");
    expect(signals).toHaveLength(1);
    const stopped = Date.now();
    stream.abort();
    expect(await stream.done).toBeUndefined();
    expect(Date.now() - stopped).toBeLessThan(1_000);
    expect(signals[0]?.aborted).toBe(true);
    expect(names(stream.states)).toEqual(["connecting", "live"]);
    const token = await account(relay.url).token();
    let status = 0;
    for (const deadline = Date.now() + 5_000; status !== 200 && Date.now() < deadline; ) {
      const controller = new AbortController();
      const response = await fetch(relay.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_subscribe", params: [] }),
        signal: controller.signal,
      });
      status = response.status;
      controller.abort();
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(200);

    // Also while waiting to reconnect to a node that is not there.
    const [port] = await freePorts(1);
    const nowhere = watch(account(`http://127.0.0.1:${port}`), { minDelayMs: 5_000, maxDelayMs: 5_000 });
    await nowhere.until(() => nowhere.states.some((state) => state.state === "reconnecting"), "a failed attempt");
    expect(nowhere.states[1]).toMatchObject({ state: "reconnecting", attempt: 2, cause: { kind: "error", error: expect.any(RpcTransportError) } });
    const waiting = Date.now();
    nowhere.abort();
    expect(await nowhere.done).toBeUndefined();
    expect(Date.now() - waiting).toBeLessThan(1_000);
  });

  it("throws what retrying cannot fix: invalid params (-32602) at once, a refused token after one fresh one (-32001)", { timeout: 60_000 }, async () => {
    const relay = await relayWith();
    const bob = account(relay.url);
    const bad = watch(bob, { after: "01" });
    const error = await bad.done;
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32602 });
    expect(bad.states).toEqual([{ state: "connecting", attempt: 1 }]);

    // Tokens for a domain the node does not accept: every token is refused.
    const stranger = watch(account(relay.url, { domain: "elsewhere.example:1" }));
    const refused = await stranger.done;
    expect(refused).toBeInstanceOf(RpcError);
    expect(refused).toMatchObject({ code: -32001, status: 401 });
    expect(stranger.states).toEqual([
      { state: "connecting", attempt: 1 },
      { state: "reconnecting", attempt: 2, delayMs: 0, cause: { kind: "error", error: expect.any(RpcError) } },
      { state: "connecting", attempt: 2 },
    ]);
  });

  it("waits the node's retryAfter when it is at its stream limit (-32029), then connects", { timeout: 60_000 }, async () => {
    const relay = await relayWith({ args: ["--max-subscriptions", "1"] });
    const carol = watch(account(relay.url));
    await carol.until(() => liveCount(carol.states) === 1, "carol live");
    const bob = watch(account(relay.url));
    await bob.until(() => bob.states.length >= 2, "the refusal");
    expect(bob.states[1]).toMatchObject({ state: "reconnecting", attempt: 2, cause: { kind: "error", error: { code: -32029 } } });
    const { delayMs } = bob.states[1] as Extract<LiveState, { state: "reconnecting" }>;
    expect(delayMs).toBeGreaterThanOrEqual(5_000); // the relay's retryAfter: 5 s
    carol.abort();
    await bob.until(() => liveCount(bob.states) === 1, "bob live once carol's stream is gone", 15_000);
  });
});

describe("live(): a sent message that settles", () => {
  let federation: Federation | undefined;
  afterEach(async () => {
    await federation?.close();
    federation = undefined;
  }, 60_000);

  it("reaches onStatus once, as delivered: a status event on the stream, across a restart of the sender's node, and settled while the SDK was disconnected (found after reconnecting)", { timeout: 120_000 }, async () => {
    federation = await startFederation({
      keys: [TEST_KEYS.node, TEST_KEYS.peer],
      args: ["--retry-backoff-ms", "100", "--retry-backoff-max-ms", "500", "--delivery-wait-ms", "0"],
    });
    const [a, b] = federation.nodes as [Federation["nodes"][0], Federation["nodes"][0]];
    const control = controlledFetch();
    const alice = createNeutral({ url: a.url, account: generatePrivateKey(), fetch: control.fetch });
    const bob = createNeutral({ url: b.url, account: generatePrivateKey() });
    const bobAddress = await bob.getAddress();
    await Promise.all([alice.ready(), bob.ready()]);
    expect(await alice.keyOf(bobAddress)).toBeDefined(); // A learns Bob's key while B is up
    const sent = watch(alice, { direction: "sent" });
    await sent.until(() => liveCount(sent.states) === 1, "live");

    // On the stream: pending, then a status event once B is back.
    await b.stop();
    const first = await alice.send(bobAddress, "while B is down");
    expect(first.status).toBe("pending");
    await sent.until(() => sent.messages.length === 1, "the pending message");
    expect(sent.messages[0]).toMatchObject({ id: first.id, status: "pending", verified: false });
    await b.start();
    await sent.until(() => sent.statuses.length === 1, "the delivered status", 60_000);
    expect(sent.statuses[0]).toMatchObject({ id: first.id, direction: "sent", text: "while B is down", status: "delivered", verified: true });

    // Settled while the stream was down (A killed and restarted): found again after reconnecting.
    await b.stop();
    const second = await alice.send(bobAddress, "while B is down, again");
    await sent.until(() => sent.messages.length === 2, "the second pending message");
    await a.crash();
    await b.start();
    await a.start();
    await sent.until(() => sent.statuses.length === 2, "the second delivered status", 60_000);
    expect(sent.statuses[1]).toMatchObject({ id: second.id, status: "delivered", verified: true });

    // Settled while the SDK was disconnected and held back from reconnecting: the node has no status
    // event for it (it changed before the new stream began), the SDK's look-up after reconnecting finds it.
    expect(await alice.keyOf(bobAddress)).toBeDefined(); // A, restarted, learns Bob's key again
    await b.stop();
    const third = await alice.send(bobAddress, "while B is down, a third time");
    await sent.until(() => sent.messages.length === 3, "the third pending message");
    control.hold();
    control.cut();
    await sent.until(() => sent.states.at(-1)?.state === "connecting", "the reconnection (held back)");
    await b.start();
    expect(await alice.waitForDelivery(third, { timeoutMs: 60_000, intervalMs: 100 })).toMatchObject({ status: "delivered" });
    expect(sent.statuses).toHaveLength(2);
    control.release();
    await sent.until(() => sent.statuses.length === 3, "the third delivered status", 30_000);
    expect(sent.statuses[2]).toMatchObject({ id: third.id, status: "delivered", verified: true });

    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(sent.statuses.map((message) => message.id)).toEqual([first.id, second.id, third.id]); // each once
    expect(sent.messages.map((message) => message.id)).toEqual([first.id, second.id, third.id]);
  });
});
