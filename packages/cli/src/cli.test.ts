// The CLI against a real node on loopback (no mocks). What a command prints and exits with is run in
// this process (`runMain`: src/cli.ts's `main`, its stdout and stderr captured, its environment given),
// against a node built in this process too (`startNode`: real HTTP, a real SQLite file). What is
// process behaviour runs the built CLI (dist/main.js) as a child process, as a user would: watch and
// its signals (SIGINT, SIGTERM), `send -` (standard input), serve (a relay in a child process of its
// own), and the bin end to end for each kind of exit (0: --help, --version, send -; 1: an unreachable
// node; 2: no command). A relay that must be killed -9 and started again (watch's reconnect) is spawned.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startNode, startRelay, stopRunningNodes, tempDir, type InProcessNode } from "@neutral/relay/testing";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localTime } from "./format.js";
import { startOldNode } from "../test/old-node.js";
import { closedPort, exited, runCli, spawnCli, waitFor, type CliOptions, type CliResult } from "../test/run-cli.js";
import { runMain, type InProcessOptions } from "../test/run-in-process.js";

// Each test's time limit, for a loaded 2-core machine (a CI run of every package's tests at once):
/** Runs the CLI in this process only: up to ~1 s here, each run a fraction of a second. */
const IN_PROCESS = 30_000;
/** Spawns the built CLI a few times: each start ~0.4 s alone, up to ~8 s on a loaded CI machine. */
const SPAWNS = 60_000;
/** Spawns watch or serve and waits for what it prints, and for it to exit on a signal. */
const WATCHES = 90_000;
/** Spawns a relay, kills it (-9) and starts it again, a watch waiting for it: up to 30 s for the message sent meanwhile alone. */
const RESTARTS = 150_000;

interface Account {
  address: string;
  privateKey: string;
}

let relay: InProcessNode;
/** Every private key made in this file, and every output of a command that is not keygen. */
const keys: string[] = [];
const outputs: { args: readonly string[]; result: CliResult }[] = [];

/** Runs the CLI in this process and records its output for the no-key-in-output check. */
async function cli(args: readonly string[], options: InProcessOptions = {}): Promise<CliResult> {
  const result = await runMain(args, options);
  if (args[0] !== "keygen") outputs.push({ args, result });
  return result;
}

/** Runs the built CLI as a child process (process behaviour: stdin, the bin itself) and records its output too. */
async function spawned(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const result = await runCli(args, options);
  if (args[0] !== "keygen") outputs.push({ args, result });
  return result;
}

async function keygen(): Promise<Account> {
  const result = await runMain(["keygen", "--json"]);
  expect(result.code).toBe(0);
  const account = JSON.parse(result.stdout) as Account;
  keys.push(account.privateKey);
  return account;
}

const as = (account: Account, env: Record<string, string | undefined> = {}) => ({ env: { NEUTRAL_URL: relay.url, NEUTRAL_KEY: account.privateKey, ...env } });

/** No form of any key (with or without 0x, any case), nor its first or last 16 hex digits, in `text`. */
function expectNoKey(text: string, label: string): void {
  const lower = text.toLowerCase();
  for (const key of keys) {
    const bare = key.replace(/^0x/, "").toLowerCase();
    for (const part of [bare, bare.slice(0, 16), bare.slice(-16)]) expect(lower.includes(part), `${label} contains (part of) a private key`).toBe(false);
  }
}

/** A failure: exactly one line on stderr, `neutral: …`, nothing on stdout. */
function expectOneErrorLine(result: CliResult, code: number): string {
  expect(result.code, result.stderr).toBe(code);
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(/^neutral: [^\n]+\n$/);
  return result.stderr.trim();
}

// Declared again on purpose, not imported from format.ts: the test pins the documented --json shape.
interface MessageJson {
  id: string;
  from: string;
  to: string;
  direction: "received" | "sent";
  timestamp: number;
  expires?: number;
  text: string | null;
  verified: boolean;
  checks: { decrypted: boolean; signature: boolean; senderReceipt: boolean; receiverReceipt: boolean };
  problems: string[];
  status: "delivered" | "pending" | "failed";
  reason?: string;
  proven?: boolean;
}
interface PageJson {
  messages: MessageJson[];
  end: boolean;
}
const parsePage = (result: CliResult) => {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as PageJson;
};

let alice: Account;
let bob: Account;

beforeAll(async () => {
  relay = await startNode();
  [alice, bob] = [await keygen(), await keygen()];
});

afterAll(async () => {
  await relay?.stop();
  await stopRunningNodes();
});

describe("keygen", () => {
  it("prints exactly one JSON line with a private key and its address", async () => {
    const result = await runMain(["keygen", "--json"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^\{"address":"0x[0-9a-f]{40}","privateKey":"0x[0-9a-f]{64}"\}\n$/);
    const { address, privateKey } = JSON.parse(result.stdout) as Account;
    keys.push(privateKey);
    expect(privateKeyToAccount(privateKey as `0x${string}`).address.toLowerCase()).toBe(address);
  }, IN_PROCESS);

  it("makes a different key every time", async () => {
    const other = await keygen();
    expect(other.privateKey).not.toBe(alice.privateKey);
    expect(other.privateKey).not.toBe(bob.privateKey);
    expect(other.address).not.toBe(alice.address);
  }, IN_PROCESS);

  it("says, for a person, to keep the key secret and how to use it", async () => {
    const result = await runMain(["keygen"]);
    expect(result.code).toBe(0);
    const privateKey = /private key\s+(0x[0-9a-f]{64})/.exec(result.stdout)?.[1];
    expect(privateKey).toBeDefined();
    keys.push(privateKey!);
    expect(result.stdout).toMatch(/secret/i);
    expect(result.stdout).toContain(`export NEUTRAL_KEY=${privateKey}`);
    const address = /address\s+(0x[0-9a-f]{40})/.exec(result.stdout)?.[1];
    expect(privateKeyToAccount(privateKey as `0x${string}`).address.toLowerCase()).toBe(address);
  }, IN_PROCESS);
});

describe("two accounts exchange messages", () => {
  it("cannot send to bob before bob has published his messaging key", async () => {
    const result = await cli(["send", bob.address, "too early"], as(alice));
    const line = expectOneErrorLine(result, 1);
    expect(line).toContain("NO_RECIPIENT_KEY");
    expect(line).toContain(bob.address);
    expect(line).toContain("neutral whoami");
  }, IN_PROCESS);

  it("whoami signs bob in and publishes his key", async () => {
    const result = await cli(["whoami", "--json"], as(bob));
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      address: bob.address,
      url: relay.url,
      node: { address: relay.address.toLowerCase(), software: expect.any(String), version: expect.any(String) },
      keyPublished: true,
      publishedNow: true,
      home: relay.address.toLowerCase(),
    });
    const again = await cli(["whoami"], as(bob));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(bob.address);
    expect(again.stdout).toContain(relay.url);
    expect(again.stdout).toContain(relay.address.toLowerCase());
    expect(again.stdout).toMatch(/messaging key\s+✓ published/);
    expect(again.stdout).toMatch(/home node\s+✓ this node/);
    expect(again.stdout).not.toContain("just now");
  }, IN_PROCESS);

  let sentId: string;
  it("alice sends; the stored message comes back as JSON, verified", async () => {
    const result = await cli(["send", bob.address, "hello bob", "--json"], as(alice));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split("\n")).toHaveLength(1);
    const message = JSON.parse(result.stdout) as MessageJson;
    expect(Object.keys(message)).toEqual(["id", "from", "to", "direction", "timestamp", "text", "verified", "checks", "problems", "status"]);
    expect(message).toMatchObject({ from: alice.address, to: bob.address, direction: "sent", text: "hello bob", verified: true, problems: [], status: "delivered" });
    expect(message.checks).toEqual({ decrypted: true, signature: true, senderReceipt: true, receiverReceipt: true });
    sentId = message.id;
  }, IN_PROCESS);

  it("bob's inbox --json shows the plaintext, verified", async () => {
    const page = parsePage(await cli(["inbox", "--json"], as(bob)));
    expect(page.end).toBe(true);
    expect(page.messages).toHaveLength(1);
    expect(page.messages[0]).toMatchObject({ id: sentId, from: alice.address, to: bob.address, direction: "received", text: "hello bob", verified: true, problems: [] });
  }, IN_PROCESS);

  it("bob answers with the human output: the stored id", async () => {
    const result = await cli(["send", alice.address, "hello alice"], as(bob));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^sent message \\d+ to ${alice.address} ✓\\n$`));
  }, IN_PROCESS);

  it("chat shows both directions, newest first", async () => {
    const page = parsePage(await cli(["chat", alice.address, "--json"], as(bob)));
    expect(page.messages.map((message) => [message.direction, message.text])).toEqual([
      ["sent", "hello alice"],
      ["received", "hello bob"],
    ]);
    expect(page.messages.every((message) => message.verified)).toBe(true);

    const human = await cli(["chat", bob.address], as(alice));
    expect(human.code, human.stderr).toBe(0);
    const lines = human.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^TIME\s+ID\s+PEER\s+TEXT$/);
    expect(lines[1]).toMatch(/ ← {2}0x[0-9a-f]{4}…[0-9a-f]{4} {2}✓ {2}hello alice$/);
    expect(lines[2]).toMatch(/ → {2}0x[0-9a-f]{4}…[0-9a-f]{4} {2}✓ {2}hello bob$/);
    expect(lines[1]).toContain(`${bob.address.slice(0, 6)}…${bob.address.slice(-4)}`);
  }, IN_PROCESS);

  it("alice reads back what she sent", async () => {
    const page = parsePage(await cli(["inbox", "--direction", "sent", "--json"], as(alice)));
    expect(page.messages.map((message) => message.text)).toEqual(["hello bob"]);
    expect(page.messages[0]!.direction).toBe("sent");
    const received = parsePage(await cli(["inbox", "--json", "--from", bob.address], as(alice)));
    expect(received.messages.map((message) => message.text)).toEqual(["hello alice"]);
    const all = parsePage(await cli(["inbox", "--direction", "all", "--json"], as(alice)));
    expect(all.messages.map((message) => message.text)).toEqual(["hello alice", "hello bob"]);
  }, IN_PROCESS);

  it("pages: --limit gives the newest page, --all walks every page", async () => {
    for (let i = 1; i <= 4; i++) expect((await cli(["send", bob.address, `page ${i}`], as(alice))).code).toBe(0);
    const first = parsePage(await cli(["inbox", "--limit", "2", "--json"], as(bob)));
    expect(first).toMatchObject({ end: false });
    expect(first.messages.map((message) => message.text)).toEqual(["page 4", "page 3"]);
    const all = parsePage(await cli(["inbox", "--limit", "2", "--all", "--json"], as(bob)));
    expect(all.end).toBe(true);
    expect(all.messages.map((message) => message.text)).toEqual(["page 4", "page 3", "page 2", "page 1", "hello bob"]);

    const human = await cli(["inbox", "--limit", "2"], as(bob));
    expect(human.code).toBe(0);
    expect(human.stdout.trimEnd().split("\n")).toHaveLength(3); // header + 2 rows
    expect(human.stderr).toContain("--all");
  }, IN_PROCESS);

  it("delete removes messages from one's own mailbox, prints the node's receipt; the sender keeps its copy", async () => {
    const sent = await cli(["send", bob.address, "to be deleted", "--json"], as(alice));
    const id = (JSON.parse(sent.stdout) as MessageJson).id;
    const human = await cli(["delete", id], as(bob));
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(`deleted message ${id} from your mailbox ✓ receipt signed by ${relay.address}`);
    expect(parsePage(await cli(["inbox", "--all", "--json"], as(bob))).messages.map((message) => message.id)).not.toContain(id);
    expect(parsePage(await cli(["inbox", "--direction", "sent", "--all", "--json"], as(alice))).messages.map((message) => message.id)).toContain(id);
    const again = await cli(["delete", id, "--json"], as(bob));
    expect(JSON.parse(again.stdout)).toMatchObject({ node: relay.address, account: bob.address, ids: [id] });
    expect(expectOneErrorLine(await cli(["delete", id, "01"], as(bob)), 2)).toContain('<id> "01" is not a message id');
    expect(expectOneErrorLine(await cli(["delete"], as(bob)), 2)).toContain("missing <id>");
  }, IN_PROCESS);

  it("send --expires gives the message an end the reader sees, signed with it; a bad duration is a usage error", async () => {
    const before = Date.now();
    const sent = await cli(["send", bob.address, "for an hour", "--expires", "1h", "--json"], as(alice));
    expect(sent.code, sent.stderr).toBe(0);
    const message = JSON.parse(sent.stdout) as MessageJson;
    expect(message.expires! - message.timestamp).toBe(3_600_000);
    expect(message.timestamp).toBeGreaterThanOrEqual(before);
    const read = parsePage(await cli(["inbox", "--from", alice.address, "--limit", "1", "--json"], as(bob))).messages[0]!;
    expect(read).toMatchObject({ id: message.id, expires: message.expires, verified: true });
    for (const bad of ["0s", "1", "2w", "366d", "1.5h"]) expect(expectOneErrorLine(await cli(["send", bob.address, "x", "--expires", bad], as(alice)), 2)).toContain("--expires must be a duration");
    expect((await cli(["send", bob.address, "a year", "--expires", "365d"], as(alice))).code).toBe(0);
  }, IN_PROCESS);

  it("consent: allowed-only sends strangers to --requests, block refuses them, allow and unblock undo", async () => {
    const stranger = await keygen();
    expect((await cli(["whoami"], as(stranger))).code).toBe(0);
    const set = await cli(["consent", "--mode", "allowed-only", "--json"], as(bob));
    expect(JSON.parse(set.stdout)).toMatchObject({ account: bob.address, policy: { mode: "allowed-only" }, records: [], end: true });
    expect((await cli(["send", bob.address, "knock knock"], as(stranger))).code).toBe(0);
    const inbox = parsePage(await cli(["inbox", "--from", stranger.address, "--json"], as(bob)));
    expect(inbox.messages).toEqual([]);
    const requests = parsePage(await cli(["inbox", "--requests", "--json"], as(bob)));
    expect(requests.messages.map((message) => message.text)).toEqual(["knock knock"]);
    expect((await cli(["block", stranger.address], as(bob))).stdout).toContain(`${stranger.address} is blocked ✓`);
    expect(expectOneErrorLine(await cli(["send", bob.address, "again"], as(stranger)), 1)).toContain("not accepted");
    const human = await cli(["consent"], as(bob));
    expect(human.stdout).toContain("policy  allowed-only");
    expect(human.stdout).toContain(`blocked ${stranger.address}`);
    expect((await cli(["allow", stranger.address], as(bob))).code).toBe(0);
    expect((await cli(["send", bob.address, "allowed now"], as(stranger))).code).toBe(0);
    expect(parsePage(await cli(["inbox", "--from", stranger.address, "--json"], as(bob))).messages.map((message) => message.text)).toEqual(["allowed now"]);
    expect((await cli(["unblock", stranger.address], as(bob))).stdout).toContain("neither allowed nor blocked");
    expect((await cli(["consent", "--mode", "open"], as(bob))).code).toBe(0);
    expect(expectOneErrorLine(await cli(["consent", "--mode", "closed"], as(bob)), 2)).toContain("--mode must be open or allowed-only");
  }, IN_PROCESS);

  it("send - reads the text from stdin", async () => {
    const result = await spawned(["send", bob.address, "-", "--json"], { ...as(alice), input: "from a pipe\n" });
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as MessageJson).text).toBe("from a pipe");
  }, SPAWNS);
});

describe("human output", () => {
  it("is a table: local time, id, arrow, short address, ✓ and the text", async () => {
    const page = parsePage(await cli(["inbox", "--limit", "1", "--json"], as(bob)));
    const newest = page.messages[0]!;
    const result = await cli(["inbox", "--limit", "1"], as(bob));
    expect(result.code, result.stderr).toBe(0);
    const row = result.stdout.split("\n")[1]!;
    expect(row.startsWith(localTime(newest.timestamp))).toBe(true);
    expect(row).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d +${newest.id} {2}← {2}${alice.address.slice(0, 6)}…${alice.address.slice(-4)} {2}✓ {2}${newest.text}$`));
  }, IN_PROCESS);

  it("escapes control characters from the plaintext; --json keeps the exact text", async () => {
    const evil = "red \u001b[31malert\u001b[0m\u0007 \u009b2J \u202eevil\rline one\nline two";
    const sent = await cli(["send", bob.address, evil, "--json"], as(alice));
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);

    const human = await cli(["inbox", "--limit", "1"], as(bob));
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(human.stdout).toContain("red \\x1b[31malert\\x1b[0m\\x07 \\x9b2J \\u202eevil\\rline one");
    expect(human.stdout).toMatch(/\n {40,}line two\n/); // a real line break, indented under the text column
    expect(human.stdout).toContain("✓");

    const json = parsePage(await cli(["inbox", "--limit", "1", "--json"], as(bob)));
    expect(json.messages[0]!.text).toBe(evil);
  }, IN_PROCESS);
});

describe("errors", () => {
  it("a bad address: one line, a non-zero exit, nothing sent", async () => {
    const line = expectOneErrorLine(await cli(["send", "0x1234", "hi"], as(alice)), 2);
    expect(line).toContain("not an address");
    expectOneErrorLine(await cli(["chat", "bob"], as(alice)), 2);
    expectOneErrorLine(await cli(["inbox", "--from", "0xzz"], as(alice)), 2);
  }, IN_PROCESS);

  it("an unknown command or flag exits 2 with a hint to --help", async () => {
    const command = expectOneErrorLine(await cli(["frobnicate"], as(alice)), 2);
    expect(command).toBe('neutral: unknown command "frobnicate" (see neutral --help)');
    const flag = expectOneErrorLine(await cli(["inbox", "--frobnicate"], as(alice)), 2);
    expect(flag).toBe("neutral: unknown option --frobnicate (see neutral inbox --help)");
    expectOneErrorLine(await cli(["inbox", "--limit", "0"], as(alice)), 2);
    expectOneErrorLine(await cli(["inbox", "--direction", "up"], as(alice)), 2);
    expectOneErrorLine(await cli(["send", bob.address], as(alice)), 2);
    expectOneErrorLine(await cli(["send", bob.address, "two", "words"], as(alice)), 2);
    expectOneErrorLine(await cli(["whoami", "--url"], as(alice)), 2);
  }, IN_PROCESS);

  it("a missing key says how to set NEUTRAL_KEY", async () => {
    const line = expectOneErrorLine(await cli(["inbox"], { env: { NEUTRAL_URL: relay.url } }), 2);
    expect(line).toContain("NEUTRAL_KEY");
    expect(line).toContain("export NEUTRAL_KEY=");
  }, IN_PROCESS);

  it("a key that is not a key is refused without being echoed", async () => {
    const short = alice.privateKey.slice(0, -1);
    const line = expectOneErrorLine(await cli(["whoami"], { env: { NEUTRAL_URL: relay.url, NEUTRAL_KEY: short } }), 2);
    expect(line).toContain("NEUTRAL_KEY is not a private key");
    expect(line).not.toContain(short.slice(2, 20));
    // 64 hex digits, but not a secp256k1 key (above the curve order)
    const notOnCurve = `0x${"f".repeat(64)}`;
    const curve = expectOneErrorLine(await cli(["whoami", "--key", notOnCurve, "--url", relay.url]), 1);
    expect(curve).toContain("--key is not a usable private key");
    expect(curve).not.toContain("f".repeat(16));
  }, IN_PROCESS);

  it("an unreachable node: one clear line", async () => {
    const port = await closedPort();
    const line = expectOneErrorLine(await spawned(["inbox"], as(alice, { NEUTRAL_URL: `http://127.0.0.1:${port}` })), 1);
    expect(line).toBe(
      `neutral: cannot reach the node at http://127.0.0.1:${port} (ECONNREFUSED 127.0.0.1:${port}: connection refused); is a relay running there? Start one with \`neutral serve\`, or point NEUTRAL_URL / --url at one`,
    );
  }, SPAWNS);

  it("a refusal by the node names the JSON-RPC code", async () => {
    // This node accepts sign-in tokens for another domain only: every authenticated call is refused.
    const strict = await startNode({ args: ["--domain", "chat.example.org"] });
    try {
      const line = expectOneErrorLine(await cli(["whoami"], as(alice, { NEUTRAL_URL: strict.url })), 1);
      expect(line).toMatch(/^neutral: the node refused: .*\(-32001\)$/);
      expect(line).toContain("--domain");
    } finally {
      await strict.stop();
    }
  }, IN_PROCESS);

  it("stack traces only with NEUTRAL_DEBUG=1, and never the key", async () => {
    const port = await closedPort();
    const plain = await cli(["inbox"], as(alice, { NEUTRAL_URL: `http://127.0.0.1:${port}` }));
    expect(plain.stderr).not.toContain("    at ");
    const debug = await cli(["inbox", "--key", alice.privateKey.toUpperCase().replace("0X", "0x")], { env: { NEUTRAL_URL: `http://127.0.0.1:${port}`, NEUTRAL_DEBUG: "1" } });
    expect(debug.code).toBe(1);
    expect(debug.stderr).toContain("    at ");
    expectNoKey(debug.stderr, "the debug output");
  }, IN_PROCESS);
});

describe("watch", () => {
  it("--json prints a message sent after it started, then exits 0 on SIGINT", async () => {
    const child = spawnCli(["watch", "--json", "--interval", "100"], as(bob));
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const done = exited(child);
    try {
      await waitFor(() => stderr, (text) => text.includes("watching"), "the watch to start");
      expect((await cli(["send", bob.address, "live one"], as(alice))).code).toBe(0);
      expect((await cli(["send", bob.address, "live two"], as(alice))).code).toBe(0);
      await waitFor(() => stdout, (text) => text.includes("live two"), "the messages to show");
      child.kill("SIGINT");
      expect(await done).toEqual({ code: 0, signal: null });
    } finally {
      child.kill("SIGKILL");
    }
    const lines = stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as MessageJson);
    expect(lines.map((message) => message.text)).toEqual(["live one", "live two"]);
    expect(lines.every((message) => message.verified && message.direction === "received" && message.from === alice.address)).toBe(true);
    // Each proven against the node's signed head before it was printed (the verifiable mailbox).
    expect(lines.map((message) => message.proven)).toEqual([true, true]);
    outputs.push({ args: ["watch"], result: { code: 0, signal: null, stdout, stderr } });
  }, WATCHES);

  it("prints rows for a person and stops on SIGTERM too", async () => {
    const carol = await keygen();
    const child = spawnCli(["watch", "--interval", "100"], as(carol));
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const done = exited(child);
    try {
      await waitFor(() => stderr, (text) => text.includes("watching"), "the watch to start");
      expect((await cli(["send", carol.address, "hi carol"], as(alice))).code).toBe(0);
      await waitFor(() => stdout, (text) => text.includes("hi carol"), "the message to show");
      child.kill("SIGTERM");
      expect(await done).toEqual({ code: 0, signal: null });
    } finally {
      child.kill("SIGKILL");
    }
    expect(stdout).toMatch(/← {2}0x[0-9a-f]{4}…[0-9a-f]{4} {2}✓ {2}hi carol\n$/);
    outputs.push({ args: ["watch"], result: { code: 0, signal: null, stdout, stderr } });
  }, WATCHES);
});

describe("watch: live delivery", () => {
  /** `neutral watch …` running in the background, its output read as it comes. */
  function startWatch(args: readonly string[], options: CliOptions) {
    const child = spawnCli(["watch", ...args], options);
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const done = exited(child);
    return {
      child,
      stdout: () => stdout,
      stderr: () => stderr,
      /** SIGINT, as Ctrl-C; resolves with the exit, and records the output for the no-key check. */
      async interrupt() {
        child.kill("SIGINT");
        const exit = await done;
        outputs.push({ args: ["watch", ...args], result: { ...exit, stdout, stderr } });
        return exit;
      },
    };
  }

  it("prints a message the node pushes within two seconds of its send, though polling would take a minute (--interval 60000); Ctrl-C exits 0", async () => {
    const dave = await keygen();
    const watch = startWatch(["--interval", "60000"], as(dave));
    try {
      await waitFor(watch.stderr, (text) => text.includes("watching"), "the watch to be live");
      expect(watch.stderr()).toContain("live delivery");
      expect(watch.stderr()).not.toContain("polling");
      for (const text of ["pushed one", "pushed two"]) {
        expect((await cli(["send", dave.address, text], as(alice))).code).toBe(0);
        const sent = Date.now();
        await waitFor(watch.stdout, (out) => out.includes(text), `"${text}" to show`, 2_000);
        expect(Date.now() - sent).toBeLessThan(2_000);
      }
      expect(await watch.interrupt()).toEqual({ code: 0, signal: null });
    } finally {
      watch.child.kill("SIGKILL");
    }
    expect(watch.stdout()).toMatch(/← {2}0x[0-9a-f]{4}…[0-9a-f]{4} {2}✓ {2}pushed one\n.*← {2}0x[0-9a-f]{4}…[0-9a-f]{4} {2}✓ {2}pushed two\n$/s);
  }, WATCHES);

  it("falls back to polling a node without live delivery (-32601; the 406 of a node that refuses text/event-stream), and says so", async () => {
    const oldNode = await startOldNode();
    const behind = await startNode({ args: ["--domain", oldNode.host] });
    oldNode.target = behind.url;
    const via = (account: Account) => ({ env: { NEUTRAL_URL: oldNode.url, NEUTRAL_KEY: account.privateKey } });
    try {
      for (const answer of ["method-not-found", "not-acceptable"] as const) {
        oldNode.answer = answer;
        const [sender, reader] = [await keygen(), await keygen()];
        const watch = startWatch(["--json", "--interval", "100"], via(reader));
        try {
          await waitFor(watch.stderr, (text) => text.includes("watching"), `the watch to start (${answer})`);
          expect(watch.stderr()).toContain("no live delivery");
          expect(watch.stderr()).toContain("polling every 100 ms");
          expect((await cli(["send", reader.address, `polled (${answer})`], via(sender))).code).toBe(0);
          await waitFor(watch.stdout, (text) => text.includes(`polled (${answer})`), "the polled message");
          expect(await watch.interrupt()).toEqual({ code: 0, signal: null });
        } finally {
          watch.child.kill("SIGKILL");
        }
        expect((JSON.parse(watch.stdout()) as MessageJson).text).toBe(`polled (${answer})`);
      }
    } finally {
      await oldNode.close();
      await behind.stop();
    }
  }, WATCHES);

  it("says once that the connection was lost, reconnects when the relay is back on its port and data, and prints what was sent meanwhile, once", async () => {
    const dataDir = tempDir("neutral-cli-watch-");
    let node = await startRelay({ dataDir });
    const port = new URL(node.url).port;
    const on = (account: Account) => ({ env: { NEUTRAL_URL: node.url, NEUTRAL_KEY: account.privateKey } });
    const [sender, reader] = [await keygen(), await keygen()];
    const watch = startWatch([], on(reader));
    try {
      await waitFor(watch.stderr, (text) => text.includes("watching"), "the watch to be live");
      expect((await cli(["send", reader.address, "before the crash"], on(sender))).code).toBe(0);
      await waitFor(watch.stdout, (text) => text.includes("before the crash"), "the first message");
      await node.crash();
      await waitFor(watch.stderr, (text) => text.includes("reconnecting"), "the lost connection to be reported");
      node = await startRelay({ dataDir, args: ["--port", port] });
      expect((await cli(["send", reader.address, "while it was away"], on(sender))).code).toBe(0);
      await waitFor(watch.stdout, (text) => text.includes("while it was away"), "the message sent meanwhile", 30_000);
      await waitFor(watch.stderr, (text) => text.includes("live again"), "live again");
      expect(await watch.interrupt()).toEqual({ code: 0, signal: null });
    } finally {
      watch.child.kill("SIGKILL");
      await node.crash();
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(watch.stdout().split("\n").filter((line) => line.includes("while it was away"))).toHaveLength(1);
    expect(watch.stderr().match(/reconnecting/g)).toHaveLength(1);
  }, RESTARTS);
});

describe("serve", () => {
  it("starts a relay that answers /health, and exits on SIGTERM", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "neutral-cli-serve-"));
    const child = spawnCli(["serve", "--port", "0", "--data-dir", dataDir, "--workers", "1", "--rate-limit", "0"]);
    let stdout = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr!.resume();
    const done = exited(child);
    try {
      await waitFor(() => stdout, (text) => text.includes('"msg":"listening"'), "the relay to listen");
      const listening = stdout
        .split("\n")
        .filter((line) => line.includes('"msg":"listening"'))
        .map((line) => JSON.parse(line) as { url: string })[0]!;
      const health = await fetch(`${listening.url}/health`);
      expect(health.status).toBe(200);
      child.kill("SIGTERM");
      expect(await done).toEqual({ code: 0, signal: null });
    } finally {
      child.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, WATCHES);

  it("passes the relay's own errors and exit code through", async () => {
    const result = await spawned(["serve", "--port", "not-a-port"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--port");
  }, SPAWNS);
});

describe("help and version", () => {
  it("--help lists every command and recommends the variable over --key", async () => {
    const result = await spawned(["--help"]);
    expect(result.code).toBe(0);
    for (const command of ["keygen", "whoami", "send", "inbox", "chat", "watch", "export", "verify-export <file>", "serve"]) expect(result.stdout).toContain(`  ${command}`);
    expect(result.stdout).toContain("NEUTRAL_KEY");
    expect(result.stdout).toMatch(/Prefer the variable/);
  }, SPAWNS);

  it("<command> --help shows that command's usage", async () => {
    for (const command of ["keygen", "whoami", "send", "inbox", "chat", "watch", "export", "verify-export"]) {
      const result = await cli([command, "--help"]);
      expect(result.code, command).toBe(0);
      expect(result.stdout).toContain(`Usage: neutral ${command}`);
    }
    const serve = await spawned(["serve", "--help"]);
    expect(serve.code).toBe(0);
    expect(serve.stdout).toContain("Usage: neutral serve");
    expect(serve.stdout).toContain("--data-dir"); // the relay's own flags
  }, SPAWNS);

  it("--version prints the version", async () => {
    const result = await spawned(["--version"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^neutral \d+\.\d+\.\d+\n$/);
  }, SPAWNS);

  it("no command: the help on stderr, exit 2", async () => {
    const result = await spawned([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Usage: neutral <command>");
  }, SPAWNS);
});

describe("the private key", () => {
  it("never appears in the output of any command but keygen, errors included", async () => {
    // The error paths once more, with the key given each way.
    const port = await closedPort();
    const flagKey = ["--key", alice.privateKey];
    const runs = [
      await cli(["send", "0x12", "hi", ...flagKey], { env: { NEUTRAL_URL: relay.url } }),
      await cli(["inbox", "--bogus", ...flagKey], { env: { NEUTRAL_URL: relay.url } }),
      await cli([`--key=${alice.privateKey}`, "inbox", "--limit", "999"], { env: { NEUTRAL_URL: relay.url } }),
      await cli(["whoami", ...flagKey], { env: { NEUTRAL_URL: `http://127.0.0.1:${port}` } }),
      await cli(["whoami"], as(alice, { NEUTRAL_URL: `http://127.0.0.1:${port}`, NEUTRAL_DEBUG: "1" })),
      await cli([alice.privateKey], as(alice)),
      await cli(["send", alice.privateKey, "hi"], as(alice)),
    ];
    for (const run of runs) expect(run.code).not.toBe(0);
    // A key without 0x works, and is not shown either.
    expect((await cli(["whoami"], as(alice, { NEUTRAL_KEY: alice.privateKey.slice(2) }))).code).toBe(0);
    expect(outputs.length).toBeGreaterThan(runs.length);
    for (const { args, result } of outputs) {
      expectNoKey(result.stdout, `stdout of neutral ${args[0]}`);
      expectNoKey(result.stderr, `stderr of neutral ${args[0]}`);
    }
  }, IN_PROCESS);
});
