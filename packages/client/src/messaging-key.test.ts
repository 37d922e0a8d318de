import { schnorr, secp256k1 } from "@noble/curves/secp256k1.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { describe, expect, it } from "vitest";
import { toSigner } from "./account.js";
import { toHex, type Hex } from "./crypto/ecdsa.js";
import { DERIVATION_NOTICE, EIP712_DOMAIN } from "@neutral/protocol";
import { deriveMessagingKey, isValidKeyBundle, messagingKeyFromSignature, signKeyBundle } from "./messaging-key.js";
import { privateKeyToAccount, signingProvider, TEST_KEYS } from "../test/wallet.js";

const alice = privateKeyToAccount(TEST_KEYS.alice);
const bob = privateKeyToAccount(TEST_KEYS.bob);

describe("the messaging key", () => {
  it("is the same for the same account, whatever kind of signer asks", async () => {
    const keys = await Promise.all([
      deriveMessagingKey(toSigner(TEST_KEYS.alice)),
      deriveMessagingKey(toSigner(alice)),
      deriveMessagingKey(toSigner(signingProvider(TEST_KEYS.alice), alice.address)),
    ]);
    expect(new Set(keys.map((key) => key.publicKeyHex)).size).toBe(1);
    expect(toHex(keys[0]!.privateKey)).not.toBe(TEST_KEYS.alice);
  });

  it("follows the derivation openrpc.json spells out (recomputed here with viem and @noble directly)", async () => {
    const signature = await alice.signTypedData({
      domain: EIP712_DOMAIN,
      types: { DeriveMessagingKey: [{ name: "notice", type: "string" }, { name: "account", type: "address" }, { name: "version", type: "uint32" }] },
      primaryType: "DeriveMessagingKey",
      message: { notice: DERIVATION_NOTICE, account: alice.address, version: 1 },
    });
    const privateKey = hkdf(sha256, hexToBytes(signature.slice(2, 130)), utf8ToBytes("neutralService messaging key"), utf8ToBytes("v1/0"), 32);
    expect(toHex(schnorr.getPublicKey(privateKey))).toBe((await deriveMessagingKey(toSigner(TEST_KEYS.alice))).publicKeyHex);
  });

  it("differs between accounts and is a valid x-only secp256k1 key", async () => {
    const [a, b] = await Promise.all([deriveMessagingKey(toSigner(TEST_KEYS.alice)), deriveMessagingKey(toSigner(TEST_KEYS.bob))]);
    expect(a.publicKeyHex).not.toBe(b.publicKeyHex);
    for (const key of [a, b]) {
      expect(key.publicKeyHex).toMatch(/^0x[0-9a-f]{64}$/);
      expect(toHex(secp256k1.getPublicKey(key.privateKey, true).subarray(1))).toBe(key.publicKeyHex);
    }
  });

  it("does not depend on v or on which of s and n-s the wallet returns", async () => {
    const signature = await toSigner(TEST_KEYS.alice).signMessage("any");
    const r = signature.slice(2, 66);
    const s = BigInt(`0x${signature.slice(66, 130)}`);
    const n = secp256k1.Point.CURVE().n;
    const highS = (n - s).toString(16).padStart(64, "0");
    const flipped = `0x${r}${highS}${signature.slice(130) === "1b" ? "1c" : "1b"}` as Hex;
    expect(messagingKeyFromSignature(flipped).publicKeyHex).toBe(messagingKeyFromSignature(signature).publicKeyHex);
  });
});

describe("key bundles", () => {
  it("are valid for their account only, and any edit breaks them", async () => {
    const signer = toSigner(alice);
    const key = await deriveMessagingKey(signer);
    const bundle = await signKeyBundle(signer, key, 1767225600000);
    expect(bundle).toMatchObject({ account: alice.address.toLowerCase(), key: key.publicKeyHex, timestamp: 1767225600000 });
    expect(isValidKeyBundle(bundle, alice.address)).toBe(true);
    expect(isValidKeyBundle(bundle, alice.address.toLowerCase())).toBe(true);
    expect(isValidKeyBundle(bundle, bob.address)).toBe(false);
    expect(isValidKeyBundle({ ...bundle, timestamp: bundle.timestamp + 1 }, alice.address)).toBe(false);
    expect(isValidKeyBundle({ ...bundle, key: `0x${"11".repeat(32)}` }, alice.address)).toBe(false);
    expect(isValidKeyBundle({ ...bundle, account: bob.address.toLowerCase() }, bob.address)).toBe(false);
    expect(isValidKeyBundle({ ...bundle, signature: "0x1234" }, alice.address)).toBe(false);
  });

  it("signed by another account for this one are invalid (a node cannot vouch for a key)", async () => {
    const mallory = toSigner(TEST_KEYS.mallory);
    const key = await deriveMessagingKey(mallory);
    const forged = { ...(await signKeyBundle(mallory, key, 1)), account: alice.address.toLowerCase() };
    expect(isValidKeyBundle(forged, alice.address)).toBe(false);
  });
});
