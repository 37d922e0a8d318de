// The subscriptions of one process over a real SQLite store (issue 33, findings 1 and 4): a stream
// reads the store in byte-bounded pages, so what it holds while its client reads does not grow with
// the size of its messages; and at the process's bound, a new address's stream ends the oldest of
// the address holding the most instead of being locked out.
import { rmSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { randomAddress, testMessage } from "../../testing/store-conformance.js";
import { tempDir } from "../../testing/index.js";
import { openSqliteStore } from "../storage/sqlite.js";
import type { MessageStore, PageQuery } from "../storage/store.js";
import { createLocalCommitFeed } from "./commits.js";
import { createSubscriptions, type Subscriptions } from "./subscriptions.js";

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

function subscriptionsOver(store: MessageStore, maxSubscriptions = 100, maxReadBytes = 64 * KiB): Subscriptions {
  const feed = createLocalCommitFeed();
  const subscriptions = createSubscriptions({ store, feed, limits: { maxSubscriptions, maxSubscriptionsPerAccount: 100 }, maxPageScan: 256, maxReadBytes });
  cleanup.push(() => subscriptions.close());
  return subscriptions;
}

type Event = { id?: string; method: string; params: unknown };

/** Opens a stream of `owner`'s inbox from `client` and pulls events off it one at a time. */
function openStream(subscriptions: Subscriptions, owner: string, client: string) {
  const abort = new AbortController();
  const iterator = subscriptions.open({ selection: { owner, ranges: [{ side: "received" }] }, client, after: 0, signal: abort.signal })[Symbol.asyncIterator]();
  cleanup.push(async () => {
    abort.abort();
    await iterator.return?.();
  });
  return { next: async () => (await iterator.next()).value as Event | undefined, abort };
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
});
