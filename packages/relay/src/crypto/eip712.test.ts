import { hashTypedData, recoverTypedDataAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { EIP712_DOMAIN, EIP712_TYPES, hashTypedData as protocolHashTypedData } from "@neutral/protocol";
import { keyBundleDigest, messageDigest, receiptDigest } from "./eip712.js";
import { isXOnlyPublicKey, loadSecp256k1, pureJsSecp256k1 } from "./secp256k1.js";
import { TEST_KEYS } from "@neutral/protocol/testing";

const types = EIP712_TYPES;

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}` as Hex;
const alice = privateKeyToAccount(TEST_KEYS.alice);
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

  it.each([
    { ...cases[0]!, expires: 1767229320000 },
    { ...cases[1]!, expires: 1 },
    { ...cases[2]!, expires: Number.MAX_SAFE_INTEGER },
  ])("with expires, messageDigest equals viem's hashTypedData of ExpiringMessage (ts $timestamp, expires $expires), not Message's", (fields) => {
    const expected = hashTypedData({
      domain: EIP712_DOMAIN,
      types,
      primaryType: "ExpiringMessage",
      message: { ...fields, message: `0x${fields.message}`, timestamp: BigInt(fields.timestamp), expires: BigInt(fields.expires) },
    });
    expect(hex(messageDigest(fields))).toBe(expected);
    const { expires: _none, ...plain } = fields;
    expect(hex(messageDigest(plain))).not.toBe(expected);
  });

  it.each(["sender", "receiver"] as const)("receiptDigest(%s) equals viem's hashTypedData", (role) => {
    const digest = messageDigest(cases[0]!);
    const expected = hashTypedData({ domain: EIP712_DOMAIN, types, primaryType: "Receipt", message: { message: hex(digest), role } });
    expect(hex(receiptDigest(digest, role))).toBe(expected);
  });

  it("equals the shared definitions of @neutral/protocol for every type", () => {
    for (const fields of cases) {
      const message = { from: fields.from, to: fields.to, message: `0x${fields.message}` as Hex, timestamp: fields.timestamp };
      const digest = messageDigest(fields);
      expect(hex(digest)).toBe(hex(protocolHashTypedData({ primaryType: "Message", message })));
      for (const role of ["sender", "receiver"] as const) {
        expect(hex(receiptDigest(digest, role))).toBe(hex(protocolHashTypedData({ primaryType: "Receipt", message: { message: hex(digest), role } })));
      }
    }
    const bundle = { account: alice.address, key: `0x${"12".repeat(32)}` as Hex, timestamp: 1767225600000 };
    expect(hex(keyBundleDigest(bundle))).toBe(hex(protocolHashTypedData({ primaryType: "KeyBundle", message: bundle })));
  });

  it("the two roles give different digests", () => {
    const digest = messageDigest(cases[0]!);
    expect(hex(receiptDigest(digest, "sender"))).not.toBe(hex(receiptDigest(digest, "receiver")));
  });

  const bundles: { account: Hex; key: Hex; timestamp: number }[] = [
    { account: alice.address, key: "0xf9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9", timestamp: 1767225600000 },
    { account: bob, key: `0x${"00".repeat(32)}`, timestamp: 0 },
    { account: bob.toLowerCase() as Hex, key: `0x${"FF".repeat(32)}`, timestamp: Number.MAX_SAFE_INTEGER },
  ];

  it.each(bundles)("keyBundleDigest equals viem's hashTypedData (ts $timestamp)", (fields) => {
    const expected = hashTypedData({ domain: EIP712_DOMAIN, types, primaryType: "KeyBundle", message: { ...fields, timestamp: BigInt(fields.timestamp) } });
    expect(hex(keyBundleDigest(fields))).toBe(expected);
  });

  it("keyBundleDigest: any case gives the same digest; the key must be 32 bytes", () => {
    const fields = bundles[0]!;
    expect(hex(keyBundleDigest({ ...fields, account: fields.account.toLowerCase(), key: `0x${fields.key.slice(2).toUpperCase()}` }))).toBe(hex(keyBundleDigest(fields)));
    expect(() => keyBundleDigest({ ...fields, key: "0x1234" })).toThrow();
  });

  it("an account's viem signature of a bundle recovers the account", async () => {
    const fields = bundles[0]!;
    const signature = await alice.signTypedData({ domain: EIP712_DOMAIN, types, primaryType: "KeyBundle", message: { ...fields, timestamp: BigInt(fields.timestamp) } });
    // The spec's example (openrpc.json, tools/scripts/sign-examples.mjs).
    expect(signature).toBe("0x36256dca8f8e3673f92c1d76d8bc2dab3870969336fe19b3fb04ce7a49f8ead379ebbe195a998a2a89198b2bb5867e1d18b156a9fa80c8d03eebe538779922051c");
    for (const curve of [loadSecp256k1(), pureJsSecp256k1()]) {
      expect(curve.recoverAddress(keyBundleDigest(fields), Buffer.from(signature.slice(2), "hex"))).toBe(alice.address.toLowerCase());
    }
  });
});

describe("isXOnlyPublicKey", () => {
  const P = 2n ** 256n - 2n ** 32n - 977n;
  const word = (n: bigint) => `0x${n.toString(16).padStart(64, "0")}`;

  it("accepts the x of points: 1·G, 2·G, 3·G (BIP-340 vector 0), any case", () => {
    for (const key of [
      "0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798",
      "0xc6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5",
      "0xF9308A019258C31049344F85F89D5229B531C845836F99B08601F113BCE036F9",
    ]) {
      expect(isXOnlyPublicKey(key), key).toBe(true);
    }
  });

  it("refuses x with no point (x³ + 7 not a square), x ≥ p, and malformed text", () => {
    for (const key of [word(5n), word(7n), word(P), word(P + 1n), `0x${"ff".repeat(32)}`, "0x1234", `${"ab".repeat(32)}`, `0x${"zz".repeat(32)}`, `0x02${"ab".repeat(32)}`]) {
      expect(isXOnlyPublicKey(key), key).toBe(false);
    }
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
    const key = Buffer.from(TEST_KEYS.node.slice(2), "hex");
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
  const key = Buffer.from(TEST_KEYS.bob.slice(2), "hex");
  const digest = messageDigest({ from: bob, to: bob, message: "01", timestamp: 1 });
  expect(hex(native.sign(digest, key))).toBe(hex(js.sign(digest, key)));
  expect(native.implementation).toBe("native libsecp256k1");
});
