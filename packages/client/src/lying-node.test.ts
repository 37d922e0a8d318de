// The verifiable mailbox against a node that lies (@neutral/relay/testing `startLyingNode`: a real
// node behind a proxy that rewrites its answers, and the same node key on a backup of its data):
// each lie caught by the SDK at its position with its kind, a rollback and another history with a
// proof `verifyProof` accepts offline. The truth through the same proxy first, as the baseline.
import { startLyingNode, type LyingNode } from "@neutral/relay/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditReturnType } from "./actions/audit.js";
import { generatePrivateKey } from "./keys.js";
import type { DecryptedMessage } from "./messages.js";
import { verifyProof } from "./misbehaviour-proof.js";
import { createNeutral, type Neutral } from "./neutral.js";

const SLOW = 60_000;
let liar: LyingNode;
let alice: Neutral;
let bob: Neutral;
const bobKey = generatePrivateKey();
let bobAddress: string;
/** What Alice sent Bob: his positions 1 to 4, in order. */
let sent: DecryptedMessage[];

beforeAll(async () => {
  liar = await startLyingNode();
  alice = createNeutral({ url: liar.url, account: generatePrivateKey() });
  bob = createNeutral({ url: liar.url, account: bobKey });
  bobAddress = await bob.getAddress();
  await bob.ready();
  sent = [];
  for (const text of ["one", "two", "three", "four"]) sent.push(await alice.send(bobAddress, text));
}, SLOW);
afterAll(() => liar?.stop(), SLOW);

const kinds = (result: AuditReturnType) => result.problems.map(({ kind, seq }) => ({ kind, seq }));

/**
 * The audit's one problem carries the node's signed page as a proof that `verifyProof` accepts
 * after a JSON round trip, naming the node, the account and the position; the proof altered (the
 * position said to have a reason, another signature, another position's statement, another page
 * start) proves nothing.
 */
function expectStatementProof(audited: AuditReturnType, kind: "missing" | "altered" | "unproven-removal", seq: number): void {
  const proof = JSON.parse(JSON.stringify(audited.problems[0]!.proof)) as Record<string, unknown> & { position: Record<string, unknown>; entries: string[]; from: number };
  expect(proof).toMatchObject({ version: 1, kind, node: liar.address, account: bobAddress, position: { seq } });
  expect(verifyProof(proof)).toMatchObject({ valid: true, kind, node: liar.address, account: bobAddress, message: expect.stringContaining(`position ${seq}`) });
  const altered = [
    { ...proof, position: { ...proof.position, removed: { reason: "retention" } } },
    { ...proof, signature: `0x${"1b".repeat(65)}` },
    { ...proof, entries: proof.entries.map((entry, i) => (i === seq - proof.from ? proof.entries[(i + 1) % proof.entries.length]! : entry)) },
    { ...proof, from: proof.from + 1 },
    { ...proof, kind: kind === "missing" ? "unproven-removal" : "missing" },
    ...(proof.position.message === undefined ? [] : [{ ...proof, position: { ...proof.position, message: { ...(proof.position.message as object), timestamp: 1 } } }]),
  ];
  for (const other of altered) expect(verifyProof(other), JSON.stringify(other).slice(0, 120)).toMatchObject({ valid: false });
}
async function inbox(session: Neutral): Promise<DecryptedMessage[]> {
  const all: DecryptedMessage[] = [];
  for await (const message of session.inbox({ limit: 10 }).messages()) all.push(message);
  return all.reverse();
}

describe("a lying node", () => {
  it("the truth, through the same proxy: every position accounted for, every message read proven", async () => {
    liar.lie(undefined);
    const audited = await bob.audit({ full: true });
    expect(audited.problems).toEqual([]);
    expect(audited.accounted).toEqual({ message: 4, deleted: 0, expired: 0, retention: 0 });
    expect((await inbox(bob)).map(({ text, verified, proven }) => ({ text, verified, proven }))).toEqual(
      ["one", "two", "three", "four"].map((text) => ({ text, verified: true, proven: true })),
    );
  }, SLOW);

  it("drops a message from reads and from the log: missing at its position, with the node's signed page as the proof", async () => {
    liar.lie({ kind: "drop", seq: 2 });
    expect((await inbox(bob)).map(({ text }) => text)).toEqual(["one", "three", "four"]);
    const audited = await bob.audit({ full: true });
    expect(kinds(audited)).toEqual([{ kind: "missing", seq: 2 }]);
    expectStatementProof(audited, "missing", 2);
  }, SLOW);

  it("says the account deleted a message, with a request it never signed: an unproven removal at its position, with the node's signed page as the proof", async () => {
    liar.lie({ kind: "unsigned-deletion", seq: 3 });
    expect((await inbox(bob)).map(({ text }) => text)).toEqual(["one", "two", "four"]);
    const audited = await bob.audit({ full: true });
    expect(kinds(audited)).toEqual([{ kind: "unproven-removal", seq: 3 }]);
    expectStatementProof(audited, "unproven-removal", 3);
  }, SLOW);

  it("serves two positions in each other's place: reordered where the log breaks", async () => {
    liar.lie({ kind: "swap", seq: 2, with: 3 });
    expect(kinds(await bob.audit({ full: true }))).toEqual([{ kind: "reordered", seq: 2 }]);
  }, SLOW);

  it("alters a body: the read is not proven and the audit names the position altered, with the node's signed page as the proof", async () => {
    liar.lie({ kind: "alter-body", seq: 4 });
    const altered = (await inbox(bob)).find((message) => message.id === sent[3]!.id)!;
    expect(altered).toMatchObject({ verified: false, proven: false });
    const audited = await bob.audit({ full: true });
    expect(kinds(audited)).toEqual([{ kind: "altered", seq: 4 }]);
    expectStatementProof(audited, "altered", 4);
  }, SLOW);

  it("alters a receipt: the read says whose signature it is, and the audit names the position altered (the leaf binds the message, not its receipts: each is checked as a node's signature)", async () => {
    liar.lie({ kind: "alter-receipt", seq: 1 });
    const altered = (await inbox(bob)).find((message) => message.id === sent[0]!.id)!;
    expect(altered.verified).toBe(false);
    expect(altered.problems.join("; ")).toMatch(/receiver receipt/);
    const audited = await bob.audit({ full: true });
    expect(kinds(audited)).toEqual([{ kind: "altered", seq: 1 }]);
    expect(audited.problems[0]!.message).toMatch(/receiver receipt/);
  }, SLOW);

  it("rolls back to a backup, then grows another history there: a rollback, then a fork, each with its proof; a device that never saw the first history sees nothing wrong", async () => {
    liar.lie(undefined);
    const backup = await liar.backup(); // Bob's log of 4
    await alice.send(bobAddress, "five");
    expect((await bob.audit()).problems).toEqual([]); // this device has verified 5 positions
    await liar.restore(backup);
    const rolledBack = await bob.audit();
    expect(kinds(rolledBack)).toEqual([{ kind: "rollback", seq: 5 }]);
    expect(verifyProof(rolledBack.problems[0]!.proof)).toMatchObject({ valid: true, kind: "rollback", node: liar.address });
    // Another fifth message on the restored node: the same node key signs another tree of 5.
    await alice.send(bobAddress, "another five");
    const forked = await bob.audit();
    expect(kinds(forked)).toEqual([{ kind: "fork", seq: 5 }]);
    expect(verifyProof(forked.problems[0]!.proof)).toMatchObject({ valid: true, kind: "fork", node: liar.address });
    // Bob's second device sees one history, whole: only two devices together show the two.
    const otherDevice = createNeutral({ url: liar.url, account: bobKey });
    expect((await otherDevice.audit()).problems).toEqual([]);
  }, SLOW);

  it("says its retention removed a message that came after a head this device verified: an unproven removal, with the signed page and that head as the proof (spec 3.2.0)", async () => {
    liar.lie(undefined);
    const carolKey = generatePrivateKey();
    const carol = createNeutral({ url: liar.url, account: carolKey });
    const carolAddress = await carol.getAddress();
    await carol.ready();
    for (const text of ["one", "two"]) await alice.send(carolAddress, text);
    expect((await carol.audit()).problems).toEqual([]); // a head of 2 positions verified
    await alice.send(carolAddress, "three");
    liar.lie({ kind: "retention", seq: 3 });
    const audited = await carol.audit({ full: true });
    expect(kinds(audited)).toEqual([{ kind: "unproven-removal", seq: 3 }]);
    const proof = JSON.parse(JSON.stringify(audited.problems[0]!.proof)) as Record<string, unknown> & { earlier: { size: number }; position: Record<string, unknown> };
    expect(proof).toMatchObject({ version: 1, kind: "unproven-removal", node: liar.address, account: carolAddress, position: { seq: 3, removed: { reason: "retention", retentionSeconds: 7_776_000 } }, earlier: { size: 2 } });
    expect(verifyProof(proof)).toMatchObject({ valid: true, kind: "unproven-removal", message: expect.stringContaining("less than its retention") });
    // Without the earlier head, or with the retention the node could have applied, it proves nothing.
    const { earlier: _earlier, ...alone } = proof;
    expect(verifyProof(alone)).toMatchObject({ valid: false });
    expect(verifyProof({ ...proof, position: { ...proof.position, removed: { reason: "retention", retentionSeconds: 60 } } })).toMatchObject({ valid: false });
    // A device that verified no head before the message has nothing to hold the claim to.
    expect((await createNeutral({ url: liar.url, account: carolKey }).audit({ full: true })).problems).toEqual([]);
  }, SLOW);
});
