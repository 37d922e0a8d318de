// Test support (not built): the node the examples of openrpc.json assume, shared by the tests that
// replay them (src/spec-examples.test.ts by hand, src/test-coverage.test.ts with @open-rpc/test-coverage).
// The node runs with the public test keys the examples were made with (tools/scripts/sign-examples.mjs),
// and holds the messages they show.
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { fixtureSigner } from "@neutral/protocol/testing";
import { call } from "../testing/index.js";
import { TEST_KEYS, wallet, type TestWallet } from "./wallets.js";

export interface Example {
  name: string;
  params: { name: string; value: unknown }[];
  result?: { value: unknown };
  /** A stream's example: the events it opens with, up to the caught-up one. */
  "x-events"?: unknown[];
}
export interface Method {
  name: string;
  "x-requires-auth"?: boolean | "node";
  "x-subscription"?: unknown;
  examples?: Example[];
}
export interface StoredMessage {
  id: string;
  from: string;
  to: string;
  message: string;
  timestamp: number;
  signature: string;
}

export const spec = JSON.parse(readFileSync(new URL("../../../openrpc.json", import.meta.url), "utf8")) as { methods: Method[] };
export const examples = spec.methods.flatMap((method) => (method.examples ?? []).map((example) => ({ method, example })));

// The examples' node: its key signs the receipts they show, and it serves this SIWE domain.
export const DOMAIN = "127.0.0.1:8645";
// Its peer, whose key signs the node-to-node examples' requests (no node listens there: the examples
// never need it to answer).
export const peer = fixtureSigner(TEST_KEYS.peer);
export const nodeAddress = fixtureSigner(TEST_KEYS.node).address;
export const nodeArgs = ["--node-key", TEST_KEYS.node, "--domain", DOMAIN, "--public-url", `http://${DOMAIN}`];
// The peer is listed only for the examples that need it: its node never answers, and while a peer
// is silent a node refuses a send to an account no one knows (openrpc.json sendMessage).
export const peerArgs = ["--peer", `http://127.0.0.1:8646#${peer.address}`];
/** A timestamp window wide enough for examples signed long ago (ten years). */
export const wideClockArgs = ["--clock-skew-ms", String(10 * 365 * 86_400_000)];
export const people = [wallet(TEST_KEYS.alice), wallet(TEST_KEYS.bob)];
/** Who reads when an example does not say: bob, as in seeds/exchanges. */
export const reader = people[1]!;
/** Examples signed on 2026-01-01, outside a node's default ±5 min window: replayed with a wide one. */
export const SIGNED_LONG_AGO = new Set(["neutralService_sendMessage"]);
/** Examples delivered by a peer on 2026-01-01: a node takes a delivery for its retry period and clock skew after its timestamp; replayed with a wide window. */
export const DELIVERED_LONG_AGO = new Set(["neutralService_deliver"]);
/**
 * Methods whose answer carries a signed mailbox head (openrpc.json `MailboxHead`): its `timestamp` is
 * when the node signed it and its `signature` covers that time, so a replay can match only the rest.
 * spec-examples.test.ts checks the head's signature and compares everything else; the third-party
 * tool (test-coverage.test.ts), which compares whole results, leaves them out.
 */
export const SIGNS_HEADS = new Set(["neutralService_getProof", "neutralService_getLog"]);

/** The messages the examples show stored, by id. */
export function storedMessages(): Map<string, StoredMessage> {
  const messages = new Map<string, StoredMessage>();
  for (const { example } of examples) {
    for (const payload of [example.result?.value ?? []].flat() as { data?: StoredMessage[] }[]) {
      for (const message of payload?.data ?? []) messages.set(message.id, message);
    }
  }
  return messages;
}

/** The caller of a call with these params (by position): who signed the message or key bundle it carries, else the reader. */
export function callerOfParams(params: readonly unknown[]): TestWallet {
  for (const value of params) {
    const signed = value as { from?: unknown; account?: unknown; signature?: unknown } | null;
    if (typeof signed?.signature !== "string") continue;
    const address = typeof signed.from === "string" ? signed.from : typeof signed.account === "string" ? signed.account : undefined;
    if (address) return people.find((person) => person.address === address.toLowerCase())!;
  }
  return reader;
}

/** The caller of an example: who signed the message or the key bundle it carries, else the reader. */
export function callerOf(example: Example): TestWallet {
  return callerOfParams(example.params.map((param) => param.value));
}

/**
 * Stores the messages the examples show, in id order, up to the first one that one of `selected`
 * sends (those the examples send must be sent by the examples).
 */
export async function storeMessagesBefore(url: string, selected: typeof examples): Promise<void> {
  const sent = new Set(selected.flatMap(({ example }) => example.params.map((param) => (param.value as { signature?: string }).signature)));
  for (const message of [...storedMessages().values()].sort((a, b) => Number(a.id) - Number(b.id))) {
    if (sent.has(message.signature)) break;
    const sender = people.find((person) => person.address === message.from)!;
    const { from, to, message: body, timestamp, signature } = message;
    const answer = await call(url, "neutralService_sendMessage", [{ from, to, message: body, timestamp, signature }], await sender.token({ domain: DOMAIN }));
    expect(answer.body.result, `message ${message.id}`).toEqual([message]);
  }
}
