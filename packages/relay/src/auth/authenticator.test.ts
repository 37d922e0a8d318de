// The Authorization header → caller step of seeds/README.md §6, and its cache of verified tokens.
import { ErrorCode, RpcError } from "@neutral/server";
import { describe, expect, it } from "vitest";
import { countingCurve, TEST_KEYS, wallet } from "../../test/wallets.js";
import { refusalOf } from "../../test/refusal.js";
import { createAuthenticator, type AuthenticatorOptions } from "./authenticator.js";

const DOMAIN = "relay.example:8645";
const T0 = Date.parse("2026-01-01T12:00:00.000Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const alice = wallet(TEST_KEYS.alice);
const bob = wallet(TEST_KEYS.bob);
const carol = wallet(TEST_KEYS.carol);

/** An authenticator on the loaded curve, with an adjustable clock and counted recoveries. */
function setup(options: Partial<AuthenticatorOptions> = {}) {
  const { curve, recoveries } = countingCurve();
  const clock = { now: T0 };
  const authenticate = createAuthenticator({ acceptsDomain: (domain) => domain === DOMAIN, curve, now: () => clock.now, ...options });
  return { authenticate, clock, recoveries };
}

const tokenOf = (who = alice, options: { issuedAt?: Date; expirationTime?: Date; notBefore?: Date; nonce?: string } = {}) =>
  who.token({ domain: DOMAIN, issuedAt: new Date(T0 - 60_000), ...options });

describe("createAuthenticator: the header", () => {
  it.each([undefined, ""])("refuses a missing header (%j)", (header) => {
    const { authenticate } = setup();
    expect(refusalOf(() => authenticate(header))).toMatch(/missing token/);
  });

  it.each(["Basic YWxpY2U6c2VjcmV0", "Bearer", "Bearer ", "Bearertoken", "Token abc.0x12", "Bearer a b", "bearer\tabc"])(
    "refuses a header that is not a Bearer token: %j",
    (header) => {
      const { authenticate, recoveries } = setup();
      expect(refusalOf(() => authenticate(header))).toMatch(/not a Bearer token/);
      expect(recoveries()).toBe(0);
    },
  );

  it("accepts a valid token: the lowercase address and the expiration time", async () => {
    const { authenticate } = setup();
    const expirationTime = new Date(T0 + HOUR);
    const token = await tokenOf(alice, { expirationTime });
    expect(authenticate(`Bearer ${token}`)).toEqual({ address: alice.address, expiresAt: expirationTime.getTime() });
    expect(alice.address).toMatch(/^0x[0-9a-f]{40}$/);
  });

  it("takes the scheme in any case and tolerates extra spaces", async () => {
    const { authenticate } = setup();
    const token = await tokenOf(bob);
    expect(authenticate(`bearer ${token}`).address).toBe(bob.address);
    expect(authenticate(`BEARER   ${token}  `).address).toBe(bob.address);
  });

  it("passes every token failure on as -32001 with its reason", async () => {
    const { authenticate } = setup();
    const expect401 = async (token: string, reason: RegExp) => expect(refusalOf(() => authenticate(`Bearer ${token}`))).toMatch(reason);
    await expect401("nodot", /malformed token/);
    await expect401(await alice.token({ domain: "evil.example", issuedAt: new Date(T0 - 60_000) }), /domain/);
    await expect401(await tokenOf(alice, { issuedAt: new Date(T0 - 2 * HOUR), expirationTime: new Date(T0 - 1) }), /expired/);
    await expect401(await tokenOf(alice, { notBefore: new Date(T0 + 60_000) }), /not-before/);
    await expect401(await alice.token({ domain: DOMAIN, issuedAt: new Date(T0 - 60_000), signWith: bob.account }), /bad signature/);
  });

  it("limits the lifetime to 24 h by default", async () => {
    const { authenticate } = setup();
    const issuedAt = new Date(T0 - HOUR);
    expect(authenticate(`Bearer ${await tokenOf(alice, { issuedAt, expirationTime: new Date(issuedAt.getTime() + DAY) })}`).address).toBe(alice.address);
    const tooLong = await tokenOf(alice, { issuedAt, expirationTime: new Date(issuedAt.getTime() + DAY + 1000) });
    expect(refusalOf(() => authenticate(`Bearer ${tooLong}`))).toMatch(/24 h/);
  });
});

describe("createAuthenticator: the cache of verified tokens", () => {
  it("verifies a token once and serves it from the cache until it expires, then refuses it as expired", async () => {
    const { authenticate, clock, recoveries } = setup();
    const expirationTime = new Date(T0 + HOUR);
    const header = `Bearer ${await tokenOf(alice, { expirationTime })}`;
    const first = authenticate(header);
    expect(recoveries()).toBe(1);
    for (let i = 0; i < 5; i++) expect(authenticate(header)).toEqual(first);
    expect(recoveries()).toBe(1);
    clock.now = expirationTime.getTime() - 1;
    expect(authenticate(header).address).toBe(alice.address);
    expect(recoveries()).toBe(1);
    clock.now = expirationTime.getTime();
    expect(refusalOf(() => authenticate(header))).toMatch(/token expired/);
    // And stays refused (re-verification refuses it too).
    expect(refusalOf(() => authenticate(header))).toMatch(/token expired/);
    clock.now = expirationTime.getTime() + DAY;
    expect(refusalOf(() => authenticate(header))).toMatch(/token expired/);
  });

  it("keys the cache by the token, whatever the header's spelling", async () => {
    const { authenticate, recoveries } = setup();
    const token = await tokenOf(alice);
    authenticate(`Bearer ${token}`);
    authenticate(`bearer  ${token} `);
    expect(recoveries()).toBe(1);
  });

  it("is bounded: past cacheSize the least recently used token is verified again", async () => {
    const { authenticate, recoveries } = setup({ cacheSize: 2 });
    const [a, b, c] = [`Bearer ${await tokenOf(alice)}`, `Bearer ${await tokenOf(bob)}`, `Bearer ${await tokenOf(carol)}`];
    expect(authenticate(a).address).toBe(alice.address);
    expect(authenticate(b).address).toBe(bob.address);
    expect(recoveries()).toBe(2);
    expect(authenticate(c).address).toBe(carol.address); // evicts a
    expect(recoveries()).toBe(3);
    expect(authenticate(c).address).toBe(carol.address);
    expect(authenticate(b).address).toBe(bob.address);
    expect(recoveries()).toBe(3); // b and c still cached
    expect(authenticate(a).address).toBe(alice.address);
    expect(recoveries()).toBe(4); // a was evicted: verified again (and now evicts c, the least recent)
    expect(authenticate(b).address).toBe(bob.address);
    expect(recoveries()).toBe(4);
    expect(authenticate(c).address).toBe(carol.address);
    expect(recoveries()).toBe(5);
  });

  it("remembers a token refused at its signature: refused again with the same reason, without a recovery", async () => {
    const { authenticate, clock, recoveries } = setup();
    const forged = `Bearer ${await alice.token({ domain: DOMAIN, issuedAt: new Date(T0 - 60_000), signWith: bob.account })}`;
    const first = refusalOf(() => authenticate(forged));
    expect(first).toMatch(/bad signature/);
    expect(recoveries()).toBe(1);
    for (let i = 0; i < 100; i++) expect(refusalOf(() => authenticate(forged))).toBe(first);
    expect(recoveries()).toBe(1);
    clock.now += DAY; // a signature never becomes good (checked afresh, the token would now be refused as expired)
    expect(refusalOf(() => authenticate(forged))).toBe(first);
    expect(recoveries()).toBe(1);
    // Another forged token is a new check.
    const other = `Bearer ${await carol.token({ domain: DOMAIN, issuedAt: new Date(clock.now - 60_000), signWith: bob.account })}`;
    expect(refusalOf(() => authenticate(other))).toMatch(/bad signature/);
    expect(recoveries()).toBe(2);
  });

  it("bounds the refused tokens it remembers (least recently used out first)", async () => {
    const { authenticate, recoveries } = setup({ refusedCacheSize: 2 });
    const forge = async (who: typeof alice) => `Bearer ${await who.token({ domain: DOMAIN, issuedAt: new Date(T0 - 60_000), signWith: bob.account })}`;
    const [a, c, d] = [await forge(alice), await forge(carol), await forge(wallet(TEST_KEYS.node))];
    for (const header of [a, c, a, c]) refusalOf(() => authenticate(header));
    expect(recoveries()).toBe(2);
    refusalOf(() => authenticate(d)); // evicts a
    refusalOf(() => authenticate(a));
    expect(recoveries()).toBe(4);
  });

  it("asks beforeRecovery only when a signature is about to be recovered, and lets it refuse the work", async () => {
    const { authenticate, recoveries } = setup();
    let asked = 0;
    const count = () => void asked++;
    const header = `Bearer ${await tokenOf(alice)}`;
    expect(refusalOf(() => authenticate("Bearer nodot", count))).toMatch(/malformed/);
    expect(asked).toBe(0);
    const busy = () => {
      throw new RpcError(ErrorCode.RateLimited, "Rate limited", { retryAfter: 3 });
    };
    let thrown: unknown;
    try {
      authenticate(header, busy);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: -32029, data: { retryAfter: 3 } });
    expect(recoveries()).toBe(0);
    // Not remembered as refused: the same token verifies once the budget allows.
    expect(authenticate(header, count).address).toBe(alice.address);
    expect([asked, recoveries()]).toEqual([1, 1]);
    expect(authenticate(header, count).address).toBe(alice.address); // cached: no recovery, not asked
    expect(asked).toBe(1);
    const forged = `Bearer ${await carol.token({ domain: DOMAIN, issuedAt: new Date(T0 - 60_000), signWith: bob.account })}`;
    refusalOf(() => authenticate(forged, count));
    refusalOf(() => authenticate(forged, count)); // remembered: not asked again
    expect([asked, recoveries()]).toEqual([2, 2]);
  });

  it("never caches a refused token: one refused as not yet valid is accepted once its time comes", async () => {
    const { authenticate, clock, recoveries } = setup();
    const notBefore = new Date(T0 + 60_000);
    const header = `Bearer ${await tokenOf(alice, { notBefore })}`;
    expect(refusalOf(() => authenticate(header))).toMatch(/not-before/);
    clock.now = notBefore.getTime();
    expect(authenticate(header).address).toBe(alice.address);
    expect(recoveries()).toBe(1);
  });

  it("never caches a refused token: a domain refusal is re-checked against the current domains", async () => {
    const domains = new Set<string>();
    const { authenticate } = setup({ acceptsDomain: (domain) => domains.has(domain) });
    const header = `Bearer ${await tokenOf(alice)}`;
    expect(refusalOf(() => authenticate(header))).toMatch(/domain/);
    domains.add(DOMAIN);
    expect(authenticate(header).address).toBe(alice.address);
  });
});
