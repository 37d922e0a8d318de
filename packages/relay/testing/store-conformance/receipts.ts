// Receipts bound to positions (openrpc.json 3.0.0): given the node's key (`useReceiptKey`), a store
// signs each receipt the node owes for a copy it stores, as EIP-712 `LogReceipt` over the position
// that copy took, in the transaction that stores it, and the JSON carries the position beside it. A
// store committing through a writer it was given signs with that writer's key: a backend's `open`
// gives such a writer `CONFORMANCE_NODE_KEY`.
import { expect, it } from "vitest";
import { logReceiptDigest, toHex } from "@neutral/protocol";
import { fixtureSigner, recoverDigestSigner } from "@neutral/protocol/testing";
import type { AcceptedMessage, AppendResult, MessageStore } from "@neutral/relay";
import { CONFORMANCE_NODE_KEY, parties, randomAddress, randomSignature, unsignedTestMessage } from "./data.js";
import type { StorePerTest } from "./stores.js";

const nodeAddress = fixtureSigner(CONFORMANCE_NODE_KEY).address;
const keyBytes = (): Uint8Array => Uint8Array.from(CONFORMANCE_NODE_KEY);

interface BoundJson {
  sender_receipt: string;
  sender_seq?: number;
  receiver_receipt?: string;
  receiver_seq?: number;
}

/**
 * Each receipt of `roles` in `result` recovers to `CONFORMANCE_NODE_KEY` over the position its copy
 * holds in the store's log: what a store given that key answers for `message`.
 */
export async function expectBoundReceipts(store: MessageStore, message: AcceptedMessage, result: AppendResult, roles: readonly ("sender" | "receiver")[]): Promise<void> {
  const json = JSON.parse(result.stored.json) as BoundJson;
  for (const role of roles) {
    const [owner, logRole, receipt, seq] = role === "sender" ? [message.from, "sent", json.sender_receipt, json.sender_seq] : [message.to, "received", json.receiver_receipt, json.receiver_seq];
    const held = (await store.positions(owner, [result.stored.id])).filter((entry) => entry.role === logRole);
    expect(
      held.map((entry) => entry.seq),
      `${role}'s copy`,
    ).toEqual([seq]);
    expect(recoverDigestSigner(logReceiptDigest(toHex(message.digest), seq!, role), receipt!), `${role} receipt`).toBe(nodeAddress);
  }
}

/** Receipts bound to positions: what a store signs with the node's key, and what it refuses without. */
export function receiptTests(area: StorePerTest): void {
  it("signs each receipt the node owes over its copy's position: local, to oneself (two positions), requests folder, outbound (the sender's only), inbound (the sender's node's kept)", async () => {
    const store = area.store;
    store.useReceiptKey(keyBytes());
    const { alice, bob, carol } = parties();
    const local = unsignedTestMessage(alice, bob);
    const own = unsignedTestMessage(carol, carol);
    const request = unsignedTestMessage(bob, carol, { folder: "requests" });
    const outbound = unsignedTestMessage(alice, randomAddress(), { status: "pending", route: { kind: "outbound", destination: randomAddress() } });
    const given = randomSignature();
    const inbound = unsignedTestMessage(randomAddress(), bob, { senderReceipt: given, senderSeq: 41, route: { kind: "inbound" } });
    const [a, b, c, d, e] = await Promise.all([local, own, request, outbound, inbound].map((message) => store.append(message)));
    await expectBoundReceipts(store, local, a!, ["sender", "receiver"]);
    await expectBoundReceipts(store, own, b!, ["sender", "receiver"]);
    const ownJson = JSON.parse(b!.stored.json) as BoundJson;
    expect(ownJson.sender_seq).toBe(ownJson.receiver_seq! + 1); // received first
    await expectBoundReceipts(store, request, c!, ["sender", "receiver"]);
    await expectBoundReceipts(store, outbound, d!, ["sender"]);
    expect(JSON.parse(d!.stored.json)).not.toHaveProperty("receiver_receipt");
    await expectBoundReceipts(store, inbound, e!, ["receiver"]);
    expect(JSON.parse(e!.stored.json)).toMatchObject({ sender_receipt: given, sender_seq: 41 });
    // Reads serve what the append answered.
    const page = await store.page({ owner: bob, ranges: [{ side: "received" }], order: "asc", limit: 10 });
    expect(page.messages).toEqual([a!.stored, e!.stored]);
  });

  it("under concurrent appends among a few accounts, every copy's receipt names the position that copy holds", async () => {
    const store = area.store;
    store.useReceiptKey(keyBytes());
    const people = Array.from({ length: 4 }, randomAddress);
    const messages = Array.from({ length: 60 }, (_, i) => unsignedTestMessage(people[i % 4]!, people[(i * 3 + 1) % 4]!));
    const results = await Promise.all(messages.map((message) => store.append(message)));
    for (const [i, message] of messages.entries()) await expectBoundReceipts(store, message, results[i]!, ["sender", "receiver"]);
  });

  it("a resend is answered the original JSON, also once every copy is gone (signed again over the positions they took)", async () => {
    const store = area.store;
    store.useReceiptKey(keyBytes());
    const { alice, bob } = parties();
    const message = unsignedTestMessage(alice, bob);
    const { stored } = await store.append(message);
    expect(await store.append({ ...message, digest: new Uint8Array(message.digest) })).toEqual({ stored, created: false });
    await store.deleteMessages(bob, [stored.id]);
    await store.deleteMessages(alice, [stored.id]);
    expect(await store.append({ ...message, digest: new Uint8Array(message.digest) })).toEqual({ stored, created: false });
  });

  it("takes the key once: the same key again changes nothing, another is refused", () => {
    const store = area.store;
    store.useReceiptKey(keyBytes());
    store.useReceiptKey(keyBytes());
    expect(() => store.useReceiptKey(new Uint8Array(32).fill(1))).toThrow();
  });
}
