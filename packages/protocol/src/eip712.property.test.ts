// Random values of every primary type against viem's generic encoder, and a signature the relay
// accepted (the sendMessage example of openrpc.json).
import fc from "fast-check";
import { hashTypedData as viemHashTypedData, recoverAddress, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { EIP712_DOMAIN, EIP712_TYPES, hashTypedData } from "./eip712.js";
import { toHex } from "./hex.js";

const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => toHex(bytes));
const word = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => toHex(bytes));
const uint64Safe = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });

const viemDigest = (primaryType: keyof typeof EIP712_TYPES, message: Record<string, unknown>) =>
  viemHashTypedData({ domain: EIP712_DOMAIN, types: EIP712_TYPES, primaryType, message } as Parameters<typeof viemHashTypedData>[0]);

describe("hashTypedData over random values", () => {
  it("equals viem's for Message", () => {
    fc.assert(
      fc.property(address, address, fc.uint8Array({ maxLength: 300 }), uint64Safe, (from, to, body, timestamp) => {
        const message = { from, to, message: toHex(body), timestamp };
        expect(toHex(hashTypedData({ primaryType: "Message", message }))).toBe(viemDigest("Message", { ...message, timestamp: BigInt(timestamp) }));
      }),
      { numRuns: 200 },
    );
  });

  it("equals viem's for Receipt, both roles", () => {
    fc.assert(
      fc.property(word, fc.constantFrom("sender" as const, "receiver" as const), (digest, role) => {
        expect(toHex(hashTypedData({ primaryType: "Receipt", message: { message: digest, role } }))).toBe(viemDigest("Receipt", { message: digest, role }));
      }),
      { numRuns: 100 },
    );
  });

  it("equals viem's for KeyBundle and DeriveMessagingKey", () => {
    fc.assert(
      fc.property(address, word, uint64Safe, fc.string(), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (account, key, timestamp, notice, version) => {
        expect(toHex(hashTypedData({ primaryType: "KeyBundle", message: { account, key, timestamp } }))).toBe(viemDigest("KeyBundle", { account, key, timestamp: BigInt(timestamp) }));
        expect(toHex(hashTypedData({ primaryType: "DeriveMessagingKey", message: { notice, account, version } }))).toBe(viemDigest("DeriveMessagingKey", { notice, account, version }));
      }),
      { numRuns: 100 },
    );
  });

  it("matches the sendMessage example of openrpc.json (a signature the relay accepted)", async () => {
    const example = { from: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266" as Hex, to: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8" as Hex, message: "0xdeadbeefcafef00d" as Hex, timestamp: 1767225720000 };
    const signature = "0x93b635380cb19df7039af013db52ed95ac69b81032285d8796ebe12d22e6435a5a7058243b46b8931d0ec9b9061d8842251df755b4f9209ce87e9b4da52a34571c";
    expect((await recoverAddress({ hash: toHex(hashTypedData({ primaryType: "Message", message: example })), signature })).toLowerCase()).toBe(example.from);
  });
});
