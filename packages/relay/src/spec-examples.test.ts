// Replays every example of every method of openrpc.json against a real node (in this process: real
// HTTP on loopback, a real SQLite file), twice: with its params by position, in the order the
// example lists them (what a generic OpenRPC tool sends), and by name. Both must give the example's result. The node runs with the public test keys the
// examples were made with (tools/scripts/sign-examples.mjs), and holds the messages they show.
import { rmSync } from "node:fs";
import { recoverTypedDataAddress, type Hex } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { EIP712_DOMAIN, EIP712_TYPES, logEntryHash, logPositionStatement, logStatementDigest, mailboxHeadDigest } from "@neutral/protocol";
import { recoverDigestSigner } from "@neutral/protocol/testing";
import { call, post, startNode, tempDir, type InProcessNode } from "../testing/index.js";
import { subscribe } from "../test/live.js";
import {
  DOMAIN,
  DELIVERED_LONG_AGO,
  SIGNED_LONG_AGO,
  SIGNS_HEADS,
  callerOf,
  examples,
  nodeAddress,
  nodeArgs,
  peer,
  peerArgs,
  spec,
  storeMessagesBefore,
  wideClockArgs,
} from "../test/spec-examples.js";

const dataDir = tempDir();
let relay: InProcessNode | undefined;
afterAll(async () => {
  await relay?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

type Head = { account: Hex; size: number; root: Hex; timestamp: number; signature: Hex };

/**
 * `result` with its head's `timestamp` and `signature` (when the node signed it) replaced by the
 * example's, once the signature is checked: it is the node's, over the head as answered.
 */
async function withExampleSigningTime(result: [{ head: Head }], expected: unknown, where: string): Promise<unknown> {
  const [payload] = result;
  const { head } = payload;
  const signer = await recoverTypedDataAddress({
    domain: EIP712_DOMAIN,
    types: EIP712_TYPES,
    primaryType: "MailboxHead",
    message: { account: head.account, size: BigInt(head.size), root: head.root, timestamp: BigInt(head.timestamp) },
    signature: head.signature,
  });
  expect(signer.toLowerCase(), `${where}: the head's signer`).toBe(nodeAddress);
  const expectedPayload = (expected as [{ head: Head; signature?: Hex }] | undefined)?.[0];
  const example = expectedPayload?.head;
  const page = payload as { head: Head; timestamp?: number; signature?: Hex; entries?: (Parameters<typeof logPositionStatement>[0] & { message?: unknown })[] };
  if (page.signature === undefined) return [{ ...payload, head: { ...head, timestamp: example?.timestamp, signature: example?.signature } }];
  // A log page (spec 3.1.0; its time from 3.2.0): its statement is the node's, over the head as
  // answered and the time it signed the page, both then replaced by the example's.
  const from = page.entries?.[0]?.seq ?? 1;
  const messages = page.entries?.some((entry) => entry.message !== undefined) ?? false;
  const headDigest = mailboxHeadDigest({ account: head.account, size: head.size, root: head.root, timestamp: head.timestamp });
  expect(page.timestamp, `${where}: the page's time`).toBeTypeOf("number");
  const statement = logStatementDigest(headDigest, from, (page.entries ?? []).map((entry) => logEntryHash(logPositionStatement(entry, messages))), page.timestamp!);
  expect(recoverDigestSigner(statement, page.signature)?.toLowerCase(), `${where}: the page's signer`).toBe(nodeAddress);
  const examplePage = expectedPayload as { timestamp?: number } | undefined;
  return [{ ...payload, head: { ...head, timestamp: example?.timestamp, signature: example?.signature }, timestamp: examplePage?.timestamp, signature: expectedPayload?.signature }];
}

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
      if (SIGNS_HEADS.has(method.name)) answer.body.result = await withExampleSigningTime(answer.body.result, example.result?.value, where);
      expect(answer.body.result, where).toEqual(example.result?.value);
      replayed.push(`${method.name}/${example.name}/${how}`);
    }
  }
}

describe("every example of openrpc.json, on a real node, by position and by name", () => {
  it("sendMessage's (signed long ago), into a node holding the messages before them", async () => {
    relay = await startNode({ dataDir, args: [...nodeArgs, ...wideClockArgs] });
    const selected = examples.filter(({ method }) => SIGNED_LONG_AGO.has(method.name));
    // Store the messages the examples show, in id order, up to the first one an example sends.
    await storeMessagesBefore(relay.url, selected);
    await replay(selected);
    await relay.stop();
    relay = undefined;
  });

  it("every other method's, after a restart with the default clock window", async () => {
    relay = await startNode({ dataDir, args: [...nodeArgs, ...peerArgs] });
    await replay(examples.filter(({ method }) => !SIGNED_LONG_AGO.has(method.name) && !DELIVERED_LONG_AGO.has(method.name)));
    await relay.stop();
    // A delivery is taken up to the retry period and the clock skew after its timestamp: the
    // examples' (2026-01-01) with a window as wide as sendMessage's.
    relay = await startNode({ dataDir, args: [...nodeArgs, ...peerArgs, ...wideClockArgs] });
    await replay(examples.filter(({ method }) => DELIVERED_LONG_AGO.has(method.name)));
    expect(replayed).toHaveLength(2 * examples.length);
    expect(new Set(examples.map(({ method }) => method.name)).size, "every method has examples").toBe(spec.methods.length);
  });
});
