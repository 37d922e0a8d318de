import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage, parseSiweMessage as viemParseSiweMessage } from "viem/siwe";
import { recoverMessageAddress } from "viem";
import { describe, expect, it } from "vitest";
import { checkBearerToken, decodeBearerToken, describeBearerToken, encodeBearerToken, MAX_TOKEN_LIFETIME_MS, newNonce, NONCE_PATTERN, tokenExpiry } from "./bearer-token.js";
import { buildSiweMessage, parseSiweMessage, parseSiweTime } from "./siwe.js";
import { TEST_KEYS } from "./testing/keys.js";
import { fixtureSigner } from "./testing/signer.js";

const NOW = Date.UTC(2026, 0, 1, 12);
const alice = privateKeyToAccount(TEST_KEYS.alice);
const rules = { acceptsDomain: (domain: string) => domain === "127.0.0.1:8645", now: NOW };

async function viemToken(overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {}, mangle = (text: string) => text): Promise<string> {
  const text = mangle(
    createSiweMessage({
      address: alice.address,
      chainId: 1,
      domain: "127.0.0.1:8645",
      nonce: "abcdef1234567890",
      uri: "http://127.0.0.1:8645/",
      version: "1",
      issuedAt: new Date(NOW - 60_000),
      expirationTime: new Date(NOW + 3_600_000),
      ...overrides,
    }),
  );
  return encodeBearerToken(text, await alice.signMessage({ message: text }));
}

describe("SIWE messages", () => {
  it("builds what viem parses, and parses what viem builds, field for field", () => {
    const text = buildSiweMessage({ domain: "node.example:443", address: alice.address.toLowerCase(), uri: "https://node.example/", statement: "Sign in to neutralService.", nonce: "n0nce1234", issuedAt: NOW, expiresAt: NOW + 1000, notBefore: NOW - 5 });
    const ours = parseSiweMessage(text)!;
    const theirs = viemParseSiweMessage(text);
    expect(ours.address).toBe(alice.address); // EIP-55, as EIP-4361 wants
    expect(theirs.address).toBe(ours.address);
    expect({ domain: theirs.domain, uri: theirs.uri, nonce: theirs.nonce, statement: theirs.statement, chainId: theirs.chainId }).toEqual({ domain: ours.domain, uri: ours.uri, nonce: ours.nonce, statement: ours.statement, chainId: ours.chainId });
    expect(parseSiweTime(ours.expirationTime)).toBe(NOW + 1000);
    expect(parseSiweTime(ours.notBefore)).toBe(NOW - 5);
    const full = createSiweMessage({ address: alice.address, chainId: 7, domain: "a.example.com", nonce: "12345678", uri: "https://a.example.com/x", version: "1", scheme: "https", requestId: "r-1", resources: ["https://a.example.com/1", "ipfs://x"], issuedAt: new Date(NOW) });
    expect(parseSiweMessage(full)).toMatchObject({ scheme: "https", domain: "a.example.com", chainId: 7, requestId: "r-1", resources: ["https://a.example.com/1", "ipfs://x"] });
  });

  it("is not fooled by text that only looks like EIP-4361", () => {
    const text = buildSiweMessage({ domain: "d", address: alice.address, uri: "u:x", nonce: "12345678", issuedAt: NOW, expiresAt: NOW + 1 });
    expect(parseSiweMessage(`${text}\nextra`)).toBeUndefined();
    expect(parseSiweMessage(text.replace("Chain ID: 1", "Chain ID: one"))).toBeUndefined();
    expect(parseSiweMessage(text.replace(alice.address, "0x1234"))).toBeUndefined();
    expect(parseSiweTime("2026-01-01")).toBeUndefined();
  });
});

describe("bearer tokens", () => {
  it("a token made by viem passes every check, and its signature recovers the message's address", async () => {
    const checked = checkBearerToken(await viemToken(), rules);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.value.expiresAt).toBe(NOW + 3_600_000);
    expect(await recoverMessageAddress({ message: checked.value.text, signature: checked.value.signature as `0x${string}` })).toBe(alice.address);
  });

  const refusals: [string, () => Promise<string> | string, RegExp][] = [
    ["no dot", () => "abc", /expected base64url/],
    ["not base64url", () => `a+b.0x${"1".repeat(130)}`, /not base64url/],
    ["short signature", () => "YWJj.0x1234", /130 hex/],
    ["not EIP-4361", () => encodeBearerToken("hello", `0x${"1".repeat(130)}`), /malformed SIWE/],
    ["not UTF-8", () => `${Buffer.from([0xff, 0xfe]).toString("base64url")}.0x${"1".repeat(130)}`, /malformed SIWE/],
    ["version 2", () => viemToken({}, (t) => t.replace("Version: 1", "Version: 2")), /version/],
    ["foreign domain", () => viemToken({ domain: "evil.example" }), /not served/],
    ["short nonce", () => viemToken({}, (t) => t.replace("abcdef1234567890", "abc")), /nonce/],
    ["no expiry", () => viemToken({ expirationTime: undefined }), /expiration-time missing/],
    ["expired", () => viemToken({ expirationTime: new Date(NOW) }), /expired/],
    ["over 24 h", () => viemToken({ issuedAt: new Date(NOW - 1000), expirationTime: new Date(NOW - 1000 + MAX_TOKEN_LIFETIME_MS + 1) }), /more than 24 h/],
    ["issued in the future", () => viemToken({ issuedAt: new Date(NOW + 10 * 60_000), expirationTime: new Date(NOW + 20 * 60_000) }), /future/],
    ["not before", () => viemToken({ notBefore: new Date(NOW + 1000) }), /not valid yet/],
  ];
  for (const [name, make, reason] of refusals) {
    it(`refuses: ${name}`, async () => {
      const checked = checkBearerToken(await make(), rules);
      expect(checked.ok).toBe(false);
      if (!checked.ok) expect(checked.reason).toMatch(reason);
    });
  }

  it("exactly 24 h is accepted; 1 ms more is not", async () => {
    const at = (ms: number) => viemToken({ issuedAt: new Date(NOW - 1000), expirationTime: new Date(NOW - 1000 + ms) });
    expect(checkBearerToken(await at(MAX_TOKEN_LIFETIME_MS), rules).ok).toBe(true);
    expect(checkBearerToken(await at(MAX_TOKEN_LIFETIME_MS + 1), rules).ok).toBe(false);
    expect(tokenExpiry(NOW, 10 * MAX_TOKEN_LIFETIME_MS)).toBe(NOW + MAX_TOKEN_LIFETIME_MS);
  });

  it("round-trips through decode and describe; nonces are fresh and valid", () => {
    const signed = fixtureSigner(TEST_KEYS.bob).bearerToken({ domain: "127.0.0.1:8645", issuedAt: NOW });
    const decoded = decodeBearerToken(signed.token);
    expect(decoded).toEqual({ ok: true, value: { text: signed.message, signature: signed.signature } });
    expect(describeBearerToken(signed.token)).toMatchObject({ domain: "127.0.0.1:8645", expiresAt: NOW + 3_600_000 });
    expect(describeBearerToken("junk")).toBeUndefined();
    const nonces = new Set(Array.from({ length: 50 }, newNonce));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(nonce).toMatch(NONCE_PATTERN);
  });
});
