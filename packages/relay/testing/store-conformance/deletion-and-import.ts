// What an owner removes from a mailbox (neutralService_deleteMessages) and brings into it (importing an account's history when moving home).
import { expect, it } from "vitest";
import { messageJson } from "@neutral/relay";
import { parties, randomAddress, randomSignature, resendOf, testMessage } from "./data.js";
import { idsOf, wholeMailbox } from "./mailbox.js";
import type { SharedStore, StorePerTest } from "./stores.js";
import type { TestMessage } from "./data.js";

/** Deleting removes only the owner's copies, never one pending delivery, and walks over what remains still see each message once. */
export function deletionTests(area: SharedStore): void {
  it("removes only the owner's copy: the other party still reads the message, JSON intact", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const message = testMessage(alice, bob);
    const { stored } = await store.append(message);
    expect(await store.deleteMessages(bob, [stored.id])).toEqual({ pending: [] });
    expect(await wholeMailbox(store, bob)).toEqual([]);
    // The sender's row took the recipient's JSON before that went (SQLite keeps it once).
    expect(await wholeMailbox(store, alice)).toEqual([{ id: stored.id, json: messageJson(stored.id, message) }]);
    const chat = await store.page({ owner: alice, ranges: [{ side: "received", peer: bob }, { side: "sent", peer: bob }], order: "desc", limit: 10 });
    expect(chat).toEqual({ messages: [{ id: stored.id, json: messageJson(stored.id, message) }], end: true });
    expect(await store.deleteMessages(alice, [stored.id])).toEqual({ pending: [] });
    expect(await wholeMailbox(store, alice)).toEqual([]);
  });

  it("a message to oneself goes from both sides; others' messages and unknown ids are left alone", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const own = (await store.append(testMessage(carol, carol))).stored;
    const theirs = (await store.append(testMessage(alice, bob))).stored;
    expect(await store.deleteMessages(carol, [own.id, theirs.id, theirs.id + 1000])).toEqual({ pending: [] });
    expect(await wholeMailbox(store, carol)).toEqual([]);
    expect(idsOf(await wholeMailbox(store, alice))).toEqual([theirs.id]);
    expect(idsOf(await wholeMailbox(store, bob))).toEqual([theirs.id]);
  });

  it("refuses a message still pending delivery to another node, deleting nothing of the request", async () => {
    // It reads the outbox's destinations (store-wide): on a store of its own.
    const store = await area.own();
    const { alice, bob, carol } = parties();
    const local = (await store.append(testMessage(alice, bob))).stored;
    const outbound = (await store.append({ ...testMessage(alice, carol), status: "pending", route: { kind: "outbound", destination: randomAddress() } })).stored;
    expect(await store.deleteMessages(alice, [local.id, outbound.id])).toEqual({ pending: [outbound.id] });
    expect(idsOf(await wholeMailbox(store, alice))).toEqual([local.id, outbound.id]);
    expect(await store.outboxEntries((await store.outboxDestinations())[0]!.node, 10)).toHaveLength(1);
  });

  it("a resend of a deleted message answers its original and stores nothing again", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const message = testMessage(alice, bob);
    const { stored } = await store.append(message);
    await store.deleteMessages(bob, [stored.id]);
    await store.deleteMessages(alice, [stored.id]);
    const resend = resendOf(message);
    // Its fields, as resent (the node's receipts are deterministic signatures: the original's).
    expect(await store.append(resend)).toEqual({ stored: { id: stored.id, json: messageJson(stored.id, resend) }, created: false });
    expect(await wholeMailbox(store, bob)).toEqual([]);
  });

  it("walks forward and backward over a mailbox with deletions visit every remaining message once, `end` on the last page", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const all = [];
    for (let i = 0; i < 30; i++) all.push((await store.append(testMessage(i % 2 ? alice : carol, bob))).stored.id);
    const gone = all.filter((_, i) => i % 3 === 1 || (i >= 10 && i < 16));
    // Deleted between two pages of a forward walk, too.
    const first = await store.page({ owner: bob, ranges: [{ side: "received" }], after: 0, order: "asc", limit: 4 });
    await store.deleteMessages(bob, gone);
    const remaining = all.filter((id) => !gone.includes(id));
    for (const order of ["asc", "desc"] as const) {
      const seen: number[] = order === "asc" ? idsOf(first.messages).filter((id) => !gone.includes(id)) : [];
      let cursor: number | undefined = order === "asc" ? first.messages.at(-1)!.id : undefined;
      for (;;) {
        const page = await store.page({
          owner: bob,
          ranges: [{ side: "received" }],
          ...(cursor !== undefined && (order === "asc" ? { after: cursor } : { before: cursor })),
          order,
          limit: 4,
        });
        seen.push(...idsOf(page.messages));
        if (page.end) break;
        expect(page.messages.length, "a page that is not the end has messages").toBeGreaterThan(0);
        cursor = page.messages.at(-1)!.id;
      }
      expect(seen).toEqual(order === "asc" ? remaining : [...remaining].reverse());
    }
  });
}

/** Importing an owner's copies: new ids in order, or the id of a copy held here already; the same import again stores nothing. A store for each test: one sweeps the sender-set ends (store-wide). */
export function importTests(area: StorePerTest): void {
  const imported = (message: TestMessage) => ({ fields: { ...message, receiverReceipt: message.receiverReceipt! }, digest: message.digest });

  it("stores the owner's copies as given, under new ids in order, on the owner's sides only; again: the same ids, nothing twice", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const received = testMessage(alice, bob);
    const sent = testMessage(bob, carol, { expires: Date.now() + 600_000 });
    const self = testMessage(bob, bob);
    const answered = await store.importMessages(bob, [received, sent, self].map(imported));
    expect(answered.map(({ created }) => created)).toEqual([true, true, true]);
    const first = answered.map(({ id, json }) => ({ id, json }));
    expect(first.map(({ json }) => json)).toEqual([received, sent, self].map((message, i) => messageJson(first[i]!.id, message)));
    expect(first[0]!.id).toBeLessThan(first[1]!.id);
    expect(first[1]!.id).toBeLessThan(first[2]!.id);
    expect(await wholeMailbox(store, bob)).toEqual(first);
    expect(await store.page({ owner: bob, ranges: [{ side: "received" }], order: "desc", limit: 10 })).toEqual({ messages: [first[2], first[0]], end: true });
    expect(await store.page({ owner: bob, ranges: [{ side: "sent", peer: carol }], order: "desc", limit: 10 })).toEqual({ messages: [first[1]], end: true });
    // Nothing of the other parties' here.
    expect(await wholeMailbox(store, alice)).toEqual([]);
    expect(await wholeMailbox(store, carol)).toEqual([]);
    // Again: the same ids and JSON, nothing new; a resend of one is answered it.
    expect(await store.importMessages(bob, [received, sent, self].map(imported))).toEqual(first.map((entry) => ({ ...entry, created: false })));
    expect(await wholeMailbox(store, bob)).toEqual(first);
    expect(await store.append(resendOf(received))).toEqual({ stored: first[0], created: false });
    // Its end is kept: the sweep takes it.
    expect(await store.sweepSenderExpired(100, sent.expires!)).toBe(1);
    expect(idsOf(await wholeMailbox(store, bob))).toEqual([first[0]!.id, first[2]!.id]);
  });

  it("adds the owner's copy to a message held here for the other party, under its id, with the owner's own receipts; a deleted copy comes back", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    // Bob is homed here and received alice's message from her former node; alice moves here and imports her sent copy.
    const delivered = testMessage(alice, bob, { route: { kind: "inbound" } });
    const { stored } = await store.append(delivered);
    const alicesCopy = { ...delivered, senderReceipt: randomSignature(), receiverReceipt: randomSignature() };
    const [added] = await store.importMessages(alice, [imported(alicesCopy)]);
    expect(added).toEqual({ id: stored.id, json: messageJson(stored.id, alicesCopy), created: true });
    expect(await store.page({ owner: alice, ranges: [{ side: "sent" }], order: "desc", limit: 10 })).toEqual({ messages: [{ id: stored.id, json: added!.json }], end: true });
    expect(await store.page({ owner: bob, ranges: [{ side: "received" }], order: "desc", limit: 10 })).toEqual({ messages: [stored], end: true });
    expect(await store.latestPeer(alice)).toBe(bob);
    // Bob deletes his copy; importing it again brings it back under the same id.
    await store.deleteMessages(bob, [stored.id]);
    expect(await wholeMailbox(store, bob)).toEqual([]);
    expect(await store.importMessages(bob, [imported(delivered)])).toEqual([{ ...stored, created: true }]);
    expect(await wholeMailbox(store, bob)).toEqual([stored]);
    expect(await store.page({ owner: bob, ranges: [{ side: "received", peer: alice }], order: "desc", limit: 10 })).toEqual({ messages: [stored], end: true });
  });
}
