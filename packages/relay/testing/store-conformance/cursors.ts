// Cursors, order and end: after/before, their edges (0 and 2^53-1), limits, and when a page is the end.
import { expect, it } from "vitest";
import { ID_CEILING, type PageQuery } from "@neutral/relay";
import { parties, testMessage } from "./data.js";
import { appendWorld, ids } from "./mailbox.js";
import { chatRanges, inboxRanges } from "./model.js";
import type { SharedStore } from "./stores.js";

/** Where a page starts and stops, in which order, and whether it is the end. */
export function cursorTests(area: SharedStore): void {
  /** A page of `owner`'s received side, in its cursors' walk order: its ids, and whether it is the end. */
  async function receivedPage(owner: string, bounds: Pick<PageQuery, "after" | "before">, limit: number): Promise<{ ids: number[]; end: boolean }> {
    const page = await area.store.page({ owner, ranges: [{ side: "received" }], ...bounds, order: bounds.after !== undefined ? "asc" : "desc", limit });
    return { ids: ids(page), end: page.end };
  }

  /** Ten messages from a fresh bob to a fresh alice: their ids, oldest first, and `read`, a page of alice's received side. */
  async function ten() {
    const { alice, bob } = parties();
    const all = (await appendWorld(area.store, Array.from({ length: 10 }, () => testMessage(bob, alice)))).map((m) => m.id);
    const read = (bounds: Pick<PageQuery, "after" | "before">, limit: number) => receivedPage(alice, bounds, limit);
    return { alice, bob, all, read };
  }

  it("no cursor: the newest, newest first", async () => {
    const { all, read } = await ten();
    expect(await read({}, 3)).toEqual({ ids: all.slice(7).reverse(), end: false });
    expect(await read({}, 10)).toEqual({ ids: [...all].reverse(), end: true });
    expect(await read({}, 11)).toEqual({ ids: [...all].reverse(), end: true });
  });

  it("before only: the newest below it, newest first", async () => {
    const { all, read } = await ten();
    expect(await read({ before: all[5] }, 3)).toEqual({ ids: [all[4], all[3], all[2]], end: false });
    expect(await read({ before: all[3] }, 3)).toEqual({ ids: [all[2], all[1], all[0]], end: true });
    expect(await read({ before: all[0] }, 3)).toEqual({ ids: [], end: true });
    expect(await read({ before: all[9]! + 1 }, 1)).toEqual({ ids: [all[9]], end: false });
  });

  it("without lookahead: at most limit messages, a full page is not the end, and walking on visits every message once, also over several ranges and with a time filter", async () => {
    const store = area.store;
    const { alice, bob, all } = await ten();
    const mine = (await appendWorld(store, Array.from({ length: 5 }, () => testMessage(alice, bob)))).map((m) => m.id);
    const walk = async (query: Omit<PageQuery, "owner" | "after" | "order" | "limit" | "lookahead">, limit: number) => {
      const pages: { ids: number[]; end: boolean }[] = [];
      let after = 0;
      for (let i = 0; i < 20; i++) {
        const page = await store.page({ owner: alice, ...query, after, order: "asc", limit, lookahead: false });
        pages.push({ ids: ids(page), end: page.end });
        if (page.end) return pages;
        after = page.resumeAt ?? page.messages.at(-1)!.id;
      }
      throw new Error("the walk did not end");
    };
    expect(await walk({ ranges: [{ side: "received" }] }, 5)).toEqual([
      { ids: all.slice(0, 5), end: false },
      { ids: all.slice(5), end: false },
      { ids: [], end: true },
    ]);
    expect((await walk({ ranges: [{ side: "received" }] }, 3)).at(-1)).toEqual({ ids: [all[9]], end: true }); // a short page is the end
    const both = await walk({ ranges: [{ side: "received" }, { side: "sent" }] }, 4);
    expect(both.flatMap((page) => page.ids)).toEqual([...all, ...mine]);
    expect(both.slice(0, -1).every((page) => page.ids.length === 4 || page.end)).toBe(true);
    const filtered = await walk({ ranges: [{ side: "received" }], since: 0, until: Number.MAX_SAFE_INTEGER }, 4);
    expect(filtered.flatMap((page) => page.ids)).toEqual(all);
  });

  it("after only: the oldest above it, oldest first", async () => {
    const { all, read } = await ten();
    expect(await read({ after: all[5] }, 3)).toEqual({ ids: [all[6], all[7], all[8]], end: false });
    expect(await read({ after: all[6] }, 3)).toEqual({ ids: [all[7], all[8], all[9]], end: true });
    expect(await read({ after: all[9] }, 3)).toEqual({ ids: [], end: true });
    expect(await read({ after: all[0]! - 1 }, 1)).toEqual({ ids: [all[0]], end: false });
  });

  it("after and before: forwards from after, never reaching before", async () => {
    const { all, read } = await ten();
    expect(await read({ after: all[2], before: all[7] }, 2)).toEqual({ ids: [all[3], all[4]], end: false });
    expect(await read({ after: all[4], before: all[7] }, 2)).toEqual({ ids: [all[5], all[6]], end: true });
    expect(await read({ after: all[2], before: all[7] }, 100)).toEqual({ ids: [all[3], all[4], all[5], all[6]], end: true });
    expect(await read({ after: all[2], before: all[3] }, 5)).toEqual({ ids: [], end: true });
    expect(await read({ after: all[5], before: all[5] }, 5)).toEqual({ ids: [], end: true });
    expect(await read({ after: all[7], before: all[2] }, 5)).toEqual({ ids: [], end: true });
  });

  it("positions between and beyond stored ids are valid cursors", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const spaced = (await appendWorld(store, Array.from({ length: 6 }, (_, i) => testMessage(i % 2 ? bob : carol, alice)))).map((m) => m.id);
    // Only bob's (odd) messages match the filter: cursors at carol's ids lie between bob's.
    const bobs = [spaced[1]!, spaced[3]!, spaced[5]!];
    const page = async (bounds: Pick<PageQuery, "after" | "before">, limit: number) =>
      ids(await store.page({ owner: alice, ranges: [{ side: "received", peer: bob }], ...bounds, order: bounds.after !== undefined ? "asc" : "desc", limit }));
    expect(await page({ after: spaced[2] }, 5)).toEqual([bobs[1], bobs[2]]);
    expect(await page({ before: spaced[4] }, 5)).toEqual([bobs[1], bobs[0]]);
    expect(await page({ after: spaced[0], before: spaced[4] }, 5)).toEqual([bobs[0], bobs[1]]);
  });

  it("cursor values at the edges: 0 and 2^53-1", async () => {
    const { all, read } = await ten();
    const newestFirst = [...all].reverse();
    expect(await read({ after: 0 }, 100)).toEqual({ ids: all, end: true });
    expect(await read({ after: 0 }, 1)).toEqual({ ids: [all[0]], end: false });
    expect(await read({ before: 0 }, 100)).toEqual({ ids: [], end: true });
    expect(await read({ before: ID_CEILING }, 100)).toEqual({ ids: newestFirst, end: true });
    expect(await read({ before: ID_CEILING }, 1)).toEqual({ ids: [all[9]], end: false });
    expect(await read({ after: ID_CEILING }, 100)).toEqual({ ids: [], end: true });
    expect(await read({ after: ID_CEILING - 1, before: ID_CEILING }, 100)).toEqual({ ids: [], end: true });
    expect(await read({ after: 0, before: ID_CEILING }, 100)).toEqual({ ids: all, end: true });
    expect(await read({ after: 0, before: 0 }, 100)).toEqual({ ids: [], end: true });
    expect(await read({ after: 0, before: ID_CEILING }, 10)).toEqual({ ids: all, end: true });
  });

  it("limit 1 walks one message at a time, end exactly on the last", async () => {
    const { all, read } = await ten();
    const seen: number[] = [];
    let before: number | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await read(before === undefined ? {} : { before }, 1);
      expect(page.ids).toHaveLength(1);
      expect(page.end).toBe(i === 9);
      seen.push(page.ids[0]!);
      before = page.ids[0];
    }
    expect(seen).toEqual([...all].reverse());
    expect(await read({ before: all[0] }, 1)).toEqual({ ids: [], end: true });
  });

  it("limit 100: a full page of exactly the remaining messages is the end; one more is not", async () => {
    const store = area.store;
    const { alice, carol } = parties();
    const messages = Array.from({ length: 101 }, () => testMessage(carol, alice));
    const all = (await appendWorld(store, messages)).map((m) => m.id);
    const page = async (bounds: Pick<PageQuery, "after" | "before">) => {
      const p = await store.page({ owner: alice, ranges: [{ side: "received" }], ...bounds, order: bounds.after !== undefined ? "asc" : "desc", limit: 100 });
      return { ids: ids(p), end: p.end };
    };
    expect(await page({})).toEqual({ ids: all.slice(1).reverse(), end: false });
    expect(await page({ before: all[100] })).toEqual({ ids: all.slice(0, 100).reverse(), end: true });
    expect(await page({ before: all[1] })).toEqual({ ids: [all[0]], end: true });
    expect(await page({ after: 0 })).toEqual({ ids: all.slice(0, 100), end: false });
    expect(await page({ after: all[0] })).toEqual({ ids: all.slice(1), end: true });
    expect(await page({ after: all[99] })).toEqual({ ids: [all[100]], end: true });
    // The same over a union of ranges (the merge path).
    const union = await store.page({ owner: alice, ranges: inboxRanges(alice, "all"), after: 0, order: "asc", limit: 100 });
    expect({ ids: ids(union), end: union.end }).toEqual({ ids: all.slice(0, 100), end: false });
    const unionEnd = await store.page({ owner: alice, ranges: inboxRanges(alice, "all"), before: all[100], order: "desc", limit: 100 });
    expect({ ids: ids(unionEnd), end: unionEnd.end }).toEqual({ ids: all.slice(0, 100).reverse(), end: true });
  });

  it("an empty mailbox is one empty page that is the end", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    expect(await store.page({ owner: alice, ranges: inboxRanges(alice, "all"), order: "desc", limit: 20 })).toEqual({ messages: [], end: true });
    expect(await store.page({ owner: alice, ranges: chatRanges(bob), after: 0, order: "asc", limit: 1 })).toEqual({ messages: [], end: true });
  });
}
