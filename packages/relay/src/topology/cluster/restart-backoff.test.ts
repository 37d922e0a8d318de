import { describe, expect, it } from "vitest";
import { RestartBackoff } from "./restart-backoff.js";

describe("RestartBackoff", () => {
  it("replaces the first death at once, then doubles the delay up to its cap while workers keep dying", () => {
    const backoff = new RestartBackoff({ firstDelayMs: 100, maxDelayMs: 1000, quietMs: 30_000, loopAfter: 5 });
    const delays = Array.from({ length: 8 }, (_, i) => backoff.next(i * 10));
    expect(delays).toEqual([0, 100, 200, 400, 800, 1000, 1000, 1000]);
    expect(backoff.deaths).toBe(8);
    expect(backoff.looping).toBe(true);
  });

  it("starts over after a quiet period", () => {
    const backoff = new RestartBackoff({ firstDelayMs: 100, maxDelayMs: 1000, quietMs: 30_000, loopAfter: 5 });
    for (let i = 0; i < 4; i++) backoff.next(i);
    expect(backoff.next(40_000)).toBe(0);
    expect(backoff.deaths).toBe(1);
    expect(backoff.looping).toBe(false);
  });
});
