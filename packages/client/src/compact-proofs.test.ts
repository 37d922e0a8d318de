// Compact proofs (spec 3.1.0): the SDK asks every read and every proof for one multiproof, and a
// node before 3.1.0, which refuses the member it does not know, is asked per position instead, once
// refused for the rest of the session. Reads also ask for no position their messages state
// (`omitBound`, spec 3.3.0); a node before 3.3.0 refuses that, and is asked to list them.
import { startNode, type InProcessNode } from "@neutral/relay/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTamperingProxy, type TamperingProxy } from "../test/tampering-proxy.js";
import type { MailboxProof } from "./generated/types.js";
import { generatePrivateKey } from "./keys.js";
import { createNeutral } from "./neutral.js";

let node: InProcessNode;
let proxy: TamperingProxy;
beforeAll(async () => {
  node = await startNode();
  proxy = await startTamperingProxy(node.url);
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await node?.stop();
});

/** What the SDK asked for and got: the proofs' forms, by method. */
function recordProofs() {
  const seen: { method: string; compact: boolean; listed: number }[] = [];
  proxy.rewrite = (method, result) => {
    const payload = (result as [{ proof?: MailboxProof } & Partial<MailboxProof>])[0];
    const proof = method === "neutralService_getProof" ? (payload as MailboxProof) : payload?.proof;
    if (proof?.head) seen.push({ method, compact: proof.multiproof !== undefined, listed: proof.positions.length });
    return result;
  };
  return seen;
}

/**
 * What a node that does not know the proof's `member` answers a read (getInbox, getChat) naming it:
 * its params' validation of an unknown member. The SDK's calls are positional: the proof is the fifth.
 */
function unknownProofMember(method: string, params: unknown, member: string) {
  const proof = Array.isArray(params) ? (params[4] as Record<string, unknown> | undefined) : undefined;
  if ((method !== "neutralService_getInbox" && method !== "neutralService_getChat") || proof?.[member] === undefined) return undefined;
  return { code: -32602, message: `Invalid params: proof.${member} is not a known member`, data: { field: `proof.${member}`, reason: "is not a known member", param: "proof", path: `/${member}` } };
}

/** The refusal a node before 3.3.0 (3.1.0 or 3.2.0) answers a read whose proof names `omitBound`. */
function actBefore33() {
  const refused: string[] = [];
  proxy.refuse = (method, params) => {
    const refusal = unknownProofMember(method, params, "omitBound");
    if (refusal) refused.push(method);
    return refusal;
  };
  return refused;
}

/** The refusal a node before 3.1.0 answers a request that names `compact`: its params' validation of an unknown member. */
function actBefore31() {
  const refused: string[] = [];
  proxy.refuse = (method, params) => {
    // getProof's `compact` is its third positional param.
    if (method === "neutralService_getProof" && Array.isArray(params) && params.length > 2) {
      refused.push(method);
      return { code: -32602, message: `Invalid params: params takes at most 2 positional params, got ${params.length}`, data: { field: "params", reason: `takes at most 2 positional params, got ${params.length}` } };
    }
    const refusal = unknownProofMember(method, params, "compact");
    if (refusal) refused.push(method);
    return refusal;
  };
  return refused;
}

async function mailbox() {
  const sender = createNeutral({ url: node.url, account: generatePrivateKey() });
  const reader = createNeutral({ url: proxy.url, domain: node.domain, account: generatePrivateKey() });
  const readerAddress = await reader.getAddress();
  await reader.ready();
  for (const body of ["one", "two", "three"]) await sender.send(readerAddress, body);
  return { reader };
}

describe("compact proofs", () => {
  it("an SDK reads pages and proves messages with one multiproof each", { timeout: 60_000 }, async () => {
    proxy.refuse = undefined;
    const { reader } = await mailbox();
    const seen = recordProofs();
    const pages = [];
    for await (const page of reader.inbox({ limit: 2 })) pages.push(page);
    expect(pages.flatMap((page) => page.messages.map((message) => message.proven))).toEqual([true, true, true]);
    expect(pages.every((page) => page.mailboxProblems.length === 0)).toBe(true);
    const proven = await reader.proveMessages(pages.flatMap((page) => page.messages.map((message) => message.raw)));
    expect(proven.problems).toEqual([]);
    // The pages list no position (each message states its own: `omitBound`); getProof lists each.
    expect(seen).toEqual([
      { method: "neutralService_getInbox", compact: true, listed: 0 },
      { method: "neutralService_getInbox", compact: true, listed: 0 },
      { method: "neutralService_getProof", compact: true, listed: 3 },
    ]);
  });

  it("a node before 3.1.0 refuses `compact`: the session asks per position from then on, and proves everything the same", { timeout: 60_000 }, async () => {
    const { reader } = await mailbox();
    const refused = actBefore31();
    const seen = recordProofs();
    const pages = [];
    for await (const page of reader.inbox({ limit: 2 })) pages.push(page);
    expect(pages.flatMap((page) => page.messages.map((message) => message.proven))).toEqual([true, true, true]);
    const proven = await reader.proveMessages(pages.flatMap((page) => page.messages.map((message) => message.raw)));
    expect(proven.problems).toEqual([]);
    // Refused once, on the first page: the second page and the proof are asked per position at once.
    expect(refused).toEqual(["neutralService_getInbox"]);
    // A new session's first proof is a getProof: refused as one positional param too many, then asked per position.
    const next = createNeutral({ url: proxy.url, domain: node.domain, account: generatePrivateKey() });
    await next.ready();
    expect((await next.proveMessages([])).problems).toEqual([]);
    expect(refused).toEqual(["neutralService_getInbox", "neutralService_getProof"]);
    expect(seen.map((one) => one.compact)).toEqual([false, false, false, false]);
    proxy.refuse = undefined;
  });

  it("a node before 3.3.0 refuses `omitBound`: the session's reads list every position from then on, still compact, and prove everything the same", { timeout: 60_000 }, async () => {
    const { reader } = await mailbox();
    const refused = actBefore33();
    const seen = recordProofs();
    const pages = [];
    for await (const page of reader.inbox({ limit: 2 })) pages.push(page);
    for await (const page of reader.chat(pages[0]!.messages[0]!.from)) pages.push(page);
    expect(pages.flatMap((page) => page.messages.map((message) => message.proven))).toEqual([true, true, true, true, true, true]);
    expect(pages.every((page) => page.mailboxProblems.length === 0)).toBe(true);
    // Refused once, on the first page: the next page and the chat are asked compact, without it.
    expect(refused).toEqual(["neutralService_getInbox"]);
    expect(seen).toEqual([
      { method: "neutralService_getInbox", compact: true, listed: 2 },
      { method: "neutralService_getInbox", compact: true, listed: 1 },
      { method: "neutralService_getChat", compact: true, listed: 3 },
    ]);
    proxy.refuse = undefined;
  });
});
