// The storage as a whole: its schema and size (migrated, footprint), and what survives a close and a reopen (durability).
import { expect, it } from "vitest";
import { messageJson } from "@neutral/relay";
import { BASE_TIMESTAMP, parties, resendOf, testKeyBundle, testMessage } from "./data.js";
import { appendWorld, wholeMailbox } from "./mailbox.js";
import type { StorePerTest } from "./stores.js";

/** The schema is current and the storage sized (GET /ready, the metrics): store-wide figures, so a store for each test. */
export function migratedAndFootprintTests(area: StorePerTest): void {
  it("says the schema is current, and sizes the storage without scanning it", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    expect(await store.migrated()).toBe(true);
    for (let i = 0; i < 3; i++) await store.append(testMessage(alice, bob));
    const { bytes, messages } = await store.footprint();
    expect(bytes).toBeGreaterThan(0);
    expect(Number.isSafeInteger(messages) && messages >= 0).toBe(true);
  });
}

/** Bundles, messages, ids and pending appends survive a close and a reopen: a store for each test. */
export function durabilityTests(area: StorePerTest): void {
  it("keeps every key bundle across a reopen, and the newer-wins rule with it", async (context) => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const bundles = [testKeyBundle(alice, BASE_TIMESTAMP), testKeyBundle(bob, 0), testKeyBundle(carol, Number.MAX_SAFE_INTEGER)];
    for (const bundle of bundles) await store.putKeyBundle(bundle);
    const newer = testKeyBundle(alice, BASE_TIMESTAMP + 1);
    await store.putKeyBundle(newer);
    const reopened = await area.reopen(context);
    expect(await reopened.getKeyBundle(alice)).toEqual(newer);
    expect(await reopened.getKeyBundle(bob)).toEqual(bundles[1]);
    expect(await reopened.getKeyBundle(carol)).toEqual(bundles[2]);
    expect(await reopened.putKeyBundle(testKeyBundle(alice, BASE_TIMESTAMP))).toEqual(newer);
    const newest = testKeyBundle(bob, 1);
    expect(await reopened.putKeyBundle(newest)).toEqual(newest);
  });

  it("keeps every message, id, digest and the id sequence across a reopen", async (context) => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const world = await appendWorld(store, [testMessage(alice, bob), testMessage(bob, alice), testMessage(alice, alice), testMessage(carol, bob)]);
    const before = { alice: await wholeMailbox(store, alice), bob: await wholeMailbox(store, bob), carol: await wholeMailbox(store, carol) };
    const reopened = await area.reopen(context);
    expect({ alice: await wholeMailbox(reopened, alice), bob: await wholeMailbox(reopened, bob), carol: await wholeMailbox(reopened, carol) }).toEqual(before);
    expect(await reopened.latestPeer(bob)).toBe(carol);
    expect(await reopened.latestPeer(alice)).toBe(alice);
    // Idempotency survives, and new ids continue above the old ones.
    expect(await reopened.append(resendOf(world[1]!.message))).toEqual({ stored: { id: world[1]!.id, json: world[1]!.json }, created: false });
    const next = await reopened.append(testMessage(bob, carol));
    expect(next.created).toBe(true);
    expect(next.stored.id).toBeGreaterThan(world[3]!.id);
  });

  it("close() finishes the appends still pending: they resolve and are there after a reopen", async (context) => {
    let store = area.store;
    const { alice, bob, carol } = parties();
    const messages = Array.from({ length: 20 }, (_, i) => testMessage(i % 2 ? alice : bob, carol));
    const pending = messages.map((m) => store.append(m)); // not awaited: closed in the same tick
    const closed = area.close(store);
    const results = await Promise.all(pending);
    await closed;
    results.forEach((result, i) => {
      expect(result.created).toBe(true);
      expect(result.stored.json).toBe(messageJson(result.stored.id, messages[i]!));
    });
    store = await area.reopen(context); // closed already: this only opens its storage again
    expect(await wholeMailbox(store, carol)).toEqual(results.map((r) => r.stored));
  });

  it("close() right after a single append keeps it", async (context) => {
    let store = area.store;
    const { alice, bob } = parties();
    const message = testMessage(alice, bob);
    const appended = store.append(message);
    await area.close(store);
    const { stored } = await appended;
    store = await area.reopen(context); // closed already: this only opens its storage again
    expect(await store.page({ owner: bob, ranges: [{ side: "received" }], order: "desc", limit: 20 })).toEqual({ messages: [stored], end: true });
    expect(await store.latestPeer(alice)).toBe(bob);
  });
}
