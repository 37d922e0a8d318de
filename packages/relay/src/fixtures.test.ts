// Replays the story of seeds/exchanges against the real relay and requires the exact bytes of each
// response: the node's receipts, ids, pages, errors and statuses cannot drift from the fixtures
// (which the spec tests tie to openrpc.json). The node runs with the fixtures' public test keys.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Message as WireMessage } from "@neutral/server/neutral-service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, post, startNode, tempDir, type InProcessNode } from "../testing/index.js";
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
  it("sending messages 1–3 (fixture 06 exactly) gives the fixtures' ids and receipts", async () => {
    // The fixtures' timestamps are from 2026-01-01: widen the clock window for the sends only.
    relay = await startNode({ dataDir, args: [...nodeArgs, "--clock-skew-ms", String(10 * 365 * 86_400_000)] });
    const story = storedMessages();
    expect([...story.keys()].sort()).toEqual(["1", "2", "3"]);
    for (const id of ["1", "2"]) {
      const { from, to, message, timestamp, signature } = story.get(id)!;
      const token = from === alice.address ? tokens.alice : tokens.bob;
      const answer = await call(relay.url, "neutralService_sendMessage", [{ from, to, message, timestamp, signature }], token);
      expect(answer.body.result).toEqual([story.get(id)]);
    }
    const send = fixture("06");
    const answer = await post(relay.url, send.request, tokens.alice);
    expect(answer.status).toBe(send.httpStatus);
    expect(answer.text).toBe(JSON.stringify(send.response));
    await relay.stop();
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
