import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RECENCY_MS, TokenBuckets, type TokenBucketsOptions } from "./token-buckets.js";

/** Buckets on a hand-driven clock (ms). */
function setup(options: Omit<TokenBucketsOptions, "now">) {
  const clock = { ms: 1_000_000 };
  const buckets = new TokenBuckets({ ...options, now: () => clock.ms });
  return { clock, buckets };
}

const MESSAGES_AND_BYTES = [
  { capacity: 10, perSecond: 1 },
  { capacity: 1000, perSecond: 100 },
];

describe("TokenBuckets", () => {
  it("takes every dimension or none, and names the one that refused with its wait", () => {
    const { clock, buckets } = setup({ dimensions: MESSAGES_AND_BYTES });
    expect(buckets.take("a", [1, 900])).toEqual({ ok: true });
    expect(buckets.take("a", [1, 200])).toEqual({ ok: false, dimension: 1, retryAfterSeconds: 1 }); // 100 bytes short at 100/s
    // Nothing was taken by the refusal: 9 messages and 100 bytes are left.
    for (let i = 0; i < 9; i++) expect(buckets.take("a", [1, 0]).ok).toBe(true);
    expect(buckets.take("a", [1, 0])).toEqual({ ok: false, dimension: 0, retryAfterSeconds: 1 });
    expect(buckets.take("a", [0, 100]).ok).toBe(true);
    clock.ms += 3000;
    expect(buckets.take("a", [3, 300]).ok).toBe(true);
    expect(buckets.take("a", [1, 1])).toMatchObject({ ok: false });
  });

  it("a charge may go into debt, which refills before anything more is taken; a refund gives back", () => {
    const { clock, buckets } = setup({ dimensions: [{ capacity: 4, perSecond: 2 }] });
    buckets.charge("a", [10]); // 4 - 10 = -6
    expect(buckets.take("a", [1])).toEqual({ ok: false, dimension: 0, retryAfterSeconds: 4 }); // 7 tokens at 2/s
    clock.ms += 3500;
    expect(buckets.take("a", [1]).ok).toBe(true); // -6 + 7 = 1
    buckets.refund("a", [3]);
    expect(buckets.take("a", [3]).ok).toBe(true);
    buckets.refund("a", [100]); // never above capacity
    expect(buckets.take("a", [4]).ok).toBe(true);
    expect(buckets.take("a", [1]).ok).toBe(false);
  });

  it("reports its own consumption once (net of refunds), never what other processes reported", () => {
    const { buckets } = setup({ dimensions: MESSAGES_AND_BYTES, trackUsage: true });
    buckets.take("a", [1, 10]);
    buckets.take("a", [1, 20]);
    buckets.charge("b", [2, 0]);
    buckets.refund("b", [1, 0]);
    buckets.take("c", [50, 0]); // refused: not consumed
    buckets.applyRemote([["a", [5, 500]]]);
    expect([...buckets.takeUsage()]).toEqual([
      ["a", [2, 30]],
      ["b", [1, 0]],
    ]);
    expect(buckets.takeUsage().size).toBe(0);
  });

  it("takes other processes' consumption from its own buckets, creating them when needed", () => {
    const { buckets } = setup({ dimensions: MESSAGES_AND_BYTES });
    buckets.applyRemote([
      ["a", [8, 0]],
      ["new", [10, 1000]],
    ]);
    expect(buckets.take("a", [2, 0]).ok).toBe(true);
    expect(buckets.take("a", [1, 0]).ok).toBe(false);
    expect(buckets.take("new", [1, 0])).toEqual({ ok: false, dimension: 0, retryAfterSeconds: 1 });
    buckets.applyRemote([["new", [-5, -500]]]); // another process refunded
    expect(buckets.take("new", [5, 500]).ok).toBe(true);
  });

  it("keeps only buckets that are not full: a full bucket is the same as none", () => {
    const { clock, buckets } = setup({ dimensions: [{ capacity: 10, perSecond: 10 }] });
    for (let i = 0; i < 500; i++) buckets.take(`key${i}`, [1]);
    expect(buckets.size).toBe(500);
    buckets.take("busy", [10]);
    clock.ms += 1000; // everything but "busy" (empty a second ago... now full too) refilled
    buckets.take("late", [5]);
    expect(buckets.size).toBe(1); // the sweep ran: only "late" holds anything
    clock.ms += 200;
    expect(buckets.take("late", [7]).ok).toBe(true); // 5 + 2 refilled
  });

  it("holds at most maxKeys, forgetting the least recently used (which only forgives)", () => {
    const { clock, buckets } = setup({ dimensions: [{ capacity: 2, perSecond: 0.001 }], maxKeys: 2 });
    buckets.take("a", [2]);
    buckets.take("b", [2]);
    clock.ms += RECENCY_MS;
    buckets.take("a", [0]); // a is now the most recent
    buckets.take("c", [2]); // evicts b
    expect(buckets.size).toBe(2);
    expect(buckets.take("a", [1]).ok).toBe(false);
    expect(buckets.take("b", [2]).ok).toBe(true);
  });

  it("keeps a bucket's place in the recency order for RECENCY_MS after it moved", () => {
    const { clock, buckets } = setup({ dimensions: [{ capacity: 2, perSecond: 0.001 }], maxKeys: 2 });
    buckets.take("a", [2]);
    buckets.take("b", [2]);
    clock.ms += RECENCY_MS - 1;
    buckets.take("a", [0]); // within the window: a stays the oldest
    buckets.take("c", [2]); // evicts a, not b
    expect(buckets.take("b", [1]).ok).toBe(false); // b kept its spent bucket
    expect(buckets.take("a", [2]).ok).toBe(true); // a's was forgotten: a new, full bucket
  });

  it("property: processes that share consumption with a delay admit at most one bucket's worth plus (n − 1) × (burst + rate × delay)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 10, max: 200 }),
        // A flood: up to 30 attempts at a time, every 0-50 ms, far more than the rate.
        fc.array(fc.record({ wait: fc.integer({ min: 0, max: 50 }), process: fc.nat(), cost: fc.integer({ min: 1, max: 3 }), attempts: fc.integer({ min: 1, max: 30 }) }), {
          maxLength: 300,
        }),
        (n, perSecond, burst, delayMs, steps) => {
          const clock = { ms: 0 };
          const processes = Array.from({ length: n }, () => new TokenBuckets({ dimensions: [{ capacity: burst, perSecond }], now: () => clock.ms, trackUsage: true }));
          // Each process's reports, delivered to the others `delayMs` after they are taken.
          const inFlight: { at: number; from: number; usage: [string, number[]][] }[] = [];
          let nextReport = delayMs;
          let admitted = 0;
          for (const { wait, process, cost, attempts } of steps) {
            for (const end = clock.ms + wait; clock.ms < end; ) {
              clock.ms = Math.min(end, nextReport);
              if (clock.ms === nextReport) {
                processes.forEach((p, from) => inFlight.push({ at: clock.ms + delayMs, from, usage: [...p.takeUsage()] }));
                nextReport += delayMs;
              }
              while (inFlight.length > 0 && inFlight[0]!.at <= clock.ms) {
                const { from, usage } = inFlight.shift()!;
                processes.forEach((p, to) => to !== from && p.applyRemote(usage));
              }
            }
            for (let k = 0; k < attempts; k++) if (processes[(process + k) % n]!.take("ip", [cost]).ok) admitted += cost;
            // Reported within delayMs, delivered within delayMs more.
            const bound = burst + (perSecond * clock.ms) / 1000 + (n - 1) * (burst + (perSecond * 2 * delayMs) / 1000);
            if (admitted > bound + 1e-6) return false;
          }
          return true;
        },
      ),
      { numRuns: 300 },
    );
  });
});
