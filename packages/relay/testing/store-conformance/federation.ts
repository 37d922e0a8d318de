// Federation: outbound and inbound messages, the outbox (settling, expiry, redirects, backoff), home records, peer pins and the delivery lease.
import { expect, it } from "vitest";
import { messageJson } from "@neutral/relay";
import { BASE_TIMESTAMP, hex, parties, randomSignature, testMessage } from "./data.js";
import { wholeMailbox } from "./mailbox.js";
import { chatRanges } from "./model.js";
import type { StorePerTest } from "./stores.js";
import type { TestMessage } from "./data.js";

/** Messages to and from other nodes, the outbox, home records, peer pins and the delivery lease. A store for each test: most read store-wide state (a node's outbox, expired entries, peer pins, the lease). */
export function federationTests(area: StorePerTest): void {
  const nodeB = "0x0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b";
  const nodeC = "0x0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c";
  /** A message to an account homed on `destination`, as the service stores it: pending, one receipt. */
  const outbound = (from: string, to: string, destination = nodeB, overrides: Partial<TestMessage> = {}): TestMessage => {
    const { receiverReceipt: _none, ...fields } = testMessage(from, to, overrides);
    return { ...fields, status: "pending", route: { kind: "outbound", destination } };
  };
  const inbound = (from: string, to: string): TestMessage => ({ ...testMessage(from, to), route: { kind: "inbound" } });

  it("an outbound message is in its sender's mailbox (sent side, chats too) with its JSON, and in the outbox; not in the recipient's", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const local = await store.append(testMessage(alice, bob));
    const message = outbound(alice, carol);
    const { stored, created } = await store.append(message);
    expect(created).toBe(true);
    expect(stored.json).toBe(messageJson(stored.id, message));
    expect(JSON.parse(stored.json)).toMatchObject({ status: "pending" });
    expect(JSON.parse(stored.json)).not.toHaveProperty("receiver_receipt");
    expect(await wholeMailbox(store, alice)).toEqual([local.stored, stored]);
    expect(await wholeMailbox(store, carol)).toEqual([]);
    expect((await store.page({ owner: alice, ranges: chatRanges(carol), order: "desc", limit: 10 })).messages).toEqual([stored]);
    expect((await store.page({ owner: alice, ranges: chatRanges(bob), order: "desc", limit: 10 })).messages).toEqual([local.stored]);
    expect((await store.page({ owner: alice, ranges: chatRanges(carol), order: "asc", since: message.timestamp, limit: 10 })).messages).toEqual([stored]);
    expect(await store.latestPeer(alice)).toBe(carol);
    expect(await store.latestPeer(carol)).toBeUndefined();
    expect(await store.sentMessage(alice, stored.id)).toBe(stored.json);
    expect(await store.outboxDestinations()).toEqual([{ node: nodeB, count: 1, oldest: expect.any(Number) }]);
    const [entry] = await store.outboxEntries(nodeB, 10);
    expect(entry).toEqual({ id: stored.id, sender: alice, destination: nodeB, createdAt: expect.any(Number), json: stored.json, digest: hex(message.digest) });
    expect(await store.append({ ...message, digest: new Uint8Array(message.digest), signature: randomSignature() })).toEqual({ stored, created: false });
    expect(await store.outboxEntries(nodeB, 10)).toHaveLength(1);
  });

  it("an inbound message is in its recipient's mailbox (chats too), not in its sender's, and a redelivery stores nothing", async () => {
    const store = area.store;
    const { alice, carol } = parties();
    const message = inbound(carol, alice);
    const { stored } = await store.append(message);
    expect(stored.json).toBe(messageJson(stored.id, message));
    expect(await wholeMailbox(store, alice)).toEqual([stored]);
    expect(await wholeMailbox(store, carol)).toEqual([]);
    expect((await store.page({ owner: alice, ranges: chatRanges(carol), order: "asc", after: 0, limit: 10 })).messages).toEqual([stored]);
    expect(await store.append({ ...message, digest: new Uint8Array(message.digest) })).toEqual({ stored, created: false });
    expect(await store.latestPeer(carol)).toBeUndefined();
    expect(await store.outboxDestinations()).toEqual([]);
  });

  it("settling a delivery rewrites the sender's copy and empties the outbox; a second settlement changes nothing", async () => {
    const store = area.store;
    const { alice, carol } = parties();
    const firstMessage = outbound(alice, carol);
    const first = await store.append(firstMessage);
    const second = await store.append(outbound(alice, carol));
    const delivered = JSON.stringify({ ...JSON.parse(first.stored.json), status: undefined, receiver_receipt: randomSignature() });
    await store.settleDeliveries([{ id: first.stored.id, sender: alice, json: delivered }]);
    expect(await store.sentMessage(alice, first.stored.id)).toBe(delivered);
    expect((await store.page({ owner: alice, ranges: chatRanges(carol), order: "asc", after: 0, limit: 10 })).messages.map((m) => m.json)).toEqual([delivered, second.stored.json]);
    expect((await store.outboxEntries(nodeB, 10)).map((entry) => entry.id)).toEqual([second.stored.id]);
    await store.settleDeliveries([{ id: first.stored.id, sender: alice, json: first.stored.json }]);
    expect(await store.sentMessage(alice, first.stored.id)).toBe(delivered);
    // A resend of a settled message answers the settled copy, and does not queue it again.
    expect(await store.append({ ...firstMessage, digest: new Uint8Array(firstMessage.digest) })).toEqual({ stored: { id: first.stored.id, json: delivered }, created: false });
    expect((await store.outboxEntries(nodeB, 10)).map((entry) => entry.id)).toEqual([second.stored.id]);
  });

  it("orders each destination's entries by id, lists expired ones, and redirects entries to another node", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const toB = [await store.append(outbound(alice, carol)), await store.append(outbound(bob, carol)), await store.append(outbound(alice, carol))];
    const toC = await store.append(outbound(alice, bob, nodeC));
    expect((await store.outboxEntries(nodeB, 10)).map((entry) => entry.id)).toEqual(toB.map((r) => r.stored.id));
    expect((await store.outboxEntries(nodeB, 2)).map((entry) => entry.id)).toEqual(toB.slice(0, 2).map((r) => r.stored.id));
    expect((await store.outboxEntries(nodeB, 10, toB[0]!.stored.id)).map((entry) => entry.id)).toEqual(toB.slice(1).map((r) => r.stored.id));
    const destinations = await store.outboxDestinations();
    expect(destinations.map((d) => [d.node, d.count]).sort()).toEqual([[nodeB, 3], [nodeC, 1]]);
    expect(await store.expiredOutboxEntries(0, 10)).toEqual([]);
    expect((await store.expiredOutboxEntries(Date.now() + 1000, 10)).map((entry) => entry.id)).toEqual([...toB, toC].map((r) => r.stored.id));
    await store.redirectOutbox([toB[1]!.stored.id], nodeC);
    expect((await store.outboxEntries(nodeC, 10)).map((entry) => entry.id)).toEqual([toB[1]!.stored.id, toC.stored.id]);
    expect((await store.outboxEntries(nodeB, 10)).map((entry) => entry.id)).toEqual([toB[0]!.stored.id, toB[2]!.stored.id]);
  });

  it("keeps each destination's backoff, and forgets it when cleared", async () => {
    const store = area.store;
    const { alice, carol } = parties();
    await store.append(outbound(alice, carol));
    const state = { node: nodeB, failures: 3, nextAttemptAt: BASE_TIMESTAMP + 8000, lastError: "connection refused" };
    await store.setDestinationState(nodeB, state);
    expect(await store.outboxDestinations()).toEqual([{ node: nodeB, count: 1, oldest: expect.any(Number), state }]);
    await store.setDestinationState(nodeB, { ...state, failures: 4 });
    expect((await store.outboxDestinations())[0]!.state!.failures).toBe(4);
    await store.setDestinationState(nodeB, undefined);
    expect((await store.outboxDestinations())[0]!.state).toBeUndefined();
  });

  it("home records: the newest wins, each account apart; a tie goes to the greater signature, whichever came first", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const record = (account: string, node: string, timestamp: number, signature = randomSignature()) => ({ account, node, timestamp, signature });
    expect(await store.getHomeRecord(alice)).toBeUndefined();
    const first = record(alice, nodeB, BASE_TIMESTAMP, `0x${"22".repeat(65)}`);
    expect(await store.putHomeRecord(first)).toEqual(first);
    expect(await store.putHomeRecord(record(alice, nodeC, BASE_TIMESTAMP - 1))).toEqual(first);
    expect(await store.putHomeRecord(record(alice, nodeC, BASE_TIMESTAMP, `0x${"11".repeat(65)}`))).toEqual(first);
    const tie = record(alice, nodeC, BASE_TIMESTAMP, `0x${"33".repeat(65)}`);
    expect(await store.putHomeRecord(tie)).toEqual(tie);
    expect(await store.putHomeRecord(first)).toEqual(tie);
    const moved = record(alice, nodeB, BASE_TIMESTAMP + 1);
    expect(await store.putHomeRecord(moved)).toEqual(moved);
    expect(await store.getHomeRecord(alice)).toEqual(moved);
    expect(await store.getHomeRecord(bob)).toBeUndefined();
  });

  it("home records in one call: each kept as putHomeRecord would, answered in order with the record current after", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const record = (account: string, node: string, timestamp: number, signature = randomSignature()) => ({ account, node, timestamp, signature });
    const carols = record(carol, nodeB, BASE_TIMESTAMP + 5);
    await store.putHomeRecord(carols);
    const older = record(carol, nodeC, BASE_TIMESTAMP);
    const alices = [record(alice, nodeB, BASE_TIMESTAMP), record(alice, nodeC, BASE_TIMESTAMP + 2), record(alice, nodeB, BASE_TIMESTAMP + 1)];
    const bobs = record(bob, nodeC, BASE_TIMESTAMP);
    const answers = await store.putHomeRecords([alices[0]!, older, alices[1]!, bobs, alices[2]!]);
    expect(answers).toEqual([alices[1], carols, alices[1], bobs, alices[1]]);
    expect(await store.getHomeRecord(alice)).toEqual(alices[1]);
    expect(await store.getHomeRecord(bob)).toEqual(bobs);
    expect(await store.getHomeRecord(carol)).toEqual(carols);
    expect(await store.putHomeRecords([])).toEqual([]);
  });

  it("peer pins: the first address seen at a URL stays", async () => {
    const store = area.store;
    expect(await store.peerPins()).toEqual(new Map());
    expect(await store.pinPeer("http://127.0.0.1:1", nodeB)).toBe(nodeB);
    expect(await store.pinPeer("http://127.0.0.1:1", nodeC)).toBe(nodeB);
    expect(await store.pinPeer("http://127.0.0.1:2", nodeC)).toBe(nodeC);
    expect(await store.peerPins()).toEqual(new Map([["http://127.0.0.1:1", nodeB], ["http://127.0.0.1:2", nodeC]]));
  });

  it("one process at a time leads the deliveries", async () => {
    const store = area.store;
    const lease = await store.leadDeliveries();
    expect(lease).toBeDefined();
    expect(await store.leadDeliveries()).toBeUndefined();
    await lease!.release();
    const again = await store.leadDeliveries();
    expect(again).toBeDefined();
    await again!.release();
  });
}
