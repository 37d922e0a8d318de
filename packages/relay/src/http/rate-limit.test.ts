import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./rate-limit.js";

/** A limiter on a hand-driven clock (ms). */
function setup(options: { perSecond: number; burst?: number; maxKeys?: number }) {
  const clock = { ms: 1_000_000 };
  const limiter = createRateLimiter({ ...options, now: () => clock.ms });
  /** How many takes succeed in a row right now (stops at the first refusal). */
  const drain = (key: string, most = 10_000) => {
    let taken = 0;
    while (taken < most && limiter.take(key).ok) taken++;
    return taken;
  };
  return { clock, limiter, drain };
}

describe("createRateLimiter", () => {
  it("allows a burst of twice the rate by default, then refuses", () => {
    const { limiter } = setup({ perSecond: 10 });
    for (let i = 0; i < 20; i++) expect(limiter.take("ip")).toEqual({ ok: true });
    const refused = limiter.take("ip");
    expect(refused.ok).toBe(false);
    expect(limiter.take("ip").ok).toBe(false);
  });

  it("takes an explicit burst", () => {
    const { drain } = setup({ perSecond: 10, burst: 3 });
    expect(drain("ip")).toBe(3);
  });

  it("refills at the rate, never above the burst", () => {
    const { clock, drain } = setup({ perSecond: 10 });
    expect(drain("ip")).toBe(20);
    clock.ms += 100; // one token
    expect(drain("ip")).toBe(1);
    clock.ms += 50; // half a token
    expect(drain("ip")).toBe(0);
    clock.ms += 50; // the other half
    expect(drain("ip")).toBe(1);
    clock.ms += 1000;
    expect(drain("ip")).toBe(10);
    clock.ms += 3_600_000; // an hour idle still allows only a burst
    expect(drain("ip")).toBe(20);
  });

  it("does not count refused requests against the caller", () => {
    const { clock, limiter, drain } = setup({ perSecond: 1, burst: 1 });
    expect(drain("ip")).toBe(1);
    for (let i = 0; i < 100; i++) expect(limiter.take("ip").ok).toBe(false);
    clock.ms += 1000;
    expect(limiter.take("ip").ok).toBe(true);
  });

  it("answers a Retry-After of at least one whole second", () => {
    const fast = setup({ perSecond: 1000 });
    fast.drain("ip");
    const refusedFast = fast.limiter.take("ip");
    expect(refusedFast).toEqual({ ok: false, retryAfterSeconds: 1 });

    const slow = setup({ perSecond: 0.1, burst: 1 }); // one request per 10 s
    expect(slow.drain("ip")).toBe(1);
    expect(slow.limiter.take("ip")).toEqual({ ok: false, retryAfterSeconds: 10 });
    slow.clock.ms += 4000;
    expect(slow.limiter.take("ip")).toEqual({ ok: false, retryAfterSeconds: 6 });
  });

  it("takes a cost of several tokens, all or none", () => {
    const { clock, limiter, drain } = setup({ perSecond: 10 });
    expect(limiter.take("ip", 15)).toEqual({ ok: true });
    expect(limiter.take("ip", 6)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(drain("ip")).toBe(5); // the refused take took nothing
    expect(limiter.take("ip", 20)).toEqual({ ok: false, retryAfterSeconds: 2 });
    clock.ms += 2000;
    expect(limiter.take("ip", 20).ok).toBe(true);
  });

  it("a charge goes into debt, repaid before the key is admitted again", () => {
    const { clock, limiter, drain } = setup({ perSecond: 10 });
    limiter.charge("ip", 50); // 20 - 50 = -30
    expect(limiter.take("ip")).toEqual({ ok: false, retryAfterSeconds: 4 }); // 31 tokens at 10/s
    clock.ms += 3000;
    expect(drain("ip")).toBe(0);
    clock.ms += 100;
    expect(drain("ip")).toBe(1);
    limiter.charge("ip", 0);
    expect(drain("ip")).toBe(0);
  });

  it("keeps separate keys independent", () => {
    const { clock, limiter, drain } = setup({ perSecond: 5 });
    expect(drain("10.0.0.1")).toBe(10);
    expect(limiter.take("10.0.0.1").ok).toBe(false);
    expect(drain("10.0.0.2")).toBe(10);
    expect(drain("::1", 3)).toBe(3);
    clock.ms += 200;
    expect(drain("10.0.0.1")).toBe(1);
    expect(drain("::1")).toBe(8);
  });

  it("forgets the least recently seen keys past maxKeys (which only forgives)", () => {
    const { limiter, drain } = setup({ perSecond: 1, maxKeys: 2 });
    expect(drain("a")).toBe(2);
    expect(limiter.take("a").ok).toBe(false);
    drain("b");
    drain("c"); // evicts a
    expect(drain("a")).toBe(2);
  });

  it("property: a refusal's Retry-After is ≥ 1 s, whole, and truthful; never more than burst + rate × time", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.record({ wait: fc.integer({ min: 0, max: 3000 }), key: fc.constantFrom("a", "b") }), { maxLength: 200 }),
        (perSecond, burst, steps) => {
          const { clock, limiter } = setup({ perSecond, burst, maxKeys: 16 }); // a small cache: LRUCache allocates maxKeys slots up front
          const start = clock.ms;
          const granted = { a: 0, b: 0 };
          for (const { wait, key } of steps) {
            clock.ms += wait;
            const verdict = limiter.take(key);
            if (verdict.ok) {
              granted[key]++;
              if (granted[key] > burst + (perSecond * (clock.ms - start)) / 1000 + 1e-9) return false;
            } else {
              if (!Number.isInteger(verdict.retryAfterSeconds) || verdict.retryAfterSeconds < 1) return false;
              // Retrying after the advertised wait succeeds.
              clock.ms += verdict.retryAfterSeconds * 1000;
              if (!limiter.take(key).ok) return false;
              granted[key]++;
            }
          }
          return true;
        },
      ),
      { numRuns: 1000 },
    );
  });
});
