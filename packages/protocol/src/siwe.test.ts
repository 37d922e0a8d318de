import { createSiweMessage, parseSiweMessage as viemParse } from "viem/siwe";
import { describe, expect, it } from "vitest";
import { parseSiweMessage, parseSiweTime } from "./siwe.js";

const base = {
  address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  chainId: 1,
  domain: "127.0.0.1:8645",
  nonce: "abcdef1234567890",
  uri: "http://127.0.0.1:8645/",
  version: "1",
  issuedAt: new Date("2026-11-21T10:00:00.000Z"),
} as const;

const variants = [
  base,
  { ...base, statement: "Sign in to neutral." },
  { ...base, scheme: "https", domain: "chat.example.org" },
  { ...base, expirationTime: new Date("2026-11-21T11:00:00.000Z"), notBefore: new Date("2026-11-21T10:30:00.000Z") },
  { ...base, requestId: "req-1", resources: ["https://example.org/a", "ipfs://b"] },
];

describe("parseSiweMessage", () => {
  it.each(variants)("reads what viem's createSiweMessage writes, as viem's parser does (%#)", (fields) => {
    const text = createSiweMessage(fields);
    const ours = parseSiweMessage(text);
    const theirs = viemParse(text);
    expect(ours).toBeDefined();
    expect(ours).toMatchObject({
      domain: theirs.domain,
      address: theirs.address,
      uri: theirs.uri,
      version: theirs.version,
      chainId: theirs.chainId,
      nonce: theirs.nonce,
    });
    expect(ours!.statement).toBe(theirs.statement);
    expect(ours!.scheme).toBe(theirs.scheme);
    expect(ours!.resources).toEqual(theirs.resources);
    expect(parseSiweTime(ours!.issuedAt)).toBe(theirs.issuedAt!.getTime());
    expect(parseSiweTime(ours!.expirationTime)).toBe(theirs.expirationTime?.getTime());
    expect(parseSiweTime(ours!.notBefore)).toBe(theirs.notBefore?.getTime());
  });

  it.each([
    ["no header", (t: string) => t.replace(" wants you to sign in with your Ethereum account:", "")],
    ["bad address", (t: string) => t.replace("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "0x1234")],
    ["fields out of order", (t: string) => t.replace(/Version: 1\nChain ID: 1/, "Chain ID: 1\nVersion: 1")],
    ["missing nonce", (t: string) => t.replace(/Nonce: \w+\n/, "")],
    ["chain id not a number", (t: string) => t.replace("Chain ID: 1", "Chain ID: one")],
    ["trailing junk", (t: string) => `${t}\nExtra: 1`],
    ["statement without blank line", (t: string) => t.replace("\n\nURI:", "\nA statement\nURI:")],
  ])("refuses a message with %s", (_name, mangle) => {
    expect(parseSiweMessage(mangle(createSiweMessage(base)))).toBeUndefined();
  });

  it("keeps any nonce text so that the nonce check can name the problem", () => {
    expect(parseSiweMessage(createSiweMessage(base).replace("abcdef1234567890", "abc-def"))?.nonce).toBe("abc-def");
  });

  it("parseSiweTime accepts RFC 3339 only", () => {
    expect(parseSiweTime("2026-11-21T10:00:00Z")).toBe(Date.UTC(2026, 10, 21, 10));
    expect(parseSiweTime("2026-11-21T10:00:00+01:00")).toBe(Date.UTC(2026, 10, 21, 9));
    expect(parseSiweTime("Nov 21 2026")).toBeUndefined();
    expect(parseSiweTime("2026-13-45T10:00:00Z")).toBeUndefined();
    expect(parseSiweTime(undefined)).toBeUndefined();
  });
});
