import { describe, expect, it } from "vitest";
import { supersedes } from "./signed-records.js";

const sig = (byte: string) => `0x${byte.repeat(65)}`;

describe("supersedes", () => {
  it("the greater timestamp wins, whatever the signatures", () => {
    expect(supersedes({ timestamp: 2, signature: sig("00") }, { timestamp: 1, signature: sig("ff") })).toBe(true);
    expect(supersedes({ timestamp: 1, signature: sig("ff") }, { timestamp: 2, signature: sig("00") })).toBe(false);
  });

  it("between equal timestamps the greater signature wins, in either order of arrival, in any case of hex", () => {
    const low = { timestamp: 5, signature: sig("0a") };
    const high = { timestamp: 5, signature: sig("0B") };
    expect(supersedes(high, low)).toBe(true);
    expect(supersedes(low, high)).toBe(false);
    expect(supersedes(low, low)).toBe(false);
  });

  it("anything supersedes nothing", () => {
    expect(supersedes({ timestamp: 0, signature: sig("00") }, undefined)).toBe(true);
  });
});
