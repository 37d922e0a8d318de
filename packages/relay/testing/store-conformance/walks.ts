// Forward walks while others write (seeds/README.md §5): a reader paging near the head of each view sees every message exactly once.
import { expect, it } from "vitest";
import type { MailboxRange } from "@neutral/relay";
import { parties, testMessage } from "./data.js";
import { ids } from "./mailbox.js";
import { chatRanges, inboxRanges, modelMatches, type ModelMessage } from "./model.js";
import type { SharedStore } from "./stores.js";

/** One test per view the service pages (getInbox, getChat): three writers append while a reader walks forward. */
export function forwardWalkTests(area: SharedStore): void {
  /** How long the writers write while the reader walks, at least (MIN_ROUNDS is what gives every view its messages). */
  const WALK_MS = 1000;
  /**
   * Rounds of writes (ten messages each, of every shape) the writers make at least, however
   * long they take: each view gets two messages a round or more, so well over 50. (Writing for
   * WALK_MS alone left a view 18 messages in a CI run on a loaded machine.)
   */
  const MIN_ROUNDS = 40;
  const views: Record<string, (owner: string, peer: string) => MailboxRange[]> = {
    "getInbox received": (owner) => inboxRanges(owner, "received"),
    "getInbox sent": (owner) => inboxRanges(owner, "sent"),
    "getInbox all": (owner) => inboxRanges(owner, "all"),
    "getInbox all from oneself": (owner) => inboxRanges(owner, "all", owner),
    "getInbox from a peer": (owner, peer) => inboxRanges(owner, "received", peer),
    getChat: (owner, peer) => chatRanges(peer),
    "getChat with oneself": (owner) => chatRanges(owner),
  };
  for (const [view, rangesFor] of Object.entries(views)) {
    it(`${view}: a reader paging forward near the head misses nothing`, { timeout: 60_000 }, async () => {
      const store = area.store;
      const { alice: owner, bob: peer, carol: other } = parties();
      const ranges = rangesFor(owner, peer);
      // Every direction the views cut through, so that each range keeps gaining messages.
      const shapes: [string, string][] = [[owner, peer], [peer, owner], [owner, owner], [other, owner], [owner, other]];
      const stored: ModelMessage[] = [];
      let writing = true;
      let rounds = 0;
      const writer = async () => {
        for (; writing; rounds++) {
          const batch = shapes.flatMap(([from, to]) => [testMessage(from, to), testMessage(from, to)]);
          const results = await Promise.all(batch.map((message) => store.append(message)));
          results.forEach((result, i) => stored.push({ id: result.stored.id, json: result.stored.json, message: batch[i]! }));
        }
      };
      const writers = [writer(), writer(), writer()];
      const visited: number[] = [];
      let after = 0;
      const deadline = Date.now() + WALK_MS;
      let pages = 0;
      for (;;) {
        const stillWriting = Date.now() < deadline || rounds < MIN_ROUNDS;
        if (!stillWriting && writing) {
          writing = false;
          await Promise.all(writers);
        }
        const page = await store.page({ owner, ranges, after, order: "asc", limit: 1 + (pages++ % 7) });
        visited.push(...ids(page));
        const last = page.messages[page.messages.length - 1];
        if (last) after = last.id;
        if (page.end && !writing) break;
        // Let the writers' acknowledgements in now and then: they keep appending only when the event loop turns.
        if (pages % 4 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      const expected = modelMatches(stored.sort((a, b) => a.id - b.id), { owner, ranges, after: 0, order: "asc", limit: 1 }).map((m) => m.id);
      expect(expected.length, "the writers stored messages in this view").toBeGreaterThan(50);
      const seen = new Set(visited);
      const missed = expected.filter((id) => !seen.has(id));
      expect({ missed: missed.length, duplicates: visited.length - seen.size }, `over ${pages} pages`).toEqual({ missed: 0, duplicates: 0 });
      expect(visited).toEqual(expected);
    });
  }
}
