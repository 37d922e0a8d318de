// `neutral export` and `neutral verify-export` end to end: the export made against a real node on
// loopback, verified (and tampered with) once the node is stopped. The nodes (startNode: real HTTP,
// real SQLite files) and the CLI (`main`, its output captured) run in this process; `verify-export -`
// reads standard input, so that one runs the built CLI (dist/main.js) as a child process.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { TEST_KEYS } from "@neutral/protocol/testing";
import { startNode, stopRunningNodes, type InProcessNode } from "@neutral/relay/testing";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VerifiedHead } from "@neutral/client";
import { fileHeadStore } from "./head-store.js";
import { closedPort, runCli, type CliResult } from "../test/run-cli.js";
import { runMain } from "../test/run-in-process.js";

const SLOW = 60_000;
const aliceAddress = privateKeyToAccount(TEST_KEYS.alice).address.toLowerCase();
const bobAddress = privateKeyToAccount(TEST_KEYS.bob).address.toLowerCase();

let relay: InProcessNode | undefined;
let dir: string;
let file: string;
const outputs: CliResult[] = [];

async function cli(args: readonly string[], key?: string): Promise<CliResult> {
  const result = await runMain(args, { env: { ...(relay && { NEUTRAL_URL: relay.url }), ...(key && { NEUTRAL_KEY: key }) }, timeoutMs: 30_000 });
  outputs.push(result);
  return result;
}

function ok(result: CliResult): string {
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

interface VerifyJson {
  ok: boolean;
  account: string;
  messages: number;
  verified: number;
  problems: { line: number; id: string | null; problem: string }[];
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "neutral-cli-export-"));
  file = path.join(dir, "alice.jsonl");
  relay = await startNode();
  ok(await cli(["whoami"], TEST_KEYS.bob));
  ok(await cli(["send", bobAddress, "hello bob"], TEST_KEYS.alice));
  ok(await cli(["send", aliceAddress, "hello alice"], TEST_KEYS.bob));
}, SLOW);

afterAll(async () => {
  await relay?.stop();
  await stopRunningNodes();
  rmSync(dir, { recursive: true, force: true });
}, SLOW);

describe("neutral export", () => {
  it("writes the mailbox to --out (header, then both messages), and the same lines to stdout without it", async () => {
    expect(ok(await cli(["export", "--out", file], TEST_KEYS.alice))).toBe(`exported 2 positions (2 messages) of ${aliceAddress} to ${file}\n`);
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines).toHaveLength(4); // three lines and the last newline
    expect(lines[3]).toBe("");
    expect(JSON.parse(lines[0]!)).toMatchObject({ format: "neutral-mailbox", version: 2, account: aliceAddress, node: relay!.address, head: { size: 2 } });
    expect(lines.slice(1, 3).map((line) => JSON.parse(line) as { seq: number; message: { from: string } }).map(({ seq, message }) => [seq, message.from])).toEqual([
      [1, aliceAddress],
      [2, bobAddress],
    ]);

    const piped = await cli(["export"], TEST_KEYS.alice);
    expect(piped.stdout.split("\n").slice(1)).toEqual(lines.slice(1));
    expect(piped.stderr).toBe("exported 2 positions (2 messages)\n");
    expect(readdirSync(dir)).toEqual(["alice.jsonl"]); // no partial file left behind
  }, SLOW);

  it("refuses to overwrite a file, and leaves it as it was", async () => {
    const before = readFileSync(file, "utf8");
    const result = await cli(["export", "--out", file, "--json"], TEST_KEYS.alice);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^neutral: cannot write .*alice\.jsonl.*: the file exists \(EEXIST\)\n$/);
    expect(readFileSync(file, "utf8")).toBe(before);
  }, SLOW);
});

describe("neutral import, at another node (a new home)", () => {
  let newHome: InProcessNode | undefined;
  afterAll(async () => {
    await newHome?.stop();
  }, SLOW);

  it("stores every message of the export with its original receipts; again, nothing twice; someone else's export is refused", async () => {
    newHome = await startNode();
    const at = async (args: readonly string[], key: string) => {
      const result = await runMain(args, { env: { NEUTRAL_URL: newHome!.url, NEUTRAL_KEY: key }, timeoutMs: 30_000 });
      outputs.push(result);
      return result;
    };
    expect(ok(await at(["import", file], TEST_KEYS.alice))).toBe(`✓ imported 2 messages of ${aliceAddress}\n✓ the former home's head of 2 positions, which the export gives, went along\n`);
    // Bob's messaging key, for alice to decrypt here: without federation, he publishes it himself.
    ok(await at(["whoami"], TEST_KEYS.bob));
    // The original receipts, signed by the former node: this node (no federation) is not the one
    // that signed them, and the reader is told so, naming it.
    const former = (JSON.parse(readFileSync(file, "utf8").split("\n")[0]!) as { node: string }).node;
    const inbox = JSON.parse(ok(await at(["inbox", "--direction", "all", "--json"], TEST_KEYS.alice))) as { messages: { text: string; checks: { decrypted: boolean; signature: boolean }; problems: string[] }[] };
    expect(inbox.messages.map((message) => message.text).sort()).toEqual(["hello alice", "hello bob"]);
    for (const message of inbox.messages) {
      expect(message.checks).toMatchObject({ decrypted: true, signature: true });
      expect(message.problems.join("; ")).toContain(`signed by ${former}`);
    }
    const again = JSON.parse(ok(await at(["import", file, "--json"], TEST_KEYS.alice))) as { account: string; imported: number; skipped: unknown[] };
    const { head } = JSON.parse(readFileSync(file, "utf8").split("\n")[0]!) as { head: unknown };
    expect(again).toEqual({ account: aliceAddress, imported: 2, skipped: [], head, problems: [] });
    // An export with a position left out: its messages are stored, the head does not go along, exit 1.
    const cut = path.join(dir, "cut.jsonl");
    const exported = readFileSync(file, "utf8").split("\n");
    writeFileSync(cut, [exported[0], exported[2], ""].join("\n"));
    const partial = await at(["import", cut], TEST_KEYS.alice);
    expect(partial.code).toBe(1);
    expect(partial.stdout).toBe(`✗ line 2 (position 1): Position 1 is not next in the export\n✓ imported 1 messages of ${aliceAddress}\n✗ the former home's head did not go along: the export's log does not give it\n`);
    expect((JSON.parse(ok(await at(["inbox", "--direction", "all", "--json"], TEST_KEYS.alice))) as { messages: unknown[] }).messages).toHaveLength(2);
    const refused = await at(["import", file], TEST_KEYS.bob);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^neutral: The export is 0x[0-9a-f]{40}'s mailbox, not this account's/);
    const missing = await at(["import", path.join(dir, "nope.jsonl")], TEST_KEYS.alice);
    expect(missing.stderr).toMatch(/^neutral: cannot read .*nope\.jsonl: no such file\n$/);
  }, SLOW);
});

describe("neutral verify-export, with no relay running", () => {
  beforeAll(async () => {
    await relay?.stop();
    relay = undefined;
  }, SLOW);

  it("exits 0 with a summary when every message verifies", async () => {
    const result = await cli(["verify-export", file]);
    expect(ok(result)).toMatch(
      new RegExp(`^✓ 2 of 2 messages verified \\(${aliceAddress}, exported from node (0x[0-9a-f]{40}) at [^)]+\\)\\n✓ every position of the head of 2 positions \\1 signed at [^(]+ accounted for \\(2 messages, 0 deleted, 0 expired, 0 removed by the retention\\)\\n$`),
    );
    const json = JSON.parse(ok(await cli(["verify-export", file, "--json"]))) as VerifyJson;
    expect(json).toMatchObject({ ok: true, account: aliceAddress, version: 2, messages: 2, verified: 2, positions: 2, complete: true, problems: [] });
    // `-`: the export from standard input.
    const piped = await runCli(["verify-export", "-", "--json"], { input: readFileSync(file, "utf8") });
    outputs.push(piped);
    expect(JSON.parse(ok(piped))).toEqual(json);
  }, SLOW);

  it("exits 1 and names the line, the message and the problem of a tampered file", async () => {
    const lines = readFileSync(file, "utf8").split("\n");
    const position = JSON.parse(lines[2]!) as { message: { id: string; signature?: string } };
    const { message } = position;
    delete message.signature;
    const tampered = path.join(dir, "tampered.jsonl");
    writeFileSync(tampered, [lines[0], lines[1], JSON.stringify(position), ""].join("\n"));

    const result = await cli(["verify-export", tampered]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(new RegExp(`^✗ line 3 \\(message ${message.id}\\): the sender's signature is missing\\n✗ 1 of 2 messages verified .*; 1 problem\\n✓ every position of the head .*\\n$`));
    const json = JSON.parse((await cli(["verify-export", tampered, "--json"])).stdout) as VerifyJson;
    expect(json).toMatchObject({ ok: false, messages: 2, verified: 1, problems: [{ line: 3, id: message.id, problem: "the sender's signature is missing" }] });
  }, SLOW);

  it("checks the log against the head this device verified at the node (--state): another history there is a fork, exit 1", async () => {
    const { head, node } = JSON.parse(readFileSync(file, "utf8").split("\n")[0]!) as { head: VerifiedHead; node: string };
    const state = path.join(dir, "state");
    // What this device verified: the same head (a real one), then a tree of 2 positions with another root.
    fileHeadStore(state).set(aliceAddress, node, head);
    expect(ok(await cli(["verify-export", file, "--state", state]))).toContain("✓ every position of the head");
    fileHeadStore(state).set(aliceAddress, node, { ...head, root: `0x${"ab".repeat(32)}` });
    const forked = await cli(["verify-export", file, "--state", state, "--json"]);
    expect(forked.code).toBe(1);
    expect(JSON.parse(forked.stdout)).toMatchObject({ ok: false, complete: false, problems: [{ line: 3, seq: 2, kind: "fork" }] });
  }, SLOW);

  it("fails with one line for a missing file or one that is not an export", async () => {
    const missing = await cli(["verify-export", path.join(dir, "nope.jsonl")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^neutral: cannot read .*nope\.jsonl: no such file\n$/);
    const other = path.join(dir, "other.json");
    writeFileSync(other, '{"hello":"world"}\n');
    const notExport = await cli(["verify-export", other]);
    expect(notExport.code).toBe(1);
    expect(notExport.stderr).toMatch(/^neutral: Not a neutral-mailbox export \(version 1 or 2\): line 1 has no "format"/);
    expect(existsSync(other)).toBe(true);
  }, SLOW);

  it("export leaves no file behind when it fails (no node answers)", async () => {
    const target = path.join(dir, "failed.jsonl");
    const result = await runMain(["export", "--out", target], { env: { NEUTRAL_URL: `http://127.0.0.1:${await closedPort()}`, NEUTRAL_KEY: TEST_KEYS.alice } });
    outputs.push(result);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^neutral: cannot reach the node/);
    expect(readdirSync(dir).filter((name) => name.startsWith("failed"))).toEqual([]);
  }, SLOW);

  it("never printed a private key, nor wrote one to the export", () => {
    const texts = [...outputs.flatMap((result) => [result.stdout, result.stderr]), readFileSync(file, "utf8")];
    for (const key of [TEST_KEYS.alice, TEST_KEYS.bob]) {
      const bare = key.slice(2).toLowerCase();
      for (const text of texts) expect(text.toLowerCase()).not.toContain(bare);
    }
  }, 5_000);
});
