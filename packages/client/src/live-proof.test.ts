// Live messages that prove themselves (the verifiable mailbox): `live()` proves what it yields
// against the node's signed head, as the inbox's pages are proven, against a real node in this
// process, honest and with its proofs altered on the way the ways a lying node would alter them.
import { startNode, type InProcessNode } from "@neutral/relay/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MailboxProof } from "./generated/types.js";
import type { MailboxProblem } from "./mailbox-proof.js";
import type { DecryptedMessage } from "./messages.js";
import type { Neutral } from "./neutral.js";
import { bobsMailbox, leaveOut, logLeaves } from "../test/bobs-mailbox.js";

let relay: InProcessNode;
beforeAll(async () => {
  relay = await startNode();
}, 120_000);
afterAll(async () => {
  await relay?.stop();
});

interface RpcBody {
  method: string;
  params: unknown[] | Record<string, unknown>;
}

/** A fetch that counts the proofs asked for (and the ids in each) and lets `alter` change one on its way back. */
function tamperingFetch() {
  const proofs: string[][] = [];
  const alter: { proof?: (proof: MailboxProof) => void } = {};
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as RpcBody) : undefined;
    const response = await globalThis.fetch(input, init);
    if (body?.method !== "neutralService_getProof") return response;
    const ids = (Array.isArray(body.params) ? body.params[0] : body.params.ids) as string[];
    proofs.push(ids);
    if (!alter.proof) return response;
    const answer = (await response.json()) as { result?: [MailboxProof] };
    if (answer.result) alter.proof(answer.result[0]);
    return new Response(JSON.stringify(answer), { status: response.status, headers: response.headers });
  };
  return { fetch, proofs, alter };
}

/** Bob with three messages (one received, one sent, one to himself), reading through a tampering fetch. */
async function mailbox(options: { verify?: boolean } = {}) {
  const wire = tamperingFetch();
  return { ...(await bobsMailbox(relay.url, wire.fetch, options)), wire };
}

/** Iterates bob's live stream (whole mailbox first) until `count` messages came, with the problems reported; `whenLive` runs once it is live. */
async function liveUntil(bob: Neutral, count: number, whenLive?: () => Promise<unknown>) {
  const controller = new AbortController();
  const messages: DecryptedMessage[] = [];
  const problems: MailboxProblem[][] = [];
  let sending: Promise<unknown> | undefined;
  const live = bob.live({
    direction: "all",
    after: "0",
    signal: controller.signal,
    onState: (state) => {
      if (state.state === "live" && whenLive && !sending) sending = whenLive();
    },
    onMailboxProblems: (found) => problems.push(found),
  });
  const timer = setTimeout(() => controller.abort(), 30_000);
  try {
    for await (const message of live) {
      messages.push(message);
      if (messages.length === count) break;
    }
  } finally {
    clearTimeout(timer);
  }
  await sending;
  return { messages, problems };
}

describe("live messages that prove themselves (verify, the default)", () => {
  it("proves the catch-up in one request and each live message as it arrives, and keeps the head", { timeout: 60_000 }, async () => {
    const { alice, bob, bobAddress, heads, node, wire } = await mailbox();
    const { messages, problems } = await liveUntil(bob, 4, () => alice.send(bobAddress, "three"));
    expect(messages.map((message) => [message.text, message.proven])).toEqual([
      ["one", true],
      ["two", true],
      ["note", true],
      ["three", true],
    ]);
    expect(problems).toEqual([]);
    // The three messages caught up on in one request, the live one in its own.
    expect(wire.proofs.map((ids) => ids.length)).toEqual([3, 1]);
    expect(await heads.get(bobAddress, node)).toMatchObject({ size: 5 });
  });

  it("marks what a lying node does not prove, and gives the problems, named by kind and message, before the messages", { timeout: 60_000 }, async () => {
    const { bob, bobAddress, heads, node, wire } = await mailbox();
    // The position of the first message left out of the proof (which proves the others).
    const leaves = await logLeaves(bob);
    wire.alter.proof = (proof) => leaveOut(proof, leaves, (position) => position.seq === 1);
    const dropped = await liveUntil(bob, 3);
    expect(dropped.messages.map((message) => message.proven)).toEqual([false, true, true]);
    expect(dropped.problems).toEqual([[expect.objectContaining({ kind: "missing", id: dropped.messages[0]!.id })]]);
    expect(await heads.get(bobAddress, node)).toBeUndefined();

    // A head the node did not sign: nothing is proven.
    wire.alter.proof = (proof) => {
      proof.head.size += 1;
    };
    const forged = await liveUntil(bob, 3);
    expect(forged.messages.map((message) => message.proven)).toEqual([false, false, false]);
    expect(forged.problems).toEqual([[expect.objectContaining({ kind: "forged-head" })]]);
    expect(await heads.get(bobAddress, node)).toBeUndefined();
  });

  it("with verify: false, asks for no proof and marks nothing", { timeout: 60_000 }, async () => {
    const { bob, wire } = await mailbox({ verify: false });
    const { messages, problems } = await liveUntil(bob, 3);
    expect(messages.map((message) => message.proven)).toEqual([undefined, undefined, undefined]);
    expect(problems).toEqual([]);
    expect(wire.proofs).toEqual([]);
  });
});
