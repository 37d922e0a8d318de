// Receipts bound to positions on the SQLite store (spec 3.0.0), beyond the store conformance suite's
// ("receipts bound to positions"): the writer signs in the batch's transaction, so a batch of every
// kind of append, a duplicate in it and an import of the same message in it are checked here, and a
// store whose writer started without the key.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { randomAddress, randomDigest, randomSignature } from "../../testing/store-conformance.js";
import { receiptDigest } from "../crypto/eip712.js";
import { loadSecp256k1 } from "../crypto/secp256k1.js";
import type { AcceptedMessage } from "../message.js";
import { openSqliteStore } from "./sqlite.js";
import type { AppendResult, MessageStore } from "./store.js";

const curve = loadSecp256k1();
const key = new Uint8Array(randomBytes(32));
const nodeAddress = curve.addressOf(key);

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

let clock = 1_767_225_600_000;
/** A message without the receipts this node owes: the store signs them. */
const unsigned = (from: string, to: string, extra: Partial<AcceptedMessage> = {}): AcceptedMessage => ({
  from,
  to,
  message: randomBytes(20).toString("hex"),
  timestamp: clock++,
  signature: randomSignature(),
  digest: randomDigest(),
  ...extra,
});

interface Wire {
  id: string;
  from: string;
  to: string;
  sender_receipt: string;
  sender_seq?: number;
  receiver_receipt?: string;
  receiver_seq?: number;
}

/** Checks `result`'s receipts: each this node signed recovers to its key over the position its copy holds in the log. */
async function expectBound(store: MessageStore, message: AcceptedMessage, result: AppendResult, roles: ("sender" | "receiver")[]) {
  const json = JSON.parse(result.stored.json) as Wire;
  for (const role of roles) {
    const [owner, logRole, receipt, seq] = role === "sender" ? [message.from, "sent", json.sender_receipt, json.sender_seq] : [message.to, "received", json.receiver_receipt, json.receiver_seq];
    expect(seq, role).toBeGreaterThan(0);
    const held = (await store.positions(owner, [result.stored.id])).filter((entry) => entry.role === logRole);
    expect(held.map((entry) => entry.seq), role).toEqual([seq]);
    expect(curve.recoverAddress(receiptDigest(message.digest, role, seq), Buffer.from(receipt!.slice(2), "hex")), role).toBe(nodeAddress);
  }
}

describe("receipts bound to positions, SQLite", () => {
  it("one batch of many kinds of appends: every receipt over its copy's position; a duplicate in the batch answered the same JSON", { timeout: 30_000 }, async () => {
    const store = open(key);
    const people = Array.from({ length: 5 }, randomAddress);
    const peer = randomAddress();
    const local = Array.from({ length: 12 }, (_, i) => unsigned(people[i % 5]!, people[(i + 1) % 5]!));
    const own = unsigned(people[0]!, people[0]!);
    const outbound = unsigned(people[1]!, randomAddress(), { status: "pending", route: { kind: "outbound", destination: peer } });
    const inbound = unsigned(randomAddress(), people[2]!, { senderReceipt: randomSignature(), senderSeq: 41, route: { kind: "inbound" } });
    const request = unsigned(people[3]!, people[4]!, { folder: "requests" });
    const all = [...local, own, outbound, inbound, request];
    // One event-loop turn: one batch for the writer, the duplicate last.
    const results = await Promise.all([...all.map((message) => store.append(message)), store.append({ ...local[0]!, digest: new Uint8Array(local[0]!.digest) })]);
    const duplicate = results.pop()!;
    expect(duplicate).toEqual({ stored: results[0]!.stored, created: false });
    for (const [i, message] of local.entries()) await expectBound(store, message, results[i]!, ["sender", "receiver"]);
    await expectBound(store, own, results[12]!, ["sender", "receiver"]);
    const ownJson = JSON.parse(results[12]!.stored.json) as Wire;
    expect(ownJson.sender_seq).toBe(ownJson.receiver_seq! + 1); // two copies, received first
    await expectBound(store, outbound, results[13]!, ["sender"]);
    expect(JSON.parse(results[13]!.stored.json)).not.toHaveProperty("receiver_receipt");
    await expectBound(store, inbound, results[14]!, ["receiver"]);
    expect(JSON.parse(results[14]!.stored.json)).toMatchObject({ sender_receipt: inbound.senderReceipt, sender_seq: 41 });
    await expectBound(store, request, results[15]!, ["sender", "receiver"]);
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
    const earlier = Array.from({ length: 8 }, () => unsigned(alice, bob));
    const message = unsigned(alice, bob);
    const importing = { fields: { ...message, senderReceipt: randomSignature(), receiverReceipt: randomSignature() }, digest: message.digest };
    const [, , stored, imported] = await Promise.all([Promise.all(earlier.map((one) => store.append(one))), Promise.resolve(), store.append(message), store.importMessages(bob, [importing])]);
    expect(imported).toEqual([{ ...stored.stored, created: false }]);
    await expectBound(store, message, stored, ["sender", "receiver"]);
  });

  it("a store not given the node's key refuses an append whose receipts it would sign, and stores nothing", { timeout: 30_000 }, async () => {
    const store = open();
    const [alice, bob] = [randomAddress(), randomAddress()];
    await expect(store.append(unsigned(alice, bob))).rejects.toThrow(/receiptKey/);
    expect(await store.page({ owner: bob, ranges: [{ side: "received" }], order: "desc", limit: 10 })).toMatchObject({ messages: [] });
    expect(await store.positions(bob, [1])).toEqual([]);
    // Its writer started without the key: too late to give it one.
    expect(() => store.useReceiptKey(key)).toThrow(/started without the node's key/);
  });
});
