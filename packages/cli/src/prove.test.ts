// `neutral prove` against a real node (in this process): a message Alice sent is proven at the
// position of Bob's copy in Bob's log, signed by the node (exit 0); once Bob deleted his copy, or
// for an id that is not a message she sent, it is not, with why (exit 1).
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
interface ProveJson {
  proven: { id: string; seq: number; receipt: string; node: string }[];
  problems: { id: string; message: string }[];
}
const keygen = async (): Promise<Account> => JSON.parse((await runMain(["keygen", "--json"])).stdout) as Account;

describe("neutral prove", () => {
  it("proves a sent message at the position of its recipient's copy; not once the copy is deleted, nor an id that is not one you sent", { timeout: IN_PROCESS * 8 }, async () => {
    running = await startNode();
    const [alice, bob] = [await keygen(), await keygen()];
    const state = tempDir("neutral-cli-state-");
    const as = (account: Account) => ({ env: { NEUTRAL_URL: running!.url, NEUTRAL_KEY: account.privateKey, NEUTRAL_STATE: state } });
    expect((await runMain(["whoami"], as(bob))).code).toBe(0);
    const sent = JSON.parse((await runMain(["send", "--json", bob.address, "one"], as(alice))).stdout) as { id: string };
    expect((await runMain(["send", bob.address, "two"], as(alice))).code).toBe(0);

    const human = await runMain(["prove", sent.id], as(alice));
    expect(human).toMatchObject({ code: 0, stderr: "" });
    expect(human.stdout).toBe(`✓ message ${sent.id} is at position 1 of its recipient's log, signed by ${running.address.toLowerCase()}\n`);
    const json = JSON.parse((await runMain(["prove", "--json", sent.id], as(alice))).stdout) as ProveJson;
    expect(json).toMatchObject({ proven: [{ id: sent.id, seq: 1, node: running.address.toLowerCase() }], problems: [] });

    expect((await runMain(["delete", sent.id], as(bob))).code).toBe(0);
    const deleted = await runMain(["prove", "--json", sent.id, "999"], as(alice));
    expect(deleted.code).toBe(1);
    const after = JSON.parse(deleted.stdout) as ProveJson;
    expect(after.proven).toEqual([]);
    expect(after.problems.map(({ id }) => id)).toEqual([sent.id, "999"]);
    expect(after.problems[1]!.message).toMatch(/not a message you sent/);
    expect((await runMain(["prove", "abc"], as(alice))).code).toBe(2);
  });
});
