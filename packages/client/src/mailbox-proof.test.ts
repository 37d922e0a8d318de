// The verifiable mailbox on the client: proveMessages against a real node (in this process), and
// mailboxProblems on that node's answers altered the ways a lying node would alter them.
import { startNode, type InProcessNode } from "@neutral/relay/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNeutral, type Neutral } from "./neutral.js";
import { memoryHeadStore, type HeadStore } from "./context.js";
import type { MailboxProof, Message } from "./generated/types.js";
import { mailboxProblems, type VerifiedHead } from "./mailbox-proof.js";
import { generatePrivateKey } from "./keys.js";
import { signDigest } from "./crypto/ecdsa.js";
import { fromHex } from "@neutral/protocol";
import { headDigest } from "./mailbox-proof.js";
import { TEST_KEYS } from "../test/wallet.js";

let relay: InProcessNode;
beforeAll(async () => {
  relay = await startNode({ args: ["--node-key", TEST_KEYS.node] });
}, 120_000);
afterAll(async () => {
  await relay?.stop();
});

const session = (account = generatePrivateKey(), heads: HeadStore = memoryHeadStore()): Neutral => createNeutral({ url: relay.url, account, heads });

/** Bob's mailbox with messages both ways and one to himself; what a read of it returned. */
async function mailbox() {
  const alice = session();
  const bobKey = generatePrivateKey();
  const heads = memoryHeadStore();
  const bob = session(bobKey, heads);
  const bobAddress = await bob.getAddress();
  await bob.ready();
  await alice.send(bobAddress, "one");
  await bob.send(await alice.getAddress(), "two");
  await bob.send(bobAddress, "note");
  const read: Message[] = [];
  for await (const page of bob.inbox({ direction: "all", limit: 20 })) read.push(...page.messages.map((message) => message.raw));
  return { alice, bob, bobKey, bobAddress, heads, read };
}

describe("proveMessages on an honest node", () => {
  it("proves what a read returned, keeps the head, and proves the next head extends it", { timeout: 60_000 }, async () => {
    const { alice, bob, bobAddress, heads, read } = await mailbox();
    expect(read).toHaveLength(3);
    const node = (await bob.nodeInfo()).address.toLowerCase();
    const first = await bob.proveMessages(read);
    expect(first.problems).toEqual([]);
    expect(first.head).toMatchObject({ account: bobAddress, size: 4 });
    expect(await heads.get(bobAddress, node)).toEqual(first.head);
    await alice.send(bobAddress, "three");
    const next = await bob.proveMessages([]);
    expect(next.problems).toEqual([]);
    expect(next.head.size).toBe(5);
    expect(await heads.get(bobAddress, node)).toEqual(next.head);
  });

  it("names a rollback and a fork against the head this device verified, and keeps that head", { timeout: 60_000 }, async () => {
    const { bob, bobAddress, heads, read } = await mailbox();
    const node = (await bob.nodeInfo()).address.toLowerCase();
    const { head } = await bob.proveMessages(read);
    // This device saw a longer log before: the node now shows fewer positions.
    const longer: VerifiedHead = { ...head, size: head.size + 2 };
    await heads.set(bobAddress, node, longer);
    const rolledBack = await bob.proveMessages(read);
    expect(rolledBack.problems).toEqual([expect.objectContaining({ kind: "rollback", seq: head.size + 1 })]);
    expect(await heads.get(bobAddress, node)).toEqual(longer);
    // The same size with another root: two histories.
    const other: VerifiedHead = { ...head, root: `0x${"ab".repeat(32)}` };
    await heads.set(bobAddress, node, other);
    const forked = await bob.proveMessages(read);
    expect(forked.problems).toEqual([expect.objectContaining({ kind: "fork", seq: head.size })]);
    expect(await heads.get(bobAddress, node)).toEqual(other);
  });
});

describe("mailboxProblems on a node's answers, altered", () => {
  async function answered() {
    const { bob, bobAddress, read } = await mailbox();
    const proof = (await bob.client.getProof({ ids: read.map((message) => message.id) })) as MailboxProof;
    const node = (await bob.nodeInfo()).address.toLowerCase();
    expect(mailboxProblems({ account: bobAddress, node, proof, messages: read })).toEqual([]);
    return { bobAddress, node, proof, read };
  }
  const clone = <T>(value: T): T => structuredClone(value);

  it("a message read but not in the log: missing, naming the message", { timeout: 60_000 }, async () => {
    const { bobAddress, node, proof, read } = await answered();
    const dropped = clone(proof);
    const gone = dropped.positions.shift()!;
    expect(mailboxProblems({ account: bobAddress, node, proof: dropped, messages: read })).toEqual([expect.objectContaining({ kind: "missing", id: gone.id })]);
  });

  it("a message whose fields are not its position's leaf (body or order changed): altered, naming the position", { timeout: 60_000 }, async () => {
    const { bobAddress, node, proof, read } = await answered();
    const target = read.find((message) => message.from !== message.to)!;
    const changed = read.map((message) => (message === target ? { ...message, message: `${message.message.slice(0, -2)}00` } : message));
    const position = proof.positions.find((one) => one.id === target.id)!;
    expect(mailboxProblems({ account: bobAddress, node, proof, messages: changed })).toEqual([expect.objectContaining({ kind: "altered", seq: position.seq, id: target.id })]);
    // Two positions swapped: both are altered.
    const swapped = clone(proof);
    const [a, b] = swapped.positions.filter((one) => one.role === "received");
    [a!.seq, b!.seq] = [b!.seq, a!.seq];
    expect(mailboxProblems({ account: bobAddress, node, proof: swapped, messages: read }).map((problem) => problem.kind)).toEqual(["altered", "altered"]);
  });

  it("a proof that does not lead to the head's root: unproven; a head not the node's: forged", { timeout: 60_000 }, async () => {
    const { bobAddress, node, proof, read } = await answered();
    const bent = clone(proof);
    const target = bent.positions.find((one) => one.proof!.length > 0)!;
    target.proof![0] = `0x${"00".repeat(32)}`;
    expect(mailboxProblems({ account: bobAddress, node, proof: bent, messages: read })).toEqual([expect.objectContaining({ kind: "unproven", seq: target.seq })]);
    const short = clone(proof);
    short.positions.find((one) => one.proof!.length > 0)!.proof!.pop();
    expect(mailboxProblems({ account: bobAddress, node, proof: short, messages: read }).map((problem) => problem.kind)).toEqual(["unproven"]);
    // Signed by another key, or the head of another account.
    const forged = clone(proof);
    forged.head.signature = signDigest(headDigest(forged.head), fromHex(generatePrivateKey()));
    expect(mailboxProblems({ account: bobAddress, node, proof: forged, messages: read })).toEqual([expect.objectContaining({ kind: "forged-head" })]);
    const grown = clone(proof);
    grown.head.size += 1;
    expect(mailboxProblems({ account: bobAddress, node, proof: grown, messages: read })).toEqual([expect.objectContaining({ kind: "forged-head" })]);
    expect(mailboxProblems({ account: `0x${"11".repeat(20)}`, node, proof, messages: read })).toEqual([expect.objectContaining({ kind: "forged-head" })]);
  });
});

describe("mailboxProblems on a compact answer (one multiproof)", () => {
  async function answered() {
    const { alice, bob, bobAddress, read } = await mailbox();
    // Positions the read did not return, after it: the multiproof then holds hashes.
    for (const body of ["four", "five"]) await alice.send(bobAddress, body);
    const proof = (await bob.client.getProof({ ids: read.map((message) => message.id), compact: true })) as MailboxProof;
    const node = (await bob.nodeInfo()).address.toLowerCase();
    expect(proof.multiproof).toBeDefined();
    expect(proof.positions.every((position) => position.proof === undefined)).toBe(true);
    expect(mailboxProblems({ account: bobAddress, node, proof, messages: read })).toEqual([]);
    return { bob, bobAddress, node, proof, read };
  }

  it("proves every message at once; a hash changed, left out or added, or a position moved, and none is proven", { timeout: 60_000 }, async () => {
    const { bobAddress, node, proof, read } = await answered();
    const copies = proof.positions.length;
    expect(copies).toBe(4); // the message to himself: both copies
    expect(proof.head.size).toBe(6);
    expect(proof.multiproof!.length).toBeGreaterThan(0);
    const kinds = (altered: MailboxProof) => mailboxProblems({ account: bobAddress, node, proof: altered, messages: read }).map((problem) => problem.kind);
    const bent = structuredClone(proof);
    bent.multiproof![0] = `0x${"00".repeat(32)}`;
    expect(kinds(bent)).toEqual(Array(copies).fill("unproven"));
    expect(kinds({ ...proof, multiproof: proof.multiproof!.slice(1) })).toEqual(Array(copies).fill("unproven"));
    expect(kinds({ ...proof, multiproof: [...proof.multiproof!, proof.head.root] })).toEqual(Array(copies).fill("unproven"));
    expect(kinds({ ...proof, multiproof: ["0xzz"] })).toEqual(Array(copies).fill("unproven"));
    // A position listed twice (the node claiming one leaf for two copies) proves nothing either.
    const twice = structuredClone(proof);
    twice.positions[1]!.seq = twice.positions[0]!.seq;
    expect(kinds(twice)).toContain("unproven");
  });

  it("a message left out of the proof is missing, and the rest of the page is still proven by what the node listed", { timeout: 60_000 }, async () => {
    const { bob, bobAddress, node, read } = await answered();
    const kept = read.filter((message) => message.from === message.to);
    const partial = (await bob.client.getProof({ ids: kept.map((message) => message.id), compact: true })) as MailboxProof;
    const problems = mailboxProblems({ account: bobAddress, node, proof: partial, messages: read });
    expect(problems.map((problem) => problem.kind)).toEqual(["missing", "missing"]);
    expect(new Set(problems.map((problem) => problem.id))).toEqual(new Set(read.filter((message) => message.from !== message.to).map((message) => message.id)));
  });
});

describe("mailboxProblems on a page asked with `omitBound` (spec 3.3.0)", () => {
  /** Bob's mailbox and two more messages, read as a page of 4 with a compact proof that lists no position its messages state. */
  async function page() {
    const { alice, bob, bobAddress } = await mailbox();
    for (const body of ["four", "five"]) await alice.send(bobAddress, body);
    const answer = await bob.client.getInbox({ inboxFilter: { direction: "all" }, limit: 4, proof: { compact: true, omitBound: true } });
    const node = (await bob.nodeInfo()).address.toLowerCase();
    return { bobAddress, node, proof: answer.proof!, messages: answer.data };
  }

  it("takes each copy's position from its message: all proven; the same proof taken as listing every position names each copy missing", { timeout: 60_000 }, async () => {
    const { bobAddress, node, proof, messages } = await page();
    expect(proof.positions).toEqual([]);
    expect(proof.head.size).toBe(6);
    expect(messages).toHaveLength(4); // five copies: the message to himself has two
    expect(mailboxProblems({ account: bobAddress, node, proof, messages, omitBound: true })).toEqual([]);
    // Not asked with `omitBound` (or with no multiproof to prove them), a position not listed is missing.
    const missing = mailboxProblems({ account: bobAddress, node, proof, messages });
    expect(missing.map((problem) => problem.kind)).toEqual(Array(5).fill("missing"));
    const { multiproof: _none, ...separate } = proof;
    expect(mailboxProblems({ account: bobAddress, node, proof: separate, messages, omitBound: true }).map((problem) => problem.kind)).toEqual(Array(5).fill("missing"));
  });

  it("a position a message states wrongly proves nothing on the page; a message that states none, and is not listed, is missing", { timeout: 60_000 }, async () => {
    const { bobAddress, node, proof, messages } = await page();
    const check = (altered: Message[]) => mailboxProblems({ account: bobAddress, node, proof, messages: altered, omitBound: true });
    const received = messages.find((message) => message.to !== message.from && message.receiver_seq !== undefined)!;
    const moved = check(messages.map((message) => (message === received ? { ...message, receiver_seq: received.receiver_seq! + 1 } : message)));
    expect(moved.map((problem) => problem.kind)).toEqual(Array(5).fill("unproven"));
    expect(moved.find((problem) => problem.id === received.id)?.seq).toBe(received.receiver_seq! + 1);
    const { receiver_seq: _seq, ...unstated } = received;
    const problems = check(messages.map((message) => (message === received ? unstated : message)));
    expect(problems[0]).toMatchObject({ kind: "missing", id: received.id });
  });
});
