// Model-based properties: random worlds of messages, every page and every cursor walk over them checked against the naive model.
import fc from "fast-check";
import { expect, it } from "vitest";
import type { MessageStore, PageQuery } from "@neutral/relay";
import { boundArb, boundOf, candidates, cursorArb, cursorOf, freshWorld, queryOf, querySpecArb, rangesOf, rangesSpecArb, sometimes, STRANGER, who, whoArb, worldArb, type World } from "./arbitraries.js";
import { appendWorld, ids } from "./mailbox.js";
import { hasSide, modelMatches, modelPage, type ModelMessage } from "./model.js";
import type { SharedStore } from "./stores.js";

/** Pages and walks over random worlds equal what the model says. One store for the area: every run appends a world of fresh accounts. */
export function propertyTests(area: SharedStore): void {
  // Every run of a property appends its world to the area's one store: a run's world gets fresh
  // addresses and digests (freshWorld), so the runs never meet. (A store per run made these the
  // slowest tests of the suite: 12 s on an idle 2-core machine, over 110 s in CI beside the
  // other packages.) Shrinking a failure is cut off after 240 s, reporting the smallest
  // counterexample so far, and a run that slow fails too.
  const PROPERTY_RUNS = { numRuns: 100, interruptAfterTimeLimit: 240_000, markInterruptAsFailure: true } as const;

  /** Appends `world`, made fresh, to the properties' store, then runs `body` over it. */
  async function withWorld<T>(world: World, body: (store: MessageStore, stored: ModelMessage[], world: World) => Promise<T>): Promise<T> {
    const fresh = freshWorld(world);
    const stored = await appendWorld(area.store, fresh.messages, fresh.breaks);
    return body(area.store, stored, fresh);
  }

  it("every page equals the naive model of the spec", { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, fc.array(querySpecArb, { minLength: 1, maxLength: 12, size: "max" }), async (world, specs) => {
        await withWorld(world, async (s, stored, world) => {
          for (const spec of specs) {
            const query = queryOf(world, stored, spec);
            const page = await s.page(query);
            const expected = modelPage(stored, query);
            expect({ ids: ids(page), end: page.end }, JSON.stringify(query)).toEqual({ ids: expected.ids, end: expected.end });
            expect(page.messages.map((m) => m.json)).toEqual(expected.jsons);
          }
          for (const owner of [...world.addresses, STRANGER]) {
            const mine = stored.filter(
              (m) => (m.message.from === owner && hasSide(m.message, "sent")) || (m.message.to === owner && hasSide(m.message, "received")),
            );
            expect(await s.latestPeer(owner), `latestPeer(${owner})`).toBe(
              mine.length === 0 ? undefined : mine[mine.length - 1]!.message.from === owner ? mine[mine.length - 1]!.message.to : mine[mine.length - 1]!.message.from,
            );
          }
        });
      }),
      PROPERTY_RUNS,
    );
  });

  it("walking with the returned cursors visits every match exactly once, end exactly on the last page", { timeout: 300_000 }, async () => {
    const walkArb = fc.record({
      owner: whoArb,
      ranges: rangesSpecArb,
      since: sometimes(boundArb, 1 / 5),
      until: sometimes(boundArb, 1 / 5),
      direction: fc.constantFrom("backwards" as const, "forwards" as const),
      start: sometimes(cursorArb, 1 / 2),
      stop: sometimes(cursorArb, 1 / 4),
      limit: fc.constantFrom(1, 1, 1, 2, 2, 3, 5),
      // A small scan bound makes time-filtered pages stop early (short, even empty) and resume.
      maxScan: fc.constantFrom(undefined, undefined, 1, 2, 5),
    });
    await fc.assert(
      fc.asyncProperty(worldArb, fc.array(walkArb, { minLength: 1, maxLength: 6, size: "max" }), async (world, walks) => {
        await withWorld(world, async (s, stored, world) => {
          for (const walk of walks) {
            const owner = who(world, walk.owner);
            const ranges = rangesOf(world, owner, walk.ranges);
            // Backwards: from `before` (or the newest) down. Forwards: from `after` (0 if none) up, never reaching `stop`.
            const backwards = walk.direction === "backwards";
            const inRanges = candidates(stored, owner, ranges);
            let after = backwards ? undefined : walk.start === null ? 0 : cursorOf(inRanges, walk.start);
            let before = backwards ? (walk.start === null ? undefined : cursorOf(inRanges, walk.start)) : walk.stop === null ? undefined : cursorOf(inRanges, walk.stop);
            if (after !== undefined && before !== undefined && after > before) [after, before] = [before, after];
            const inWindow = candidates(stored, owner, ranges, { after, before });
            const base = {
              owner,
              ranges,
              ...(walk.since !== null && { since: boundOf(inWindow, walk.since) }),
              ...(walk.until !== null && { until: boundOf(inWindow, walk.until) }),
              limit: walk.limit,
              ...(walk.maxScan !== undefined && { maxScan: walk.maxScan }),
            };
            const bounded = walk.maxScan !== undefined && (walk.since !== null || walk.until !== null);
            const expected = modelMatches(stored, { ...base, after, before, order: backwards ? "desc" : "asc" }).map((m) => m.id);
            const visited: number[] = [];
            for (let pages = 0; ; pages++) {
              const query: PageQuery = { ...base, ...(after !== undefined && { after }), ...(before !== undefined && { before }), order: backwards ? "desc" : "asc" };
              const page = await s.page(query);
              const seenBefore = visited.length;
              visited.push(...ids(page));
              const last = page.messages[page.messages.length - 1];
              const context = `page ${pages} of a walk over ${expected.length}: ${JSON.stringify(query)}`;
              if (!bounded) {
                expect(page.resumeAt, `resumeAt: ${context}`).toBeUndefined();
                expect(page.end, `end: ${context}`).toBe(visited.length >= expected.length);
                // A page holds `limit` messages, or what remains on the last one.
                expect(page.messages.length, `size: ${context}`).toBe(Math.min(walk.limit, Math.max(0, expected.length - seenBefore)));
              } else {
                // The scan bound may end a page early (short, even empty, not the end) but never
                // claims the end too soon.
                if (page.end) expect(visited.length, `end: ${context}`).toBe(expected.length);
                expect(page.messages.length, `size: ${context}`).toBeLessThanOrEqual(walk.limit);
                if (page.resumeAt !== undefined) expect(page.end, `resumeAt: ${context}`).toBe(false);
              }
              const next = page.resumeAt ?? last?.id;
              if (page.end || next === undefined || pages > expected.length + 100) break;
              if (backwards) before = next;
              else after = next;
            }
            expect(visited).toEqual(expected);
          }
        });
      }),
      PROPERTY_RUNS,
    );
  });
}
