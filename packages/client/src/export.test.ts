// Exporting a mailbox and verifying it offline, across a federation of two real relays on loopback:
// Alice and Carol are homed at A, Bob at B. The export is made while the nodes run, then verified
// (and tampered with) once both are stopped: no network.
import { startFederation, type FederatedNode, type Federation } from "@neutral/relay/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { typedData, type Hex } from "@neutral/protocol";
import { toSigner } from "./account.js";
import { exportMailbox, verifyMailboxExport, type MailboxHeader, type MailboxVerification } from "./export.js";
import type { HomeRecord, LogPosition, MailboxHead, Message } from "./generated/types.js";
import { verifyProof } from "./misbehaviour-proof.js";
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
const positionsOf = (exported: readonly string[]) => exported.slice(1).map((line) => JSON.parse(line) as LogPosition);
const messagesOf = (exported: readonly string[]) => positionsOf(exported).map((position) => position.message!);

describe("exportMailbox", () => {
  it("writes the header: account, node, its signed head of the log and limits, its home record and key bundle, and every correspondent's home record", () => {
    const head = header();
    expect(head).toMatchObject({ format: "neutral-mailbox", version: 2, account: aliceAddress, node: a.address });
    expect(head.head).toMatchObject({ account: aliceAddress, size: 5 });
    expect(head.limits).toEqual({ retentionSeconds: expect.any(Number), clockSkewMs: 300_000 });
    expect(head.home).toMatchObject({ account: aliceAddress, node: a.address });
    expect(head.key).toMatchObject({ account: aliceAddress });
    expect(Object.keys(head.homes).sort()).toEqual([bobAddress, carolAddress].sort());
    expect(head.homes[bobAddress]).toMatchObject({ node: b.address });
    expect(head.homes[carolAddress]).toMatchObject({ node: a.address });
    expect(Math.abs(head.exportedAt - Date.now())).toBeLessThan(SLOW);
  }, OFFLINE);

  it("writes every position of the log up to the head, across pages, each with its message as the node served it", () => {
    const positions = positionsOf(lines);
    expect(positions.map(({ seq, role }) => [seq, role])).toEqual([
      [1, "sent"],
      [2, "received"],
      [3, "sent"],
      [4, "received"],
      [5, "sent"],
    ]);
    expect(messagesOf(lines).map((message) => [message.from, message.to])).toEqual([
      [aliceAddress, carolAddress],
      [carolAddress, aliceAddress],
      [aliceAddress, bobAddress],
      [bobAddress, aliceAddress],
      [aliceAddress, bobAddress],
    ]);
    expect(positions.map((position) => position.message!.id)).not.toContain(late.id);
    for (const { id, message } of positions) {
      expect(message!.id).toBe(id);
      expect(Object.keys(message!)).toEqual(expect.arrayContaining(["id", "from", "to", "message", "timestamp", "signature", "sender_receipt", "receiver_receipt"]));
    }
  }, OFFLINE);
});

describe("verifyMailboxExport, offline", () => {
  it("verifies every position and message of an untouched export: complete", async () => {
    const summary = await verifyMailboxExport(lines);
    expect(summary).toEqual({
      account: aliceAddress,
      node: a.address,
      exportedAt: header().exportedAt,
      version: 2,
      messages: 5,
      verified: 5,
      problems: [],
      head: header().head,
      positions: 5,
      accounted: { message: 5, deleted: 0, expired: 0, retention: 0 },
      complete: true,
    });
    // An async iterable of lines, with a trailing empty line (a file's last newline), reads the same.
    const fromStream = await verifyMailboxExport((async function* () {
      yield* lines;
      yield "";
    })());
    expect(fromStream).toEqual(summary);
  }, OFFLINE);

  /** `lines` with the message of position `index` (0-based, after the header) changed by `change`. */
  function tampered(index: number, change: (message: Record<string, unknown>) => void): { exported: string[]; id: string; line: number } {
    const exported = [...lines];
    const position = JSON.parse(exported[index + 1]!) as { message: Record<string, unknown> };
    change(position.message);
    exported[index + 1] = JSON.stringify(position);
    return { exported, id: String(position.message.id), line: index + 2 };
  }

  it("flags a changed ciphertext on that message: not what its position holds, and its signature and both receipts no longer match", async () => {
    const { exported, id, line } = tampered(2, (message) => {
      const body = message.message as string;
      message.message = `${body.slice(0, -1)}${body.endsWith("0") ? "1" : "0"}`;
    });
    const summary = await verifyMailboxExport(exported);
    expect(summary).toMatchObject({ messages: 5, verified: 4, complete: false });
    expect(summary.problems.map((problem) => [problem.line, problem.id, problem.kind, problem.seq])).toEqual([
      [line, id, "altered", 3],
      [line, id, undefined, undefined],
      [line, id, undefined, undefined],
      [line, id, undefined, undefined],
    ]);
    expect(summary.problems[1]!.problem).toBe("the sender's signature does not match the message");
    expect(summary.problems[2]!.problem).toMatch(new RegExp(`^the sender receipt is signed by 0x[0-9a-f]{40}, not by the sender's home node ${a.address} \\(named in ${aliceAddress}'s home record\\)$`));
    expect(summary.problems[3]!.problem).toMatch(new RegExp(`^the receiver receipt is signed by 0x[0-9a-f]{40}, not by the recipient's home node ${b.address} \\(named in ${bobAddress}'s home record\\)$`));
  }, OFFLINE);

  it("flags a changed timestamp the same way", async () => {
    const { exported, id } = tampered(0, (message) => void (message.timestamp = (message.timestamp as number) + 1));
    const summary = await verifyMailboxExport(exported);
    expect(summary.verified).toBe(4);
    expect(new Set(summary.problems.map((problem) => problem.id))).toEqual(new Set([id]));
    expect(summary.problems.map((problem) => problem.kind ?? problem.problem)[0]).toBe("altered");
    expect(summary.problems[1]!.problem).toBe("the sender's signature does not match the message");
  }, OFFLINE);

  it("flags a receipt swapped for another message's, naming the receipt and the node expected (the log binds the message, not its receipts)", async () => {
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

  it("catches a position removed whole, repeated or moved, a line that is not a position, and positions past the head", async () => {
    const kinds = (summary: MailboxVerification) => summary.problems.map(({ line, kind, seq }) => ({ line, kind, seq }));
    // What an export of version 1 could not show: a message left out leaves no trace but a gap in the log.
    const dropped = await verifyMailboxExport([...lines.slice(0, 3), ...lines.slice(4)]);
    expect(dropped).toMatchObject({ messages: 4, verified: 2, complete: false });
    expect(kinds(dropped)).toEqual([{ line: 4, kind: "reordered", seq: 3 }]);
    const cut = await verifyMailboxExport(lines.slice(0, -1)); // the last position gone
    expect(kinds(cut)).toEqual([{ line: 1, kind: "unproven", seq: 4 }]);
    expect(kinds(await verifyMailboxExport([...lines.slice(0, 3), lines[2]!, ...lines.slice(3)]))).toEqual([{ line: 4, kind: "reordered", seq: 3 }]);
    expect(kinds(await verifyMailboxExport([lines[0]!, lines[2]!, lines[1]!, ...lines.slice(3)]))).toEqual([{ line: 2, kind: "reordered", seq: 1 }]);
    const broken = await verifyMailboxExport([...lines, "{not json"]);
    expect(broken.problems.map(({ line, id, problem, kind }) => ({ line, id, problem: kind ?? problem }))).toEqual([
      { line: 7, id: null, problem: "the line is not a position of the log" },
      { line: 7, id: null, problem: "reordered" },
    ]);
    // A position the head does not cover, appended (position 5 again as 6: its message does not give a leaf at 6 either).
    const extra = JSON.stringify({ ...positionsOf(lines)[4]!, seq: 6 });
    expect(kinds(await verifyMailboxExport([...lines, extra]))).toEqual([
      { line: 7, kind: "altered", seq: 6 },
      { line: 1, kind: "unproven", seq: 6 },
    ]);
  }, OFFLINE);

  it("catches a head the node did not sign, and a log that does not extend the head this device verified at that node", async () => {
    const head = header().head!;
    const forged = [JSON.stringify({ ...header(), head: { ...head, root: `0x${"ab".repeat(32)}` } }), ...lines.slice(1)];
    expect((await verifyMailboxExport(forged)).problems.map(({ kind }) => kind)).toEqual(["forged-head"]);
    const heads = (known: MailboxHead) => ({ heads: { get: (account: string, node: string) => (account === aliceAddress && node === a.address ? known : undefined), set: () => undefined } });
    /** A head of Alice's log signed with A's key. */
    const signedByA = async (fields: Omit<MailboxHead, "signature">): Promise<MailboxHead> => ({
      ...fields,
      signature: await toSigner(TEST_KEYS.node).signTypedData(typedData("MailboxHead", { account: fields.account as Hex, size: fields.size, root: fields.root as Hex, timestamp: fields.timestamp })),
    });
    // The device verified the export's own head at A: the export extends it.
    expect((await verifyMailboxExport(lines, heads(head))).complete).toBe(true);
    // A head of 3 positions with another root, signed by A's key: another history.
    const fork = await verifyMailboxExport(lines, heads(await signedByA({ account: head.account, size: 3, root: `0x${"cd".repeat(32)}`, timestamp: head.timestamp - 1 })));
    expect(fork.problems.map(({ kind, seq }) => ({ kind, seq }))).toEqual([{ kind: "fork", seq: 3 }]);
    expect(fork.complete).toBe(false);
    // A head of 7 positions signed before the export's: the export's log was cut short (a rollback), with the proof.
    const rolled = await verifyMailboxExport(lines, heads(await signedByA({ account: head.account, size: 7, root: head.root, timestamp: head.timestamp - 1 })));
    expect(rolled.problems.map(({ kind, seq }) => ({ kind, seq }))).toEqual([{ kind: "rollback", seq: 6 }]);
    expect(verifyProof(rolled.problems[0]!.proof)).toMatchObject({ valid: true, kind: "rollback" });
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

  it("still reads a version 1 export (messages only), message by message", async () => {
    const { head: _head, limits: _limits, ...rest } = header();
    const v1 = [JSON.stringify({ ...rest, version: 1 }), ...messagesOf(lines).map((message) => JSON.stringify(message))];
    expect(await verifyMailboxExport(v1)).toEqual({ account: aliceAddress, node: a.address, exportedAt: header().exportedAt, version: 1, messages: 5, verified: 5, problems: [] });
    const swapped = [v1[0]!, v1[2]!, v1[1]!, ...v1.slice(3)];
    expect((await verifyMailboxExport(swapped)).problems).toEqual([{ line: 3, id: messagesOf(lines)[0]!.id, problem: `out of id order: after ${messagesOf(lines)[1]!.id} (line 2)` }]);
  }, OFFLINE);

  it("refuses what is not a neutral-mailbox export of version 1 or 2", async () => {
    await expect(verifyMailboxExport([])).rejects.toMatchObject({ name: "NeutralError", code: "INVALID_ARGUMENT" });
    await expect(verifyMailboxExport(lines.slice(1))).rejects.toThrow(/line 1 has no "format": "neutral-mailbox"/);
    await expect(verifyMailboxExport([JSON.stringify({ ...header(), version: 3 }), ...lines.slice(1)])).rejects.toThrow(/its version is 3/);
    const { head: _head, ...headless } = header();
    await expect(verifyMailboxExport([JSON.stringify(headless), ...lines.slice(1)])).rejects.toThrow(/the header has no head/);
  }, OFFLINE);
});
