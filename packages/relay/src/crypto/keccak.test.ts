import { keccak_256 as nobleKeccak256 } from "@noble/hashes/sha3.js";
import fc from "fast-check";
import { keccak256 as viemKeccak256 } from "viem";
import { describe, expect, it } from "vitest";
import { keccak256, keccak256Ready } from "./keccak.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

describe("keccak256", () => {
  it("runs on WebAssembly in Node once ready", async () => {
    expect(await keccak256Ready).toBe("wasm");
  });

  it("gives Ethereum's keccak-256 (not SHA3-256) of the empty input and of 'abc'", async () => {
    await keccak256Ready;
    expect(hex(keccak256(new Uint8Array()))).toBe("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
    expect(hex(keccak256(new TextEncoder().encode("abc")))).toBe("4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45");
  });

  it("equals @noble/hashes and viem on any bytes, at every block edge, and on views into a larger buffer", { timeout: 30_000 }, async () => {
    await keccak256Ready;
    // The rate of keccak-256 is 136 bytes: lengths around one, two and three blocks.
    for (const length of [0, 1, 31, 32, 33, 135, 136, 137, 271, 272, 273, 408, 1000]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 131 + length) & 0xff);
      expect(hex(keccak256(bytes))).toBe(hex(nobleKeccak256(bytes)));
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 700 }), fc.nat({ max: 40 }), fc.nat({ max: 40 }), (bytes, before, after) => {
        const larger = new Uint8Array(before + bytes.length + after).fill(0xaa);
        larger.set(bytes, before);
        const view = larger.subarray(before, before + bytes.length);
        const expected = hex(nobleKeccak256(bytes));
        expect(hex(keccak256(view))).toBe(expected);
        expect(hex(keccak256(Buffer.from(bytes)))).toBe(expected);
        expect(viemKeccak256(bytes).slice(2)).toBe(expected);
      }),
      { numRuns: 2_000 },
    );
  });

  it("answers a new array each time: a digest kept is not overwritten by the next", async () => {
    await keccak256Ready;
    const first = keccak256(new Uint8Array([1]));
    const copy = hex(first);
    keccak256(new Uint8Array([2]));
    expect(hex(first)).toBe(copy);
  });
});
