// What the store keeps per account: latestPeer, key bundles, and consent (records, policies and the requests folder).
import { expect, it } from "vitest";
import { messageJson, type StoredConsentPolicy, type StoredConsentRecord } from "@neutral/relay";
import { BASE_TIMESTAMP, parties, randomAddress, randomSignature, resendOf, testKeyBundle, testMessage } from "./data.js";
import { wholeMailbox } from "./mailbox.js";
import type { SharedStore } from "./stores.js";

/** The peer of an owner's highest id, received or sent. */
export function latestPeerTests(area: SharedStore): void {
  it("is undefined for an owner without messages", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    expect(await store.latestPeer(alice)).toBeUndefined();
    await store.append(testMessage(bob, carol));
    expect(await store.latestPeer(alice)).toBeUndefined();
  });

  it("is the peer of the owner's highest id, received or sent, not the newest timestamp", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    await store.append(testMessage(bob, alice, { timestamp: BASE_TIMESTAMP + 100 }));
    expect(await store.latestPeer(alice)).toBe(bob);
    expect(await store.latestPeer(bob)).toBe(alice);
    await store.append(testMessage(alice, carol, { timestamp: BASE_TIMESTAMP })); // older timestamp, higher id
    expect(await store.latestPeer(alice)).toBe(carol);
    expect(await store.latestPeer(bob)).toBe(alice);
    expect(await store.latestPeer(carol)).toBe(alice);
    await store.append(testMessage(bob, alice));
    expect(await store.latestPeer(alice)).toBe(bob);
    await store.append(testMessage(carol, bob)); // not alice's: changes nothing for her
    expect(await store.latestPeer(alice)).toBe(bob);
    expect(await store.latestPeer(bob)).toBe(carol);
  });

  it("is oneself after a message to oneself, and changes with the next message", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    await store.append(testMessage(alice, bob));
    await store.append(testMessage(alice, alice));
    expect(await store.latestPeer(alice)).toBe(alice);
    expect(await store.latestPeer(bob)).toBe(alice);
    await store.append(testMessage(carol, alice));
    expect(await store.latestPeer(alice)).toBe(carol);
  });

  it("ignores resends: a duplicate is not a newer message", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const old = testMessage(alice, bob);
    await store.append(old);
    await store.append(testMessage(alice, carol));
    expect((await store.append(resendOf(old))).created).toBe(false);
    expect(await store.latestPeer(alice)).toBe(carol);
  });
}

/** The key directory (publishKey/getKey): one bundle per account, the newer wins, a tie goes to the greater signature. */
export function keyBundleTests(area: SharedStore): void {
  it("has none for an account that never published", async () => {
    const store = area.store;
    const { alice } = parties();
    expect(await store.getKeyBundle(alice)).toBeUndefined();
  });

  it("stores the first bundle and answers it, field for field", async () => {
    const store = area.store;
    const { alice } = parties();
    const bundle = testKeyBundle(alice, BASE_TIMESTAMP);
    expect(await store.putKeyBundle(bundle)).toEqual(bundle);
    expect(await store.getKeyBundle(alice)).toEqual(bundle);
  });

  it("a strictly newer bundle replaces the stored one", async () => {
    const store = area.store;
    const { alice } = parties();
    const first = testKeyBundle(alice, BASE_TIMESTAMP);
    const newer = testKeyBundle(alice, BASE_TIMESTAMP + 1);
    await store.putKeyBundle(first);
    expect(await store.putKeyBundle(newer)).toEqual(newer);
    expect(await store.getKeyBundle(alice)).toEqual(newer);
    const much = testKeyBundle(alice, BASE_TIMESTAMP + 86_400_000);
    expect(await store.putKeyBundle(much)).toEqual(much);
    expect(await store.getKeyBundle(alice)).toEqual(much);
  });

  it("an older bundle, or the same one again, changes nothing and answers the stored one", async () => {
    const store = area.store;
    const { alice } = parties();
    const stored = testKeyBundle(alice, BASE_TIMESTAMP);
    await store.putKeyBundle(stored);
    for (const other of [testKeyBundle(alice, BASE_TIMESTAMP - 1), testKeyBundle(alice, 0), { ...stored }]) {
      expect(await store.putKeyBundle(other)).toEqual(stored);
      expect(await store.getKeyBundle(alice)).toEqual(stored);
    }
  });

  it("between two bundles of the same timestamp the greater signature wins, whichever came first (@neutral/protocol supersedes)", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const low = { ...testKeyBundle(alice, BASE_TIMESTAMP), signature: `0x${"11".repeat(65)}` };
    const high = { ...testKeyBundle(alice, BASE_TIMESTAMP), signature: `0x${"ee".repeat(65)}` };
    expect(await store.putKeyBundle(low)).toEqual(low);
    expect(await store.putKeyBundle(high)).toEqual(high);
    expect(await store.putKeyBundle(low)).toEqual(high);
    const lowBob = { ...low, account: bob };
    const highBob = { ...high, account: bob };
    expect(await store.putKeyBundle(highBob)).toEqual(highBob);
    expect(await store.putKeyBundle(lowBob)).toEqual(highBob);
    expect(await store.getKeyBundle(bob)).toEqual(highBob);
  });

  it("keeps accounts apart", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const alices = testKeyBundle(alice, BASE_TIMESTAMP + 10);
    const bobs = testKeyBundle(bob, BASE_TIMESTAMP);
    await store.putKeyBundle(alices);
    expect(await store.getKeyBundle(bob)).toBeUndefined();
    expect(await store.putKeyBundle(bobs)).toEqual(bobs); // older than alice's, but alice's is not bob's
    expect(await store.putKeyBundle(testKeyBundle(bob, BASE_TIMESTAMP - 1))).toEqual(bobs);
    expect(await store.getKeyBundle(alice)).toEqual(alices);
    expect(await store.getKeyBundle(bob)).toEqual(bobs);
    expect(await store.getKeyBundle(carol)).toBeUndefined();
  });

  it("keeps timestamps at the edges (0 and 2^53-1) exactly", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const zero = testKeyBundle(alice, 0);
    const max = testKeyBundle(bob, Number.MAX_SAFE_INTEGER);
    expect(await store.putKeyBundle(zero)).toEqual(zero);
    expect(await store.putKeyBundle(max)).toEqual(max);
    expect(await store.getKeyBundle(alice)).toEqual(zero);
    expect(await store.getKeyBundle(bob)).toEqual(max);
    expect(await store.putKeyBundle(testKeyBundle(bob, Number.MAX_SAFE_INTEGER, { signature: `0x${"00".repeat(65)}` }))).toEqual(max);
  });

  it("concurrent publishes of one account: the greatest timestamp wins, each answer at least as new as its own", async () => {
    const store = area.store;
    const { carol } = parties();
    const bundles = Array.from({ length: 30 }, (_, i) => testKeyBundle(carol, BASE_TIMESTAMP + ((i * 7) % 30)));
    const answers = await Promise.all(bundles.map((bundle) => store.putKeyBundle(bundle)));
    answers.forEach((answer, i) => {
      expect(answer.account).toBe(carol);
      expect(answer.timestamp).toBeGreaterThanOrEqual(bundles[i]!.timestamp);
      expect(bundles).toContainEqual(answer);
    });
    const newest = bundles.reduce((a, b) => (b.timestamp > a.timestamp ? b : a));
    expect(await store.getKeyBundle(carol)).toEqual(newest);
  });

  it("lives beside the messages: neither disturbs the other", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const bundle = testKeyBundle(alice, BASE_TIMESTAMP);
    const [{ stored }] = await Promise.all([store.append(testMessage(alice, bob)), store.putKeyBundle(bundle)]);
    expect(await wholeMailbox(store, bob)).toEqual([stored]);
    expect(await store.getKeyBundle(alice)).toEqual(bundle);
    expect(await store.getKeyBundle(bob)).toBeUndefined();
  });
}

/** Consent records and policies per account, and messages held in the recipient's requests folder. */
export function consentTests(area: SharedStore): void {
  const record = (account: string, peer: string, state: StoredConsentRecord["state"], timestamp: number): StoredConsentRecord => ({ account, peer, state, timestamp, signature: randomSignature() });
  const policy = (account: string, mode: StoredConsentPolicy["mode"], timestamp: number): StoredConsentPolicy => ({ account, mode, timestamp, signature: randomSignature() });

  it("keeps the newest record per peer and the newest policy, and lists allowed and blocked peers in address order", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    expect(await store.consentFor(bob, alice)).toEqual({ state: "none", mode: "open", replied: false });
    const blocked = record(bob, alice, "blocked", 10);
    const allowedOnly = policy(bob, "allowed-only", 5);
    expect(await store.putConsent(bob, [blocked], allowedOnly)).toEqual({ policy: allowedOnly, records: [blocked] });
    // An older record and an older policy change nothing; the answer is what is kept.
    const kept = await store.putConsent(bob, [record(bob, alice, "allowed", 9)], policy(bob, "open", 4));
    expect(kept.records).toEqual([blocked]);
    expect(kept.policy?.mode).toBe("allowed-only");
    expect(await store.consentFor(bob, alice)).toMatchObject({ state: "blocked", mode: "allowed-only" });
    const peers = [randomAddress(), randomAddress(), randomAddress()];
    await store.putConsent(bob, [record(bob, peers[0]!, "allowed", 1), record(bob, peers[1]!, "none", 1), record(bob, peers[2]!, "allowed", 1)]);
    const listed = [alice, peers[0]!, peers[2]!].sort();
    const first = await store.consentList(bob, undefined, 2);
    expect(first.records.map((r) => r.peer)).toEqual(listed.slice(0, 2));
    expect(first.end).toBe(false);
    const second = await store.consentList(bob, first.records.at(-1)!.peer, 2);
    expect(second).toMatchObject({ end: true, policy: { mode: "allowed-only" } });
    expect(second.records.map((r) => r.peer)).toEqual(listed.slice(2));
    expect(await store.consentList(carol, undefined, 10)).toEqual({ records: [], end: true });
  });

  it("under allowed-only, tells whether the recipient has written to the sender", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    await store.putConsent(bob, [], policy(bob, "allowed-only", 1));
    expect(await store.consentFor(bob, alice)).toEqual({ state: "none", mode: "allowed-only", replied: false });
    await store.append(testMessage(bob, alice));
    expect(await store.consentFor(bob, alice)).toEqual({ state: "none", mode: "allowed-only", replied: true });
  });

  it("a message into the requests folder is read there, not in the inbox nor its chat; the sender sees it as sent; deletion and resends work as for the inbox", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const message = { ...testMessage(alice, bob), folder: "requests" as const };
    const { stored } = await store.append(message);
    const json = messageJson(stored.id, message);
    expect(await store.page({ owner: bob, ranges: [{ side: "received" }], order: "desc", limit: 10 })).toEqual({ messages: [], end: true });
    expect(await store.page({ owner: bob, ranges: [{ side: "received", peer: alice }, { side: "sent", peer: alice }], order: "desc", limit: 10 })).toEqual({ messages: [], end: true });
    expect(await store.page({ owner: bob, ranges: [{ side: "requests" }], order: "desc", limit: 10 })).toEqual({ messages: [{ id: stored.id, json }], end: true });
    expect(await store.page({ owner: bob, ranges: [{ side: "requests", peer: alice }], order: "asc", after: 0, limit: 10 })).toEqual({ messages: [{ id: stored.id, json }], end: true });
    expect(await wholeMailbox(store, alice)).toEqual([{ id: stored.id, json }]);
    expect(await store.append(resendOf(message))).toMatchObject({ stored: { id: stored.id }, created: false });
    await store.deleteMessages(bob, [stored.id]);
    expect(await store.page({ owner: bob, ranges: [{ side: "requests" }], order: "desc", limit: 10 })).toEqual({ messages: [], end: true });
    expect(await wholeMailbox(store, alice)).toEqual([{ id: stored.id, json }]);
  });
}
