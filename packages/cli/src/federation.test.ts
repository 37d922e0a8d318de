// The CLI across a federation: three real nodes on loopback, each a peer of the others, run in this
// process (startNode: real HTTP, real SQLite files), as is the CLI (`main`, its output captured): what
// is tested is what the CLI shows of a federation, not the processes (cli.test.ts spawns the bin).
// Alice is homed at A, Bob at B, Carol at C (whose deliveries give up after a second).
import { TEST_KEYS } from "@neutral/protocol/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startFederation, stopRunningNodes, type FederatedNode, type Federation } from "@neutral/relay/testing";
import type { CliResult } from "../test/run-cli.js";
import { runMain } from "../test/run-in-process.js";

const SLOW = 120_000;
/** Public test keys (never real secrets): the nodes' keys. */
const NODE_KEYS = [TEST_KEYS.node, TEST_KEYS.peer, TEST_KEYS.mallory] as const;

interface Account {
  address: string;
  privateKey: string;
}

interface MessageJson {
  id: string;
  from: string;
  to: string;
  text: string | null;
  verified: boolean;
  checks: { decrypted: boolean; signature: boolean; senderReceipt: boolean; receiverReceipt: boolean };
  problems: string[];
  status: "delivered" | "pending" | "failed";
  reason?: string;
}

let federation: Federation;
let a: FederatedNode;
let b: FederatedNode;
let c: FederatedNode;
let alice: Account;
let bob: Account;
let carol: Account;

async function keygen(): Promise<Account> {
  const result = await runMain(["keygen", "--json"]);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Account;
}

/** Runs the CLI as `account` on `node`. */
const cli = (account: Account, node: FederatedNode, args: readonly string[]) => runMain(args, { env: { NEUTRAL_URL: node.url, NEUTRAL_KEY: account.privateKey }, timeoutMs: 60_000 });

function ok(result: CliResult): string {
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

/** The message with `text` in a listing's --json output. */
async function listed(account: Account, node: FederatedNode, args: readonly string[], text: string): Promise<MessageJson> {
  const page = JSON.parse(ok(await cli(account, node, [...args, "--json"]))) as { messages: MessageJson[] };
  const message = page.messages.find((entry) => entry.text === text);
  expect(message, `${text} in ${args.join(" ")}`).toBeDefined();
  return message!;
}

/** The table row of the message `id`, and the lines under it up to the next row. */
function rowOf(table: string, id: string): string[] {
  const lines = table.trimEnd().split("\n");
  const start = lines.findIndex((line) => new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d +${id}  `).test(line));
  expect(start, `row ${id} in\n${table}`).toBeGreaterThan(0);
  const end = lines.findIndex((line, i) => i > start && /^\d{4}-/.test(line));
  return lines.slice(start, end === -1 ? undefined : end);
}

const ALL_CHECKS = { decrypted: true, signature: true, senderReceipt: true, receiverReceipt: true };

beforeAll(async () => {
  federation = await startFederation({
    inProcess: true,
    keys: [...NODE_KEYS],
    args: ["--retry-backoff-ms", "100", "--retry-backoff-max-ms", "500", "--delivery-wait-ms", "3000"],
    // C gives up on a message after a second, and answers a send at once.
    argsOf: (index) => (index === 2 ? ["--retry-period", "1", "--delivery-wait-ms", "0"] : []),
  });
  [a, b, c] = federation.nodes as [FederatedNode, FederatedNode, FederatedNode];
  [alice, bob, carol] = [await keygen(), await keygen(), await keygen()];
}, SLOW);

afterAll(async () => {
  await federation?.close();
  await stopRunningNodes();
}, SLOW);

describe("neutral across nodes", () => {
  it("whoami makes each account's node its home", async () => {
    for (const [account, node] of [
      [alice, a],
      [bob, b],
      [carol, c],
    ] as const) {
      const whoami = JSON.parse(ok(await cli(account, node, ["whoami", "--json"]))) as { home: string; keyPublished: boolean };
      expect(whoami).toMatchObject({ home: node.address, keyPublished: true });
    }
    expect(ok(await cli(alice, a, ["whoami"]))).toMatch(/home node\s+✓ this node/);
  }, SLOW);

  it("send to someone on another node reads exactly as to someone on the same node", async () => {
    expect(ok(await cli(alice, a, ["send", bob.address, "hello across"]))).toMatch(new RegExp(`^sent message \\d+ to ${bob.address} ✓\\n$`));
    const sent = JSON.parse(ok(await cli(alice, a, ["send", bob.address, "hello again", "--json"]))) as MessageJson;
    expect(sent).toMatchObject({ status: "delivered", verified: true, checks: ALL_CHECKS, problems: [] });
    expect(sent).not.toHaveProperty("reason");

    const received = await listed(bob, b, ["inbox"], "hello across");
    expect(received).toMatchObject({ from: alice.address, status: "delivered", verified: true, checks: ALL_CHECKS });
    const table = ok(await cli(bob, b, ["inbox"]));
    expect(table).toMatch(/← {2}0x[0-9a-f]{4}…[0-9a-f]{4} {2}✓ {2}hello across\n/);
    expect(table).not.toMatch(/pending|failed|not verified/);
  }, SLOW);

  it("send --wait waits for a pending message to be delivered", async () => {
    // C answers at once, before B's receipt: pending, then delivered within the wait.
    const result = await cli(carol, c, ["send", bob.address, "from C", "--wait", "30"]);
    expect(result.stdout).toMatch(new RegExp(`^sent message \\d+ to ${bob.address} ✓\\n$`));
    expect(result.code).toBe(0);
    expect(await listed(bob, b, ["inbox", "--from", carol.address], "from C")).toMatchObject({ verified: true });
  }, SLOW);

  it("shows pending while the recipient's node is down, failed with the reason when the sender's node gives up, and delivered once it is back", async () => {
    await b.stop();

    // Pending, in every view.
    const send = ok(await cli(alice, a, ["send", bob.address, "while B is down"]));
    const id = new RegExp(`^sent message (\\d+) to ${bob.address} pending: not delivered to the recipient's node yet\\n$`).exec(send)?.[1];
    expect(id, send).toBeDefined();
    const pending = await listed(alice, a, ["inbox", "--direction", "sent"], "while B is down");
    expect(pending).toMatchObject({ id, status: "pending", verified: false, checks: { ...ALL_CHECKS, receiverReceipt: false } });
    expect(pending).not.toHaveProperty("reason");
    expect(pending.problems).toEqual([`not delivered yet: the recipient's home node ${b.address} has not stored it (no receiver receipt so far)`]);
    expect(await listed(alice, a, ["chat", bob.address], "while B is down")).toMatchObject({ id, status: "pending" });
    const pendingRow = rowOf(ok(await cli(alice, a, ["inbox", "--direction", "sent"])), id!);
    expect(pendingRow[0]).toMatch(/→ {2}0x[0-9a-f]{4}…[0-9a-f]{4} {2}… {2}while B is down$/);
    expect(pendingRow.slice(1).map((line) => line.trim())).toEqual(["… pending: not delivered to the recipient's node yet"]);
    expect(rowOf(ok(await cli(alice, a, ["chat", bob.address])), id!)[1]!.trim()).toBe("… pending: not delivered to the recipient's node yet");

    // Failed: C retries for a second only. --wait ends when it fails, and so does send: exit 1.
    const doomedRun = await cli(carol, c, ["send", bob.address, "never arrives", "--wait", "60"]);
    expect(doomedRun.code, doomedRun.stderr).toBe(1);
    const doomed = doomedRun.stdout;
    const failedId = new RegExp(`^sent message (\\d+) to ${bob.address} failed: (.+)\\n$`).exec(doomed)?.[1];
    expect(failedId, doomed).toBeDefined();
    const failed = await listed(carol, c, ["inbox", "--direction", "sent"], "never arrives");
    expect(failed).toMatchObject({ id: failedId, status: "failed", verified: false, reason: expect.stringMatching(/not delivered to the recipient's node/) });
    expect(failed.problems).toEqual([`delivery failed: ${failed.reason}`]);
    const failedRow = rowOf(ok(await cli(carol, c, ["inbox", "--direction", "sent"])), failedId!);
    expect(failedRow[0]).toMatch(/→ {2}0x[0-9a-f]{4}…[0-9a-f]{4} {2}✗ {2}never arrives$/);
    expect(failedRow.slice(1).map((line) => line.trim())).toEqual([`✗ failed: ${failed.reason}`]);

    // B comes back (same port, key and data dir): A delivers, and every view says so.
    await b.start();
    await vi.waitFor(async () => expect(await listed(alice, a, ["inbox", "--direction", "sent"], "while B is down")).toMatchObject({ status: "delivered" }), {
      timeout: 60_000,
      interval: 500,
    });
    const delivered = await listed(alice, a, ["inbox", "--direction", "sent"], "while B is down");
    expect(delivered).toMatchObject({ id, verified: true, checks: ALL_CHECKS, problems: [] });
    expect(rowOf(ok(await cli(alice, a, ["inbox", "--direction", "sent"])), id!)).toEqual([expect.stringMatching(/ {2}✓ {2}while B is down$/)]);
    expect(await listed(bob, b, ["inbox"], "while B is down")).toMatchObject({ verified: true, status: "delivered" });
  }, SLOW);
});
