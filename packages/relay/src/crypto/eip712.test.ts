import { hashTypedData, recoverTypedDataAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { EIP712_DOMAIN, messageDigest, receiptDigest } from "./eip712.js";
import { MESSAGE_TYPES } from "../test-wallets.js";
import { loadSecp256k1, pureJsSecp256k1 } from "./secp256k1.js";

const types = MESSAGE_TYPES;

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}` as Hex;
// Hardhat's first test key: public knowledge, never a real secret.
const alice = privateKeyToAccount("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
const bob: Hex = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("EIP-712 digests", () => {
  const cases: { from: Hex; to: Hex; message: string; timestamp: number }[] = [
    { from: alice.address, to: bob, message: "deadbeefcafef00d", timestamp: 1767225720000 },
    { from: bob, to: bob, message: "00", timestamp: 0 },
    { from: alice.address, to: bob, message: "ab".repeat(65536), timestamp: Number.MAX_SAFE_INTEGER },
  ];

  it.each(cases)("messageDigest equals viem's hashTypedData (ts $timestamp)", (fields) => {
    const expected = hashTypedData({
      domain: EIP712_DOMAIN,
      types,
      primaryType: "Message",
      message: { ...fields, message: `0x${fields.message}`, timestamp: BigInt(fields.timestamp) },
    });
    expect(hex(messageDigest(fields))).toBe(expected);
  });

  it.each(["sender", "receiver"] as const)("receiptDigest(%s) equals viem's hashTypedData", (role) => {
    const digest = messageDigest(cases[0]!);
    const expected = hashTypedData({ domain: EIP712_DOMAIN, types, primaryType: "Receipt", message: { message: hex(digest), role } });
    expect(hex(receiptDigest(digest, role))).toBe(expected);
  });

  it("the two roles give different digests", () => {
    const digest = messageDigest(cases[0]!);
    expect(hex(receiptDigest(digest, "sender"))).not.toBe(hex(receiptDigest(digest, "receiver")));
  });
});

describe.each([
  ["loaded", loadSecp256k1()],
  ["pure JS", pureJsSecp256k1()],
])("secp256k1 (%s)", (_name, curve) => {
  const fields = { from: alice.address, to: bob, message: "deadbeef", timestamp: 1767225720000 };

  it("recovers the signer of a viem signature", async () => {
    const signature = await alice.signTypedData({
      domain: EIP712_DOMAIN,
      types,
      primaryType: "Message",
      message: { ...fields, message: "0xdeadbeef", timestamp: BigInt(fields.timestamp) },
    });
    expect(curve.recoverAddress(messageDigest(fields), Buffer.from(signature.slice(2), "hex"))).toBe(alice.address.toLowerCase());
  });

  it("signs so that viem recovers the node address, deterministically (RFC 6979)", async () => {
    const key = Buffer.from("5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a", "hex");
    const digest = messageDigest(fields);
    const signature = curve.sign(receiptDigest(digest, "sender"), key);
    expect(signature).toHaveLength(65);
    expect([27, 28]).toContain(signature[64]);
    const recovered = await recoverTypedDataAddress({
      domain: EIP712_DOMAIN,
      types,
      primaryType: "Receipt",
      message: { message: hex(digest), role: "sender" },
      signature: hex(signature),
    });
    expect(recovered.toLowerCase()).toBe(curve.addressOf(key));
    expect(curve.addressOf(key)).toBe("0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc");
    expect(hex(curve.sign(receiptDigest(digest, "sender"), key))).toBe(hex(signature));
  });

  it("answers undefined for a signature that cannot be recovered", () => {
    const digest = messageDigest(fields);
    expect(curve.recoverAddress(digest, new Uint8Array(65))).toBeUndefined();
    expect(curve.recoverAddress(digest, new Uint8Array(64))).toBeUndefined();
    const badV = new Uint8Array(65).fill(1);
    badV[64] = 29;
    expect(curve.recoverAddress(digest, badV)).toBeUndefined();
  });
});

it("native and pure JS produce the same signature bytes", () => {
  const native = loadSecp256k1("native");
  const js = pureJsSecp256k1();
  const key = Buffer.from("59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d", "hex");
  const digest = messageDigest({ from: bob, to: bob, message: "01", timestamp: 1 });
  expect(hex(native.sign(digest, key))).toBe(hex(js.sign(digest, key)));
  expect(native.implementation).toBe("native libsecp256k1");
});
