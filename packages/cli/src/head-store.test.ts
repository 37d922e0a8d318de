// The device's verified mailbox heads in the CLI's state folder (the verifiable mailbox): inbox and
// chat prove what they read against the head kept there, against a real node in this process.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startNode, tempDir, type InProcessNode } from "@neutral/relay/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stateDir } from "./head-store.js";
import { runMain } from "../test/run-in-process.js";

/** Runs the CLI in this process, one at a time: up to ~1 s each on a loaded machine. */
const IN_PROCESS = 30_000;

let relay: InProcessNode;
beforeAll(async () => {
  relay = await startNode();
}, 60_000);
afterAll(() => relay?.stop());

interface Account {
  address: string;
  privateKey: string;
}
const keygen = async (): Promise<Account> => JSON.parse((await runMain(["keygen", "--json"])).stdout) as Account;

interface InboxJson {
  messages: { id: string; text: string | null; proven?: boolean }[];
  end: boolean;
  mailboxProblems: { kind: string; seq?: number; id?: string; message: string }[];
}

describe("the state folder", () => {
  it("is --state, else NEUTRAL_STATE, else under XDG_STATE_HOME, else under HOME; none without a home", () => {
    expect(stateDir("/s/flag", { NEUTRAL_STATE: "/s/env" })).toBe("/s/flag");
    expect(stateDir(undefined, { NEUTRAL_STATE: "/s/env", HOME: "/home/a" })).toBe("/s/env");
    expect(stateDir(undefined, { XDG_STATE_HOME: "/x", HOME: "/home/a" })).toBe(path.join("/x", "neutral"));
    expect(stateDir(undefined, { HOME: "/home/a" })).toBe(path.join("/home/a", ".local", "state", "neutral"));
    expect(stateDir(undefined, {})).toBeUndefined();
  });
});

describe("inbox and chat prove what they read, against the head this device kept", () => {
  it("keeps the verified head per node and account, marks every message proven, and names a rollback between two runs", { timeout: IN_PROCESS * 4 }, async () => {
    const [alice, bob] = [await keygen(), await keygen()];
    const state = tempDir("neutral-cli-state-");
    const env = (account: Account) => ({ env: { NEUTRAL_URL: relay.url, NEUTRAL_KEY: account.privateKey, NEUTRAL_STATE: state } });
    expect((await runMain(["whoami"], env(bob))).code).toBe(0); // bob signs in: his key is published
    expect((await runMain(["send", bob.address, "hello"], env(alice))).code).toBe(0);
    expect((await runMain(["send", bob.address, "again"], env(alice))).code).toBe(0);

    const first = await runMain(["inbox", "--json"], env(bob));
    expect(first.code, first.stderr).toBe(0);
    const read = JSON.parse(first.stdout) as InboxJson;
    expect(read.messages.map((message) => [message.text, message.proven])).toEqual([
      ["again", true],
      ["hello", true],
    ]);
    expect(read.mailboxProblems).toEqual([]);
    const file = path.join(state, "heads", relay.address, `${bob.address.toLowerCase()}.json`);
    const kept = JSON.parse(readFileSync(file, "utf8")) as { account: string; size: number };
    expect(kept).toMatchObject({ account: bob.address.toLowerCase(), size: 2 });

    // The table marks each message ✓; nothing on stderr.
    const table = await runMain(["chat", alice.address], env(bob));
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain("✓  again");
    expect(table.stderr).toBe("");

    // This device once saw a longer log: the node now shows fewer positions.
    writeFileSync(file, JSON.stringify({ ...kept, size: 5 }));
    const rolledBack = await runMain(["inbox", "--json"], env(bob));
    expect(rolledBack.code).toBe(0);
    const after = JSON.parse(rolledBack.stdout) as InboxJson;
    expect(after.mailboxProblems).toEqual([expect.objectContaining({ kind: "rollback", seq: 3 })]);
    expect(after.messages.map((message) => message.proven)).toEqual([false, false]);
    const human = await runMain(["inbox"], env(bob));
    expect(human.stderr).toContain("✗ the node did not prove this mailbox: The node shows 2 positions; this device verified 5 before");
    expect(human.stdout).toContain("✗ not proven");
    // The head this device verified stays: the node must prove it, not replace it.
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ size: 5 });

    // Another folder is another device: it has seen nothing, and trusts the node's head.
    const other = tempDir("neutral-cli-state-");
    const fresh = JSON.parse((await runMain(["inbox", "--json", "--state", other], env(bob))).stdout) as InboxJson;
    expect(fresh.mailboxProblems).toEqual([]);
    expect(existsSync(path.join(other, "heads", relay.address, `${bob.address.toLowerCase()}.json`))).toBe(true);
  });

  it("refuses a state file that is not a mailbox head, naming it (exit 1), and changes nothing", { timeout: IN_PROCESS }, async () => {
    const carol = await keygen();
    const state = tempDir("neutral-cli-state-");
    const file = path.join(state, "heads", relay.address, `${carol.address.toLowerCase()}.json`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, "{ not json");
    const result = await runMain(["inbox"], { env: { NEUTRAL_URL: relay.url, NEUTRAL_KEY: carol.privateKey, NEUTRAL_STATE: state } });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`neutral: ${file} is not a mailbox head: remove it to trust the node's next head (the check against the last one is lost)\n`);
    expect(readFileSync(file, "utf8")).toBe("{ not json");
  });
});
