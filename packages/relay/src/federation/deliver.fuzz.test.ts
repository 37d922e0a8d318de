// Property tests of the node-to-node methods: whatever a peer sends to `neutralService_deliver` and
// `neutralService_lookup`, the dispatcher over the real handlers and SQLite store answers
// well-formed JSON-RPC with a known, non-internal error code or one outcome per message; a message
// changed in any field is refused and not stored; only what its sender signed, with the calling
// node's receipt, reaches the recipient's inbox, once.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_LIMITS, hashTypedData, type Hex } from "@neutral/protocol";
import { fixtureSigner, TEST_KEYS } from "@neutral/protocol/testing";
import { createDispatcher, stringifyDispatchResult, type DispatchResult } from "@neutral/server";
import { service } from "@neutral/server/neutral-service";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { loadSecp256k1 } from "../crypto/secp256k1.js";
import { createLogger } from "../log.js";
import { createHandlers, type RelayContext } from "../rpc/index.js";
import { openSqliteStore } from "../storage/sqlite.js";
import { SOFTWARE } from "../version.js";
import { createFederation } from "./index.js";

const curve = loadSecp256k1();
const node = fixtureSigner(TEST_KEYS.node);
const peer = fixtureSigner(TEST_KEYS.peer);
const alice = fixtureSigner(TEST_KEYS.alice); // homed here
const carol = fixtureSigner(TEST_KEYS.carol); // homed at the peer
const KNOWN_CODES = new Set([-32600, -32601, -32602, -32001, -32002, -32003, -32004, -32005, -32029]);
const SCALE = Number(process.env.NEUTRAL_FUZZ_SCALE ?? 1) || 1;

const root = mkdtempSync(path.join(os.tmpdir(), "neutral-deliver-fuzz-"));
mkdirSync(path.join(root, "node"));
const store = openSqliteStore({ file: path.join(root, "node", "neutral.sqlite"), synchronous: "normal" });
// The peer's URL answers nothing (port 9): lookups of unknown accounts give up at once.
const federation = await createFederation({
  config: {
    peers: [{ url: "http://127.0.0.1:9", address: peer.address }],
    deliveryWaitMs: 0,
    retryPeriodSeconds: 3600,
    retryBackoffMs: 1000,
    retryBackoffMaxMs: 60_000,
    directoryTtlMs: 60_000,
    peerTimeoutMs: 500,
  },
  clockSkewMs: DEFAULT_LIMITS.clockSkewMs,
  store,
  curve,
  nodeKey: { privateKey: Buffer.from(TEST_KEYS.node.slice(2), "hex"), address: node.address },
  logger: createLogger("silent"),
  pollMs: 60_000,
});
const internalErrors: unknown[] = [];
const dispatcher = createDispatcher<RelayContext>({
  service,
  handlers: createHandlers({
    store,
    curve,
    nodeKey: Buffer.from(TEST_KEYS.node.slice(2), "hex"),
    limits: DEFAULT_LIMITS,
    domains: () => ["relay.example:8645"],
    software: SOFTWARE,
    federation,
    delivery: { deliveryWaitMs: 0, retryPeriodSeconds: 3600 },
    publicUrl: () => "http://relay.example:8645",
  }),
  onInternalError: (error) => internalErrors.push(error),
});
await store.putHomeRecord(alice.homeRecord(node.address, 1));
const carolHome = carol.homeRecord(peer.address, 1);

afterAll(async () => {
  await federation.close();
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

/** A minute ago: within what the node takes in a delivery (its retry period and clock skew). */
const RECENT = Date.now() - 60_000;

const asPeer: RelayContext = { auth: { address: peer.address, kind: "node" } };

async function dispatch(method: string, params: unknown): Promise<Record<string, unknown>> {
  const raw: DispatchResult = await dispatcher.dispatch({ jsonrpc: "2.0", id: 1, method, params }, asPeer);
  return JSON.parse(stringifyDispatchResult(raw!)) as Record<string, unknown>;
}

/** A message carol signed to alice, with the peer's sender receipt: what an honest peer delivers. */
function honest(body: string, timestamp: number) {
  const signed = carol.signMessageFor(alice.address, body, timestamp);
  const digest = hashTypedData({ primaryType: "Message", message: { from: signed.from, to: signed.to as Hex, message: `0x${body}`, timestamp } });
  return { ...signed, sender_receipt: peer.signTypedData("Receipt", { message: `0x${Buffer.from(digest).toString("hex")}`, role: "sender" }) };
}

/** Alice's inbox, whole. */
async function inbox(): Promise<{ message: string; signature: string }[]> {
  const page = await store.page({ owner: alice.address, ranges: [{ side: "received" }], order: "asc", after: 0, limit: 100 });
  return page.messages.map((stored) => JSON.parse(stored.json) as { message: string; signature: string });
}

function checkAnswer(answer: Record<string, unknown>, messages: unknown): void {
  expect(answer.jsonrpc).toBe("2.0");
  if ("error" in answer) {
    const error = answer.error as { code: number; message: string };
    expect(KNOWN_CODES.has(error.code), `known code ${error.code}: ${error.message}`).toBe(true);
    expect(JSON.stringify(error)).not.toMatch(/    at |SQLITE|node_modules/);
    return;
  }
  const [payload] = answer.result as [{ outcomes: { receiver_receipt?: string; refused?: { code: number; permanent: boolean; message: string } }[] }];
  expect(Array.isArray(messages)).toBe(true);
  expect(payload.outcomes).toHaveLength((messages as unknown[]).length);
  for (const outcome of payload.outcomes) {
    if (outcome.receiver_receipt !== undefined) expect(outcome.receiver_receipt).toMatch(/^0x[0-9a-f]{130}$/);
    else {
      expect(KNOWN_CODES.has(outcome.refused!.code)).toBe(true);
      expect(typeof outcome.refused!.permanent).toBe("boolean");
    }
  }
}

const hex = (max: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF"), maxLength: max });
const messageShaped = fc.record(
  {
    from: fc.oneof(fc.constantFrom(carol.address, alice.address, peer.address), hex(40).map((h) => `0x${h}`)),
    to: fc.oneof(fc.constantFrom(alice.address, carol.address), hex(40).map((h) => `0x${h}`)),
    message: hex(40),
    timestamp: fc.oneof(fc.integer({ min: -5, max: 2 ** 53 }), fc.double(), fc.constant("1")),
    signature: hex(130).map((h) => `0x${h}`),
    sender_receipt: hex(130).map((h) => `0x${h}`),
    extra: fc.anything(),
  },
  { requiredKeys: [] },
);

describe("neutralService_deliver and neutralService_lookup under hostile input from a peer", () => {
  it("answer well-formed JSON-RPC with a known code or one outcome per message; store nothing forged", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.anything(),
          fc.array(fc.anything(), { maxLength: 3 }),
          fc.record({ messages: fc.array(fc.oneof(messageShaped, fc.anything()), { maxLength: 5 }), homes: fc.oneof(fc.anything(), fc.array(fc.anything(), { maxLength: 3 })) }, { requiredKeys: [] }),
          fc.tuple(fc.array(messageShaped, { minLength: 1, maxLength: 4 }), fc.array(fc.oneof(fc.constant(carolHome), fc.anything()), { maxLength: 3 })),
        ),
        fc.constantFrom("neutralService_deliver", "neutralService_lookup"),
        async (params, method) => {
          const answer = await dispatch(method, params);
          const messages = Array.isArray(params) ? params[0] : (params as { messages?: unknown } | null)?.messages;
          if (method === "neutralService_deliver") checkAnswer(answer, messages);
          else expect("error" in answer ? KNOWN_CODES.has((answer.error as { code: number }).code) : Array.isArray(answer.result)).toBe(true);
        },
      ),
      { numRuns: Math.round(300 * SCALE) },
    );
    expect(internalErrors).toEqual([]);
    expect(await inbox()).toEqual([]);
  }, 120_000);

  it("a delivered message changed in any one field is refused and not stored; the honest one is stored once", async () => {
    const fields = ["from", "to", "message", "timestamp", "signature", "sender_receipt"] as const;
    let counter = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fields), fc.nat(), async (field, seed) => {
        const original = honest((++counter).toString(16).padStart(6, "0"), RECENT + counter);
        const changed: Record<string, unknown> = { ...original };
        if (field === "timestamp") changed.timestamp = original.timestamp + 1 + (seed % 1000);
        else if (field === "from" || field === "to") changed[field] = [alice.address, carol.address, peer.address, node.address].find((a) => a !== original[field])!;
        else {
          const text = original[field];
          const at = text.length - 1 - (seed % Math.min(8, text.length - 2)); // a hex digit (never the 0x)
          changed[field] = `${text.slice(0, at)}${text[at] === "0" ? "1" : "0"}${text.slice(at + 1)}`;
        }
        expect(changed[field], `changed ${field}`).not.toEqual(original[field]);
        const answer = await dispatch("neutralService_deliver", [[changed], [carolHome]]);
        checkAnswer(answer, [changed]);
        const [outcome] = (answer.result as [{ outcomes: { receiver_receipt?: string }[] }] | undefined)?.[0]?.outcomes ?? [{}];
        expect(outcome!.receiver_receipt, `changed ${field}`).toBeUndefined();
        expect((await inbox()).some((stored) => stored.message === original.message)).toBe(false);
      }),
      { numRuns: Math.round(60 * SCALE) },
    );
    const message = honest("c0ffee", RECENT);
    for (let i = 0; i < 2; i++) {
      const answer = await dispatch("neutralService_deliver", [[message], [carolHome]]);
      expect((answer.result as [{ outcomes: { receiver_receipt?: string }[] }])[0].outcomes[0]!.receiver_receipt).toMatch(/^0x[0-9a-f]{130}$/);
    }
    expect((await inbox()).map((stored) => stored.message)).toEqual(["c0ffee"]);
    expect(internalErrors).toEqual([]);
  }, 120_000);
});
