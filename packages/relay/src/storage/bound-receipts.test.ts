// Receipts bound to positions on the SQLite store (spec 3.0.0), beyond the store conformance suite's
// ("receipts bound to positions"): the writer signs in the batch's transaction, so a batch of every
// kind of append, a duplicate in it and an import of the same message in it are checked here, and a
// store whose writer started without the key.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CONFORMANCE_NODE_KEY, expectBoundReceipts, randomAddress, randomSignature, unsignedTestMessage } from "../../testing/store-conformance.js";
import { openSqliteStore } from "./sqlite.js";
import type { MessageStore } from "./store.js";

const key = Uint8Array.from(CONFORMANCE_NODE_KEY);

let dir: string | undefined;
let store: MessageStore | undefined;
afterEach(async () => {
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  store = undefined;
  dir = undefined;
});
const open = (receiptKey?: Uint8Array) => {
  dir = mkdtempSync(path.join(os.tmpdir(), "neutral-bound-"));
  store = openSqliteStore({ file: path.join(dir, "neutral.sqlite"), synchronous: "normal", ...(receiptKey && { receiptKey }) });
  return store;
};

describe("receipts bound to positions, SQLite", () => {
  it("one batch of many kinds of appends: every receipt over its copy's position; a duplicate in the batch answered the same JSON", { timeout: 30_000 }, async () => {
    const store = open(key);
    const people = Array.from({ length: 5 }, randomAddress);
    const peer = randomAddress();
    const local = Array.from({ length: 12 }, (_, i) => unsignedTestMessage(people[i % 5]!, people[(i + 1) % 5]!));
    const own = unsignedTestMessage(people[0]!, people[0]!);
    const outbound = unsignedTestMessage(people[1]!, randomAddress(), { status: "pending", route: { kind: "outbound", destination: peer } });
    const inbound = unsignedTestMessage(randomAddress(), people[2]!, { senderReceipt: randomSignature(), senderSeq: 41, route: { kind: "inbound" } });
    const request = unsignedTestMessage(people[3]!, people[4]!, { folder: "requests" });
    const all = [...local, own, outbound, inbound, request];
    // One event-loop turn: one batch for the writer, the duplicate last.
    const results = await Promise.all([...all.map((message) => store.append(message)), store.append({ ...local[0]!, digest: new Uint8Array(local[0]!.digest) })]);
    const duplicate = results.pop()!;
    expect(duplicate).toEqual({ stored: results[0]!.stored, created: false });
    for (const [i, message] of local.entries()) await expectBoundReceipts(store, message, results[i]!, ["sender", "receiver"]);
    await expectBoundReceipts(store, own, results[12]!, ["sender", "receiver"]);
    const ownJson = JSON.parse(results[12]!.stored.json) as { sender_seq: number; receiver_seq: number };
    expect(ownJson.sender_seq).toBe(ownJson.receiver_seq! + 1); // two copies, received first
    await expectBoundReceipts(store, outbound, results[13]!, ["sender"]);
    expect(JSON.parse(results[13]!.stored.json)).not.toHaveProperty("receiver_receipt");
    await expectBoundReceipts(store, inbound, results[14]!, ["receiver"]);
    expect(JSON.parse(results[14]!.stored.json)).toMatchObject({ sender_receipt: inbound.senderReceipt, sender_seq: 41 });
    await expectBoundReceipts(store, request, results[15]!, ["sender", "receiver"]);
    // Reads serve what the append answered.
    for (const [i, message] of all.entries()) {
      if (message.route?.kind === "outbound") continue;
      const page = await store.page({ owner: message.to, ranges: [{ side: message.folder === "requests" ? "requests" : "received" }], order: "desc", limit: 100 });
      expect(page.messages).toContainEqual(results[i]!.stored);
    }
  });

  it("an import in the same batch as the append of the same message finds the copy the append stored", { timeout: 30_000 }, async () => {
    const store = open(key);
    const [alice, bob] = [randomAddress(), randomAddress()];
    const earlier = Array.from({ length: 8 }, () => unsignedTestMessage(alice, bob));
    const message = unsignedTestMessage(alice, bob);
    const importing = { fields: { ...message, senderReceipt: randomSignature(), receiverReceipt: randomSignature() }, digest: message.digest };
    const [, , stored, imported] = await Promise.all([Promise.all(earlier.map((one) => store.append(one))), Promise.resolve(), store.append(message), store.importMessages(bob, [importing])]);
    expect(imported).toEqual([{ ...stored.stored, created: false }]);
    await expectBoundReceipts(store, message, stored, ["sender", "receiver"]);
  });

  it("a store not given the node's key refuses an append whose receipts it would sign, and stores nothing", { timeout: 30_000 }, async () => {
    const store = open();
    const [alice, bob] = [randomAddress(), randomAddress()];
    await expect(store.append(unsignedTestMessage(alice, bob))).rejects.toThrow(/receiptKey/);
    expect(await store.page({ owner: bob, ranges: [{ side: "received" }], order: "desc", limit: 10 })).toMatchObject({ messages: [] });
    expect(await store.positions(bob, [1])).toEqual([]);
    // Its writer started without the key: too late to give it one.
    expect(() => store.useReceiptKey(key)).toThrow(/started without the node's key/);
  });
});
