// Portable proofs from a node's signed log page (spec 3.1.0; its time from 3.2.0), made offline here with a test node key:
// what a page can say of a position, and whether it makes a proof. What holds (the message its leaf
// commits to, signed; the account's own request naming the leaf, an end whose message gives the leaf,
// the retention, a request of before positions were named) is no proof; what does not hold, or no
// message and no reason at all, is.
import { expiredMessageDigest, hashTypedData, logEntryHash, logPositionStatement, logStatementDigest, mailboxHeadDigest, mailboxLeafHash, toHex, type Hex, type LogRemovalFields } from "@neutral/protocol";
import { fixtureSigner, signDigest, TEST_KEYS } from "@neutral/protocol/testing";
import { describe, expect, it } from "vitest";
import { verifyProof } from "./misbehaviour-proof.js";
import type { LogStatementProof } from "./log-statement-proof.js";

const node = fixtureSigner(TEST_KEYS.node).address;
const account = fixtureSigner(TEST_KEYS.bob);
const peer = fixtureSigner(TEST_KEYS.alice).address;
const messageHash = `0x${"ee".repeat(32)}`;
const ended = { from: peer, to: account.address, messageHash, timestamp: 1_767_225_600_000, expires: 1_767_225_660_000 };
const leafHash = toHex(mailboxLeafHash({ account: account.address, seq: 2, role: "received", peer, digest: expiredMessageDigest(ended) }));

/** Alice's message to Bob, signed (by `signer`) with `timestamp`. */
function aliceMessage(timestamp: number, signer: Hex = TEST_KEYS.alice) {
  const fields = { from: peer as Hex, to: account.address as Hex, message: "0xa1b2" as Hex, timestamp };
  const digest = hashTypedData({ primaryType: "Message", message: fields });
  return { id: "2", message: "a1b2", from: peer, to: account.address, signature: signDigest(digest, signer), sender_receipt: `0x${"00".repeat(65)}`, timestamp, digest };
}
const original = aliceMessage(1_767_225_600_000);
const servedLeaf = toHex(mailboxLeafHash({ account: account.address, seq: 2, role: "received", peer, digest: original.digest }));

/** When the node signed the page (and, with `signedAt`, another time). */
const PAGE_TIME = 1_767_225_800_000;

/** A head of `size` positions the node signed at `timestamp`. */
const nodeHead = (size: number, timestamp: number) => {
  const head = { account: account.address as Hex, size, root: `0x${"cd".repeat(32)}` as Hex, timestamp };
  return { ...head, signature: signDigest(mailboxHeadDigest(head), TEST_KEYS.node) };
};

/** A page of two positions from 1 (the second `removed` as given, or neither message nor reason) that the node signed, and the proof of `kind` about position 2. */
function proofOf(kind: LogStatementProof["kind"], removed?: LogRemovalFields, served?: { message: Record<string, unknown>; leafHash: string }, signedAt = PAGE_TIME): LogStatementProof {
  const head = { account: account.address, size: 2, root: `0x${"ab".repeat(32)}`, timestamp: 1_767_225_700_000 };
  const signedHead = { ...head, signature: signDigest(mailboxHeadDigest({ ...head, account: head.account as Hex, root: head.root as Hex }), TEST_KEYS.node) };
  const first = { seq: 1, role: "sent" as const, leafHash: `0x${"01".repeat(32)}`, message: {} };
  const second = { seq: 2, role: "received" as const, leafHash: served?.leafHash ?? leafHash, ...(removed && { removed }), ...(served && { message: served.message }) };
  const entries = [first, second].map((position) => logEntryHash(logPositionStatement(position, true)));
  const signature = signDigest(logStatementDigest(mailboxHeadDigest({ ...head, account: head.account as Hex, root: head.root as Hex }), 1, entries, signedAt), TEST_KEYS.node);
  const position = second as LogStatementProof["position"];
  return { version: 1, kind, node, account: account.address, head: signedHead, from: 1, timestamp: signedAt, entries: entries.map(toHex), position, signature };
}

/** Bob's request deleting position 2 (naming `leaves`, or ids only), signed by `signer`. */
async function request(leaves: string[] | undefined, signer: Hex = TEST_KEYS.bob): Promise<LogRemovalFields> {
  const fields = { account: account.address as Hex, ids: [7], timestamp: 1_767_225_650_000 };
  const digest = leaves === undefined ? hashTypedData({ primaryType: "Deletion", message: fields }) : hashTypedData({ primaryType: "PositionedDeletion", message: { ...fields, leaves: leaves as Hex[] } });
  return { reason: "deleted", request: { account: account.address, ids: ["7"], ...(leaves && { leaves }), timestamp: fields.timestamp, signature: signDigest(digest, signer) } };
}

describe("proofs from a signed log page", () => {
  it("missing: a position the node signed with neither message nor reason", () => {
    expect(verifyProof(proofOf("missing"))).toMatchObject({ valid: true, kind: "missing", node, account: account.address });
    expect(verifyProof(proofOf("missing", { reason: "retention" }))).toMatchObject({ valid: false, reason: expect.stringContaining("not missing") });
  });

  it("unproven-removal: a request that is not the account's, or does not name the leaf, or an end whose message does not give it", async () => {
    expect(verifyProof(proofOf("unproven-removal", await request([leafHash], TEST_KEYS.alice)))).toMatchObject({ valid: true, message: expect.stringContaining("not " + account.address + "'s signature") });
    expect(verifyProof(proofOf("unproven-removal", await request([`0x${"77".repeat(32)}`])))).toMatchObject({ valid: true, message: expect.stringContaining("does not name its leaf") });
    expect(verifyProof(proofOf("unproven-removal", { reason: "expired", message: { ...ended, timestamp: ended.timestamp + 1 } }))).toMatchObject({ valid: true, message: expect.stringContaining("does not give its leaf") });
  });

  it("no proof where the reason holds, or needs what a device saw: the account's request, the end, the retention, a request naming ids only", async () => {
    for (const removed of [await request([leafHash]), { reason: "expired" as const, message: ended }, { reason: "retention" as const }, await request(undefined)]) {
      expect(verifyProof(proofOf("unproven-removal", removed)), removed.reason).toMatchObject({ valid: false, reason: expect.stringContaining("holds as far as this proof shows") });
    }
    expect(verifyProof(proofOf("unproven-removal"))).toMatchObject({ valid: false, reason: expect.stringContaining("says nothing of a removal") });
  });

  it("unproven-removal by the retention (spec 3.2.0): a node that states none, or a page signed less than the retention (and 5 minutes) after a head the position came after", () => {
    const day = 86_400;
    const stored = nodeHead(1, PAGE_TIME - day * 1000); // position 2 came after it, a day before the page
    expect(verifyProof(proofOf("unproven-removal", { reason: "retention", retentionSeconds: 0 }))).toMatchObject({ valid: true, message: expect.stringContaining("keeps messages until their owners delete them") });
    const week = { ...proofOf("unproven-removal", { reason: "retention", retentionSeconds: 7 * day }), earlier: stored };
    expect(verifyProof(week)).toMatchObject({ valid: true, message: expect.stringContaining("less than its retention of 604800 s") });
    // What does not make one: a retention the day has passed (or within the clocks' margin), no
    // earlier head, a head of the position's own size or more, of another key or another account,
    // or a page whose time is not what the node signed.
    const notProven = { valid: false, reason: expect.stringContaining("holds as far as this proof shows") };
    expect(verifyProof({ ...proofOf("unproven-removal", { reason: "retention", retentionSeconds: day - 60 }), earlier: stored })).toMatchObject(notProven);
    expect(verifyProof({ ...proofOf("unproven-removal", { reason: "retention", retentionSeconds: day + 240 }), earlier: stored })).toMatchObject(notProven);
    expect(verifyProof({ ...proofOf("unproven-removal", { reason: "retention", retentionSeconds: day + 360 }), earlier: stored })).toMatchObject({ valid: true });
    expect(verifyProof(proofOf("unproven-removal", { reason: "retention", retentionSeconds: 7 * day }))).toMatchObject(notProven);
    expect(verifyProof({ ...week, earlier: nodeHead(2, stored.timestamp) })).toMatchObject(notProven);
    const otherKey = { ...stored, signature: signDigest(mailboxHeadDigest({ account: stored.account, size: 1, root: stored.root, timestamp: stored.timestamp }), TEST_KEYS.alice) };
    expect(verifyProof({ ...week, earlier: otherKey })).toMatchObject(notProven);
    expect(verifyProof({ ...week, earlier: { ...stored, account: peer } })).toMatchObject(notProven);
    expect(verifyProof({ ...week, timestamp: week.timestamp + 1 })).toMatchObject({ valid: false, reason: expect.stringContaining("not signed by") });
    // An earlier head that is not one at all proves nothing either (it is the proof's, not the page's).
    for (const broken of [{ ...stored, root: "0x12" }, { ...stored, timestamp: 9e15 }, { ...stored, signature: "0x12" }, { ...stored, account: 7 }, "head", null]) {
      expect(verifyProof({ ...week, earlier: broken }), JSON.stringify(broken)).toMatchObject(notProven);
    }
  });

  it("altered: a message the page gives that does not give its leaf, or does not carry its sender's signature; not the one it commits to, signed", () => {
    const { digest: _digest, ...message } = original;
    const { digest: _later, ...later } = aliceMessage(original.timestamp + 1);
    const { digest: _forged, ...forged } = aliceMessage(original.timestamp, TEST_KEYS.bob);
    expect(verifyProof(proofOf("altered", undefined, { message: later, leafHash: servedLeaf }))).toMatchObject({ valid: true, kind: "altered", message: expect.stringContaining("does not give its leaf") });
    expect(verifyProof(proofOf("altered", undefined, { message: forged, leafHash: servedLeaf }))).toMatchObject({ valid: true, message: expect.stringContaining("sender's signature") });
    expect(verifyProof(proofOf("altered", undefined, { message, leafHash: servedLeaf }))).toMatchObject({ valid: false, reason: expect.stringContaining("not altered") });
    expect(verifyProof(proofOf("missing", undefined, { message, leafHash: servedLeaf }))).toMatchObject({ valid: false, reason: expect.stringContaining("not missing") });
    expect(verifyProof(proofOf("altered"))).toMatchObject({ valid: false });
  });

  it("a page another key signed, or a position off the page, proves nothing", () => {
    const proof = proofOf("missing");
    expect(verifyProof({ ...proof, node: peer })).toMatchObject({ valid: false, reason: expect.stringContaining("not signed by") });
    expect(verifyProof({ ...proof, position: { ...proof.position, seq: 3 } })).toMatchObject({ valid: false, reason: expect.stringContaining("not on the page") });
    expect(verifyProof({ ...proof, head: { ...proof.head, account: peer } })).toMatchObject({ valid: false });
    expect(verifyProof({ ...proof, entries: "x" })).toMatchObject({ valid: false });
  });
});
