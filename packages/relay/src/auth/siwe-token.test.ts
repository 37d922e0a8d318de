// Every check of seeds/README.md §6, each with its own failing token; viem builds and signs the
// tokens (test/wallets.ts), so the node's parsing and recovery are checked against an
// independent implementation.
import { describe, expect, it } from "vitest";
import { countingCurve, TEST_KEYS, wallet } from "../../test/wallets.js";
import { refusalOf } from "../../test/refusal.js";
import { verifySiweToken, type TokenRules } from "./siwe-token.js";

const DOMAIN = "relay.example:8645";
const NOW = Date.parse("2026-01-01T12:00:00.000Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ISSUED = new Date(NOW - 60_000);

const alice = wallet(TEST_KEYS.alice);
const bob = wallet(TEST_KEYS.bob);

const rules = (overrides: Partial<TokenRules> = {}): TokenRules => ({
  acceptsDomain: (domain) => domain === DOMAIN,
  maxLifetimeMs: DAY,
  now: () => NOW,
  ...overrides,
});

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64url");
const decode = (token: string) => Buffer.from(token.slice(0, token.lastIndexOf(".")), "base64url").toString("utf8");
const signatureOf = (token: string) => token.slice(token.lastIndexOf(".") + 1);
const replaceLine = (from: string, to: string) => (text: string) => {
  expect(text).toContain(from);
  return text.replace(from, to);
};

/** A well-shaped signature that belongs to nothing in particular. */
const SOME_SIGNATURE = `0x${"11".repeat(64)}1b`;

interface Case {
  name: string;
  token: () => Promise<string>;
  reason: RegExp;
  /** Whether the failure is the signature check (the only one allowed to cost a recovery). */
  signature?: boolean;
}

const cases: Case[] = [
  { name: "malformed: no dot", token: async () => b64("hello"), reason: /malformed token.*expected base64url/ },
  { name: "malformed: nothing before the dot", token: async () => `.${SOME_SIGNATURE}`, reason: /malformed token.*expected base64url/ },
  { name: "malformed: message part not base64url", token: async () => `abc$def+/.${SOME_SIGNATURE}`, reason: /malformed token.*not base64url/ },
  {
    name: "malformed: signature not hex",
    token: async () => `${b64("x")}.0x${"zz".repeat(65)}`,
    reason: /malformed token.*signature is not 0x \+ 130 hex/,
  },
  {
    name: "malformed: signature without 0x",
    token: async () => `${b64("x")}.${"ab".repeat(65)}`,
    reason: /malformed token.*signature is not 0x \+ 130 hex/,
  },
  {
    name: "malformed: signature of 64 bytes",
    token: async () => `${b64("x")}.0x${"ab".repeat(64)}`,
    reason: /malformed token.*signature is not 0x \+ 130 hex/,
  },
  { name: "unparsable SIWE text", token: async () => `${b64("let me in, I am alice")}.${SOME_SIGNATURE}`, reason: /malformed SIWE message/ },
  {
    name: "wrong version",
    token: () => alice.token({ domain: DOMAIN, issuedAt: ISSUED, mangle: replaceLine("\nVersion: 1\n", "\nVersion: 2\n") }),
    reason: /version/i,
  },
  { name: "wrong domain", token: () => alice.token({ domain: "evil.example:8645", issuedAt: ISSUED }), reason: /domain "evil\.example:8645" is not served/ },
  {
    name: "nonce too short",
    token: () => alice.token({ domain: DOMAIN, issuedAt: ISSUED, mangle: replaceLine("Nonce: abcdef1234567890", "Nonce: abc1234") }),
    reason: /nonce/i,
  },
  {
    name: "nonce not alphanumeric",
    token: () => alice.token({ domain: DOMAIN, issuedAt: ISSUED, mangle: replaceLine("Nonce: abcdef1234567890", "Nonce: abcdef12-34567890") }),
    reason: /nonce/i,
  },
  {
    name: "expiration-time missing",
    token: () => alice.token({ domain: DOMAIN, issuedAt: ISSUED, expirationTime: null }),
    reason: /expiration-time missing/,
  },
  {
    name: "expiration-time not an RFC 3339 time",
    token: () =>
      alice.token({
        domain: DOMAIN,
        issuedAt: ISSUED,
        expirationTime: new Date(NOW + HOUR),
        mangle: (text) => text.replace(/Expiration Time: .*/, "Expiration Time: tomorrow"),
      }),
    reason: /expiration-time is not an RFC 3339 time/,
  },
  {
    name: "issued-at not an RFC 3339 time",
    token: () => alice.token({ domain: DOMAIN, issuedAt: ISSUED, mangle: (text) => text.replace(/Issued At: .*/, "Issued At: 2026-13-45T99:00:00Z") }),
    reason: /issued-at/,
  },
  {
    name: "expired",
    token: () => alice.token({ domain: DOMAIN, issuedAt: new Date(NOW - 2 * HOUR), expirationTime: new Date(NOW - 1) }),
    reason: /token expired/,
  },
  {
    name: "expired: expiration-time exactly now",
    token: () => alice.token({ domain: DOMAIN, issuedAt: new Date(NOW - HOUR), expirationTime: new Date(NOW) }),
    reason: /token expired/,
  },
  {
    name: "lifetime more than 24 h after issued-at",
    token: () => alice.token({ domain: DOMAIN, issuedAt: ISSUED, expirationTime: new Date(ISSUED.getTime() + DAY + 1) }),
    reason: /more than 24 h after issued-at/,
  },
  {
    name: "not-before in the future",
    token: () => alice.token({ domain: DOMAIN, issuedAt: ISSUED, notBefore: new Date(NOW + 1) }),
    reason: /not valid yet \(not-before\)/,
  },
  {
    name: "not-before not an RFC 3339 time",
    token: () =>
      alice.token({ domain: DOMAIN, issuedAt: ISSUED, notBefore: new Date(NOW - 1), mangle: (text) => text.replace(/Not Before: .*/, "Not Before: soon") }),
    reason: /not-before is not an RFC 3339 time/,
  },
  {
    name: "signature by another key",
    token: () => alice.token({ domain: DOMAIN, issuedAt: ISSUED, signWith: bob.account }),
    reason: /bad signature/,
    signature: true,
  },
  {
    name: "text mangled after signing",
    token: async () => {
      const token = await alice.token({ domain: DOMAIN, issuedAt: ISSUED });
      const text = decode(token).replace("Nonce: abcdef1234567890", "Nonce: abcdef1234567891");
      return `${b64(text)}.${signatureOf(token)}`;
    },
    reason: /bad signature/,
    signature: true,
  },
  {
    name: "address swapped after signing",
    token: async () => {
      const token = await alice.token({ domain: DOMAIN, issuedAt: ISSUED });
      const text = decode(token).replace(alice.account.address, bob.account.address);
      return `${b64(text)}.${signatureOf(token)}`;
    },
    reason: /bad signature/,
    signature: true,
  },
  {
    name: "signature that recovers nothing",
    token: async () => `${b64(decode(await alice.token({ domain: DOMAIN, issuedAt: ISSUED })))}.0x${"00".repeat(64)}1b`,
    reason: /bad signature/,
    signature: true,
  },
];

describe("verifySiweToken (seeds/README.md §6)", () => {
  it("accepts a valid token: the lowercase address and the expiration time", async () => {
    const expirationTime = new Date(NOW + HOUR);
    const token = await alice.token({ domain: DOMAIN, issuedAt: ISSUED, expirationTime });
    expect(decode(token)).toContain(alice.account.address); // checksummed in the text
    const { curve, recoveries } = countingCurve();
    expect(verifySiweToken(token, rules(), curve)).toEqual({ address: alice.address, expiresAt: expirationTime.getTime() });
    expect(alice.address).toMatch(/^0x[0-9a-f]{40}$/);
    expect(recoveries()).toBe(1);
  });

  it("accepts the boundaries: lifetime of exactly 24 h, not-before exactly now", async () => {
    const { curve } = countingCurve();
    const issuedAt = new Date(NOW - HOUR);
    const longest = await alice.token({ domain: DOMAIN, issuedAt, expirationTime: new Date(issuedAt.getTime() + DAY) });
    expect(verifySiweToken(longest, rules(), curve).address).toBe(alice.address);
    const notBeforeNow = await bob.token({ domain: DOMAIN, issuedAt, expirationTime: new Date(NOW + HOUR), notBefore: new Date(NOW) });
    expect(verifySiweToken(notBeforeNow, rules(), curve).address).toBe(bob.address);
  });

  it("asks the rules which domains are served, with the token's domain", async () => {
    const { curve } = countingCurve();
    const asked: string[] = [];
    const token = await alice.token({ domain: "other.example", issuedAt: ISSUED });
    const accepted = verifySiweToken(token, rules({ acceptsDomain: (domain) => (asked.push(domain), true) }), curve);
    expect(asked).toEqual(["other.example"]);
    expect(accepted.address).toBe(alice.address);
  });

  it("honours a configured maximum lifetime", async () => {
    const { curve } = countingCurve();
    const token = await alice.token({ domain: DOMAIN, issuedAt: ISSUED, expirationTime: new Date(ISSUED.getTime() + 2 * HOUR) });
    expect(verifySiweToken(token, rules(), curve).address).toBe(alice.address);
    expect(refusalOf(() => verifySiweToken(token, rules({ maxLifetimeMs: HOUR }), curve))).toMatch(/after issued-at/);
  });

  it("does not let a future issued-at stretch a token's life past 24 h from now", async () => {
    // issued-at a year ahead, expiration an hour after it: "at most 24 h after issued-at" holds, yet
    // without a not-before the token is usable from now for a year and an hour.
    const { curve } = countingCurve();
    const issuedAt = new Date(NOW + 365 * DAY);
    const token = await alice.token({ domain: DOMAIN, issuedAt, expirationTime: new Date(issuedAt.getTime() + HOUR) });
    expect(refusalOf(() => verifySiweToken(token, rules(), curve))).toMatch(/issued-at|24 h/);
  });

  it.each(cases)("refuses: $name", async ({ token: make, reason, signature }) => {
    const token = await make();
    const { curve, recoveries } = countingCurve();
    expect(refusalOf(() => verifySiweToken(token, rules(), curve))).toMatch(reason);
    // The cheap checks run before the (expensive) signature recovery.
    expect(recoveries()).toBe(signature ? 1 : 0);
  });

  it("gives every check its own reason", async () => {
    const { curve } = countingCurve();
    const reasons = new Map<string, string[]>();
    for (const { name, token } of cases) {
      const reason = refusalOf(verifySiweToken.bind(undefined, await token(), rules(), curve));
      reasons.set(reason, [...(reasons.get(reason) ?? []), name]);
    }
    // Distinct checks named distinctly: at least the groups listed in seeds/README.md §6 (+ malformed variants).
    const groups = ["base64url(SIWE", "not base64url", "130 hex", "malformed SIWE", "version", "domain", "nonce", "expiration-time missing", "expired", "24 h", "not-before", "bad signature"];
    for (const group of groups) expect([...reasons.keys()].some((reason) => reason.includes(group)), group).toBe(true);
  });
});
