// The sends' baseline (crypto-loop.mjs): issue 38 divides a relay's sends by the per-send crypto
// "run on as many cores as the relay uses", so with N workers it runs on N threads at once and their
// rates add up; a failing thread fails the baseline instead of leaving a rate out.
import { describe, expect, it } from "vitest";
import { cryptoLoopOnCores } from "./crypto-loop.mjs";
import { signedMessage, users } from "./lib.mjs";

const [alice, bob] = users(2);
const list = Array.from({ length: 50 }, (_, i) => signedMessage(alice, bob, `0x${i.toString(16).padStart(64, "0")}`));

describe("cryptoLoopOnCores", () => {
  it("runs the loop on as many threads as cores and adds their rates up", { timeout: 30_000 }, async () => {
    const two = await cryptoLoopOnCores(list, 0.3, 2);
    expect(two.each).toHaveLength(2);
    for (const rate of two.each) expect(rate).toBeGreaterThan(0);
    expect(two.perSecond).toBeCloseTo(two.each[0] + two.each[1], 6);
    const one = await cryptoLoopOnCores(list, 0.3, 1);
    expect(one.each).toHaveLength(1);
    expect(one.perSecond).toBe(one.each[0]);
  });

  it("fails when a thread's loop fails (a signature that recovers no sender)", { timeout: 30_000 }, async () => {
    const broken = [{ ...list[0], signature: `0x${"00".repeat(65)}` }];
    await expect(cryptoLoopOnCores(broken, 0.3, 2)).rejects.toThrow();
  });
});
