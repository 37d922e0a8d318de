import { createHash, randomBytes } from "node:crypto";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { hashTypedData as viemHashTypedData } from "viem";
import { describe, expect, it } from "vitest";
import { EIP712_DOMAIN, EIP712_TYPES } from "./eip712.js";
import { toHex } from "./hex.js";
import { MAILBOX_LEAF_BYTES, expiredMessageDigest, hashedMessageDigest, logReceiptDigest, mailboxHeadDigest, mailboxLeaf, mailboxLeafHash, type MailboxLeafFields } from "./mailbox-log.js";

const fields: MailboxLeafFields = {
  account: "0x" + "11".repeat(20),
  seq: 258,
  role: "sent",
  peer: "0x" + "22".repeat(20),
  digest: "0x" + "33".repeat(32),
};

describe("mailbox leaves", () => {
  it("lay out version, account, seq (uint64 big-endian), role, peer and digest in 82 bytes", () => {
    const expected = "01" + "11".repeat(20) + "0000000000000102" + "02" + "22".repeat(20) + "33".repeat(32);
    expect(toHex(mailboxLeaf(fields))).toBe("0x" + expected);
    expect(MAILBOX_LEAF_BYTES).toBe(82);
    const received = mailboxLeaf({ ...fields, role: "received" });
    expect(received[29]).toBe(0x01);
  });

  it("hash as RFC 9162 leaves: SHA-256 of 0x00 and the leaf", () => {
    const leaf = Buffer.from(mailboxLeaf(fields));
    const independent = createHash("sha256").update(Buffer.concat([Buffer.from([0]), leaf])).digest("hex");
    expect(toHex(mailboxLeafHash(fields))).toBe("0x" + independent);
    // With a node's own SHA-256 (the relay's native one): the same hash, through it.
    const inputs: (Uint8Array | string)[] = [];
    const native = (data: Uint8Array | string) => (inputs.push(data), new Uint8Array(createHash("sha256").update(data).digest()));
    expect(toHex(mailboxLeafHash(fields, native))).toBe("0x" + independent);
    expect(inputs.map((input) => Buffer.from(input).toString("hex"))).toEqual(["00" + leaf.toString("hex")]);
  });

  it("take bytes or hex alike, and differ in every field", () => {
    const asBytes = { ...fields, account: Buffer.from("11".repeat(20), "hex"), peer: Buffer.from("22".repeat(20), "hex"), digest: Buffer.from("33".repeat(32), "hex") };
    const hash = toHex(mailboxLeafHash(fields));
    expect(toHex(mailboxLeafHash(asBytes))).toBe(hash);
    const variants: MailboxLeafFields[] = [
      { ...fields, account: "0x" + "12".repeat(20) },
      { ...fields, seq: 257 },
      { ...fields, seq: 2 ** 40 + 258 },
      { ...fields, role: "received" },
      { ...fields, peer: "0x" + "23".repeat(20) },
      { ...fields, digest: "0x" + "34".repeat(32) },
    ];
    const hashes = new Set([hash, ...variants.map((variant) => toHex(mailboxLeafHash(variant)))]);
    expect(hashes.size).toBe(variants.length + 1);
  });

  it("refuse a position below 1 or not whole, a field of the wrong length, an unknown role", () => {
    for (const seq of [0, -1, 1.5, Number.NaN, 2 ** 53]) expect(() => mailboxLeaf({ ...fields, seq })).toThrow(RangeError);
    expect(() => mailboxLeaf({ ...fields, account: "0x" + "11".repeat(19) })).toThrow(/account is 20 bytes, not 19/);
    expect(() => mailboxLeaf({ ...fields, digest: "0x" + "33".repeat(31) })).toThrow(/digest is 32 bytes/);
    expect(() => mailboxLeaf({ ...fields, peer: new Uint8Array(21) })).toThrow(/peer is 20 bytes/);
    expect(() => mailboxLeaf({ ...fields, role: "requests" as never })).toThrow(/role/);
  });
});

describe("mailbox heads", () => {
  it("digest as EIP-712 MailboxHead(address account,uint64 size,bytes32 root,uint64 timestamp) in the protocol's domain", () => {
    const head = { account: `0x${"ab".repeat(20)}`, size: 1_000_001, root: `0x${"cd".repeat(32)}`, timestamp: 1_764_000_000_000 } as const;
    const viem = viemHashTypedData({ domain: EIP712_DOMAIN, types: { MailboxHead: [...EIP712_TYPES.MailboxHead] }, primaryType: "MailboxHead", message: { ...head, size: BigInt(head.size), timestamp: BigInt(head.timestamp) } });
    expect(toHex(mailboxHeadDigest(head))).toBe(viem);
    expect(toHex(mailboxHeadDigest({ ...head, size: head.size - 1 }))).not.toBe(viem);
  });
});

describe("position promises", () => {
  it("digest as EIP-712 LogReceipt(bytes32 message,string role,uint64 seq), role receiver, in the protocol's domain", () => {
    const digest = `0x${"5e".repeat(32)}` as const;
    const viem = viemHashTypedData({ domain: EIP712_DOMAIN, types: { LogReceipt: [...EIP712_TYPES.LogReceipt] }, primaryType: "LogReceipt", message: { message: digest, role: "receiver", seq: 3n } });
    expect(toHex(logReceiptDigest(digest, 3))).toBe(viem);
    expect(toHex(logReceiptDigest(digest, 4))).not.toBe(viem);
    const sender = viemHashTypedData({ domain: EIP712_DOMAIN, types: { LogReceipt: [...EIP712_TYPES.LogReceipt] }, primaryType: "LogReceipt", message: { message: digest, role: "sender", seq: 3n } });
    expect(toHex(logReceiptDigest(digest, 3, "sender"))).toBe(sender);
    expect(sender).not.toBe(viem);
  });

  it("hash with the keccak-256 given, when one is", () => {
    const digest = `0x${"5e".repeat(32)}` as const;
    const hashed: number[] = [];
    const counting = (data: Uint8Array) => {
      hashed.push(data.length);
      return keccak_256(data);
    };
    expect(toHex(logReceiptDigest(digest, 3, "sender", counting))).toBe(toHex(logReceiptDigest(digest, 3, "sender")));
    // The struct (type hash, message, role hash, seq: four words), then the typed data (0x1901, domain, struct hash).
    expect(hashed).toEqual([128, 66]);
  });
});

describe("expired messages", () => {
  const body = randomBytes(300);
  const message = { from: `0x${"aa".repeat(20)}`, to: `0x${"bb".repeat(20)}`, timestamp: 1_767_225_600_000, expires: 1_767_225_660_000 } as const;
  const kept = { ...message, messageHash: toHex(keccak_256(body)) };

  it("digest without their body as the sender's ExpiringMessage digests with it", () => {
    const full = viemHashTypedData({
      domain: EIP712_DOMAIN,
      types: { ExpiringMessage: EIP712_TYPES.ExpiringMessage },
      primaryType: "ExpiringMessage",
      message: { ...message, message: toHex(body), timestamp: BigInt(message.timestamp), expires: BigInt(message.expires) },
    });
    expect(toHex(expiredMessageDigest(kept))).toBe(full);
  });

  it("digest differently when any kept field differs", () => {
    const digest = toHex(expiredMessageDigest(kept));
    for (const changed of [
      { ...kept, expires: kept.expires + 1 },
      { ...kept, timestamp: kept.timestamp - 1 },
      { ...kept, messageHash: toHex(keccak_256(randomBytes(300))) },
      { ...kept, from: kept.to, to: kept.from },
    ]) expect(toHex(expiredMessageDigest(changed))).not.toBe(digest);
  });

  it("refuse a hash that is not 32 bytes", () => {
    expect(() => expiredMessageDigest({ ...kept, messageHash: "0x" + "00".repeat(31) })).toThrow(/bytes32 is 32 bytes/);
  });

  it("without an end, digest as the sender's Message with its body (hashedMessageDigest)", () => {
    const { expires: _expires, ...plain } = kept;
    const full = viemHashTypedData({
      domain: EIP712_DOMAIN,
      types: { Message: EIP712_TYPES.Message },
      primaryType: "Message",
      message: { from: message.from, to: message.to, message: toHex(body), timestamp: BigInt(message.timestamp) },
    });
    expect(toHex(hashedMessageDigest(plain))).toBe(full);
    expect(toHex(hashedMessageDigest(kept))).toBe(toHex(expiredMessageDigest(kept)));
  });
});
