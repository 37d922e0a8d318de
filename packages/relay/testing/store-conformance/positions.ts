// The verifiable mailbox's positions (openrpc.json "The verifiable mailbox"): every copy stored in an
// account's mailbox takes the next position of its log, in the transaction that stores it, and keeps it.
import { expect, it } from "vitest";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { expiredMessageDigest, fromHex, hashTypedData, mailboxLeafHash, merkleRoot, toHex, verifyMerkleConsistency, verifyMerkleInclusion, type Hex, type MailboxRole } from "@neutral/protocol";
import { LogTree, TILE_HEIGHT, storeLogHashes, type LogEntry, type MessageStore } from "@neutral/relay";
import { parties, randomAddress, randomSignature, resendOf, testMessage } from "./data.js";
import { idsOf, wholeMailbox } from "./mailbox.js";
import { chatRanges, inboxRanges } from "./model.js";
import type { SharedStore, StorePerTest } from "./stores.js";
import type { TestMessage } from "./data.js";

/** What one position should hold: the message whose copy took it, and the copy's role. */
interface ExpectedCopy {
  id: number;
  message: TestMessage;
  role: MailboxRole;
}

/** The log entry `copy` should be at position `seq` of `account`'s log. */
const expectedEntry = (account: string, seq: number, { id, message, role }: ExpectedCopy): LogEntry => ({
  seq,
  id,
  role,
  leafHash: toHex(mailboxLeafHash({ account, seq, role, peer: role === "received" ? message.from : message.to, digest: message.digest })),
});

/** The log entries `copies` (in position order) should give `account`. */
const expectedLog = (account: string, copies: readonly ExpectedCopy[]): LogEntry[] => copies.map((copy, i) => expectedEntry(account, i + 1, copy));

/** `owner`'s whole log, read in pages of `pageSize`. */
async function wholeLog(store: MessageStore, owner: string, pageSize = 100): Promise<LogEntry[]> {
  const all: LogEntry[] = [];
  for (;;) {
    const page = await store.log(owner, all.length + 1, pageSize);
    all.push(...page);
    if (page.length < pageSize) return all;
  }
}

/** Every log of `owners` is its positions 1..n with no gap, and `logSize` says n. */
async function expectContiguous(store: MessageStore, owners: readonly string[]): Promise<Map<string, LogEntry[]>> {
  const logs = new Map<string, LogEntry[]>();
  for (const owner of owners) {
    const log = await wholeLog(store, owner, 7);
    expect(
      log.map((entry) => entry.seq),
      `${owner}'s positions`,
    ).toEqual(log.map((_, i) => i + 1));
    expect(await store.logSize(owner)).toBe(log.length);
    logs.set(owner, log);
  }
  return logs;
}

/** Positions on every way a copy is stored, their leaves, and their order under concurrent appends. */
export function positionTests(area: SharedStore): void {
  it("gives every copy the next position of its account's log with its leaf: received, sent, to oneself (twice), requests, outbound, inbound", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const remote = randomAddress();
    const local = testMessage(alice, bob);
    const self = testMessage(alice, alice);
    const request = { ...testMessage(carol, bob), folder: "requests" as const };
    const outbound = { ...testMessage(alice, remote), status: "pending" as const, route: { kind: "outbound" as const, destination: randomAddress() } };
    const inbound = { ...testMessage(remote, bob), route: { kind: "inbound" as const } };
    const ids: number[] = [];
    for (const message of [local, self, request, outbound, inbound]) ids.push((await store.append(message)).stored.id);
    const [localId, selfId, requestId, outboundId, inboundId] = ids as [number, number, number, number, number];
    expect(await wholeLog(store, alice)).toEqual(
      expectedLog(alice, [
        { id: localId, message: local, role: "sent" },
        { id: selfId, message: self, role: "received" },
        { id: selfId, message: self, role: "sent" },
        { id: outboundId, message: outbound, role: "sent" },
      ]),
    );
    expect(await wholeLog(store, bob)).toEqual(
      expectedLog(bob, [
        { id: localId, message: local, role: "received" },
        { id: requestId, message: request, role: "received" },
        { id: inboundId, message: inbound, role: "received" },
      ]),
    );
    expect(await wholeLog(store, carol)).toEqual(expectedLog(carol, [{ id: requestId, message: request, role: "sent" }]));
    // The other node's account has no log here.
    expect(await store.logSize(remote)).toBe(0);
    expect(await store.log(remote, 1, 10)).toEqual([]);
    expect(await store.logSize(randomAddress())).toBe(0);
  });

  it("reads a log from any position, at most `limit` entries", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    for (let i = 0; i < 5; i++) await store.append(testMessage(alice, bob));
    const log = await wholeLog(store, bob);
    expect(log).toHaveLength(5);
    expect(await store.log(bob, 2, 2)).toEqual(log.slice(1, 3));
    expect(await store.log(bob, 5, 10)).toEqual(log.slice(4));
    expect(await store.log(bob, 6, 10)).toEqual([]);
  });

  it("a resend takes no position", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const message = testMessage(alice, bob);
    await store.append(message);
    await store.append(resendOf(message));
    await Promise.all([store.append(resendOf(message)), store.append(resendOf(message))]);
    expect(await store.logSize(alice)).toBe(1);
    expect(await store.logSize(bob)).toBe(1);
  });

  it("250 concurrent appends among six accounts: each log has no gap and follows id order", { timeout: 30_000 }, async () => {
    const store = area.store;
    const accounts = [...Object.values(parties()), ...Object.values(parties())];
    const messages = Array.from({ length: 250 }, (_, i) => {
      const from = accounts[i % accounts.length]!;
      const to = accounts[(i * 7 + 3) % accounts.length]!;
      return i % 5 === 0 ? { ...testMessage(from, to), folder: "requests" as const } : testMessage(from, to);
    });
    const results = await Promise.all(messages.map((message) => store.append(message)));
    const logs = await expectContiguous(store, accounts);
    const copies = new Map(accounts.map((account) => [account, [] as ExpectedCopy[]]));
    // In id order, a message's received copy before its sent copy (one to oneself).
    [...results.keys()]
      .sort((a, b) => results[a]!.stored.id - results[b]!.stored.id)
      .forEach((i) => {
        const message = messages[i]!;
        const id = results[i]!.stored.id;
        copies.get(message.to)!.push({ id, message, role: "received" });
        copies.get(message.from)!.push({ id, message, role: "sent" });
      });
    for (const account of accounts) expect(logs.get(account), account).toEqual(expectedLog(account, copies.get(account)!));
  });

  it("the log's tree is RFC 9162's over its leaves; a tile the store keeps is the root of its positions", { timeout: 60_000 }, async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const width = 2 ** TILE_HEIGHT;
    // Whole tiles (18 of 16 positions, one of 256) and some: alice sends and receives in turns, some at once.
    for (let round = 0; round < 6; round++) {
      await Promise.all(Array.from({ length: 50 }, (_, i) => store.append((i + round) % 2 ? testMessage(alice, bob) : testMessage(bob, alice))));
    }
    await store.append(testMessage(alice, alice));
    const log = await wholeLog(store, alice);
    expect(log).toHaveLength(302);
    const leaves = log.map((entry) => fromHex(entry.leafHash));
    // The tree's own read of the leaves: the same hashes, fewer past the log's end.
    expect((await store.logLeaves(alice, 1, 400)).map(toHex)).toEqual(leaves.map(toHex));
    expect((await store.logLeaves(alice, 300, 10)).map(toHex)).toEqual(leaves.slice(299).map(toHex));
    expect(await store.logLeaves(alice, 303, 10)).toEqual([]);
    const tiles = await store.logTiles(alice, TILE_HEIGHT, 0, 30);
    expect(tiles.map(({ index }) => index)).toEqual(Array.from({ length: Math.floor(log.length / width) }, (_, i) => i));
    for (const tile of tiles) {
      expect(tile.index, "only whole tiles").toBeLessThan(Math.floor(log.length / width));
      expect(toHex(tile.hash)).toBe(toHex(merkleRoot(leaves.slice(tile.index * width, (tile.index + 1) * width))));
    }
    expect(await store.logTiles(alice, TILE_HEIGHT, 1, 1)).toEqual([]);
    const tree = new LogTree(storeLogHashes(store, alice));
    const root = await tree.root(log.length);
    expect(toHex(root)).toBe(toHex(merkleRoot(leaves)));
    verifyMerkleInclusion(277, log.length, leaves[277]!, await tree.inclusionProof(277, log.length), root);
    verifyMerkleConsistency(100, log.length, merkleRoot(leaves.slice(0, 100)), root, await tree.consistencyProof(100, log.length));
  });

  it("positions(ids): the owner's copies of each message, in the order asked, none for a deleted copy, another's message or an unknown id", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const toBob = (await store.append(testMessage(alice, bob))).stored.id;
    const self = (await store.append(testMessage(alice, alice))).stored.id;
    const request = (await store.append({ ...testMessage(carol, alice), folder: "requests" })).stored.id;
    const others = (await store.append(testMessage(bob, carol))).stored.id;
    const deleted = (await store.append(testMessage(bob, alice))).stored.id;
    await store.deleteMessages(alice, [deleted]);
    const log = await wholeLog(store, alice);
    const at = (seq: number) => log[seq - 1]!;
    expect(await store.positions(alice, [request, toBob, self, others, deleted, deleted + 1000])).toEqual([at(4), at(1), at(2), at(3)]);
    expect(await store.positions(alice, [])).toEqual([]);
    expect(await store.positions(bob, [toBob, others])).toEqual(await store.log(bob, 1, 2));
  });

  it("a page read `withPositions` gives each message the position of the owner's copy it read, or none: a store may leave them to `positions`, and gives none for a message to oneself", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    await store.append(testMessage(alice, bob));
    await store.append(testMessage(bob, alice));
    const self = (await store.append(testMessage(alice, alice))).stored.id;
    await store.append({ ...testMessage(carol, alice), folder: "requests" });
    const byPosition = new Map((await wholeLog(store, alice)).map((entry) => [`${entry.id}/${entry.role}`, entry.seq]));
    const reads = [
      { ranges: inboxRanges(alice, "all"), order: "desc" as const },
      { ranges: inboxRanges(alice, "received"), order: "asc" as const, after: 0 },
      { ranges: chatRanges(bob), order: "desc" as const },
      { ranges: [{ side: "requests" as const }], order: "desc" as const },
      { ranges: inboxRanges(alice, "all"), order: "asc" as const, after: 0, since: 0 },
    ];
    let given = 0;
    for (const read of reads) {
      const plain = await store.page({ owner: alice, limit: 10, ...read });
      const positioned = await store.page({ owner: alice, limit: 10, ...read, withPositions: true });
      expect(positioned.messages.map(({ id, json }) => ({ id, json })), JSON.stringify(read)).toEqual(plain.messages);
      expect(plain.messages.every((message) => message.copies === undefined)).toBe(true);
      for (const message of positioned.messages) {
        // Read from one side, its other copy would be missing from the page's proof.
        if (message.id === self) expect(message.copies, `the message to oneself in ${JSON.stringify(read)}`).toBeUndefined();
        if (message.copies === undefined) continue;
        given++;
        const sides = read.ranges.map((range) => (range.side === "sent" ? "sent" : "received"));
        const expected = [...new Set(sides)].filter((role) => byPosition.has(`${message.id}/${role}`)).map((role) => ({ seq: byPosition.get(`${message.id}/${role}`)!, role }));
        expect([...message.copies].sort((a, b) => a.seq - b.seq), `message ${message.id} of ${JSON.stringify(read)}`).toEqual(expected.sort((a, b) => a.seq - b.seq));
      }
    }
    expect(given).toBeGreaterThan(0);
  });

  it("a deleted copy keeps its position, and the next copy takes the next one", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const first = (await store.append(testMessage(alice, bob))).stored.id;
    await store.append(testMessage(bob, alice));
    const before = await wholeLog(store, bob);
    expect(await store.deleteMessages(bob, [first])).toEqual({ pending: [] });
    expect(await wholeLog(store, bob)).toEqual(before);
    await store.append(testMessage(alice, bob));
    const after = await wholeLog(store, bob);
    expect(after.slice(0, 2)).toEqual(before);
    expect(after.map((entry) => entry.seq)).toEqual([1, 2, 3]);
  });

  it("a copy its account deletes keeps the account's request at its position (both of a message to itself); only the copies it removed, once", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const kept = (await store.append(testMessage(alice, bob))).stored.id;
    const gone = (await store.append(testMessage(alice, bob))).stored.id;
    const self = (await store.append(testMessage(bob, bob))).stored.id;
    const request = JSON.stringify({ account: bob, ids: [String(gone), String(self), String(kept + 1000)], timestamp: 1, signature: "0x01" });
    expect(await store.deleteMessages(bob, [gone, self, kept + 1000], request)).toEqual({ pending: [] });
    const log = await wholeLog(store, bob);
    const deleted = { reason: "deleted", request };
    expect(log.map(({ seq, id, role, removal }) => ({ seq, id, role, removal }))).toEqual([
      { seq: 1, id: kept, role: "received", removal: undefined },
      { seq: 2, id: gone, role: "received", removal: deleted },
      { seq: 3, id: self, role: "received", removal: deleted },
      { seq: 4, id: self, role: "sent", removal: deleted },
    ]);
    // Alice's copy of what Bob deleted is hers: untouched, no reason.
    expect((await wholeLog(store, alice)).every((entry) => entry.removal === undefined)).toBe(true);
    // A second request for what is gone removes nothing: the first request stays the reason.
    await store.deleteMessages(bob, [gone], JSON.stringify({ again: true }));
    expect(await wholeLog(store, bob)).toEqual(log);
    // Without a request (a store's own caller), nothing is kept.
    await store.deleteMessages(bob, [kept]);
    expect((await wholeLog(store, bob))[0]!.removal).toBeUndefined();
    // Reads by position keep the plain entry.
    expect(await store.positions(alice, [gone])).toEqual([expect.not.objectContaining({ removal: expect.anything() })]);
  });

  it("a deletion of named positions (`seqs`) removes only the copies at them: a copy of the same message at another position stays", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const self = (await store.append(testMessage(bob, bob))).stored.id; // positions 1 (received) and 2 (sent)
    const other = (await store.append(testMessage(alice, bob))).stored.id; // 3
    const request = JSON.stringify({ account: bob, ids: [String(self), String(other)], leaves: ["named"] });
    expect(await store.deleteMessages(bob, [self, other], request, [2])).toEqual({ pending: [] });
    const deleted = { reason: "deleted", request };
    expect((await wholeLog(store, bob)).map(({ seq, id, role, removal }) => ({ seq, id, role, removal }))).toEqual([
      { seq: 1, id: self, role: "received", removal: undefined },
      { seq: 2, id: self, role: "sent", removal: deleted },
      { seq: 3, id: other, role: "received", removal: undefined },
    ]);
    // Reads serve what stays: the received copy, and the other message.
    expect(idsOf(await wholeMailbox(store, bob))).toEqual([self, other]);
    expect((await store.page({ owner: bob, ranges: [{ side: "sent" }], order: "asc", after: 0, limit: 10 })).messages).toEqual([]);
    // No position named: nothing goes, and nothing is kept.
    expect(await store.deleteMessages(bob, [self, other], request, [])).toEqual({ pending: [] });
    expect(idsOf(await wholeMailbox(store, bob))).toEqual([self, other]);
    expect(await store.deleteMessages(bob, [self, other], request, [1, 3])).toEqual({ pending: [] });
    expect(await wholeMailbox(store, bob)).toEqual([]);
    expect((await wholeLog(store, bob)).map(({ removal }) => removal)).toEqual([deleted, deleted, deleted]);
  });

  it("a message's record by id, and its id by timestamp and digest, while the node keeps it", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const message = testMessage(alice, bob);
    const { stored } = await store.append(message);
    const digest = toHex(message.digest);
    expect(await store.messageRecord(stored.id)).toEqual({ id: stored.id, from: alice, to: bob, timestamp: message.timestamp, digest });
    expect(await store.messageIdOf(message.timestamp, digest)).toBe(stored.id);
    expect(await store.messageIdOf(message.timestamp + 1, digest)).toBeUndefined();
    expect(await store.messageIdOf(message.timestamp, `0x${"00".repeat(32)}`)).toBeUndefined();
    expect(await store.messageRecord(stored.id + 1_000_000)).toBeUndefined();
    // With the recipient's copy deleted, the sender's still holds it.
    await store.deleteMessages(bob, [stored.id]);
    expect(await store.messageIdOf(message.timestamp, digest)).toBe(stored.id);
    expect(await store.messageRecord(stored.id)).toMatchObject({ from: alice, to: bob });
  });

  it("keeps a former home's head per node, the largest given, in the order nodes were first given; refuses another node past the limit", async () => {
    const store = area.store;
    const { alice } = parties();
    const [x, y, z] = [randomAddress(), randomAddress(), randomAddress()];
    const head = (node: string, size: number) => JSON.stringify({ node, size });
    expect(await store.priorHeads(alice)).toEqual([]);
    expect(await store.putPriorHead(alice, x, 5, head(x, 5), 2)).toBe("kept");
    expect(await store.putPriorHead(alice, y, 3, head(y, 3), 2)).toBe("kept");
    expect(await store.priorHeads(alice)).toEqual([head(x, 5), head(y, 3)]);
    // At the limit: a third node is refused; the nodes kept take larger heads, not smaller ones.
    expect(await store.putPriorHead(alice, z, 1, head(z, 1), 2)).toBe("full");
    expect(await store.putPriorHead(alice, x, 4, head(x, 4), 2)).toBe("kept");
    expect(await store.putPriorHead(alice, x, 9, head(x, 9), 2)).toBe("kept");
    expect(await store.priorHeads(alice)).toEqual([head(x, 9), head(y, 3)]);
    // One past the limit, counted per account.
    expect(await store.putPriorHead(alice, z, 1, head(z, 1), 3)).toBe("kept");
    expect(await store.priorHeads(alice)).toEqual([head(x, 9), head(y, 3), head(z, 1)]);
    expect(await store.priorHeads(parties().bob)).toEqual([]);
  });

  it("the log with its messages gives each copy still stored as reads serve it, and none of a copy gone", async () => {
    const store = area.store;
    const { alice, bob } = parties();
    const toBob = (await store.append(testMessage(alice, bob))).stored.id;
    const self = (await store.append(testMessage(alice, alice))).stored.id;
    const gone = (await store.append(testMessage(bob, alice))).stored.id;
    const request = JSON.stringify({ account: alice, ids: [String(gone)] });
    await store.deleteMessages(alice, [gone], request);
    const served = async (side: "sent" | "received") => (await store.page({ owner: alice, ranges: [{ side }], order: "asc", after: 0, limit: 10 })).messages;
    const [sent, received] = [await served("sent"), await served("received")];
    const json = (id: number, copies: { id: number; json: string }[]) => copies.find((copy) => copy.id === id)!.json;
    const log = await store.log(alice, 1, 100, { messages: true });
    expect(log.map(({ seq, id, role, json, removal }) => ({ seq, id, role, json, removal }))).toEqual([
      { seq: 1, id: toBob, role: "sent", json: json(toBob, sent), removal: undefined },
      { seq: 2, id: self, role: "received", json: json(self, received), removal: undefined },
      { seq: 3, id: self, role: "sent", json: json(self, sent), removal: undefined },
      { seq: 4, id: gone, role: "received", json: undefined, removal: { reason: "deleted", request } },
    ]);
    // Without messages: the same positions, no JSON.
    expect(await store.log(alice, 1, 100)).toEqual(log.map(({ json: _json, ...entry }) => entry));
  });

  it("a deletion refused because a message is still pending keeps no request", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const local = (await store.append(testMessage(alice, bob))).stored.id;
    const outbound = (await store.append({ ...testMessage(alice, carol), status: "pending", route: { kind: "outbound", destination: randomAddress() } })).stored.id;
    const request = JSON.stringify({ account: alice, ids: [String(local), String(outbound)] });
    expect(await store.deleteMessages(alice, [local, outbound], request)).toEqual({ pending: [outbound] });
    expect((await wholeLog(store, alice)).map((entry) => entry.removal)).toEqual([undefined, undefined]);
  });
}

/** Positions through imports, sweeps and a restart: each on a store of its own (sweeps and reopening are store-wide). */
export function positionLifecycleTests(area: StorePerTest): void {
  const imported = (message: TestMessage) => ({ fields: { ...message, receiverReceipt: message.receiverReceipt! }, digest: message.digest });

  it("an import gives each new copy the next position (also one added under an older id); importing again adds none", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    // Bob is homed here and received alice's message from her former node; then carol writes to alice here.
    const delivered = testMessage(alice, bob, { route: { kind: "inbound" } });
    const held = (await store.append(delivered)).stored.id;
    const fromCarol = testMessage(carol, alice);
    const carolsId = (await store.append(fromCarol)).stored.id;
    // Alice moves here: her history brings her sent copy of the delivered message (its id is older) and a new one.
    const alicesCopy = { ...delivered, senderReceipt: randomSignature(), receiverReceipt: randomSignature() };
    const older = testMessage(bob, alice);
    const answered = await store.importMessages(alice, [imported(alicesCopy), imported(older)]);
    expect(answered.map(({ created }) => created)).toEqual([true, true]);
    expect(answered[0]!.id).toBe(held);
    const expected = expectedLog(alice, [
      { id: carolsId, message: fromCarol, role: "received" },
      { id: held, message: delivered, role: "sent" },
      { id: answered[1]!.id, message: older, role: "received" },
    ]);
    expect(await wholeLog(store, alice)).toEqual(expected);
    await store.importMessages(alice, [imported(alicesCopy), imported(older)]);
    expect(await wholeLog(store, alice)).toEqual(expected);
    // Bob's log: only his received copy of the delivered message; the import was alice's.
    expect(await wholeLog(store, bob)).toEqual(expectedLog(bob, [{ id: held, message: delivered, role: "received" }]));
  });

  it("a copy imported under an older id than the newest on its side counts as the last position: the next append takes the one after it", async () => {
    const store = area.store;
    const { alice, bob, carol } = parties();
    const delivered = testMessage(alice, bob, { route: { kind: "inbound" } });
    const held = (await store.append(delivered)).stored.id;
    // Alice writes carol here (a newer id), then her history brings her sent copy of the older message.
    const later = testMessage(alice, carol);
    const laterId = (await store.append(later)).stored.id;
    const alicesCopy = { ...delivered, senderReceipt: randomSignature(), receiverReceipt: randomSignature() };
    expect((await store.importMessages(alice, [imported(alicesCopy)]))[0]).toMatchObject({ id: held, created: true });
    const next = testMessage(alice, carol);
    const nextId = (await store.append(next)).stored.id;
    expect(await wholeLog(store, alice)).toEqual(
      expectedLog(alice, [
        { id: laterId, message: later, role: "sent" },
        { id: held, message: delivered, role: "sent" },
        { id: nextId, message: next, role: "sent" },
      ]),
    );
    expect(await store.logSize(alice)).toBe(3);
  });

  it("copies swept for their sender's end keep their positions, with what recomputes their leaves without the body; numbering goes on after a restart", async (context) => {
    let store = area.store;
    const { alice, bob } = parties();
    const message = testMessage(alice, bob, { expires: Date.now() + 60_000 });
    const { from, to, timestamp, expires } = message;
    // The sender's real digest, so that the kept fields can be checked against the leaf.
    const ending = { ...message, digest: hashTypedData({ primaryType: "ExpiringMessage", message: { from: from as Hex, to: to as Hex, message: `0x${message.message}`, timestamp, expires: expires! } }) };
    await store.append(testMessage(alice, bob));
    await store.append(ending);
    const before = [await wholeLog(store, alice), await wholeLog(store, bob)];
    expect(await store.sweepSenderExpired(100, expires!)).toBe(1);
    const expired = { reason: "expired", from, to, timestamp, expires, messageHash: toHex(keccak_256(fromHex(message.message))) };
    const after = before.map((log) => [log[0], { ...log[1]!, removal: expired }]);
    expect([await wholeLog(store, alice), await wholeLog(store, bob)]).toEqual(after);
    // What was kept gives each position's leaf (the sender's digest) without the body.
    const digest = expiredMessageDigest({ from, to, messageHash: expired.messageHash, timestamp, expires: expires! });
    expect(toHex(mailboxLeafHash({ account: alice, seq: 2, role: "sent", peer: bob, digest }))).toBe(after[0]![1]!.leafHash);
    expect(toHex(mailboxLeafHash({ account: bob, seq: 2, role: "received", peer: alice, digest }))).toBe(after[1]![1]!.leafHash);
    store = await area.reopen(context);
    expect(await wholeLog(store, bob)).toEqual(after[1]);
    const next = testMessage(alice, bob);
    const id = (await store.append(next)).stored.id;
    expect(await wholeLog(store, bob)).toEqual([...after[1]!, expectedEntry(bob, 3, { id, message: next, role: "received" })]);
  });
}
