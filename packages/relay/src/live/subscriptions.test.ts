// The subscriptions of one process over a real SQLite store (issue 33, findings 1 and 4): a stream
// reads the store in byte-bounded pages, so what it holds while its client reads does not grow with
// the size of its messages; and at the process's bound, a new address's stream ends the oldest of
// the address holding the most instead of being locked out. Over the store's own writer's commit
// events (issue 38): a caught-up stream sends the messages they carry without reading, and sends
// exactly what a read of its selection holds.
import { rmSync } from "node:fs";
import path from "node:path";
import type { RawJson } from "@neutral/server";
import { afterEach, describe, expect, it } from "vitest";
import { BASE_TIMESTAMP, randomAddress, testMessage } from "../../testing/store-conformance.js";
import { tempDir } from "../../testing/index.js";
import { openSqliteStore, startStoreWriter } from "../storage/sqlite.js";
import type { MessageStore, PageQuery } from "../storage/store.js";
import { createLocalCommitFeed, observeCommits, type LocalCommitFeed } from "./commits.js";
import { createSubscriptions, type StreamSelection, type Subscriptions } from "./subscriptions.js";

const KiB = 1024;
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

function openStore(): MessageStore {
  const dir = tempDir("neutral-subscriptions-");
  const store = openSqliteStore({ file: path.join(dir, "neutral.sqlite"), synchronous: "normal" });
  cleanup.push(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

/** A store whose writer tells `feed` of its commits, as a node's does (node-storage.ts). */
function openLiveStore(): { store: MessageStore; feed: LocalCommitFeed; reads: () => number; storedFor: (selection: StreamSelection) => Promise<{ id: string; message: unknown }[]> } {
  const dir = tempDir("neutral-subscriptions-");
  const file = path.join(dir, "neutral.sqlite");
  const feed = createLocalCommitFeed();
  const writer = observeCommits(startStoreWriter({ file, synchronous: "normal" }), (events) => feed.publish(events));
  const store = openSqliteStore({ file, synchronous: "normal", writer });
  cleanup.push(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  let reads = 0;
  const page = store.page.bind(store);
  store.page = (query) => {
    reads++;
    return page(query);
  };
  /** What a read of `selection` holds now (not counted): every message, in id order, as a stream must have sent them. */
  const storedFor = async (selection: StreamSelection) =>
    (await page({ ...selection, after: 0, order: "asc", limit: 10_000, maxScan: 100_000 })).messages.map(({ id, json }) => ({ id: String(id), message: JSON.parse(json) as unknown }));
  return { store, feed, reads: () => reads, storedFor };
}

function subscriptionsOver(store: MessageStore, maxSubscriptions = 100, maxReadBytes = 64 * KiB, feed = createLocalCommitFeed()): Subscriptions {
  const subscriptions = createSubscriptions({ store, feed, limits: { maxSubscriptions, maxSubscriptionsPerAccount: 100 }, maxPageScan: 256, maxReadBytes });
  cleanup.push(() => subscriptions.close());
  return subscriptions;
}

type Event = { id?: string; method: string; params: unknown };

/** Opens a stream of `owner`'s inbox (or of `selection`) from `client` and pulls events off it one at a time. */
function openStream(subscriptions: Subscriptions, owner: string, client: string, selection: StreamSelection = { owner, ranges: [{ side: "received" }] }) {
  const abort = new AbortController();
  const iterator = subscriptions.open({ selection, client, after: 0, signal: abort.signal })[Symbol.asyncIterator]();
  cleanup.push(async () => {
    abort.abort();
    await iterator.return?.();
  });
  // A pull that `nextWithin` stopped waiting for is the next caller's: the event it gets is not lost.
  let unclaimed: Promise<Event | undefined> | undefined;
  const next = (): Promise<Event | undefined> => {
    const pull = unclaimed ?? iterator.next().then((result) => result.value as Event | undefined);
    unclaimed = undefined;
    return pull;
  };
  /** The next event, or "none" when the stream sends nothing within `ms`. */
  const nextWithin = async (ms: number): Promise<Event | "none" | undefined> => {
    const pull = next();
    const first = await Promise.race([pull, new Promise<"none">((resolve) => setTimeout(resolve, ms, "none"))]);
    if (first === "none") unclaimed = pull;
    return first;
  };
  return { next, nextWithin, abort };
}

/** The next `count` message events of `stream` (failing on any other event). */
async function messagesOf(stream: ReturnType<typeof openStream>, count: number): Promise<{ id: string; message: unknown }[]> {
  const messages: { id: string; message: unknown }[] = [];
  while (messages.length < count) {
    const event = await stream.nextWithin(10_000);
    if (event === "none" || event?.method !== "neutralService_message") throw new Error(`expected message ${messages.length + 1} of ${count}, got ${JSON.stringify(event)}`);
    messages.push({ id: event.id!, message: (JSON.parse((event.params as RawJson).json) as { message: unknown }).message });
  }
  return messages;
}


describe("subscriptions", () => {
  it("read the store in pages of at most maxReadBytes of JSON (one message when one is bigger), asking for fewer messages once they are big", { timeout: 60_000 }, async () => {
    const store = openStore();
    const owner = randomAddress();
    // 30 messages of 64 KiB (~128 KiB of JSON each) and 30 small ones.
    for (let i = 0; i < 30; i++) await store.append(testMessage(randomAddress(), owner, { message: "ab".repeat(64 * KiB) }));
    for (let i = 0; i < 30; i++) await store.append(testMessage(randomAddress(), owner));
    const queries: PageQuery[] = [];
    const pages: number[] = [];
    const page = store.page.bind(store);
    store.page = async (query) => {
      queries.push(query);
      const answer = await page(query);
      pages.push(answer.messages.reduce((sum, message) => sum + message.json.length, 0));
      return answer;
    };
    const stream = openStream(subscriptionsOver(store), owner, "127.0.0.1");
    const ids: string[] = [];
    for (let event = await stream.next(); event && event.method !== "neutralService_caughtUp"; event = await stream.next()) ids.push(event.id!);
    expect(ids).toHaveLength(60);
    expect(queries.every((query) => query.maxBytes === 64 * KiB)).toBe(true);
    // A page of big messages holds one of them; of small ones, up to the bound.
    expect(Math.max(...pages)).toBeLessThan(64 * KiB + 132 * KiB);
    expect(pages.filter((bytes) => bytes > 64 * KiB).every((bytes) => bytes < 132 * KiB)).toBe(true);
    // A stream's first read asks for a few; after a big page, reads ask for one, not a hundred;
    // after small ones, for as many as the bound holds.
    expect(queries[0]!.limit).toBeLessThanOrEqual(4);
    expect(queries.slice(1, 30).every((query) => query.limit === 1)).toBe(true);
    expect(Math.max(...queries.map((query) => query.limit))).toBeGreaterThan(50);
  });

  it("a caught-up stream waiting for its next message finishes at once when its client goes (its signal aborts), before any other message comes", { timeout: 30_000 }, async () => {
    const store = openStore();
    const subscriptions = subscriptionsOver(store);
    const stream = openStream(subscriptions, randomAddress(), "10.0.0.1");
    expect((await stream.next())?.method).toBe("neutralService_caughtUp");
    // The HTTP glue awaits the next event; the stream waits for a commit into its account.
    const next = stream.next();
    expect(subscriptions.count).toBe(1);
    stream.abort.abort();
    expect(await Promise.race([next, new Promise((resolve) => setTimeout(resolve, 5000, "still waiting"))])).toBeUndefined();
    expect(subscriptions.count).toBe(0);
  });

  it("at the process's bound, a new address's stream ends the oldest stream of the address holding the most; an address as loaded as the others is refused", { timeout: 30_000 }, async () => {
    const store = openStore();
    const subscriptions = subscriptionsOver(store, 4);
    const streams = ["10.0.0.1", "10.0.0.1", "10.0.0.1", "10.0.0.2"].map((client) => openStream(subscriptions, randomAddress(), client));
    for (const stream of streams) expect((await stream.next())?.method).toBe("neutralService_caughtUp");
    expect(subscriptions.count).toBe(4);

    // A third address: room is made on 10.0.0.1, whose oldest stream ends saying why.
    const newcomer = openStream(subscriptions, randomAddress(), "10.0.0.3");
    expect((await newcomer.next())?.method).toBe("neutralService_caughtUp");
    const shed = await streams[0]!.next();
    expect(shed).toMatchObject({ method: "neutralService_end", params: { reason: "limit", message: expect.stringMatching(/stream bound/) } });
    expect(subscriptions.count).toBe(4);

    // 10.0.0.1 (2 streams) and 10.0.0.2 (1) would hold as many as the most loaded after one more: refused.
    for (const client of ["10.0.0.1", "10.0.0.2"]) {
      expect(() => subscriptions.open({ selection: { owner: randomAddress(), ranges: [{ side: "received" }] }, client, after: 0, signal: new AbortController().signal })).toThrow(
        expect.objectContaining({ code: -32029 }),
      );
    }
    // The streams that were not shed go on.
    expect(subscriptions.count).toBe(4);
  });
  it("a caught-up stream sends each message its commit events carry without reading the store, and only those its selection holds; an event without the message makes it read", { timeout: 30_000 }, async () => {
    const { store, feed, reads, storedFor } = openLiveStore();
    const [owner, friend, stranger] = [randomAddress(), randomAddress(), randomAddress()];
    const selection: StreamSelection = { owner, ranges: [{ side: "received", peer: friend }] };
    const stream = openStream(subscriptionsOver(store, 100, 64 * KiB, feed), owner, "127.0.0.1", selection);
    expect((await stream.next())?.method).toBe("neutralService_caughtUp");
    const readsCaughtUp = reads();
    for (let i = 0; i < 10; i++) {
      await store.append(testMessage(friend, owner));
      await store.append(testMessage(stranger, owner)); // received, from someone else
      await store.append(testMessage(owner, friend)); // sent
      await store.append(testMessage(friend, owner, { folder: "requests" })); // into the requests folder
    }
    const sent = await messagesOf(stream, 10);
    expect(sent).toEqual(await storedFor(selection));
    expect(await stream.nextWithin(300)).toBe("none");
    expect(reads() - readsCaughtUp).toBe(0);

    // A wake-up without the message (here, a gap in what the process heard): the stream reads again,
    // then takes what it is told once more.
    feed.publish([{ kind: "resync" }]);
    await store.append(testMessage(friend, owner));
    expect(await messagesOf(stream, 1)).toEqual((await storedFor(selection)).slice(10));
    // Its event may come after the read found the message: the stream reads once more, finds nothing, and is live again.
    expect(await stream.nextWithin(300)).toBe("none");
    const readsAfterResync = reads();
    expect(readsAfterResync - readsCaughtUp).toBeGreaterThan(0);
    await store.append(testMessage(friend, owner));
    expect(await messagesOf(stream, 1)).toEqual((await storedFor(selection)).slice(11));
    expect(reads()).toBe(readsAfterResync);
  });

  it("a stream whose client does not read what it is told holds up to maxReadBytes of it; one message past that, it reads the store instead, and sends each message once, in order", { timeout: 30_000 }, async () => {
    const { store, feed, reads, storedFor } = openLiveStore();
    const [owner, probe] = [randomAddress(), randomAddress()];
    const selection: StreamSelection = { owner, ranges: [{ side: "received" }] };
    const message = (to: string) => testMessage(randomAddress(), to, { message: "ab".repeat(300), timestamp: BASE_TIMESTAMP });
    // Ids of two digits from here on: every message below has JSON as long as the probe's.
    for (let i = 0; i < 10; i++) await store.append(testMessage(randomAddress(), randomAddress()));
    await store.append(message(probe));
    const bytes = (await store.page({ owner: probe, ranges: [{ side: "received" }], after: 0, order: "asc", limit: 1 })).messages[0]!.json.length;
    // The bound holds three messages' JSON exactly.
    const stream = openStream(subscriptionsOver(store, 100, 3 * bytes, feed), owner, "127.0.0.1", selection);
    expect((await stream.next())?.method).toBe("neutralService_caughtUp");

    // At the bound: three, told while nobody pulls, are sent without a read.
    let readsBefore = reads();
    for (let i = 0; i < 3; i++) await store.append(message(owner));
    expect(await messagesOf(stream, 3)).toEqual(await storedFor(selection));
    expect(reads()).toBe(readsBefore);

    // One past it (nothing pulls between the two parts: the stream's client has taken the third, no more): the fourth makes the stream read what it was told from the store.
    readsBefore = reads();
    for (let i = 0; i < 4; i++) await store.append(message(owner));
    expect(await messagesOf(stream, 4)).toEqual((await storedFor(selection)).slice(3));
    expect(reads()).toBeGreaterThan(readsBefore);
    expect(await stream.nextWithin(300)).toBe("none");
  });

  it("streams of every kind of selection send exactly what a read of it holds, each message once, in id order, with messages committed concurrently while they open", { timeout: 60_000 }, async () => {
    const { store, feed, storedFor } = openLiveStore();
    const subscriptions = subscriptionsOver(store, 100, 64 * KiB, feed);
    const [a, b, c, d] = [randomAddress(), randomAddress(), randomAddress(), randomAddress()];
    const accounts = [a, b, c, d];
    const since = BASE_TIMESTAMP + 40 * 1000;
    const until = BASE_TIMESTAMP + 160 * 1000;
    const selections: StreamSelection[] = [
      { owner: a, ranges: [{ side: "received" }] },
      { owner: a, ranges: [{ side: "sent" }] },
      { owner: a, ranges: [{ side: "received" }, { side: "sent" }] },
      { owner: a, ranges: [{ side: "received", peer: b }] },
      { owner: b, ranges: [{ side: "requests" }] },
      { owner: b, ranges: [{ side: "requests", peer: c }] },
      { owner: c, ranges: [{ side: "received" }, { side: "sent" }], since, until },
      { owner: d, ranges: [{ side: "received", peer: a }, { side: "sent", peer: a }] },
    ];
    // Each stream's client reads everything it is sent as it comes, into `events`.
    const streams: { events: Event[] }[] = [];
    const openAll = (from: number, to: number) => {
      for (const selection of selections.slice(from, to)) {
        const stream = openStream(subscriptions, selection.owner, "127.0.0.1", selection);
        const events: Event[] = [];
        streams.push({ events });
        void (async () => {
          for (let event = await stream.next(); event !== undefined; event = await stream.next()) events.push(event);
        })();
      }
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
    let appended = 0;
    const appendSome = async (count: number) => {
      const batch = Array.from({ length: count }, () => {
        const from = pick(accounts);
        const kind = Math.random();
        // Local, to oneself now and then, into the requests folder, to another node, or from one.
        const to = kind < 0.1 ? from : pick(accounts);
        return testMessage(from, to, {
          timestamp: BASE_TIMESTAMP + appended++ * 1000,
          ...(kind >= 0.1 && kind < 0.3 && { folder: "requests" as const }),
          ...(kind >= 0.3 && kind < 0.4 && { route: { kind: "outbound" as const, destination: randomAddress() } }),
          ...(kind >= 0.4 && kind < 0.5 && { route: { kind: "inbound" as const } }),
        });
      });
      // Eight at a time: the writer commits them in groups, its events come in batches.
      for (let i = 0; i < batch.length; i += 8) await Promise.all(batch.slice(i, i + 8).map((message) => store.append(message)));
    };
    await appendSome(40);
    openAll(0, 4);
    const opening = appendSome(80);
    openAll(4, 8);
    await opening;
    await appendSome(80);
    for (const [i, { events }] of streams.entries()) {
      const expected = await storedFor(selections[i]!);
      const messagesSent = () => events.filter((event) => event.method === "neutralService_message");
      for (const started = Date.now(); messagesSent().length < expected.length && Date.now() - started < 10_000; ) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 100)); // anything more it would send
      const sent = messagesSent().map((event) => ({ id: event.id!, message: (JSON.parse((event.params as RawJson).json) as { message: unknown }).message }));
      expect(sent, `stream ${i}`).toEqual(expected);
      expect(events.filter((event) => event.method !== "neutralService_message").map((event) => event.method), `stream ${i}`).toEqual(["neutralService_caughtUp"]);
    }
  });
});
