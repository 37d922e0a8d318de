import { privateKeyToAccount } from "viem/accounts";
import { recoverMessageAddress } from "viem";
import { describe, expect, it } from "vitest";
import { EIP712_DOMAIN, EIP712_TYPES, hashTypedData } from "../eip712.js";
import { TEST_KEYS } from "./keys.js";
import { fixtureSigner, fixtureStoredMessage, recoverDigestSigner } from "./signer.js";

describe("fixture signers", () => {
  it("sign exactly as viem's local accounts do (RFC 6979, low s)", async () => {
    for (const key of Object.values(TEST_KEYS)) {
      const ours = fixtureSigner(key);
      const viem = privateKeyToAccount(key);
      expect(ours.checksumAddress).toBe(viem.address);
      expect(ours.xOnlyPublicKey).toBe(`0x${viem.publicKey.slice(4, 68)}`);
      expect(ours.signMessage("hello ✓")).toBe(await viem.signMessage({ message: "hello ✓" }));
      const values = { account: ours.address, key: ours.xOnlyPublicKey, timestamp: 1767225600000 };
      expect(ours.signTypedData("KeyBundle", values)).toBe(
        await viem.signTypedData({ domain: EIP712_DOMAIN, types: EIP712_TYPES, primaryType: "KeyBundle", message: { ...values, timestamp: BigInt(values.timestamp) } }),
      );
    }
  });

  it("make tokens and stored messages whose signatures recover their signers", async () => {
    const alice = fixtureSigner(TEST_KEYS.alice);
    const bob = fixtureSigner(TEST_KEYS.bob);
    const node = fixtureSigner(TEST_KEYS.node);
    const token = alice.bearerToken({ domain: "127.0.0.1:1" });
    expect((await recoverMessageAddress({ message: token.message, signature: token.signature })).toLowerCase()).toBe(alice.address);
    const signed = alice.signMessageFor(bob.address, "c0ffee", 1767225600000);
    const digest = hashTypedData({ primaryType: "Message", message: { from: alice.address, to: bob.address, message: "0xc0ffee", timestamp: 1767225600000 } });
    expect(recoverDigestSigner(digest, signed.signature)).toBe(alice.address);
    const stored = fixtureStoredMessage(node, signed);
    const receipt = hashTypedData({ primaryType: "Receipt", message: { message: `0x${Buffer.from(digest).toString("hex")}`, role: "receiver" } });
    expect(recoverDigestSigner(receipt, stored.receiverReceipt!)).toBe(node.address);
    expect(recoverDigestSigner(receipt, "0x12")).toBeUndefined();
  });
});
