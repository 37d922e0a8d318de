// `neutral verify-proof`: a node (in this process) restored from an older copy of its data rolls
// Bob's mailbox back; `inbox --json` names the rollback with its proof, which verify-proof accepts
// offline (exit 0), as a proof or as the problem carrying it, and refuses once altered (exit 1).
import { cpSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startNode, tempDir, type InProcessNode } from "@neutral/relay/testing";
import { afterEach, describe, expect, it } from "vitest";
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
});
