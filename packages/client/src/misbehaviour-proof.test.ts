// Portable proofs of a node's misbehaviour: a real node (in this process) rolled back to a copy of
// its data directory, then made to grow a second history there under the same node key. The SDK
// names the rollback and the fork, each with a proof that `verifyProof` accepts offline, and that
// it refuses once altered.
import { cpSync } from "node:fs";
import { startNode, tempDir, type InProcessNode } from "@neutral/relay/testing";
import { afterEach, describe, expect, it } from "vitest";
import { memoryHeadStore } from "./context.js";
import { generatePrivateKey } from "./keys.js";
import type { MailboxProblem } from "./mailbox-proof.js";
import { verifyProof, type BrokenPromiseProof, type HeadsProof } from "./misbehaviour-proof.js";
import { hashedMessageDigest, logReceiptDigest, mailboxHeadDigest, mailboxLeafHash, merkleInclusionProof, merkleRoot, toHex } from "@neutral/protocol";
import { fixtureSigner, signDigest, TEST_KEYS } from "@neutral/protocol/testing";
import { createNeutral } from "./neutral.js";

let running: InProcessNode[] = [];
afterEach(async () => {
  await Promise.all(running.map((node) => node.stop()));
  running = [];
});

const start = async (dataDir: string) => {
  const node = await startNode({ dataDir });
  running.push(node);
  return node;
};
const stop = async (node: InProcessNode) => {
  running = running.filter((one) => one !== node);
  await node.stop();
};

describe("portable proofs of a node's misbehaviour", () => {
  it("prove a rollback to an older copy of the node's data, and a second history grown there; altered, they prove nothing", { timeout: 90_000 }, async () => {
    const aliceKey = generatePrivateKey();
    const bobKey = generatePrivateKey();
    const heads = memoryHeadStore(); // one device of Bob's, across the node's lives
    /** Alice and Bob on `node`; Bob's reads prove themselves against the heads his device keeps. */
    const sessions = (node: InProcessNode) => ({
      alice: createNeutral({ url: node.url, account: aliceKey }),
      bob: createNeutral({ url: node.url, account: bobKey, heads }),
    });
    const problemsOf = async (bob: ReturnType<typeof sessions>["bob"]): Promise<MailboxProblem[]> => {
      const problems: MailboxProblem[] = [];
      for await (const page of bob.inbox()) problems.push(...page.mailboxProblems);
      return problems;
    };

    const dir = tempDir("neutral-misbehaviour-");
    let node = await start(dir);
    let { alice, bob } = sessions(node);
    const bobAddress = (await bob.getAddress()).toLowerCase();
    await bob.ready();
    await alice.send(bobAddress, "one");
    await alice.send(bobAddress, "two");
    expect(await problemsOf(bob)).toEqual([]);
    await stop(node);
    const backup = tempDir("neutral-misbehaviour-backup-");
    cpSync(dir, backup, { recursive: true });

    node = await start(dir);
    ({ alice, bob } = sessions(node));
    await alice.send(bobAddress, "three");
    expect(await problemsOf(bob)).toEqual([]);
    const nodeAddress = node.address.toLowerCase();
    expect((await heads.get(bobAddress, nodeAddress))?.size).toBe(3);
    await stop(node);

    // The node restored from the backup: two positions where this device verified three.
    node = await start(backup);
    ({ alice, bob } = sessions(node));
    const [rollback] = await problemsOf(bob);
    expect(rollback).toMatchObject({ kind: "rollback", seq: 3 });
    const rollbackProof = JSON.parse(JSON.stringify(rollback!.proof)) as HeadsProof; // as a file would carry it
    expect(verifyProof(rollbackProof)).toMatchObject({ valid: true, kind: "rollback", node: nodeAddress, account: bobAddress });
    expect(rollbackProof.heads.map((head) => head.size)).toEqual([3, 2]);

    // Another third message there: a log of three positions, not the one this device verified.
    await alice.send(bobAddress, "another three");
    const [fork] = await problemsOf(bob);
    expect(fork).toMatchObject({ kind: "fork", seq: 3 });
    const forkProof = JSON.parse(JSON.stringify(fork!.proof)) as HeadsProof;
    expect(verifyProof(forkProof)).toMatchObject({ valid: true, kind: "fork", node: nodeAddress, account: bobAddress });

    // Altered, or not a proof at all: refused with the reason, never thrown.
    const altered = (change: (proof: HeadsProof) => void) => {
      const copy = structuredClone(rollbackProof);
      change(copy);
      return verifyProof(copy);
    };
    expect(altered((proof) => void (proof.heads[1].size = 1))).toEqual({ valid: false, reason: `heads[1] is not signed by ${nodeAddress}` });
    expect(altered((proof) => proof.heads.reverse())).toMatchObject({ valid: false, reason: expect.stringMatching(/^not a rollback/) });
    expect(altered((proof) => void (proof.kind = "fork"))).toMatchObject({ valid: false, reason: expect.stringMatching(/^not a fork/) });
    expect(altered((proof) => void (proof.account = nodeAddress))).toMatchObject({ valid: false, reason: expect.stringContaining("not " + nodeAddress) });
    expect(altered((proof) => void (proof.node = bobAddress))).toMatchObject({ valid: false, reason: `heads[0] is not signed by ${bobAddress}` });
    expect(altered((proof) => void (proof.heads[0].signature = "0xzz"))).toMatchObject({ valid: false });
    for (const junk of [null, "proof", [], { version: 2 }, { version: 1, kind: "rollback", node: nodeAddress, account: bobAddress, heads: [{}] }]) {
      expect(verifyProof(junk)).toMatchObject({ valid: false, reason: expect.any(String) });
    }
  });
});

describe("a broken promise, made offline", () => {
  // A node's log of three leaves for `account`; it promised `message` at position 2 (role receiver).
  const node = fixtureSigner(TEST_KEYS.node);
  const account = fixtureSigner(TEST_KEYS.bob).address;
  const sender = fixtureSigner(TEST_KEYS.alice).address;
  const message = { from: sender, to: account, messageHash: toHex(new Uint8Array(32).fill(7)), timestamp: 1_767_225_600_000 };
  const digest = toHex(hashedMessageDigest(message));
  const leafOf = (seq: number, digestHex: string) => mailboxLeafHash({ account, seq, role: "received", peer: sender, digest: digestHex });
  const other = toHex(new Uint8Array(32).fill(9));
  const headOf = (leaves: Uint8Array[]) => {
    const fields = { account, size: leaves.length, root: toHex(merkleRoot(leaves)), timestamp: 1_767_225_700_000 };
    return { ...fields, signature: signDigest(mailboxHeadDigest(fields), TEST_KEYS.node) };
  };
  const promise = { message, role: "receiver" as const, seq: 2, signature: signDigest(logReceiptDigest(digest, 2, "receiver"), TEST_KEYS.node) };
  const proofFor = (leaves: Uint8Array[]): BrokenPromiseProof => ({
    version: 1,
    kind: "broken-promise",
    node: node.address,
    account,
    promise,
    head: headOf(leaves),
    leafHash: toHex(leaves[1]!),
    inclusion: merkleInclusionProof(leaves, 1).map(toHex),
  });

  it("is valid when the signed head holds another leaf at the promised position, and proves nothing altered or kept", () => {
    const broken = [leafOf(1, other), leafOf(2, other), leafOf(3, digest)]; // the message moved to 3
    expect(verifyProof(JSON.parse(JSON.stringify(proofFor(broken))))).toMatchObject({ valid: true, kind: "broken-promise", account });
    const kept = [leafOf(1, other), leafOf(2, digest), leafOf(3, other)];
    expect(verifyProof(proofFor(kept))).toMatchObject({ valid: false, reason: expect.stringMatching(/not a broken promise/) });
    const proof = proofFor(broken);
    expect(verifyProof({ ...proof, promise: { ...promise, role: "sender" } })).toMatchObject({ valid: false, reason: expect.stringMatching(/about .* log, not/) });
    expect(verifyProof({ ...proof, promise: { ...promise, message: { ...message, timestamp: message.timestamp + 1 } } })).toMatchObject({ valid: false, reason: expect.stringMatching(/not signed by/) });
    expect(verifyProof({ ...proof, promise: { ...promise, seq: 4 } })).toMatchObject({ valid: false, reason: expect.stringMatching(/holds 3 positions/) });
    expect(verifyProof({ ...proof, inclusion: proof.inclusion.slice(1) })).toMatchObject({ valid: false });
    expect(verifyProof({ ...proof, account: sender })).toMatchObject({ valid: false });
    expect(verifyProof({ ...proof, kind: "fork" })).toMatchObject({ valid: false });
  });
});
