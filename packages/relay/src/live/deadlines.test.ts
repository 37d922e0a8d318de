import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Deadlines } from "./deadlines.js";

describe("Deadlines", () => {
  const START = 1_767_225_600_000;
  let due: string[];
  let deadlines: Deadlines<string>;

  beforeEach(() => {
    vi.useFakeTimers({ now: START });
    due = [];
    deadlines = new Deadlines<string>((item) => due.push(item), () => Date.now());
  });
  afterEach(() => {
    deadlines.clear();
    vi.useRealTimers();
  });
  /** After `ms` more, and not a millisecond before, the items due are `then`. */
  const dueAfter = (ms: number, then: string[]) => {
    const before = [...due];
    vi.advanceTimersByTime(ms - 1);
    expect(due).toEqual(before);
    vi.advanceTimersByTime(1);
    expect(due).toEqual(then);
  };

  it("calls an item due at the first look at or after its time: not a millisecond before, at most a look after", () => {
    deadlines.add("a", START + 2_500);
    dueAfter(3_000, ["a"]); // the looks are at START + 1 s, 2 s, 3 s
    expect(deadlines.size).toBe(0);
  });

  it("calls an item whose time is exactly a look's at that look", () => {
    deadlines.add("a", START + 2_000);
    dueAfter(2_000, ["a"]);
  });

  it("calls items in the order of their looks, those of one look together, each once", () => {
    deadlines.add("late", START + 5_000);
    deadlines.add("early", START + 1_200);
    deadlines.add("early too", START + 1_900);
    deadlines.add("early", START + 1_200);
    expect(deadlines.size).toBe(3);
    vi.advanceTimersByTime(2_000);
    expect(due).toEqual(["early", "early too"]);
    vi.advanceTimersByTime(3_000);
    expect(due).toEqual(["early", "early too", "late"]);
  });

  it("never calls a deleted item, and stops its timer once nothing waits", () => {
    const time = deadlines.add("gone", START + 1_500);
    deadlines.add("kept", START + 3_000);
    deadlines.delete("gone", time);
    deadlines.delete("never added", time);
    expect(deadlines.size).toBe(1);
    vi.advanceTimersByTime(3_000);
    expect(due).toEqual(["kept"]);
    expect(vi.getTimerCount()).toBe(0);
    deadlines.delete("kept", deadlines.add("kept", START + 10_000));
    expect(vi.getTimerCount()).toBe(0);
  });

  it("calls an item whose time has passed at the next look", () => {
    vi.advanceTimersByTime(400);
    deadlines.add("a", START + 10_000); // the timer starts: looks at START + 1.4 s, 2.4 s, …
    vi.advanceTimersByTime(100);
    deadlines.add("past", START - 60_000);
    dueAfter(900, ["past"]);
  });

  it("catches up on every look it missed while the clock jumped", () => {
    deadlines.add("a", START + 1_000);
    deadlines.add("b", START + 4_000);
    deadlines.add("c", START + 60_000);
    vi.setSystemTime(START + 30_000); // the event loop held: the timer fires once, late
    vi.advanceTimersByTime(1_000);
    expect(due).toEqual(["a", "b"]);
    vi.advanceTimersByTime(30_000);
    expect(due).toEqual(["a", "b", "c"]);
  });
});
