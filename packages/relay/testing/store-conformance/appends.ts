// Appending messages: ids strictly increasing in acceptance order, the wire JSON, group commits, and idempotency by digest.
import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import { messageJson } from "@neutral/relay";
import { BASE_TIMESTAMP, hex, parties, resendOf, testMessage } from "./data.js";
import { appendWorld, wholeMailbox } from "./mailbox.js";
import type { SharedStore } from "./stores.js";

/** Ids, wire JSON and big bodies, one append at a time and many in one tick. */
export function appendTests(area: SharedStore): void {
  it("assigns strictly increasing ids in append order, and the wire JSON", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const messages = [testMessage(alice, bob), testMessage(bob, alice), testMessage(alice, carol), testMessage(carol, carol), testMessage(alice, bob)];
    let previous = 0;
    for (const message of messages) {
      const result = await store.append(message);
      expect(result.created).toBe(true);
      expect(Number.isSafeInteger(result.stored.id)).toBe(true);
      expect(result.stored.id).toBeGreaterThan(previous);
      expect(result.stored.json).toBe(messageJson(result.stored.id, message));
      previous = result.stored.id;
    }
  });

  it("stored messages read back as exactly messageJson(id, message), valid JSON of the wire form", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const message = testMessage(alice, bob, { message: "00ff".repeat(8), timestamp: BASE_TIMESTAMP });
    const { stored } = await store.append(message);
    const page = await store.page({ owner: bob, ranges: [{ side: "received" }], order: "desc", limit: 20 });
    expect(page).toEqual({ messages: [{ id: stored.id, json: messageJson(stored.id, message) }], end: true });
    expect(JSON.parse(page.messages[0]!.json)).toEqual({
      id: String(stored.id),
      message: message.message,
      from: alice,
      to: bob,
      signature: message.signature,
      sender_receipt: message.senderReceipt,
      receiver_receipt: message.receiverReceipt,
      timestamp: BASE_TIMESTAMP,
    });
  });

  it("keeps a 64 KiB ciphertext intact", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const message = testMessage(alice, bob, { message: hex(randomBytes(64 * 1024)) });
    const { stored } = await store.append(message);
    const page = await store.page({ owner: alice, ranges: [{ side: "sent" }], order: "desc", limit: 1 });
    expect(page.messages[0]?.json).toBe(messageJson(stored.id, message));
    expect(page.messages[0]!.json.length).toBeGreaterThan(128 * 1024);
  });

  it("gives many appends of one tick (one group commit) increasing ids in call order", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const messages = Array.from({ length: 250 }, (_, i) => testMessage(i % 3 === 0 ? alice : bob, i % 2 === 0 ? carol : alice));
    const results = await Promise.all(messages.map((m) => store.append(m)));
    results.forEach((result, i) => {
      expect(result.created).toBe(true);
      expect(result.stored.json).toBe(messageJson(result.stored.id, messages[i]!));
      if (i > 0) expect(result.stored.id).toBeGreaterThan(results[i - 1]!.stored.id);
    });
    const all = [...(await wholeMailbox(store, alice)), ...(await wholeMailbox(store, bob)), ...(await wholeMailbox(store, carol))];
    expect(new Set(all.map((m) => m.id))).toEqual(new Set(results.map((r) => r.stored.id)));
  });

  it("orders appends across ticks and within ticks alike", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const messages = Array.from({ length: 40 }, (_, i) => testMessage(alice, i % 2 ? bob : alice));
    const breaks = messages.map((_, i) => i % 7 === 3);
    const stored = await appendWorld(store, messages, breaks);
    expect(stored).toHaveLength(40);
    const page = await store.page({ owner: alice, ranges: [{ side: "sent" }], after: 0, order: "asc", limit: 100 });
    expect(page.messages).toEqual(stored.map(({ id, json }) => ({ id, json })));
    expect(page.end).toBe(true);
  });
}

/** A resend (the same digest) is answered the stored original, however and whenever it comes. */
export function idempotencyTests(area: SharedStore): void {
  it("returns the stored original for a resend, created false, and stores nothing new", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const original = testMessage(alice, bob);
    const first = await store.append(original);
    const resend = resendOf(original);
    const second = await store.append(resend);
    expect(first.created).toBe(true);
    expect(second).toEqual({ stored: first.stored, created: false });
    expect(second.stored.json).toBe(messageJson(first.stored.id, original)); // the original's signature and receipts
    expect(await wholeMailbox(store, bob)).toEqual([first.stored]);
    expect(await wholeMailbox(store, alice)).toEqual([first.stored]);
    const next = await store.append(testMessage(alice, bob));
    expect(next.stored.id).toBeGreaterThan(first.stored.id);
  });

  it("stores a digest appended twice in the same tick once; both callers get its id", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const original = testMessage(alice, bob);
    const other = testMessage(bob, alice);
    const [a, b, c, d] = await Promise.all([store.append(original), store.append(resendOf(original)), store.append(other), store.append(original)]);
    expect(a!.created).toBe(true);
    expect(b).toEqual({ stored: a!.stored, created: false });
    expect(c!.created).toBe(true);
    expect(d).toEqual({ stored: a!.stored, created: false });
    expect(c!.stored.id).toBeGreaterThan(a!.stored.id);
    expect(await wholeMailbox(store, alice)).toEqual([a!.stored, c!.stored]);
  });

  it("stores a self-message resent in the same tick once", async () => {
    const store = area.store;
    const { carol } = parties();
    const note = testMessage(carol, carol);
    const [a, b] = await Promise.all([store.append(note), store.append(resendOf(note))]);
    expect(a!.created).toBe(true);
    expect(b).toEqual({ stored: a!.stored, created: false });
    expect(await wholeMailbox(store, carol)).toEqual([a!.stored]);
  });

  it("compares the digest's bytes, whatever the Uint8Array's view", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const original = testMessage(alice, bob);
    const backing = new Uint8Array(64);
    backing.set(original.digest, 7);
    const first = await store.append(original);
    const second = await store.append({ ...resendOf(original), digest: backing.subarray(7, 39) });
    expect(second).toEqual({ stored: first.stored, created: false });
    const almost = new Uint8Array(original.digest);
    almost[31] = almost[31]! ^ 1;
    const third = await store.append({ ...testMessage(alice, bob), digest: almost });
    expect(third.created).toBe(true);
    expect(third.stored.id).toBeGreaterThan(first.stored.id);
  });
}
