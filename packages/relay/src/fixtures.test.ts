// Replays the story of seeds/exchanges against the real relay and requires the exact bytes of each
// response: the node's receipts, ids, pages, errors and statuses cannot drift from the fixtures
// (which the spec tests tie to openrpc.json). The node runs with the fixtures' public test keys, and
// holds the story's messages as a node stored them before spec 3.0.0 (their receipts unbound).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Message as WireMessage } from "@neutral/server/neutral-service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, startNode, tempDir, type InProcessNode } from "../testing/index.js";
import { messageDigest } from "./crypto/eip712.js";
import { DATABASE_FILE, openSqliteStore } from "./storage/sqlite.js";
import { TEST_KEYS, wallet } from "../test/wallets.js";

interface Fixture {
  description: string;
  request?: unknown;
  rawRequest?: string;
  requestHeaders?: Record<string, string>;
  response: unknown;
  responseHeaders?: Record<string, string>;
  httpStatus: number;
}


const dir = fileURLToPath(new URL("../../../seeds/exchanges/", import.meta.url));
const fixtures = new Map(
  readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => [name, JSON.parse(readFileSync(dir + name, "utf8")) as Fixture]),
);
const fixture = (prefix: string) => [...fixtures].find(([name]) => name.startsWith(prefix))![1];

const alice = wallet(TEST_KEYS.alice);
const bob = wallet(TEST_KEYS.bob);
// The fixtures' node answers for this domain; tokens name it whatever port the test relay gets.
const DOMAIN = "127.0.0.1:8645";
const nodeArgs = ["--node-key", TEST_KEYS.node, "--domain", DOMAIN, "--public-url", `http://${DOMAIN}`];

/** Every message of the story, by id, as the fixtures show them stored. */
function storedMessages(): Map<string, WireMessage> {
  const messages = new Map<string, WireMessage>();
  for (const { response } of fixtures.values()) {
    for (const entry of [response ?? []].flat() as { result?: unknown[] }[]) {
      const payload = entry?.result?.[0] as { data?: WireMessage[]; id?: string; signature?: string } | undefined;
      for (const message of payload?.data ?? []) messages.set(message.id, message);
      if (payload?.signature) messages.set(payload.id!, payload as WireMessage);
    }
  }
  return messages;
}

const dataDir = tempDir();
let relay: InProcessNode;
let tokens: { alice: string; bob: string };

beforeAll(async () => {
  tokens = { alice: await alice.token({ domain: DOMAIN }), bob: await bob.token({ domain: DOMAIN }) };
});
afterAll(async () => {
  await relay?.stop();
});

describe("the story of seeds/exchanges, on a real node", () => {
  it("sending message 3 (fixture 06 exactly) to a node holding messages 1–3 as a node before spec 3.0.0 stored them answers the stored original", async () => {
    const story = storedMessages();
    expect([...story.keys()].sort()).toEqual(["1", "2", "3"]);
    // Stored with their receipts as given (`Receipt`s, no positions): what the fixtures show.
    const store = openSqliteStore({ file: path.join(dataDir, DATABASE_FILE) });
    try {
      for (const id of ["1", "2", "3"]) {
        const { message, from, to, signature, sender_receipt, receiver_receipt, timestamp } = story.get(id)!;
        const fields = { message, from, to, signature, senderReceipt: sender_receipt, receiverReceipt: receiver_receipt!, timestamp };
        const { stored } = await store.append({ ...fields, digest: messageDigest(fields) });
        expect(JSON.parse(stored.json)).toEqual(story.get(id));
      }
    } finally {
      await store.close();
    }
    // The fixtures' timestamps are from 2026-01-01: widen the clock window for the send only.
    relay = await startNode({ dataDir, args: [...nodeArgs, "--clock-skew-ms", String(10 * 365 * 86_400_000)] });
    const send = fixture("06");
    const answer = await post(relay.url, send.request, tokens.alice);
    expect(answer.status).toBe(send.httpStatus);
    expect(answer.text).toBe(JSON.stringify(send.response));
    await relay.stop();
  });

  it("a message stored afresh is fixture 06's shape with each receipt bound to its copy's position (spec 3.0.0)", async () => {
    const node = await startNode({ args: [...nodeArgs, "--clock-skew-ms", String(10 * 365 * 86_400_000)] });
    try {
      const send = fixture("06");
      const answer = await post(node.url, send.request, tokens.alice);
      const [expected] = (send.response as { result: WireMessage[] }).result;
      const [stored] = (JSON.parse(answer.text) as { result: WireMessage[] }).result;
      expect(stored).toEqual({ ...expected, id: "1", sender_receipt: expect.stringMatching(/^0x[0-9a-f]{130}$/), sender_seq: 1, receiver_receipt: expect.stringMatching(/^0x[0-9a-f]{130}$/), receiver_seq: 1 });
      expect(stored!.sender_receipt).not.toBe(expected!.sender_receipt);
    } finally {
      await node.stop();
    }
  });

  it("every read and error fixture is answered exactly, after a restart with the default clock window", async () => {
    relay = await startNode({ dataDir, args: nodeArgs });
    let replayed = 0;
    for (const [name, { request, rawRequest, requestHeaders, response, responseHeaders, httpStatus }] of fixtures) {
      if (name.startsWith("06")) continue; // replayed above; its 2026-01-01 timestamp is outside today's window
      const needsToken = Object.keys(requestHeaders ?? {}).some((header) => header.toLowerCase() === "authorization");
      const answer = await post(relay.url, rawRequest ?? request, needsToken ? tokens.bob : undefined);
      expect(answer.status, name).toBe(httpStatus);
      expect(answer.text, name).toBe(response === null ? "" : JSON.stringify(response));
      for (const [header, value] of Object.entries(responseHeaders ?? {})) expect(answer.headers.get(header), name).toBe(value);
      replayed++;
    }
    expect(replayed).toBe(fixtures.size - 1);
  });
});
