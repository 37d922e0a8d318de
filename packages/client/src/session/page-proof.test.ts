// Reads that prove themselves, on the client: inbox and chat pages against a real node (in this
// process), honest, and with its answers altered on the way the ways a lying node would alter them.
import { startNode, type InProcessNode } from "@neutral/relay/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InboxPage, MailboxProof } from "../generated/types.js";
import type { MessagePage, Neutral } from "../neutral.js";
import { bobsMailbox, leaveOut, logLeaves, statedSeqs } from "../../test/bobs-mailbox.js";

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
type Alter = (page: InboxPage & { proof?: MailboxProof }) => void;

/** A fetch that records the params of every read and lets `alter` change a page on its way back. */
function tamperingFetch(): { fetch: typeof globalThis.fetch; reads: { proof?: unknown }[]; alter: { page?: Alter } } {
  const reads: { proof?: unknown }[] = [];
  const alter: { page?: Alter } = {};
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as RpcBody) : undefined;
    const response = await globalThis.fetch(input, init);
    if (body?.method !== "neutralService_getInbox" && body?.method !== "neutralService_getChat") return response;
    // By position (as the typed client sends them) or by name: the page's `proof` param.
    const proof = Array.isArray(body.params) ? body.params[4] : body.params.proof;
    reads.push(proof === undefined || proof === null ? {} : { proof });
    if (!alter.page) return response;
    const answer = (await response.json()) as { result?: [InboxPage & { proof?: MailboxProof }] };
    if (answer.result) alter.page(answer.result[0]);
    return new Response(JSON.stringify(answer), { status: response.status, headers: response.headers });
  };
  return { fetch, reads, alter };
}

/** Bob, with messages both ways and one to himself; his session reads through a tampering fetch. */
async function mailbox(options: { verify?: boolean } = {}) {
  const wire = tamperingFetch();
  return { ...(await bobsMailbox(relay.url, wire.fetch, options)), wire };
}

const readAll = async (bob: Neutral, limit = 20): Promise<MessagePage[]> => {
  const pages: MessagePage[] = [];
  for await (const page of bob.inbox({ direction: "all", limit })) pages.push(page);
  return pages;
};

describe("reads that prove themselves (verify, the default)", () => {
  it("proves every message of every page, keeps the head, and asks the next read to extend it", { timeout: 60_000 }, async () => {
    const { alice, bob, bobAddress, heads, node, wire } = await mailbox();
    const [page] = await readAll(bob);
    expect(page!.messages.map((message) => message.proven)).toEqual([true, true, true]);
    expect(page!.mailboxProblems).toEqual([]);
    expect(page!.head).toMatchObject({ account: bobAddress, size: 4 });
    expect(await heads.get(bobAddress, node)).toEqual(page!.head);
    // Compact, without the positions the messages state (spec 3.3.0): none of them is listed.
    expect(wire.reads.at(-1)).toEqual({ proof: { compact: true, omitBound: true } });

    await alice.send(bobAddress, "three");
    // Pages of 2: each proven, each head extending the one before.
    const pages = await readAll(bob, 2);
    expect(pages.flatMap((one) => one.messages.map((message) => message.proven))).toEqual([true, true, true, true]);
    expect(wire.reads.slice(-2).map((params) => params.proof)).toEqual([
      { compact: true, omitBound: true, since: 4 },
      { compact: true, omitBound: true, since: 5 },
    ]);
    expect((await heads.get(bobAddress, node))?.size).toBe(5);

    const chat = [];
    for await (const one of bob.chat(await alice.getAddress())) chat.push(...one.messages);
    expect(chat.map((message) => [message.text, message.proven])).toEqual([
      ["three", true],
      ["two", true],
      ["one", true],
    ]);
  });

  it("marks what a lying node's page does not prove, names the kind and position, and keeps the head this device verified", { timeout: 60_000 }, async () => {
    const { bob, bobAddress, heads, node, wire } = await mailbox();
    const [honest] = await readAll(bob);
    const verified = await heads.get(bobAddress, node);

    // A position left out (the others still proven): the message is not in the log, as far as the
    // page shows. The page was asked with `omitBound`, so the message states its position: the node
    // strips that too.
    const leaves = await logLeaves(bob);
    wire.alter.page = (page) => {
      const disowned = page.data[2]!;
      delete disowned.receiver_seq;
      delete disowned.sender_seq;
      leaveOut(page.proof!, leaves, (position) => position.id === disowned.id, statedSeqs(bobAddress, page.data));
    };
    const [dropped] = await readAll(bob);
    expect(dropped!.messages.map((message) => message.proven)).toEqual([true, true, false]);
    expect(dropped!.mailboxProblems).toEqual([expect.objectContaining({ kind: "missing", id: honest!.messages[2]!.id })]);

    // Two messages swapped in the log: each states the other's position (the page lists none), so
    // neither is where its leaf is. The page's one multiproof, given the positions as stated, proves
    // nothing: the other copies are unproven too.
    wire.alter.page = (page) => {
      const [first, second] = page.data.filter((message) => message.to.toLowerCase() === bobAddress.toLowerCase());
      [first!.receiver_seq, second!.receiver_seq] = [second!.receiver_seq, first!.receiver_seq];
    };
    const [reordered] = await readAll(bob);
    expect(reordered!.mailboxProblems.map((problem) => problem.kind)).toEqual(["unproven", "unproven", "unproven", "unproven"]);
    expect(reordered!.messages.map((message) => message.proven)).toEqual([false, false, false]);
    expect(reordered!.mailboxProblems.every((problem) => problem.seq !== undefined)).toBe(true);

    // No proof at all, though one was asked for.
    wire.alter.page = (page) => {
      delete page.proof;
    };
    const [bare] = await readAll(bob);
    expect(bare!.messages.map((message) => message.proven)).toEqual([false, false, false]);
    expect(bare!.mailboxProblems).toEqual([expect.objectContaining({ kind: "unproven" })]);
    expect(await heads.get(bobAddress, node)).toEqual(verified);
  });

  it("names a rollback when the node's log is shorter than the head this device verified", { timeout: 60_000 }, async () => {
    const { bob, bobAddress, heads, node, wire } = await mailbox();
    const [page] = await readAll(bob);
    const longer = { ...page!.head!, size: page!.head!.size + 3 };
    await heads.set(bobAddress, node, longer);
    const [after] = await readAll(bob);
    // The node refused `since: 7` and the page was asked again without it.
    expect(wire.reads.slice(-2).map((params) => params.proof)).toEqual([
      { compact: true, omitBound: true, since: 7 },
      { compact: true, omitBound: true },
    ]);
    expect(after!.mailboxProblems).toEqual([expect.objectContaining({ kind: "rollback", seq: 5 })]);
    expect(after!.messages.map((message) => message.proven)).toEqual([false, false, false]);
    expect(await heads.get(bobAddress, node)).toEqual(longer);
  });

  it("with verify: false, asks for no proof and marks nothing", { timeout: 60_000 }, async () => {
    const { bob, wire } = await mailbox({ verify: false });
    const [page] = await readAll(bob);
    expect(page!.messages).toHaveLength(3);
    expect(page!.messages.map((message) => message.proven)).toEqual([undefined, undefined, undefined]);
    expect(page!.mailboxProblems).toEqual([]);
    expect(page).not.toHaveProperty("head");
    expect(wire.reads.at(-1)).not.toHaveProperty("proof");
  });
});
