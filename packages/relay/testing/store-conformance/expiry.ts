// Messages that end: retention (stores opened with retentionMs), swept digests (sweptDigestsMs), and sender-set ends (expires).
import { expect, it } from "vitest";
import { messageJson } from "@neutral/relay";
import { parties, randomAddress, resendOf, testMessage } from "./data.js";
import { idsOf, wholeMailbox } from "./mailbox.js";
import type { StorePerTest } from "./stores.js";

/** Expired messages are no longer served, then swept for good, in batches. Reopens the store with store options, and sweeps take every expired row: a store for each test. */
export function retentionTests(area: StorePerTest): void {
  it("stops serving messages stored longer ago than the retention, then sweeps every copy", { timeout: 40_000 }, async (context) => {
    let store = area.store;
    const { alice, bob, carol } = parties();
    const old = [testMessage(alice, bob), testMessage(bob, alice), { ...testMessage(carol, bob), folder: "requests" as const }, testMessage(alice, alice), testMessage(alice, bob)];
    const oldIds = [];
    for (const message of old) oldIds.push((await store.append(message)).stored.id);
    const pendingOld = (await store.append({ ...testMessage(alice, carol), status: "pending", route: { kind: "outbound", destination: randomAddress() } })).stored.id;
    // `fresh` below must stay younger than this through the rest of the test: 1.5 s was too
    // short in a CI run on a loaded 2-core machine (it was swept with the old ones).
    const retentionMs = 5000;
    store = await area.reopen(context, { retentionMs });
    expect(idsOf(await wholeMailbox(store, alice))).toEqual([oldIds[0], oldIds[1], oldIds[3], oldIds[4], pendingOld]);
    await new Promise((resolve) => setTimeout(resolve, retentionMs + 1100)); // past the floor's 1 s step
    const fresh = (await store.append(testMessage(bob, alice))).stored.id;
    // Not served any more, before any sweep: walks in both directions, chats, latestPeer.
    expect(idsOf(await wholeMailbox(store, alice))).toEqual([fresh]);
    expect(idsOf(await wholeMailbox(store, bob))).toEqual([fresh]);
    expect(await store.page({ owner: alice, ranges: [{ side: "sent" }], order: "desc", limit: 10 })).toEqual({ messages: [], end: true });
    expect(await store.latestPeer(carol)).toBeUndefined();
    // The log with its messages serves what reads serve: the old copies are the retention's already.
    expect((await store.log(alice, 1, 100, { messages: true })).map(({ id, removal, json }) => [id, removal, json !== undefined])).toEqual([
      ...[oldIds[0], oldIds[1], oldIds[3], oldIds[3], oldIds[4], pendingOld].map((id) => [id, { reason: "retention", retentionSeconds: retentionMs / 1000 }, false]),
      [fresh, undefined, true],
    ]);
    // The sweep deletes them (and the outbox entry) in batches, and then finds nothing. A batch
    // deletes exactly its messages: what is left of them is all there once the policy is off.
    expect(await store.sweepExpired(3)).toBe(3);
    const reasons = async (below: number) => {
      const entries = (await Promise.all([alice, bob, carol].map((owner) => store.log(owner, 1, 100)))).flat();
      expect(entries.filter(({ id }) => id < below)).not.toHaveLength(0);
      // Each states the retention that removed it (spec 3.2.0), policy or not.
      expect(entries.map(({ id, removal }) => [id, removal])).toEqual(entries.map(({ id }) => [id, id < below ? { reason: "retention", retentionSeconds: retentionMs / 1000 } : undefined]));
    };
    // Without the policy (read below the retention's floor: no longer served by it), each log says
    // which positions the retention removed: those of the swept messages, no other.
    store = await area.reopen(context);
    await reasons(oldIds[3]!);
    const chat = async (owner: string, peer: string) => idsOf((await store.page({ owner, ranges: [{ side: "received", peer }, { side: "sent", peer }], order: "asc", after: 0, limit: 100 })).messages);
    expect(idsOf(await wholeMailbox(store, alice))).toEqual([oldIds[3], oldIds[4], pendingOld, fresh]);
    expect(idsOf(await wholeMailbox(store, bob))).toEqual([oldIds[4], fresh]);
    expect(idsOf(await wholeMailbox(store, carol))).toEqual([]);
    expect(await chat(alice, bob)).toEqual([oldIds[4], fresh]);
    expect(await chat(bob, carol)).toEqual([]);
    expect(await store.page({ owner: bob, ranges: [{ side: "requests" }], order: "desc", limit: 10 })).toEqual({ messages: [], end: true });
    store = await area.reopen(context, { retentionMs });
    expect(await store.sweepExpired(100)).toBe(old.length + 1 - 3);
    expect(await store.sweepExpired(100)).toBe(0);
    await reasons(fresh);
    expect(await store.outboxDestinations()).toEqual([]);
    expect(idsOf(await wholeMailbox(store, alice))).toEqual([fresh]);
    // Gone for good: without the policy they do not come back.
    store = await area.reopen(context);
    expect(idsOf(await wholeMailbox(store, alice))).toEqual([fresh]);
    expect(idsOf(await wholeMailbox(store, bob))).toEqual([fresh]);
    expect(await chat(alice, alice)).toEqual([]);
    expect(await chat(alice, bob)).toEqual([fresh]);
    expect(await store.latestPeer(carol)).toBeUndefined();
    expect(await store.sweepExpired(100)).toBe(0);
  });
}

/** A swept message that comes again within sweptDigestsMs is answered its original id. Reopens the store with store options: a store for each test. */
export function sweptDigestTests(area: StorePerTest): void {
  it("a resend or second delivery of a swept message is answered its original id and stored nothing, for sweptDigestsMs after it was stored; then it is forgotten", { timeout: 20_000 }, async (context) => {
    const { alice, bob, carol } = parties();
    const retentionMs = 1000;
    let store = await area.reopen(context, { retentionMs, sweptDigestsMs: 60_000 });
    const local = testMessage(alice, bob);
    const inbound = { ...testMessage(carol, bob), route: { kind: "inbound" as const } };
    const first = [(await store.append(local)).stored, (await store.append(inbound)).stored];
    await new Promise((resolve) => setTimeout(resolve, retentionMs + 1100)); // past the floor's 1 s step
    expect(await store.sweepExpired(100)).toBe(2);
    expect(await wholeMailbox(store, bob)).toEqual([]);
    // Within the window: the same digests answer their original ids (the JSON is rebuilt from
    // what was sent again: the node's receipts are deterministic), and nothing comes back.
    const again = [await store.append(resendOf(local)), await store.append(resendOf(inbound))];
    expect(again.map(({ created }) => created)).toEqual([false, false]);
    expect(again.map(({ stored }) => stored.id)).toEqual(first.map(({ id }) => id));
    expect(await wholeMailbox(store, bob)).toEqual([]);
    store = await area.reopen(context);
    expect(await wholeMailbox(store, bob)).toEqual([]);
    // Past the window (here: a store told to remember nothing), the next sweep forgets them.
    store = await area.reopen(context, { retentionMs, sweptDigestsMs: 0 });
    expect(await store.sweepExpired(100)).toBe(0);
    const late = await store.append(resendOf(local));
    expect(late.created).toBe(true);
    expect(late.stored.id).toBeGreaterThan(first[1]!.id);
  });

  it("a message swept longer than sweptDigestsMs after it was stored leaves nothing: stored again if it comes back", { timeout: 20_000 }, async (context) => {
    const { alice, bob } = parties();
    const retentionMs = 1000;
    const store = await area.reopen(context, { retentionMs, sweptDigestsMs: 500 });
    const local = testMessage(alice, bob);
    const first = (await store.append(local)).stored;
    await new Promise((resolve) => setTimeout(resolve, retentionMs + 1100));
    expect(await store.sweepExpired(100)).toBe(1);
    const again = await store.append(resendOf(local));
    expect(again.created).toBe(true);
    expect(again.stored.id).toBeGreaterThan(first.id);
  });
}

/** A message with a sender-set end is swept at that end, every copy of it. The sweeps take every due row: a store for each test. */
export function senderExpiryTests(area: StorePerTest): void {
  it("sweeps the messages whose end is due, every copy and its outbox entry, and nothing else; the JSON carries the end", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const now = Date.now();
    const due = [{ ...testMessage(alice, bob), expires: now + 1000 }, { ...testMessage(bob, alice), expires: now + 2000 }];
    const dueOutbound = { ...testMessage(alice, carol), expires: now + 1500, status: "pending" as const, route: { kind: "outbound" as const, destination: randomAddress() } };
    const later = { ...testMessage(alice, bob), expires: now + 60_000 };
    const plain = testMessage(bob, alice);
    // Appended together: one batch (one statement on PostgreSQL) with and without ends.
    const ids = (await Promise.all([...due, dueOutbound, later, plain].map((message) => store.append(message)))).map(({ stored }) => stored.id);
    const [, , , laterId, plainId] = ids;
    expect((await wholeMailbox(store, bob)).find((entry) => entry.id === laterId)!.json).toBe(messageJson(laterId!, later));
    expect(messageJson(laterId!, later)).toContain(`"timestamp":${later.timestamp},"expires":${later.expires}}`);
    // Not due yet: nothing to do.
    expect(await store.sweepSenderExpired(100, now)).toBe(0);
    // Due: in batches, the earliest end first; then nothing.
    expect(await store.sweepSenderExpired(2, now + 2000)).toBe(2);
    expect(await store.sweepSenderExpired(100, now + 2000)).toBe(1);
    expect(await store.sweepSenderExpired(100, now + 2000)).toBe(0);
    expect(idsOf(await wholeMailbox(store, alice)).sort((a, b) => a - b)).toEqual([laterId, plainId].sort((a, b) => a! - b!));
    expect(idsOf(await wholeMailbox(store, bob)).sort((a, b) => a - b)).toEqual([laterId, plainId].sort((a, b) => a! - b!));
    expect(await store.outboxDestinations()).toEqual([]);
    // A resend of a swept message is a new message (its trace went with it).
    expect(await store.append(resendOf(due[0]!))).toMatchObject({ created: true });
  });

  it("a message whose owners deleted it is swept at its end too, and the retention sweep takes its end with it", { timeout: 20_000 }, async (context) => {
    let store = area.store;
    const { alice, bob } = parties();
    const now = Date.now();
    const message = { ...testMessage(alice, bob), expires: now + 1000 };
    const { stored } = await store.append(message);
    await store.deleteMessages(bob, [stored.id]);
    await store.deleteMessages(alice, [stored.id]);
    expect(await store.sweepSenderExpired(100, now + 1000)).toBe(1);
    expect(await store.append(resendOf(message))).toMatchObject({ created: true });
    // Swept by retention first: its end goes too, so the sender-set sweep finds nothing later.
    const retentionMs = 1000;
    store = await area.reopen(context, { retentionMs });
    const kept = { ...testMessage(alice, bob), expires: now + 600_000 };
    await store.append(kept);
    await new Promise((resolve) => setTimeout(resolve, retentionMs + 1100));
    expect(await store.sweepExpired(100)).toBe(2);
    expect(await store.sweepSenderExpired(100, now + 600_000)).toBe(0);
  });
}
