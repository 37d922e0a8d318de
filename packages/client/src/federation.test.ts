// The SDK across a federation: three real relays on loopback, each a peer of the others. Alice is
// homed at A, Bob at B, Carol at C (whose deliveries give up after a second).
import { recoverDigestSigner, signDigest } from "@neutral/protocol/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createNeutralServiceClient } from "./generated/methods.js";
import type { HomeRecord, LogPosition, Message } from "./generated/types.js";
import { memoryHeadStore } from "./context.js";
import { isValidHomeRecord } from "./home.js";
import { messageDigest, type DecryptedMessage } from "./messages.js";
import { createNeutral, type Neutral } from "./neutral.js";
import { exportMailbox, importMailbox, type MailboxHeader } from "./export.js";
import { startFederation, type FederatedNode, type Federation } from "@neutral/relay/testing";
import { startTamperingProxy, type TamperingProxy } from "../test/tampering-proxy.js";
import { privateKeyToAccount, TEST_KEYS } from "../test/wallet.js";
import { receiptHashOf } from "../test/receipts.js";

const SLOW = 120_000;
const addressOf = (key: `0x${string}`) => privateKeyToAccount(key).address.toLowerCase();
const aliceAddress = addressOf(TEST_KEYS.alice);
const bobAddress = addressOf(TEST_KEYS.bob);
const carolAddress = addressOf(TEST_KEYS.carol);

let federation: Federation;
let a: FederatedNode;
let b: FederatedNode;
let c: FederatedNode;
let proxy: TamperingProxy;
let alice: Neutral;
let bob: Neutral;
let carol: Neutral;

beforeAll(async () => {
  federation = await startFederation({
    inProcess: true,
    keys: [TEST_KEYS.node, TEST_KEYS.peer, TEST_KEYS.mallory],
    // A node that comes back is retried within half a second.
    args: ["--retry-backoff-ms", "100", "--retry-backoff-max-ms", "500", "--delivery-wait-ms", "3000"],
    // C gives up on a message after a second, and answers a send at once.
    argsOf: (index) => (index === 2 ? ["--retry-period", "1", "--delivery-wait-ms", "0"] : []),
  });
  [a, b, c] = federation.nodes as [FederatedNode, FederatedNode, FederatedNode];
  proxy = await startTamperingProxy(b.url);
  alice = createNeutral({ url: a.url, account: TEST_KEYS.alice });
  bob = createNeutral({ url: b.url, account: TEST_KEYS.bob });
  carol = createNeutral({ url: c.url, account: TEST_KEYS.carol });
}, SLOW);

afterAll(async () => {
  await proxy?.close();
  await federation?.close();
}, SLOW);

/** The node that signed a receipt, recovered independently of the SDK. */
function receiptSigner(message: Message, role: "sender" | "receiver"): string | undefined {
  const receipt = role === "sender" ? message.sender_receipt : message.receiver_receipt;
  if (receipt === undefined) return undefined;
  return recoverDigestSigner(receiptHashOf(message, role), receipt);
}

async function find(pages: AsyncIterable<DecryptedMessage>, text: string): Promise<DecryptedMessage | undefined> {
  for await (const message of pages) if (message.text === text) return message;
  return undefined;
}

const ALL_CHECKS = { decrypted: true, signature: true, senderReceipt: true, receiverReceipt: true };

describe("ready() makes the node the account's home", () => {
  it("publishes a home record naming the node, signed by the account, that every node of the federation answers", async () => {
    await Promise.all([alice.ready(), bob.ready(), carol.ready()]);
    const record = await alice.homeOf(aliceAddress);
    expect(record).toMatchObject({ account: aliceAddress, node: a.address });
    expect(isValidHomeRecord(record!, aliceAddress)).toBe(true);
    // Asked anywhere, the newest record is the same: B and C learn it from A.
    for (const node of [b, c]) {
      const served = await createNeutralServiceClient({ url: node.url }).getHome({ account: aliceAddress });
      expect(served).toEqual(record);
    }
    expect(await alice.homeOf(bobAddress)).toMatchObject({ account: bobAddress, node: b.address });
    expect(await bob.homeOf(carolAddress)).toMatchObject({ account: carolAddress, node: c.address });
  }, SLOW);

  it("does not publish again when the newest record already names the node", async () => {
    const before = await alice.homeOf(aliceAddress);
    const again = createNeutral({ url: a.url, account: TEST_KEYS.alice });
    await again.ready();
    expect(await again.homeOf(aliceAddress)).toEqual(before);
  }, SLOW);
});

describe("a message between two nodes", () => {
  it("is delivered at once while both nodes are up, and both sides verify it against the right nodes", async () => {
    const sent = await alice.send(bobAddress, "hello from A");
    expect(sent).toMatchObject({ direction: "sent", status: "delivered", verified: true, checks: ALL_CHECKS, problems: [] });
    expect(sent.raw.status).toBeUndefined();
    expect(receiptSigner(sent.raw, "sender")).toBe(a.address);
    expect(receiptSigner(sent.raw, "receiver")).toBe(b.address);

    const received = await find(bob.inbox({ from: aliceAddress }).messages(), "hello from A");
    expect(received).toMatchObject({ direction: "received", status: "delivered", verified: true, checks: ALL_CHECKS, problems: [] });
    expect(receiptSigner(received!.raw, "sender")).toBe(a.address);
    expect(receiptSigner(received!.raw, "receiver")).toBe(b.address);

    // And back, from B to A; Alice's copy of what she sent reads as delivered too.
    await bob.send(aliceAddress, "hello from B");
    const reply = await find(alice.inbox().messages(), "hello from B");
    expect(reply).toMatchObject({ verified: true, status: "delivered", checks: ALL_CHECKS });
    expect(receiptSigner(reply!.raw, "sender")).toBe(b.address);
    const copy = await find(alice.inbox({ direction: "sent" }).messages(), "hello from A");
    expect(copy).toMatchObject({ id: sent.id, verified: true, status: "delivered" });
  }, SLOW);

  it("flags a receipt signed by another node than the one the home record names, saying which and whose", async () => {
    const viaProxy = () => createNeutral({ url: proxy.url, account: TEST_KEYS.bob, domain: b.domain });
    const resign = (role: "sender" | "receiver", key: `0x${string}`) => (method: string, result: unknown) => {
      if (method !== "neutralService_getInbox") return result;
      const [page] = result as [{ data: Message[] }];
      const data = page.data.map((message) => {
        const receipt = signDigest(receiptHashOf(message, role), key);
        return { ...message, [`${role}_receipt`]: receipt };
      });
      return [{ ...page, data }];
    };
    try {
      // The sender receipt signed by B, the node Bob talks to: the rule of a single node would take
      // it, but Alice's home record names A.
      proxy.rewrite = resign("sender", TEST_KEYS.peer);
      const forged = await find(viaProxy().inbox({ from: aliceAddress }).messages(), "hello from A");
      expect(forged!.checks).toEqual({ ...ALL_CHECKS, senderReceipt: false });
      expect(forged!.verified).toBe(false);
      expect(forged!.problems).toEqual([`the sender receipt is signed by ${b.address}, not by the sender's home node ${a.address} (named in ${aliceAddress}'s home record)`]);

      // The receiver receipt signed by A, the sender's node: Bob's record names B.
      proxy.rewrite = resign("receiver", TEST_KEYS.node);
      const swapped = await find(viaProxy().inbox({ from: aliceAddress }).messages(), "hello from A");
      expect(swapped!.checks).toEqual({ ...ALL_CHECKS, receiverReceipt: false });
      expect(swapped!.problems).toEqual([`the receiver receipt is signed by ${a.address}, not by the recipient's home node ${b.address} (named in ${bobAddress}'s home record)`]);

      // A node trusted by the reader is accepted whatever the record says.
      const trusting = createNeutral({ url: proxy.url, account: TEST_KEYS.bob, domain: b.domain, trustedNodes: [a.address] });
      expect((await find(trusting.inbox({ from: aliceAddress }).messages(), "hello from A"))!.verified).toBe(true);
    } finally {
      proxy.rewrite = undefined;
    }
  }, SLOW);

  it("does not believe a home record the account did not sign", async () => {
    const honest = (await bob.homeOf(aliceAddress))!;
    const forged: HomeRecord = { ...honest, node: b.address, timestamp: honest.timestamp + 1 }; // Alice's signature no longer matches
    proxy.rewrite = (method, result) => (method === "neutralService_getHome" ? [forged] : result);
    try {
      const viaProxy = createNeutral({ url: proxy.url, account: TEST_KEYS.bob, domain: b.domain });
      await expect(viaProxy.homeOf(aliceAddress)).rejects.toMatchObject({ name: "NeutralError", code: "INVALID_HOME_RECORD" });
      // Reading, the forged record is ignored: Alice counts as having no record, so her node's
      // receipt is judged by the single-node rule, and says so.
      const message = await find(viaProxy.inbox({ from: aliceAddress }).messages(), "hello from A");
      expect(message!.checks.senderReceipt).toBe(false);
      expect(message!.problems).toEqual([`the sender receipt is signed by ${a.address}, not by this session's node ${b.address} (${aliceAddress} has no home record)`]);
    } finally {
      proxy.rewrite = undefined;
    }
  }, SLOW);
});

describe("while the recipient's node is down", () => {
  it("a send answers pending; after the node restarts it is delivered and waitForDelivery resolves", async () => {
    // C learns Bob's key while B is up (a node keeps what its peers said for a while).
    expect(await carol.keyOf(bobAddress)).toMatchObject({ account: bobAddress });
    await b.stop();

    const pending = await alice.send(bobAddress, "sent while B is down");
    expect(pending).toMatchObject({ status: "pending", verified: false, text: "sent while B is down" });
    expect(pending.reason).toBeUndefined();
    expect(pending.raw.receiver_receipt).toBeUndefined();
    expect(pending.checks).toEqual({ ...ALL_CHECKS, receiverReceipt: false });
    expect(pending.problems).toEqual([`not delivered yet: the recipient's home node ${b.address} has not stored it (no receiver receipt so far)`]);
    const listed = await find(alice.inbox({ direction: "sent" }).messages(), "sent while B is down");
    expect(listed).toMatchObject({ id: pending.id, status: "pending" });

    // A deadline resolves with the message as it is; a signal rejects with its reason.
    expect(await alice.waitForDelivery(pending, { timeoutMs: 300 })).toMatchObject({ id: pending.id, status: "pending" });
    await expect(alice.waitForDelivery(pending, { signal: AbortSignal.timeout(300) })).rejects.toMatchObject({ name: "TimeoutError" });
    const aborted = new AbortController();
    aborted.abort();
    await expect(alice.waitForDelivery(pending, { signal: aborted.signal })).rejects.toMatchObject({ name: "AbortError" });

    // C gives up after its retry period: the message fails, with the node's reason.
    const doomed = await carol.send(bobAddress, "from C, never delivered");
    expect(doomed.status).toBe("pending");
    const failed = await carol.waitForDelivery(doomed, { timeoutMs: 60_000, intervalMs: 200 });
    expect(failed).toMatchObject({ id: doomed.id, status: "failed", verified: false, checks: { ...ALL_CHECKS, receiverReceipt: false } });
    expect(failed.reason).toMatch(/not delivered to the recipient's node/);
    expect(failed.problems).toEqual([`delivery failed: ${failed.reason}`]);

    const waiting = alice.waitForDelivery(pending, { timeoutMs: 90_000, intervalMs: 200 });
    await b.start(); // same port, key and data dir
    const delivered = await waiting;
    expect(delivered).toMatchObject({ id: pending.id, status: "delivered", verified: true, checks: ALL_CHECKS, problems: [] });
    expect(receiptSigner(delivered.raw, "receiver")).toBe(b.address);

    const received = await find(bob.inbox({ from: aliceAddress }).messages(), "sent while B is down");
    expect(received).toMatchObject({ verified: true, status: "delivered" });
    expect(await find(bob.inbox({ from: carolAddress }).messages(), "from C, never delivered")).toBeUndefined();
    // A message that is not pending resolves at once, as it is.
    expect(await alice.waitForDelivery(delivered, { timeoutMs: 0 })).toBe(delivered);
    // Every log accounted for, a copy that failed and a late delivery included: no false alarm.
    for (const session of [alice, bob, carol]) expect((await session.audit()).problems).toEqual([]);
  }, SLOW);
});

describe("moving home", () => {
  it("a session on another node moves the account there, its key bundle with it", async () => {
    const moved = createNeutral({ url: c.url, account: TEST_KEYS.bob });
    await moved.ready();
    expect(await moved.homeOf(bobAddress)).toMatchObject({ node: c.address });
    // C tells its peers of the new record (in the background).
    await vi.waitFor(async () => expect(await alice.homeOf(bobAddress)).toMatchObject({ node: c.address }), { timeout: 20_000, interval: 200 });
    expect(await moved.keyOf(bobAddress)).toMatchObject({ account: bobAddress });
    // What Alice sends now goes to C, and Bob reads it there, verified against C (Alice's session had
    // Bob's record naming B cached: a receipt that does not match it has the record asked for again).
    const sent = await alice.send(bobAddress, "to Bob at C");
    expect(sent).toMatchObject({ status: "delivered", verified: true });
    expect(receiptSigner(sent.raw, "receiver")).toBe(c.address);
    expect(await find(moved.inbox({ from: aliceAddress }).messages(), "to Bob at C")).toMatchObject({ verified: true });
  }, SLOW);

  it("takes the account's history along: exported from the former home, imported at the new one, every message with its original receipts", async () => {
    // Bob's mailbox at B, as he exports it there (B still serves it after the move).
    const lines: string[] = [];
    for await (const line of exportMailbox(bob)) lines.push(line);
    const { head } = JSON.parse(lines[0]!) as MailboxHeader;
    const exported = lines.slice(1).flatMap((line) => (JSON.parse(line) as LogPosition).message ?? []);
    const history = exported.filter((message) => message.status === undefined && message.receiver_receipt !== undefined);
    expect(history.length).toBeGreaterThan(1);
    // At C, trusting B for the receipts it signed while it was Bob's home; this device verified B's head
    // of Bob's log when it exported there.
    const device = memoryHeadStore();
    await device.set(bobAddress, b.address, head!);
    const atC = createNeutral({ url: c.url, account: TEST_KEYS.bob, trustedNodes: [b.address], heads: device });
    const before = await collectAll(atC.inbox({ direction: "all" }).messages());
    const result = await importMailbox(atC, lines, { heads: device });
    expect(result).toEqual({
      imported: history.length,
      skipped: exported.filter((message) => !history.includes(message)).map((message) => expect.objectContaining({ id: message.id })),
      head,
      problems: [],
    });
    // C keeps B's head as Bob's prior history, and answers it with his log.
    expect((await atC.client.getLog({ limit: 1 })).prior).toEqual([head]);
    const after = await collectAll(atC.inbox({ direction: "all" }).messages());
    expect(after).toHaveLength(before.length + history.length);
    const bySignature = new Map(after.map((message) => [message.raw.signature, message]));
    for (const original of history) {
      const here = bySignature.get(original.signature)!;
      // The same message and receipts, under C's id; readable and verified.
      expect({ ...here.raw, id: original.id }).toEqual(original);
      expect(here).toMatchObject({ verified: true, problems: [] });
      expect([receiptSigner(here.raw, "sender"), receiptSigner(here.raw, "receiver")]).toContain(b.address);
    }
    // The imported history has its positions at C: the audit accounts for them, receipts of B's included.
    const audited = await atC.audit();
    expect(audited.problems).toEqual([]);
    expect(audited.accounted).toEqual({ message: audited.to, deleted: 0, expired: 0, retention: 0 });
    expect(audited.to).toBeGreaterThanOrEqual(history.length);
    // Again: nothing twice.
    expect((await importMailbox(atC, lines)).imported).toBe(history.length);
    // An export with a position left out still brings its messages, but not the head: its log does not give it.
    const cut = await importMailbox(atC, [lines[0]!, ...lines.slice(2)], { heads: device });
    expect(cut).toMatchObject({ head: null, problems: [expect.objectContaining({ line: 2, kind: "reordered", seq: 1 })] });
    expect(await collectAll(atC.inbox({ direction: "all" }).messages())).toHaveLength(after.length);
    // Someone else's export is refused before any call.
    const alicesLines: string[] = [];
    for await (const line of exportMailbox(alice)) alicesLines.push(line);
    await expect(importMailbox(atC, alicesLines)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  }, SLOW);
});

async function collectAll<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
