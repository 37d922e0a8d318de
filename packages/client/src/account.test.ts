import { parseSiweMessage, validateSiweMessage } from "viem/siwe";
import { recoverMessageAddress, recoverTypedDataAddress, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { toSigner, type Signer } from "./account.js";
import { createBearerToken } from "./auth/token.js";
import { typedData } from "@neutral/protocol";
import { NeutralError } from "./errors.js";
import { privateKeyToAccount, signingProvider, TEST_KEYS } from "../test/wallet.js";

const alice = privateKeyToAccount(TEST_KEYS.alice);
const signers: [string, () => Signer][] = [
  ["a raw private key", () => toSigner(TEST_KEYS.alice)],
  ["a viem LocalAccount", () => toSigner(alice)],
  ["an EIP-1193 provider given the address", () => toSigner(signingProvider(TEST_KEYS.alice), alice.address)],
  ["an EIP-1193 provider asked for its account", () => toSigner(signingProvider(TEST_KEYS.alice, { exposeAccounts: true }))],
];

describe.each(signers)("a signer over %s", (_, make) => {
  it("knows its lowercase address", async () => {
    expect(await make().getAddress()).toBe(alice.address.toLowerCase());
  });

  it("signs text as personal_sign (EIP-191)", async () => {
    const signature = await make().signMessage("hello\nworld ✓");
    expect(await recoverMessageAddress({ message: "hello\nworld ✓", signature })).toBe(alice.address);
    expect(signature).toBe(await alice.signMessage({ message: "hello\nworld ✓" }));
  });

  it("signs EIP-712 typed data the way viem does", async () => {
    const data = typedData("Message", { from: alice.address.toLowerCase() as Hex, to: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8", message: "0xdeadbeef", timestamp: 1767225720000 });
    const signature = await make().signTypedData(data);
    expect(await recoverTypedDataAddress({ ...data, signature } as Parameters<typeof recoverTypedDataAddress>[0])).toBe(alice.address);
  });
});

describe("toSigner", () => {
  it("refuses a malformed private key without echoing it", () => {
    const secretish = "0x1234567890abcdef";
    const error = (() => {
      try {
        toSigner(secretish as Hex);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(NeutralError);
    expect((error as NeutralError).code).toBe("INVALID_ACCOUNT");
    expect(String((error as Error).message)).not.toContain(secretish.slice(2));
  });

  it("refuses the zero key and keys beyond the curve order", () => {
    expect(() => toSigner(`0x${"0".repeat(64)}`)).toThrow(NeutralError);
    expect(() => toSigner(`0x${"f".repeat(64)}`)).toThrow(NeutralError);
  });

  it("refuses objects that are no account", () => {
    expect(() => toSigner({} as never)).toThrow(/private key, a local account .* or an EIP-1193 provider/);
  });

  it("reports a wallet that answers no signature as WALLET_ERROR", async () => {
    const broken = toSigner({ request: async () => "not a signature" }, alice.address);
    await expect(broken.signMessage("x")).rejects.toMatchObject({ name: "NeutralError", code: "WALLET_ERROR" });
  });

  it("normalises v = 0/1 from wallets that answer that way", async () => {
    const provider = signingProvider(TEST_KEYS.alice);
    const lowV = toSigner(
      {
        async request(args) {
          const signature = (await provider.request(args)) as string;
          const v = parseInt(signature.slice(130), 16) - 27;
          return signature.slice(0, 130) + v.toString(16).padStart(2, "0");
        },
      },
      alice.address,
    );
    const signature = await lowV.signMessage("hi");
    expect(["1b", "1c"]).toContain(signature.slice(130));
    expect(await recoverMessageAddress({ message: "hi", signature })).toBe(alice.address);
  });
});

describe("createBearerToken", () => {
  it("is base64url(EIP-4361 text) + '.' + a personal_sign signature that viem accepts", async () => {
    const signer = toSigner(signingProvider(TEST_KEYS.alice), alice.address);
    const issuedAt = Date.UTC(2026, 10, 21, 12, 0, 0);
    const { token, expiresAt } = await createBearerToken(signer, { domain: "127.0.0.1:8645", uri: "http://127.0.0.1:8645", now: () => issuedAt });
    expect(expiresAt).toBe(issuedAt + 3_600_000);
    const [encoded, signature] = token.split(".") as [string, Hex];
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    const text = Buffer.from(encoded, "base64url").toString("utf8");
    const fields = parseSiweMessage(text);
    expect(fields).toMatchObject({ domain: "127.0.0.1:8645", address: alice.address, version: "1", chainId: 1, uri: "http://127.0.0.1:8645" });
    expect(fields.nonce).toMatch(/^[A-Za-z0-9]{8,}$/);
    expect(fields.expirationTime?.getTime()).toBe(expiresAt);
    expect(validateSiweMessage({ message: fields, domain: "127.0.0.1:8645", time: new Date(issuedAt + 1000) })).toBe(true);
    expect(await recoverMessageAddress({ message: text, signature })).toBe(alice.address);
  });

  it("never makes a token longer than the 24 h a node accepts, and a new nonce each time", async () => {
    const signer = toSigner(TEST_KEYS.alice);
    const options = { domain: "d:1", uri: "http://d:1", lifetimeMs: 7 * 24 * 3_600_000, now: () => 0 };
    const [first, second] = await Promise.all([createBearerToken(signer, options), createBearerToken(signer, options)]);
    expect(first.expiresAt).toBe(24 * 3_600_000);
    expect(first.token).not.toBe(second.token);
  });
});
