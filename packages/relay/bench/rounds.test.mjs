import { describe, expect, it } from "vitest";
import { medianRound, meetsTarget, ratiosBrief, roundsText } from "./rounds.mjs";

const runs = (...ratios) => ratios.map((ratio, round) => ({ round, ratio }));
const byRatio = (run) => run.ratio;

describe("medianRound", () => {
  it("picks the middle round of an odd count, whatever the order", () => {
    const summary = medianRound(runs(0.72, 0.57, 0.66), byRatio);
    expect(summary.run).toEqual({ round: 2, ratio: 0.66 });
    expect(summary.ratio).toBe(0.66);
    expect(summary.ratios).toEqual([0.72, 0.57, 0.66]);
    expect([summary.min, summary.max]).toEqual([0.57, 0.72]);
  });

  it("picks the lower of the middle two for an even count, never their mean", () => {
    const summary = medianRound(runs(0.7, 0.55, 0.65, 0.61), byRatio);
    expect(summary.run.round).toBe(3);
    expect(summary.ratio).toBe(0.61);
  });

  it("returns the only round of one, and refuses none", () => {
    expect(medianRound(runs(0.5), byRatio).run.round).toBe(0);
    expect(() => medianRound([], byRatio)).toThrow(/no rounds/);
  });

  it("breaks ties by round order, so the choice is deterministic", () => {
    expect(medianRound(runs(0.6, 0.6, 0.6), byRatio).run.round).toBe(1);
  });

  it("ranks a round without a ratio (NaN) lowest, so it can only pull the median down", () => {
    expect(medianRound(runs(0.6, Number.NaN, 0.8), byRatio).ratio).toBe(0.6);
    expect(medianRound(runs(0.8, 0.7, Number.NaN, 0.9), byRatio).ratio).toBe(0.7);
    expect(Number.isNaN(medianRound(runs(Number.NaN, Number.NaN, 0.9), byRatio).ratio)).toBe(true);
  });
});

describe("roundsText", () => {
  it("lists every round in round order beside the median", () => {
    expect(roundsText(medianRound(runs(0.72, 0.57, 0.66), byRatio))).toBe("ratio 0.66, median of 3 rounds (0.72 / 0.57 / 0.66)");
    expect(roundsText(medianRound(runs(0.7, 0.55), byRatio))).toBe("ratio 0.55, lower median of 2 rounds (0.70 / 0.55)");
    expect(roundsText(medianRound(runs(0.5), byRatio))).toBe("ratio 0.50");
  });
});

describe("ratiosBrief", () => {
  it("gives the median and every round in round order, or the one round alone", () => {
    expect(ratiosBrief(medianRound(runs(0.72, 0.57, 0.66), byRatio))).toBe("0.66 (0.72 / 0.57 / 0.66)");
    expect(ratiosBrief(medianRound(runs(0.5), byRatio))).toBe("0.50");
  });
});

describe("meetsTarget", () => {
  it("judges by the median, or with everyRound by the lowest round, at the target and just under it", () => {
    const rounds = medianRound(runs(0.97, 0.94, 0.96), byRatio);
    expect(meetsTarget(rounds, 0.96)).toBe(true);
    expect(meetsTarget(rounds, 0.961)).toBe(false);
    expect(meetsTarget(rounds, 0.94, { everyRound: true })).toBe(true);
    expect(meetsTarget(rounds, 0.95, { everyRound: true })).toBe(false);
  });

  it("fails every round's judgement when a round has no ratio", () => {
    const rounds = medianRound(runs(0.99, Number.NaN, 0.98), byRatio);
    expect(meetsTarget(rounds, 0.5, { everyRound: true })).toBe(false);
  });
});
