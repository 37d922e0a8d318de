// Reading pages: sides and peers, the since/until time filters, and the scan (maxScan) and byte (maxBytes) bounds of a page.
import { expect, it } from "vitest";
import type { MailboxRange, Side } from "@neutral/relay";
import { BASE_TIMESTAMP, parties, testMessage } from "./data.js";
import { appendWorld, ids, wholeMailbox } from "./mailbox.js";
import { chatRanges, inboxRanges, type ModelMessage } from "./model.js";
import type { SharedStore } from "./stores.js";

/** A message is in its recipient's received side and its sender's sent side, filtered by peer, and in nobody else's mailbox. */
export function sidesAndPeersTests(area: SharedStore): void {
  it("puts a message in the recipient's received side and the sender's sent side only", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const { stored } = await store.append(testMessage(alice, bob));
    const read = (owner: string, side: Side) => store.page({ owner, ranges: [{ side }], order: "desc", limit: 20 });
    expect(await read(bob, "received")).toEqual({ messages: [stored], end: true });
    expect(await read(alice, "sent")).toEqual({ messages: [stored], end: true });
    expect(await read(alice, "received")).toEqual({ messages: [], end: true });
    expect(await read(bob, "sent")).toEqual({ messages: [], end: true });
    expect(await read(carol, "received")).toEqual({ messages: [], end: true });
    expect(await read(carol, "sent")).toEqual({ messages: [], end: true });
  });

  it("filters by peer on each side", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const world = await appendWorld(store, [
      testMessage(alice, bob), // 0
      testMessage(carol, bob), // 1
      testMessage(bob, alice), // 2
      testMessage(bob, carol), // 3
      testMessage(alice, bob), // 4
    ]);
    const idsOf = (...indexes: number[]) => indexes.map((i) => world[i]!.id);
    const read = async (range: MailboxRange) => ids(await store.page({ owner: bob, ranges: [range], order: "desc", limit: 20 }));
    expect(await read({ side: "received", peer: alice })).toEqual(idsOf(4, 0));
    expect(await read({ side: "received", peer: carol })).toEqual(idsOf(1));
    expect(await read({ side: "received", peer: bob })).toEqual([]);
    expect(await read({ side: "sent", peer: alice })).toEqual(idsOf(2));
    expect(await read({ side: "sent", peer: carol })).toEqual(idsOf(3));
    expect(await read({ side: "received" })).toEqual(idsOf(4, 1, 0));
    expect(await read({ side: "sent" })).toEqual(idsOf(3, 2));
    // A chat: both directions with one peer, merged in id order.
    expect(ids(await store.page({ owner: bob, ranges: chatRanges(alice), order: "desc", limit: 20 }))).toEqual(idsOf(4, 2, 0));
    expect(ids(await store.page({ owner: bob, ranges: chatRanges(alice), after: 0, order: "asc", limit: 20 }))).toEqual(idsOf(0, 2, 4));
    // The whole mailbox.
    expect(ids(await store.page({ owner: bob, ranges: inboxRanges(bob, "all"), order: "desc", limit: 20 }))).toEqual(idsOf(4, 3, 2, 1, 0));
  });

  it("puts a message to oneself in both sides, and a union returns it once", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const world = await appendWorld(store, [testMessage(alice, bob), testMessage(alice, alice), testMessage(bob, alice), testMessage(alice, alice)]);
    const [toBob, self1, fromBob, self2] = world.map((m) => ({ id: m.id, json: m.json }));
    const read = (ranges: MailboxRange[], limit = 20) => store.page({ owner: alice, ranges, order: "desc", limit });
    expect(await read([{ side: "received" }])).toEqual({ messages: [self2, fromBob, self1], end: true });
    expect(await read([{ side: "sent" }])).toEqual({ messages: [self2, self1, toBob], end: true });
    expect(await read(inboxRanges(alice, "all"))).toEqual({ messages: [self2, fromBob, self1, toBob], end: true });
    expect(await read(chatRanges(alice))).toEqual({ messages: [self2, self1], end: true });
    expect(await read([{ side: "received", peer: alice }])).toEqual({ messages: [self2, self1], end: true });
    expect(await read([{ side: "sent", peer: alice }])).toEqual({ messages: [self2, self1], end: true });
    // The duplicate doesn't count twice against the limit or for `end`.
    expect(await read(chatRanges(alice), 2)).toEqual({ messages: [self2, self1], end: true });
    expect(await read(chatRanges(alice), 1)).toEqual({ messages: [self2], end: false });
    expect(await store.page({ owner: alice, ranges: chatRanges(alice), after: self1!.id, order: "asc", limit: 1 })).toEqual({ messages: [self2], end: true });
    // Nobody else sees it.
    expect(await store.page({ owner: bob, ranges: chatRanges(alice), order: "desc", limit: 20 })).toEqual({ messages: [fromBob, toBob], end: true });
  });

  it("returns a message present in overlapping ranges once", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const world = await appendWorld(store, [testMessage(bob, alice), testMessage(carol, alice), testMessage(bob, alice)]);
    const page = await store.page({
      owner: alice,
      ranges: [{ side: "received" }, { side: "received", peer: bob }, { side: "received" }],
      order: "desc",
      limit: 2,
    });
    expect(page).toEqual({ messages: [world[2], world[1]].map((m) => ({ id: m!.id, json: m!.json })), end: false });
  });

  it("never shows another owner's messages", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    // Addresses that differ only in their last byte, to catch truncating comparisons.
    const near = `${alice.slice(0, 40)}${alice.slice(40) === "00" ? "01" : "00"}`;
    await appendWorld(store, [testMessage(bob, carol), testMessage(carol, bob), testMessage(carol, carol), testMessage(near, near), testMessage(bob, near)]);
    for (const ranges of [inboxRanges(alice, "all"), chatRanges(bob), chatRanges(carol), chatRanges(near), chatRanges(alice), [{ side: "received" as const }]]) {
      expect(await store.page({ owner: alice, ranges, order: "desc", limit: 100 })).toEqual({ messages: [], end: true });
      expect(await store.page({ owner: alice, ranges, after: 0, order: "asc", limit: 100 })).toEqual({ messages: [], end: true });
    }
    expect(await store.latestPeer(alice)).toBeUndefined();
    expect((await wholeMailbox(store, near)).length).toBe(2);
  });
}

/** The time filters: on the message timestamp, since inclusive, until exclusive. */
export function sinceAndUntilTests(area: SharedStore): void {
  it("apply to the message timestamp, since inclusive, until exclusive, independent of id order", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    // Timestamps deliberately out of id order.
    const world = await appendWorld(
      store,
      [30, 10, 20, 10, 40].map((t) => testMessage(bob, alice, { timestamp: BASE_TIMESTAMP + t })),
    );
    const read = async (since?: number, until?: number, order: "asc" | "desc" = "desc") =>
      ids(await store.page({ owner: alice, ranges: [{ side: "received" }], since, until, ...(order === "asc" && { after: 0 }), order, limit: 20 }));
    const idsOf = (...indexes: number[]) => indexes.map((i) => world[i]!.id);
    expect(await read(BASE_TIMESTAMP + 10, BASE_TIMESTAMP + 30)).toEqual(idsOf(3, 2, 1));
    expect(await read(BASE_TIMESTAMP + 11, BASE_TIMESTAMP + 30)).toEqual(idsOf(2));
    expect(await read(BASE_TIMESTAMP + 10, BASE_TIMESTAMP + 31)).toEqual(idsOf(3, 2, 1, 0));
    expect(await read(BASE_TIMESTAMP + 30)).toEqual(idsOf(4, 0));
    expect(await read(undefined, BASE_TIMESTAMP + 20)).toEqual(idsOf(3, 1));
    expect(await read(BASE_TIMESTAMP + 20, BASE_TIMESTAMP + 20)).toEqual([]);
    expect(await read(BASE_TIMESTAMP + 40, BASE_TIMESTAMP + 10)).toEqual([]);
    expect(await read(BASE_TIMESTAMP + 10, BASE_TIMESTAMP + 30, "asc")).toEqual(idsOf(1, 2, 3));
  });

  it("`end` accounts for the filters: nothing further within them means end", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const world = await appendWorld(store, [testMessage(bob, alice, { timestamp: BASE_TIMESTAMP + 5 }), testMessage(bob, alice, { timestamp: BASE_TIMESTAMP + 1 }), testMessage(bob, alice, { timestamp: BASE_TIMESTAMP + 6 })]);
    const page = await store.page({ owner: alice, ranges: [{ side: "received" }], since: BASE_TIMESTAMP + 5, order: "desc", limit: 2 });
    expect(page).toEqual({ messages: [world[2], world[0]].map((m) => ({ id: m!.id, json: m!.json })), end: true });
    const forwards = await store.page({ owner: alice, ranges: [{ side: "received" }], until: BASE_TIMESTAMP + 6, after: 0, order: "asc", limit: 2 });
    expect(forwards).toEqual({ messages: [world[0], world[1]].map((m) => ({ id: m!.id, json: m!.json })), end: true });
  });

  it("match timestamps at the edges of the range (0 and 2^53-1) when unbounded", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const first = await store.append(testMessage(bob, alice, { timestamp: 0 }));
    const last = await store.append(testMessage(bob, alice, { timestamp: Number.MAX_SAFE_INTEGER }));
    const everything = await store.page({ owner: alice, ranges: [{ side: "received" }], order: "desc", limit: 20 });
    expect(everything).toEqual({ messages: [last.stored, first.stored], end: true });
    expect(ids(await store.page({ owner: alice, ranges: [{ side: "received" }], since: 0, order: "desc", limit: 20 }))).toEqual([last.stored.id, first.stored.id]);
    expect(ids(await store.page({ owner: alice, ranges: [{ side: "received" }], since: Number.MAX_SAFE_INTEGER, order: "desc", limit: 20 }))).toEqual([last.stored.id]);
    expect(ids(await store.page({ owner: alice, ranges: [{ side: "received" }], until: Number.MAX_SAFE_INTEGER, order: "desc", limit: 20 }))).toEqual([first.stored.id]);
    expect(ids(await store.page({ owner: alice, ranges: [{ side: "received" }], until: 1, order: "desc", limit: 20 }))).toEqual([first.stored.id]);
  });
}

/** A time-filtered page stops after maxScan entries and says where to resume. */
export function maxScanTests(area: SharedStore): void {
  /** `count` messages to a fresh alice, fresh bob's and carol's alternating, timestamps in id order from BASE_TIMESTAMP + 1000. */
  async function mailbox(count: number): Promise<{ alice: string; bob: string; carol: string; world: ModelMessage[] }> {
    const { alice, bob, carol } = parties();
    const world = await appendWorld(area.store, Array.from({ length: count }, (_, i) => testMessage(i % 2 === 0 ? bob : carol, alice, { timestamp: BASE_TIMESTAMP + 1000 + i })));
    return { alice, bob, carol, world };
  }

  it("a filter matching nothing stops after maxScan entries, empty and not the end, and says where it stopped", async () => {
    const store = area.store;
    const { alice, world } = await mailbox(30);
    const received: MailboxRange[] = [{ side: "received" }];
    const backwards = await store.page({ owner: alice, ranges: received, until: BASE_TIMESTAMP, order: "desc", limit: 5, maxScan: 10 });
    expect(backwards).toEqual({ messages: [], end: false, resumeAt: world[20]!.id });
    const forwards = await store.page({ owner: alice, ranges: received, since: BASE_TIMESTAMP + 5000, after: 0, order: "asc", limit: 5, maxScan: 10 });
    expect(forwards).toEqual({ messages: [], end: false, resumeAt: world[9]!.id });
    // From where it stopped, the walk goes on; past the last entry it ends.
    const rest = await store.page({ owner: alice, ranges: received, until: BASE_TIMESTAMP, before: world[0]!.id + 1, order: "desc", limit: 5, maxScan: 10 });
    expect(rest).toEqual({ messages: [], end: true });
  });

  it("one entry short of the bound the page is whole; at the bound it stops", async () => {
    const store = area.store;
    const { alice, world } = await mailbox(10);
    const query = { owner: alice, ranges: [{ side: "received" as const }], until: BASE_TIMESTAMP, order: "desc" as const, limit: 5 };
    expect(await store.page({ ...query, maxScan: 11 })).toEqual({ messages: [], end: true });
    expect(await store.page({ ...query, maxScan: 9 })).toEqual({ messages: [], end: false, resumeAt: world[1]!.id });
  });

  it("a sparse filter returns the matches it met, then the rest from resumeAt, each once", async () => {
    const store = area.store;
    const { alice, bob, carol, world } = await mailbox(40);
    const wanted = world.filter((m) => m.message.timestamp >= BASE_TIMESTAMP + 1010 && m.message.timestamp < BASE_TIMESTAMP + 1031);
    const visited: number[] = [];
    let before: number | undefined;
    for (let pages = 0; pages < 40; pages++) {
      const page = await store.page({
        owner: alice,
        ranges: [{ side: "received", peer: bob }, { side: "received", peer: carol }],
        since: BASE_TIMESTAMP + 1010,
        until: BASE_TIMESTAMP + 1031,
        ...(before !== undefined && { before }),
        order: "desc",
        limit: 4,
        maxScan: 3,
      });
      expect(page.messages.length).toBeLessThanOrEqual(4);
      visited.push(...ids(page));
      if (page.end) break;
      before = page.resumeAt ?? page.messages[page.messages.length - 1]!.id;
      expect(page.resumeAt === undefined || page.resumeAt !== page.messages.at(-1)?.id, "resumeAt only when it is not the last id").toBe(true);
    }
    expect(visited).toEqual(wanted.map((m) => m.id).reverse());
  });

  it("without a time filter the bound does not apply", async () => {
    const store = area.store;
    const { alice } = await mailbox(20);
    const page = await store.page({ owner: alice, ranges: [{ side: "received" }], order: "desc", limit: 15, maxScan: 2 });
    expect(page.messages.length).toBe(15);
    expect(page.resumeAt).toBeUndefined();
  });
}

/** A page stops before the message that would pass maxBytes. */
export function maxBytesTests(area: SharedStore): void {
  it("stops before the message that would pass it, keeps at least one, and is then not the end", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const world = await appendWorld(store, Array.from({ length: 5 }, () => testMessage(bob, alice, { message: "ab".repeat(100) })));
    const size = world[0]!.json.length + 1;
    const query = { owner: alice, ranges: [{ side: "received" as const }], order: "desc" as const, limit: 20 };
    expect(ids(await store.page({ ...query, maxBytes: size * 2 }))).toEqual([world[4]!.id, world[3]!.id]);
    expect(ids(await store.page({ ...query, maxBytes: size * 2 - 1 }))).toEqual([world[4]!.id]);
    expect(await store.page({ ...query, maxBytes: 1 })).toEqual({ messages: [world[4]!].map(({ id, json }) => ({ id, json })), end: false });
    expect((await store.page({ ...query, maxBytes: size * 5 })).end).toBe(true);
  });
}
