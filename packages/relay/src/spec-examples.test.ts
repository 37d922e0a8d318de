// Replays every example of every method of openrpc.json against the real relay, twice: with its
// params by position, in the order the example lists them (what a generic OpenRPC tool sends), and
// by name. Both must give the example's result. The node runs with the public test keys the
// examples were made with (tools/scripts/sign-examples.mjs), and holds the messages they show.
import { readFileSync, rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { fixtureSigner } from "@neutral/protocol/testing";
import { call, post, startRelay, tempDir, type RunningRelay } from "../testing/index.js";
import { TEST_KEYS, wallet } from "../test/wallets.js";
import { subscribe } from "../test/live.js";

interface Example {
  name: string;
  params: { name: string; value: unknown }[];
  result?: { value: unknown };
  /** A stream's example: the events it opens with, up to the caught-up one. */
  "x-events"?: unknown[];
}
interface Method {
  name: string;
  "x-requires-auth"?: boolean | "node";
  "x-subscription"?: unknown;
  examples?: Example[];
}
interface StoredMessage {
  id: string;
  from: string;
  to: string;
  message: string;
  timestamp: number;
  signature: string;
}

const spec = JSON.parse(readFileSync(new URL("../../../openrpc.json", import.meta.url), "utf8")) as { methods: Method[] };
const examples = spec.methods.flatMap((method) => (method.examples ?? []).map((example) => ({ method, example })));

// The examples' node: its key signs the receipts they show, and it serves this SIWE domain.
const DOMAIN = "127.0.0.1:8645";
// Its peer, whose key signs the node-to-node examples' requests (no node listens there: the examples
// never need it to answer).
const peer = fixtureSigner(TEST_KEYS.peer);
const nodeAddress = fixtureSigner(TEST_KEYS.node).address;
const nodeArgs = ["--node-key", TEST_KEYS.node, "--domain", DOMAIN, "--public-url", `http://${DOMAIN}`];
// The peer is listed only for the examples that need it: its node never answers, and while a peer
// is silent a node refuses a send to an account no one knows (openrpc.json sendMessage).
const peerArgs = ["--peer", `http://127.0.0.1:8646#${peer.address}`];
const people = [wallet(TEST_KEYS.alice), wallet(TEST_KEYS.bob)];
/** Who reads when an example does not say: bob, as in seeds/exchanges. */
const reader = people[1]!;
/** Examples signed on 2026-01-01, outside a node's default ±5 min window: replayed with a wide one. */
const SIGNED_LONG_AGO = new Set(["neutralService_sendMessage"]);

/** The messages the examples show stored, by id. */
function storedMessages(): Map<string, StoredMessage> {
  const messages = new Map<string, StoredMessage>();
  for (const { example } of examples) {
    for (const payload of [example.result?.value ?? []].flat() as { data?: StoredMessage[] }[]) {
      for (const message of payload?.data ?? []) messages.set(message.id, message);
    }
  }
  return messages;
}

/** The caller of an example: who signed the message or the key bundle it carries, else the reader. */
function callerOf(example: Example) {
  for (const { value } of example.params) {
    const signed = value as { from?: unknown; account?: unknown; signature?: unknown } | null;
    if (typeof signed?.signature !== "string") continue;
    const address = typeof signed.from === "string" ? signed.from : typeof signed.account === "string" ? signed.account : undefined;
    if (address) return people.find((person) => person.address === address.toLowerCase())!;
  }
  return reader;
}

const dataDir = tempDir();
let relay: RunningRelay | undefined;
afterAll(async () => {
  await relay?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const replayed: string[] = [];
async function replay(selected: typeof examples): Promise<void> {
  const tokens = new Map<string, string>();
  for (const { method, example } of selected) {
    const caller = callerOf(example);
    if (!tokens.has(caller.address)) tokens.set(caller.address, await caller.token({ domain: DOMAIN }));
    const token = method["x-requires-auth"] === true ? tokens.get(caller.address) : undefined;
    const byPosition = example.params.map((param) => param.value);
    const byName = Object.fromEntries(example.params.map((param) => [param.name, param.value]));
    for (const [how, params] of [["by position", byPosition], ["by name", byName]] as const) {
      const where = `${method.name} example "${example.name}" ${how}: ${JSON.stringify(params)}`;
      if (method["x-subscription"] !== undefined) {
        // A stream: the events up to caught-up are the example's `x-events`.
        const stream = await subscribe(relay!.url, token!, { params });
        await stream.until((events) => events.some((event) => event.method === "neutralService_caughtUp"));
        stream.close();
        expect(stream.events, where).toEqual(example["x-events"]);
        replayed.push(`${method.name}/${example.name}/${how}`);
        continue;
      }
      let answer;
      if (method["x-requires-auth"] === "node") {
        // A node-to-node method: the peer signs the request (openrpc.json "Federation").
        const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: method.name, params });
        answer = await post(relay!.url, body, undefined, { authorization: peer.nodeAuthorization(nodeAddress, method.name, body) });
      } else answer = await call(relay!.url, method.name, params, token);
      expect(answer.body.error, where).toBeUndefined();
      expect(answer.body.result, where).toEqual(example.result?.value);
      replayed.push(`${method.name}/${example.name}/${how}`);
    }
  }
}

describe("every example of openrpc.json, on a real node, by position and by name", () => {
  it("sendMessage's (signed long ago), into a node holding the messages before them", async () => {
    relay = await startRelay({ dataDir, args: [...nodeArgs, "--clock-skew-ms", String(10 * 365 * 86_400_000)] });
    const selected = examples.filter(({ method }) => SIGNED_LONG_AGO.has(method.name));
    const sent = new Set(selected.flatMap(({ example }) => example.params.map((param) => (param.value as { signature?: string }).signature)));
    // Store the messages the examples show, in id order, up to the first one an example sends.
    for (const message of [...storedMessages().values()].sort((a, b) => Number(a.id) - Number(b.id))) {
      if (sent.has(message.signature)) break;
      const sender = people.find((person) => person.address === message.from)!;
      const { from, to, message: body, timestamp, signature } = message;
      const answer = await call(relay.url, "neutralService_sendMessage", [{ from, to, message: body, timestamp, signature }], await sender.token({ domain: DOMAIN }));
      expect(answer.body.result, `message ${message.id}`).toEqual([message]);
    }
    await replay(selected);
    await relay.stop();
    relay = undefined;
  });

  it("every other method's, after a restart with the default clock window", async () => {
    relay = await startRelay({ dataDir, args: [...nodeArgs, ...peerArgs] });
    await replay(examples.filter(({ method }) => !SIGNED_LONG_AGO.has(method.name)));
    expect(replayed).toHaveLength(2 * examples.length);
    expect(new Set(examples.map(({ method }) => method.name)).size, "every method has examples").toBe(spec.methods.length);
  });
});
