import { EIP712_DOMAIN } from "@neutral/protocol";
import { recoverTypedDataAddress } from "viem";
import { describe, expect, it } from "vitest";
import { toSigner } from "./account.js";
import { isValidHomeRecord, signHomeRecord } from "./home.js";
import { privateKeyToAccount, signingProvider, TEST_KEYS } from "../test/wallet.js";

const alice = privateKeyToAccount(TEST_KEYS.alice);
const node = privateKeyToAccount(TEST_KEYS.node).address.toLowerCase();
const HOME_TYPES = { Home: [{ name: "account", type: "address" }, { name: "node", type: "address" }, { name: "timestamp", type: "uint64" }] } as const;

describe("home records", () => {
  it("are EIP-712 Home typed data the account signs, as viem recovers them, whatever kind of signer", async () => {
    for (const signer of [toSigner(TEST_KEYS.alice), toSigner(alice), toSigner(signingProvider(TEST_KEYS.alice), alice.address)]) {
      const record = await signHomeRecord(signer, node.toUpperCase().replace("0X", "0x"), 1767225600000);
      expect(record).toMatchObject({ account: alice.address.toLowerCase(), node, timestamp: 1767225600000 });
      const recovered = await recoverTypedDataAddress({
        domain: EIP712_DOMAIN,
        types: HOME_TYPES,
        primaryType: "Home",
        message: { account: record.account as `0x${string}`, node: record.node as `0x${string}`, timestamp: BigInt(record.timestamp) },
        signature: record.signature as `0x${string}`,
      });
      expect(recovered.toLowerCase()).toBe(alice.address.toLowerCase());
      expect(isValidHomeRecord(record, alice.address)).toBe(true);
    }
  });

  it("are valid only for their own account, unaltered", async () => {
    const viemSigned = await alice.signTypedData({ domain: EIP712_DOMAIN, types: HOME_TYPES, primaryType: "Home", message: { account: alice.address, node: node as `0x${string}`, timestamp: 5n } });
    const record = { account: alice.address, node, timestamp: 5, signature: viemSigned };
    expect(isValidHomeRecord(record, alice.address.toLowerCase())).toBe(true);
    const bob = privateKeyToAccount(TEST_KEYS.bob).address;
    expect(isValidHomeRecord(record, bob)).toBe(false); // another account's record
    expect(isValidHomeRecord({ ...record, account: bob }, bob)).toBe(false); // claimed for another account
    expect(isValidHomeRecord({ ...record, timestamp: 6 }, alice.address)).toBe(false);
    expect(isValidHomeRecord({ ...record, node: bob.toLowerCase() }, alice.address)).toBe(false);
    expect(isValidHomeRecord({ ...record, signature: "0x1234" }, alice.address)).toBe(false);
    expect(isValidHomeRecord({ ...record, node: "not an address" }, alice.address)).toBe(false);
  });
});
