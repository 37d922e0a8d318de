// Exporting a mailbox and verifying it offline, across a federation of two real relays on loopback:
// Alice and Carol are homed at A, Bob at B. The export is made while the nodes run, then verified
// (and tampered with) once both are stopped: no network.
import { startFederation, type FederatedNode, type Federation } from "@neutral/relay/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportMailbox, verifyMailboxExport, type MailboxHeader } from "./export.js";
import type { HomeRecord, Message } from "./generated/types.js";
import { createNeutral, type Neutral } from "./neutral.js";
import { privateKeyToAccount, TEST_KEYS } from "../test/wallet.js";

const SLOW = 60_000;
/** Offline checks of a few lines: well under a second each, even on a loaded 2-core machine. */
const OFFLINE = 10_000;
const addressOf = (key: `0x${string}`) => privateKeyToAccount(key).address.toLowerCase();
const aliceAddress = addressOf(TEST_KEYS.alice);
const bobAddress = addressOf(TEST_KEYS.bob);
const carolAddress = addressOf(TEST_KEYS.carol);

let federation: Federation | undefined;
let a: FederatedNode;
let b: FederatedNode;
let alice: Neutral;
/** Alice's export, made while the nodes ran (limit 2: several pages). */
let lines: string[];
/** Sent while the export ran, after its first walk: not in it. */
let late: Message;

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

beforeAll(async () => {
  federation = await startFederation({ inProcess: true, keys: [TEST_KEYS.node, TEST_KEYS.peer] });
  [a, b] = federation.nodes as [FederatedNode, FederatedNode];
  alice = createNeutral({ url: a.url, account: TEST_KEYS.alice });
  const bob = createNeutral({ url: b.url, account: TEST_KEYS.bob });
  const carol = createNeutral({ url: a.url, account: TEST_KEYS.carol });
  await Promise.all([alice.ready(), bob.ready(), carol.ready()]);
  await alice.send(carolAddress, "to Carol, same node");
  await carol.send(aliceAddress, "from Carol");
  await alice.send(bobAddress, "to Bob, on B");
  await bob.send(aliceAddress, "from Bob, on B");
  await alice.send(bobAddress, "to Bob again");

  lines = [];
  for await (const line of exportMailbox(alice, { limit: 2 })) {
    // The header comes once the first walk is done: what is stored now is not exported.
    if (lines.length === 0) late = (await carol.send(aliceAddress, "too late for the export")).raw;
    lines.push(line);
  }
  await federation.close(); // everything below is offline
  federation = undefined;
}, SLOW);

afterAll(async () => {
  await federation?.close();
}, SLOW);

const header = () => JSON.parse(lines[0]!) as MailboxHeader;
const messagesOf = (exported: readonly string[]) => exported.slice(1).map((line) => JSON.parse(line) as Message);

describe("exportMailbox", () => {
  it("writes the header: account, node, its home record and key bundle, and every correspondent's home record", () => {
    const head = header();
    expect(head).toMatchObject({ format: "neutral-mailbox", version: 1, account: aliceAddress, node: a.address });
    expect(head.home).toMatchObject({ account: aliceAddress, node: a.address });
    expect(head.key).toMatchObject({ account: aliceAddress });
    expect(Object.keys(head.homes).sort()).toEqual([bobAddress, carolAddress].sort());
    expect(head.homes[bobAddress]).toMatchObject({ node: b.address });
    expect(head.homes[carolAddress]).toMatchObject({ node: a.address });
    expect(Math.abs(head.exportedAt - Date.now())).toBeLessThan(SLOW);
  }, OFFLINE);

  it("writes every message of both directions once, in id order, across pages, as the node served it", () => {
    const messages = messagesOf(lines);
    expect(messages.map((message) => [message.from, message.to])).toEqual([
      [aliceAddress, carolAddress],
      [carolAddress, aliceAddress],
      [aliceAddress, bobAddress],
      [bobAddress, aliceAddress],
      [aliceAddress, bobAddress],
    ]);
    const ids = messages.map((message) => BigInt(message.id));
    expect(ids).toEqual([...ids].sort((x, y) => (x < y ? -1 : 1)));
    expect(new Set(ids).size).toBe(ids.length);
    expect(messages.map((message) => message.id)).not.toContain(late.id);
    for (const message of messages) {
      expect(Object.keys(message)).toEqual(expect.arrayContaining(["id", "from", "to", "message", "timestamp", "signature", "sender_receipt", "receiver_receipt"]));
    }
  }, OFFLINE);
});

describe("verifyMailboxExport, offline", () => {
  it("verifies every message of an untouched export", async () => {
    const summary = await verifyMailboxExport(lines);
    expect(summary).toEqual({ account: aliceAddress, node: a.address, exportedAt: header().exportedAt, messages: 5, verified: 5, problems: [] });
    // An async iterable of lines, with a trailing empty line (a file's last newline), reads the same.
    const fromStream = await verifyMailboxExport((async function* () {
      yield* lines;
      yield "";
    })());
    expect(fromStream).toEqual(summary);
  }, OFFLINE);

  /** `lines` with message `index` (0-based, after the header) changed by `change`. */
  function tampered(index: number, change: (message: Record<string, unknown>) => void): { exported: string[]; id: string; line: number } {
    const exported = [...lines];
    const message = JSON.parse(exported[index + 1]!) as Record<string, unknown>;
    change(message);
    exported[index + 1] = JSON.stringify(message);
    return { exported, id: String(message.id), line: index + 2 };
  }

  it("flags a changed ciphertext on that message: its signature and both receipts no longer match", async () => {
    const { exported, id, line } = tampered(2, (message) => {
      const body = message.message as string;
      message.message = `${body.slice(0, -1)}${body.endsWith("0") ? "1" : "0"}`;
    });
    const summary = await verifyMailboxExport(exported);
    expect(summary).toMatchObject({ messages: 5, verified: 4 });
    expect(summary.problems.map((problem) => [problem.line, problem.id])).toEqual([
      [line, id],
      [line, id],
      [line, id],
    ]);
    expect(summary.problems[0]!.problem).toBe("the sender's signature does not match the message");
    expect(summary.problems[1]!.problem).toMatch(new RegExp(`^the sender receipt is signed by 0x[0-9a-f]{40}, not by the sender's home node ${a.address} \\(named in ${aliceAddress}'s home record\\)$`));
    expect(summary.problems[2]!.problem).toMatch(new RegExp(`^the receiver receipt is signed by 0x[0-9a-f]{40}, not by the recipient's home node ${b.address} \\(named in ${bobAddress}'s home record\\)$`));
  }, OFFLINE);

  it("flags a changed timestamp the same way", async () => {
    const { exported, id } = tampered(0, (message) => void (message.timestamp = (message.timestamp as number) + 1));
    const summary = await verifyMailboxExport(exported);
    expect(summary.verified).toBe(4);
    expect(new Set(summary.problems.map((problem) => problem.id))).toEqual(new Set([id]));
    expect(summary.problems[0]!.problem).toBe("the sender's signature does not match the message");
  }, OFFLINE);

  it("flags a receipt swapped for another message's, naming the receipt and the node expected", async () => {
    const other = messagesOf(lines)[4]!;
    const { exported, id, line } = tampered(2, (message) => void (message.receiver_receipt = other.receiver_receipt));
    const summary = await verifyMailboxExport(exported);
    expect(summary.verified).toBe(4);
    expect(summary.problems).toEqual([
      { line, id, problem: expect.stringMatching(new RegExp(`^the receiver receipt is signed by 0x[0-9a-f]{40}, not by the recipient's home node ${b.address} `)) },
    ]);
    // The sender's and the receiver's receipt swapped within one message: both flagged, nothing else.
    const swapped = tampered(3, (message) => {
      [message.sender_receipt, message.receiver_receipt] = [message.receiver_receipt, message.sender_receipt];
    });
    const twice = await verifyMailboxExport(swapped.exported);
    expect(twice.problems.map((problem) => [problem.id, problem.problem.slice(0, 20)])).toEqual([
      [swapped.id, "the sender receipt i"],
      [swapped.id, "the receiver receipt"],
    ]);
  }, OFFLINE);

  it("flags a removed signature or receipt as missing", async () => {
    const unsigned = tampered(1, (message) => delete message.signature);
    expect((await verifyMailboxExport(unsigned.exported)).problems).toEqual([{ line: unsigned.line, id: unsigned.id, problem: "the sender's signature is missing" }]);
    const noReceipt = tampered(4, (message) => delete message.receiver_receipt);
    expect((await verifyMailboxExport(noReceipt.exported)).problems).toEqual([{ line: noReceipt.line, id: noReceipt.id, problem: "the receiver receipt is missing" }]);
    const noSenderReceipt = tampered(0, (message) => delete message.sender_receipt);
    expect((await verifyMailboxExport(noSenderReceipt.exported)).problems).toEqual([{ line: noSenderReceipt.line, id: noSenderReceipt.id, problem: "the sender receipt is missing" }]);
  }, OFFLINE);

  it("flags a duplicated line, lines out of order, and a line that is not a message", async () => {
    const duplicated = [...lines.slice(0, 3), lines[2]!, ...lines.slice(3)];
    const id = messagesOf(lines)[1]!.id;
    const summary = await verifyMailboxExport(duplicated);
    expect(summary).toMatchObject({ messages: 6, verified: 5 });
    expect(summary.problems).toEqual([{ line: 4, id, problem: "a duplicate of the message on line 3" }]);

    const swapped = [lines[0]!, lines[2]!, lines[1]!, ...lines.slice(3)];
    const order = await verifyMailboxExport(swapped);
    expect(order.problems).toEqual([{ line: 3, id: messagesOf(lines)[0]!.id, problem: `out of id order: after ${messagesOf(lines)[1]!.id} (line 2)` }]);

    const broken = await verifyMailboxExport([...lines, "{not json"]);
    expect(broken).toMatchObject({ messages: 6, verified: 5, problems: [{ line: 7, id: null, problem: "the line is not JSON" }] });
  }, OFFLINE);

  it("judges receipts by the header's home records: one the account did not sign is ignored, and its receipts flagged", async () => {
    const head = header();
    const forged: HomeRecord = { ...head.homes[bobAddress]!, node: a.address };
    const exported = [JSON.stringify({ ...head, homes: { ...head.homes, [bobAddress]: forged } }), ...lines.slice(1)];
    const summary = await verifyMailboxExport(exported);
    expect(summary.problems[0]).toEqual({ line: 1, id: null, problem: `the home record of ${bobAddress} is not signed by ${bobAddress}: ignored` });
    // Bob now counts as having no record, homed at the export's node (A): his node's receipts are not A's.
    const bobs = messagesOf(lines).filter((message) => message.from === bobAddress || message.to === bobAddress).map((message) => message.id);
    expect(new Set(summary.problems.slice(1).map((problem) => problem.id))).toEqual(new Set(bobs));
    expect(summary.problems[1]!.problem).toMatch(/not by this session's node .* has no home record\)$/);
    expect(summary.verified).toBe(5 - bobs.length);

    // A node trusted by the reader is accepted whatever the records say, as in the live checks.
    expect((await verifyMailboxExport(exported, { trustedNodes: [b.address] })).verified).toBe(5);
  }, OFFLINE);

  it("refuses what is not a neutral-mailbox version 1 export", async () => {
    await expect(verifyMailboxExport([])).rejects.toMatchObject({ name: "NeutralError", code: "INVALID_ARGUMENT" });
    await expect(verifyMailboxExport(lines.slice(1))).rejects.toThrow(/line 1 has no "format": "neutral-mailbox"/);
    await expect(verifyMailboxExport([JSON.stringify({ ...header(), version: 2 }), ...lines.slice(1)])).rejects.toThrow(/its version is 2/);
  }, OFFLINE);
});
