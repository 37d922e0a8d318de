// `neutral verify-proof`: a node (in this process) restored from an older copy of its data rolls
// Bob's mailbox back; `inbox --json` names the rollback with its proof, which verify-proof accepts
// offline (exit 0), as a proof or as the problem carrying it, and refuses once altered (exit 1).
import { cpSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startNode, tempDir, type InProcessNode } from "@neutral/relay/testing";
import { afterEach, describe, expect, it } from "vitest";
import { hashedMessageDigest, logReceiptDigest, mailboxHeadDigest, mailboxLeafHash, merkleInclusionProof, merkleRoot, toHex } from "@neutral/protocol";
import { fixtureSigner, signDigest, TEST_KEYS } from "@neutral/protocol/testing";
import { runMain } from "../test/run-in-process.js";

/** Runs the CLI in this process, one at a time: up to ~1 s each on a loaded machine. */
const IN_PROCESS = 30_000;

let running: InProcessNode | undefined;
afterEach(() => running?.stop());

interface Account {
  address: string;
  privateKey: string;
}
interface Problem {
  kind: string;
  seq?: number;
  proof?: { kind: string; node: string; account: string; heads: { size: number; timestamp: number }[] };
}

describe("neutral verify-proof", () => {
  it("accepts the proof of a rollback that inbox --json gave, and refuses it altered or malformed", { timeout: IN_PROCESS * 6 }, async () => {
    const [alice, bob] = [JSON.parse((await runMain(["keygen", "--json"])).stdout) as Account, JSON.parse((await runMain(["keygen", "--json"])).stdout) as Account];
    const state = tempDir("neutral-cli-state-");
    const data = tempDir("neutral-cli-node-");
    const as = (account: Account) => ({ env: { NEUTRAL_URL: running!.url, NEUTRAL_KEY: account.privateKey, NEUTRAL_STATE: state } });

    running = await startNode({ dataDir: data });
    expect((await runMain(["whoami"], as(bob))).code).toBe(0);
    expect((await runMain(["send", bob.address, "one"], as(alice))).code).toBe(0);
    await running.stop();
    const backup = tempDir("neutral-cli-backup-");
    cpSync(data, backup, { recursive: true });
    running = await startNode({ dataDir: data });
    expect((await runMain(["send", bob.address, "two"], as(alice))).code).toBe(0);
    expect(JSON.parse((await runMain(["inbox", "--json"], as(bob))).stdout)).toMatchObject({ mailboxProblems: [] });
    await running.stop();

    running = await startNode({ dataDir: backup });
    const read = await runMain(["inbox", "--json"], as(bob));
    const [problem] = (JSON.parse(read.stdout) as { mailboxProblems: Problem[] }).mailboxProblems;
    expect(problem).toMatchObject({ kind: "rollback", seq: 2, proof: { kind: "rollback", account: bob.address.toLowerCase() } });
    expect(problem!.proof!.heads.map((head) => head.size)).toEqual([2, 1]);
    const node = running.address.toLowerCase();
    await running.stop();
    running = undefined; // verify-proof needs no node

    const files = tempDir("neutral-cli-proofs-");
    const write = (name: string, value: unknown) => {
      const file = path.join(files, name);
      writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2));
      return file;
    };
    const proofFile = write("proof.json", problem!.proof);
    const human = await runMain(["verify-proof", proofFile]);
    expect(human).toMatchObject({ code: 0, stderr: "" });
    const [longer, shorter] = problem!.proof!.heads;
    expect(human.stdout).toBe(`✓ Node ${node} signed 2 positions of ${bob.address.toLowerCase()}'s log at ${longer!.timestamp}, then 1 at ${shorter!.timestamp}: it rolled the log back\n`);
    expect(JSON.parse((await runMain(["verify-proof", "--json", write("problem.json", problem)])).stdout)).toMatchObject({ valid: true, kind: "rollback", node });

    const altered = structuredClone(problem!.proof!);
    altered.heads[0]!.size = 3;
    const refused = await runMain(["verify-proof", write("altered.json", altered)]);
    expect(refused).toMatchObject({ code: 1, stdout: `✗ not a proof: heads[0] is not signed by ${node}\n` });
    expect(JSON.parse((await runMain(["verify-proof", "--json", write("altered.json", altered)])).stdout)).toEqual({ valid: false, reason: `heads[0] is not signed by ${node}` });
    const notJson = await runMain(["verify-proof", write("broken.json", "{ not json")]);
    expect(notJson).toMatchObject({ code: 1, stderr: `neutral: ${path.join(files, "broken.json")} is not JSON\n` });
  });

  it("accepts the proof of a broken promise (a receipt bound to a position, a head holding another leaf there), and refuses it altered", { timeout: IN_PROCESS * 3 }, async () => {
    const node = fixtureSigner(TEST_KEYS.node).address;
    const account = fixtureSigner(TEST_KEYS.bob).address;
    const sender = fixtureSigner(TEST_KEYS.alice).address;
    const message = { from: sender, to: account, messageHash: toHex(new Uint8Array(32).fill(7)), timestamp: 1_767_225_600_000 };
    const digest = toHex(hashedMessageDigest(message));
    const other = toHex(new Uint8Array(32).fill(9));
    const leaves = [other, other, digest].map((leafDigest, i) => mailboxLeafHash({ account, seq: i + 1, role: "received", peer: sender, digest: leafDigest }));
    const headFields = { account, size: 3, root: toHex(merkleRoot(leaves)), timestamp: 1_767_225_700_000 };
    const proof = {
      version: 1,
      kind: "broken-promise",
      node,
      account,
      promise: { message, role: "receiver", seq: 2, signature: signDigest(logReceiptDigest(digest, 2, "receiver"), TEST_KEYS.node) },
      head: { ...headFields, signature: signDigest(mailboxHeadDigest(headFields), TEST_KEYS.node) },
      leafHash: toHex(leaves[1]!),
      inclusion: merkleInclusionProof(leaves, 1).map(toHex),
    };
    const files = tempDir("neutral-cli-promise-");
    const write = (name: string, value: unknown) => {
      const file = path.join(files, name);
      writeFileSync(file, JSON.stringify(value, null, 2));
      return file;
    };
    const human = await runMain(["verify-proof", write("promise.json", proof)]);
    expect(human).toMatchObject({ code: 0, stderr: "" });
    expect(human.stdout).toBe(`✓ Node ${node} promised that position 2 of ${account}'s log holds message ${digest} (receiver), and signed a head of 3 positions that holds another there\n`);
    const altered = await runMain(["verify-proof", "--json", write("altered.json", { ...proof, leafHash: toHex(leaves[2]!) })]);
    expect(altered.code).toBe(1);
    expect(JSON.parse(altered.stdout)).toEqual({ valid: false, reason: "the inclusion proof of leafHash at position 2 does not lead to the head's root" });
  });
});
