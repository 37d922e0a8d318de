import { hashTypedData as viemHashTypedData, type TypedDataDefinition } from "viem";
import { describe, expect, it } from "vitest";
import { EIP712_DOMAIN, EIP712_TYPES, encodeType, hashTypedData, typedData, typedDataV4, type PrimaryType, type TypedValues } from "./eip712.js";
import { toHex } from "./hex.js";

const ALICE = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

const samples: { [P in PrimaryType]: TypedValues[P][] } = {
  Message: [
    { from: ALICE, to: BOB, message: "0xa1b2c3d4e5f60718", timestamp: 1767225600000 },
    { from: BOB, to: ALICE, message: "0x", timestamp: 0 },
    { from: ALICE, to: ALICE, message: `0x${"ff".repeat(4096)}`, timestamp: Number.MAX_SAFE_INTEGER },
  ],
  ExpiringMessage: [
    { from: ALICE, to: BOB, message: "0xa1b2c3d4e5f60718", timestamp: 1767225600000, expires: 1767229200000 },
    { from: BOB, to: ALICE, message: "0x", timestamp: 0, expires: Number.MAX_SAFE_INTEGER },
  ],
  Receipt: [
    { message: `0x${"11".repeat(32)}`, role: "sender" },
    { message: `0x${"ab".repeat(32)}`, role: "receiver" },
  ],
  LogReceipt: [
    { message: `0x${"11".repeat(32)}`, role: "receiver", seq: 3 },
    { message: `0x${"ab".repeat(32)}`, role: "sender", seq: Number.MAX_SAFE_INTEGER },
  ],
  LogStatement: [{ head: `0x${"21".repeat(32)}`, from: 1, entries: `0x${"43".repeat(32)}`, timestamp: 1795902017153 }],
  KeyBundle: [{ account: ALICE, key: `0x${"42".repeat(32)}`, timestamp: 1767225600000 }],
  DeriveMessagingKey: [{ notice: "ünïcödé ✓", account: BOB, version: 1 }, { notice: "", account: ALICE, version: 2 ** 32 - 1 }],
  Home: [{ account: ALICE, node: BOB, timestamp: 1767225600000 }],
  DeliveryAnswer: [{ node: BOB, messages: `0x${"12".repeat(32)}`, outcomes: `0x${"34".repeat(32)}` }],
  Deletion: [
    { account: BOB, ids: [1], timestamp: 1767225780000 },
    { account: ALICE, ids: [], timestamp: 0 },
    { account: ALICE, ids: [3, 2 ** 40, Number.MAX_SAFE_INTEGER], timestamp: 1767225600000 },
  ],
  PositionedDeletion: [
    { account: BOB, ids: [1], leaves: [`0x${"5a".repeat(32)}`], timestamp: 1767225780000 },
    { account: ALICE, ids: [7], leaves: [`0x${"01".repeat(32)}`, `0x${"fe".repeat(32)}`], timestamp: 0 },
  ],
  DeletionReceipt: [{ node: BOB, request: `0x${"77".repeat(32)}` }],
  MailboxHead: [
    { account: ALICE, size: 0, root: `0x${"e3".repeat(32)}`, timestamp: 1767225600000 },
    { account: BOB, size: Number.MAX_SAFE_INTEGER, root: `0x${"01".repeat(32)}`, timestamp: 0 },
  ],
  Consent: [
    { account: BOB, peer: ALICE, state: "allowed", timestamp: 1767225900000 },
    { account: ALICE, peer: BOB, state: "blocked", timestamp: 0 },
    { account: ALICE, peer: ALICE, state: "none", timestamp: Number.MAX_SAFE_INTEGER },
  ],
  ConsentPolicy: [
    { account: BOB, mode: "allowed-only", timestamp: 1767225900000 },
    { account: ALICE, mode: "open", timestamp: 1 },
  ],
  NodeRequest: [
    { origin: ALICE, destination: BOB, method: "neutralService_deliver", body: `0x${"5a".repeat(32)}`, timestamp: 1767225600000 },
    { origin: BOB, destination: ALICE, method: "", body: `0x${"00".repeat(32)}`, timestamp: 0 },
  ],
};

const viemDigest = (primaryType: PrimaryType, message: Record<string, unknown>) => {
  const values = Object.fromEntries(Object.entries(message).map(([k, v]) => [k, typeof v === "number" ? BigInt(v) : Array.isArray(v) ? v.map((item: unknown) => (typeof item === "number" ? BigInt(item) : item)) : v]));
  return viemHashTypedData({ domain: EIP712_DOMAIN, types: EIP712_TYPES, primaryType, message: values } as unknown as TypedDataDefinition);
};

describe("EIP-712 digests", () => {
  for (const primaryType of Object.keys(samples) as PrimaryType[]) {
    it(`${primaryType}: the same digest as viem's hashTypedData`, () => {
      for (const message of samples[primaryType]) {
        expect(toHex(hashTypedData({ primaryType, message } as never))).toBe(viemDigest(primaryType, message as Record<string, unknown>));
      }
    });
  }

  it("refuses values its types cannot hold instead of hashing something else", () => {
    expect(() => hashTypedData({ primaryType: "Message", message: { from: ALICE, to: BOB, message: "0x00", timestamp: -1 } })).toThrow(RangeError);
    expect(() => hashTypedData({ primaryType: "DeriveMessagingKey", message: { notice: "", account: ALICE, version: 2 ** 32 } })).toThrow(RangeError);
    expect(() => hashTypedData({ primaryType: "KeyBundle", message: { account: ALICE, key: "0x1234", timestamp: 1 } })).toThrow(/32 bytes/);
    expect(() => hashTypedData({ primaryType: "Receipt", message: { message: "0x12", role: "sender" } })).toThrow(/32 bytes/);
    expect(() => hashTypedData({ primaryType: "Message", message: { from: "0x1234", to: BOB, message: "0x", timestamp: 1 } })).toThrow(/20 bytes/);
    expect(() => hashTypedData({ primaryType: "Deletion", message: { account: BOB, ids: [1, -2], timestamp: 1 } })).toThrow(RangeError);
    expect(() => hashTypedData({ primaryType: "Deletion", message: { account: BOB, ids: "1" as unknown as number[], timestamp: 1 } })).toThrow(/array/);
  });

  it("encodes each type as its canonical text", () => {
    expect(encodeType("Message", EIP712_TYPES.Message)).toBe("Message(address from,address to,bytes message,uint64 timestamp)");
    expect(encodeType("Receipt", EIP712_TYPES.Receipt)).toBe("Receipt(bytes32 message,string role)");
  });

  it("builds the request shapes wallets take", () => {
    const data = typedData("Receipt", samples.Receipt[0]!);
    expect(data).toEqual({ domain: { name: "neutralService", version: "1" }, types: { Receipt: EIP712_TYPES.Receipt }, primaryType: "Receipt", message: samples.Receipt[0] });
    const v4 = typedDataV4("Receipt", samples.Receipt[0]!);
    expect(Object.keys(v4.types)).toEqual(["EIP712Domain", "Receipt"]);
    expect(JSON.parse(JSON.stringify(v4)).types.EIP712Domain).toEqual([
      { name: "name", type: "string" },
      { name: "version", type: "string" },
    ]);
  });
});
