// `neutral audit` against a real node (in this process): every position of Bob's log accounted for,
// the next run reading only what came since (the state folder keeps where it got to), a damaged or
// contradicted state refused or named (exit 1), and a node restored from an older copy of its data
// caught rolling the log back, with a proof `neutral verify-proof` accepts offline.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startLyingNode, startNode, tempDir, type InProcessNode, type MailboxLie } from "@neutral/relay/testing";
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
interface AuditJson {
  head: { size: number };
  from: number;
  to: number;
  accounted: Record<string, number>;
  problems: { kind: string; seq?: number; message: string; proof?: unknown }[];
}
const keygen = async (): Promise<Account> => JSON.parse((await runMain(["keygen", "--json"])).stdout) as Account;

describe("neutral audit", () => {
  it("accounts for every position, then only for what came since; a damaged state is refused, a contradicted one named", { timeout: IN_PROCESS * 8 }, async () => {
    running = await startNode();
    const [alice, bob] = [await keygen(), await keygen()];
    const state = tempDir("neutral-cli-state-");
    const as = (account: Account) => ({ env: { NEUTRAL_URL: running!.url, NEUTRAL_KEY: account.privateKey, NEUTRAL_STATE: state } });
    expect((await runMain(["whoami"], as(bob))).code).toBe(0);
    expect((await runMain(["send", bob.address, "one"], as(alice))).code).toBe(0);
    expect((await runMain(["send", alice.address, "two"], as(bob))).code).toBe(0);

    const first = await runMain(["audit"], as(bob));
    expect(first).toMatchObject({ code: 0, stderr: "", stdout: "✓ positions 1–2 of 2 accounted for (2 messages, 0 deleted, 0 expired, 0 removed by the retention)\n" });
    const file = path.join(state, "audits", running.address.toLowerCase(), `${bob.address.toLowerCase()}.json`);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ size: 2, roots: [expect.stringMatching(/^0x[0-9a-f]{64}$/)], head: { size: 2 } });
    expect((await runMain(["audit"], as(bob))).stdout).toBe("✓ no position since the last audit of 2 accounted for (0 messages, 0 deleted, 0 expired, 0 removed by the retention)\n");

    expect((await runMain(["send", bob.address, "three"], as(alice))).code).toBe(0);
    const json = await runMain(["audit", "--json"], as(bob));
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout) as AuditJson).toMatchObject({ head: { size: 3 }, from: 3, to: 3, accounted: { message: 1, deleted: 0, expired: 0, retention: 0 }, problems: [] });

    // A state that says the first 3 positions give another tree: the next audit cannot add up to the head.
    const kept = JSON.parse(readFileSync(file, "utf8")) as { roots: string[] };
    writeFileSync(file, JSON.stringify({ ...kept, roots: kept.roots.map(() => `0x${"11".repeat(32)}`) }));
    expect((await runMain(["send", bob.address, "four"], as(alice))).code).toBe(0);
    const contradicted = await runMain(["audit"], as(bob));
    expect(contradicted.code).toBe(1);
    expect(contradicted.stdout).toMatch(/^✗ 1 problem\(s\) in positions 4–4 of 4 \(1 messages, 0 deleted, 0 expired, 0 removed by the retention\):\n {2}unproven: position 4: The log's 4 positions do not give the root of the node's head of 4\n$/);
    // --full starts from position 1 and puts the state right.
    expect((await runMain(["audit", "--full"], as(bob))).stdout).toBe("✓ positions 1–4 of 4 accounted for (4 messages, 0 deleted, 0 expired, 0 removed by the retention)\n");

    writeFileSync(file, "{ not an audit");
    const damaged = await runMain(["audit"], as(bob));
    expect(damaged).toMatchObject({ code: 1, stdout: "", stderr: `neutral: ${file} is not a mailbox audit: remove it to audit the whole log again\n` });
  });

  it("names a node restored from an older copy of its data as a rollback, and keeps the proof that verify-proof accepts", { timeout: IN_PROCESS * 8 }, async () => {
    const [alice, bob] = [await keygen(), await keygen()];
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
    expect((await runMain(["audit"], as(bob))).code).toBe(0);
    await running.stop();

    running = await startNode({ dataDir: backup });
    const proofFile = path.join(tempDir("neutral-cli-proofs-"), "rollback.json");
    const caught = await runMain(["audit", "--proof", proofFile], as(bob));
    expect(caught.code).toBe(1);
    expect(caught.stdout).toContain("rollback: position 2: The node shows 1 positions; 2 were verified before\n");
    expect(caught.stdout).toContain(`the proof is in ${proofFile}\n`);
    await running.stop();
    running = undefined;
    const verified = await runMain(["verify-proof", "--json", proofFile]);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ valid: true, kind: "rollback", account: bob.address.toLowerCase() });
  });

  it("names each lie of a lying node by its position and kind (exit 1), and writes the proofs of a missing position, an unproven removal, an altered body and a rollback that verify-proof accepts", { timeout: IN_PROCESS * 18 }, async () => {
    const liar = await startLyingNode();
    try {
      const [alice, bob] = [await keygen(), await keygen()];
      const state = tempDir("neutral-cli-state-");
      const as = (account: Account) => ({ env: { NEUTRAL_URL: liar.url, NEUTRAL_KEY: account.privateKey, NEUTRAL_STATE: state } });
      expect((await runMain(["whoami"], as(bob))).code).toBe(0);
      for (const text of ["one", "two", "three", "four"]) expect((await runMain(["send", bob.address, text], as(alice))).code).toBe(0);
      expect((await runMain(["audit"], as(bob))).code).toBe(0);
      const lies: [MailboxLie, { kind: string; seq: number }][] = [
        [{ kind: "drop", seq: 2 }, { kind: "missing", seq: 2 }],
        [{ kind: "unsigned-deletion", seq: 3 }, { kind: "unproven-removal", seq: 3 }],
        [{ kind: "swap", seq: 1, with: 2 }, { kind: "reordered", seq: 1 }],
        [{ kind: "alter-body", seq: 4 }, { kind: "altered", seq: 4 }],
        [{ kind: "alter-receipt", seq: 2 }, { kind: "altered", seq: 2 }],
      ];
      for (const [lie, problem] of lies) {
        liar.lie(lie);
        const audited = await runMain(["audit", "--full", "--json"], as(bob));
        expect(audited.code, lie.kind).toBe(1);
        expect((JSON.parse(audited.stdout) as AuditJson).problems.map(({ kind, seq }) => ({ kind, seq })), lie.kind).toEqual([problem]);
        if (lie.kind === "drop" || lie.kind === "unsigned-deletion" || lie.kind === "alter-body") {
          // The node's signed log page is the proof: --proof writes it, verify-proof accepts it.
          const file = path.join(state, `${lie.kind}.json`);
          expect((await runMain(["audit", "--full", "--proof", file], as(bob))).code, lie.kind).toBe(1);
          const verified = await runMain(["verify-proof", "--json", file]);
          expect(verified.code, lie.kind).toBe(0);
          expect(JSON.parse(verified.stdout), lie.kind).toMatchObject({ valid: true, kind: problem.kind, account: bob.address.toLowerCase() });
        }
      }
      liar.lie(undefined);
      const backup = await liar.backup();
      expect((await runMain(["send", bob.address, "five"], as(alice))).code).toBe(0);
      expect((await runMain(["audit"], as(bob))).code).toBe(0);
      await liar.restore(backup);
      const proof = path.join(state, "rollback.json");
      const rolledBack = await runMain(["audit", "--proof", proof], as(bob));
      expect(rolledBack.code).toBe(1);
      expect(rolledBack.stdout).toContain("rollback: position 5");
      expect(await runMain(["verify-proof", proof])).toMatchObject({ code: 0, stdout: expect.stringContaining("rolled the log back") });
    } finally {
      await liar.stop();
    }
  });
});
