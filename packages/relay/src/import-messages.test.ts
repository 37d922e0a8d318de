// neutralService_importMessages on a real node (issue 24, moving home): an account stores messages
// of its own history with their original signatures and receipts; what is not its own, not
// delivered, not signed, past its end or too big is refused whole, storing nothing.
import { fixtureSigner, fixtureStoredMessage, TEST_KEYS } from "@neutral/protocol/testing";
import { describe, expect, it } from "vitest";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { EIP712_DOMAIN, EIP712_TYPES } from "@neutral/protocol";
import type { StoredMessage } from "../test/federation.js";
import { wallet } from "../test/wallets.js";
import { relaysPerTest } from "../test/relays.js";
import { call, type RunningRelay } from "../testing/index.js";

const alice = fixtureSigner(TEST_KEYS.alice);
const bob = fixtureSigner(TEST_KEYS.bob);
const carol = fixtureSigner(TEST_KEYS.carol);
/** The account's former home: the node that signed the receipts of its history. */
const formerHome = fixtureSigner(TEST_KEYS.peer);

const relayWith = relaysPerTest();

/** A message as a node serves it (test/federation.ts), with the members an import may carry. */
type WireMessage = StoredMessage;

/** A message of the history, as the former home served it (its receipts signed by that node). */
function historic(from: typeof alice, to: typeof alice, body: string, timestamp: number, options: { id?: string; expires?: number } = {}): WireMessage {
  const stored = fixtureStoredMessage(formerHome, from.signMessageFor(to.address, body, timestamp, options.expires));
  return {
    id: options.id ?? "7",
    message: stored.message,
    from: stored.from,
    to: stored.to,
    signature: stored.signature,
    sender_receipt: stored.senderReceipt,
    receiver_receipt: stored.receiverReceipt!,
    timestamp: stored.timestamp,
    ...(stored.expires !== undefined && { expires: stored.expires }),
  };
}

async function mailbox(node: RunningRelay, token: string): Promise<WireMessage[]> {
  const answer = await call(node.url, "neutralService_getInbox", [{ direction: "all" }, 100], token);
  return (answer.body.result[0] as { data: WireMessage[] }).data.reverse();
}

describe("neutralService_importMessages", () => {
  it("stores the account's history as given, under new ids in order, its original receipts kept; again: the same ids, nothing twice", { timeout: 60_000 }, async () => {
    // Two workers: the import goes through the primary's writer like every append.
    const relay = await relayWith({ workers: 2 });
    const token = await wallet(TEST_KEYS.bob).token({ domain: relay.domain });
    const history = [historic(alice, bob, "0a", 1767225600000, { id: "3" }), historic(bob, carol, "0b", 1767225660000, { id: "5" }), historic(bob, bob, "0c", 1767225720000, { id: "9" })];
    const answer = await call(relay.url, "neutralService_importMessages", [history], token);
    expect(answer.body.error).toBeUndefined();
    const { ids } = answer.body.result[0] as { ids: string[] };
    expect(ids.map(Number)).toEqual([...ids.map(Number)].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(3);
    expect(await mailbox(relay, token)).toEqual(history.map((message, i) => ({ ...message, id: ids[i] })));
    // By name, again: the same ids; the mailbox is unchanged.
    expect((await call(relay.url, "neutralService_importMessages", { messages: history }, token)).body.result).toEqual([{ ids }]);
    expect(await mailbox(relay, token)).toHaveLength(3);
    // Nothing of the other parties' is here.
    expect(await mailbox(relay, await wallet(TEST_KEYS.alice).token({ domain: relay.domain }))).toEqual([]);
  });

  it("refuses the whole import, storing nothing, for a message not the account's, not delivered, not signed, past its end or too big", { timeout: 60_000 }, async () => {
    const relay = await relayWith({ args: ["--max-message-bytes", "16"] });
    const token = await wallet(TEST_KEYS.bob).token({ domain: relay.domain });
    const good = historic(alice, bob, "01", 1767225600000);
    const refused = async (bad: WireMessage | unknown) => (await call(relay.url, "neutralService_importMessages", [[good, bad]], token)).body.error as { code: number; data?: { field?: string; index?: number } };
    expect(await refused(historic(alice, carol, "02", 1767225600001))).toMatchObject({ code: -32002, data: { index: 1 } });
    const { receiver_receipt: _none, ...undelivered } = historic(alice, bob, "03", 1767225600002);
    expect(await refused({ ...undelivered, status: "pending" })).toMatchObject({ code: -32602, data: { field: "messages[1].status", index: 1 } });
    expect(await refused({ ...historic(alice, bob, "04", 1767225600003), status: "failed", reason: "refused" })).toMatchObject({ code: -32602, data: { index: 1 } });
    expect(await refused({ ...historic(alice, bob, "05", 1767225600004), message: "06" })).toMatchObject({ code: -32003, data: { field: "messages[1].signature", index: 1 } });
    expect(await refused({ ...historic(alice, bob, "07", 1767225600005), receiver_receipt: `0x${"00".repeat(65)}` })).toMatchObject({ code: -32003, data: { field: "messages[1].receiver_receipt" } });
    // Signed with an end long past, receipts and all.
    expect(await refused(historic(alice, bob, "08", 1767225600006, { expires: 1767225700000 }))).toMatchObject({ code: -32602, data: { field: "messages[1].expires" } });
    // The size limit: 16 bytes fit, 17 do not.
    expect(await refused(historic(alice, bob, "11".repeat(17), 1767225600007))).toMatchObject({ code: -32005, data: { index: 1 } });
    // Malformed: the schema's -32602; more than 100 messages.
    expect(await refused({ ...good, from: "alice" })).toMatchObject({ code: -32602 });
    const tooMany = (await call(relay.url, "neutralService_importMessages", [Array.from({ length: 101 }, () => good)], token)).body.error;
    expect(tooMany).toMatchObject({ code: -32602 });
    expect(await mailbox(relay, token)).toEqual([]);
    // At the limits: 16 bytes, and 100 messages.
    const full = historic(alice, bob, "11".repeat(16), 1767225600008);
    expect((await call(relay.url, "neutralService_importMessages", [[full]], token)).body.error).toBeUndefined();
    const hundred = Array.from({ length: 100 }, (_, i) => historic(alice, bob, (i + 16).toString(16), 1767225601000 + i));
    expect(((await call(relay.url, "neutralService_importMessages", [hundred], token)).body.result[0] as { ids: string[] }).ids).toHaveLength(100);
  });

  it("counts against the account's storage quota, up to the limit and not past it; what was here already is given back", { timeout: 60_000 }, async () => {
    const relay = await relayWith({ args: ["--sender-quota-messages", "6"] });
    const token = await wallet(TEST_KEYS.bob).token({ domain: relay.domain });
    const batch = (from: number) => [0, 1, 2].map((i) => historic(alice, bob, `a${from + i}`, 1767225600000 + from + i));
    const importing = async (messages: WireMessage[]) => (await call(relay.url, "neutralService_importMessages", [messages], token)).body.error;
    expect(await importing(batch(0))).toBeUndefined(); // 3 of 6 used
    expect(await importing(batch(0))).toBeUndefined(); // counted, then given back: still 3
    expect(await importing(batch(3))).toBeUndefined(); // 6 of 6: at the limit
    expect(await importing(batch(6))).toMatchObject({ code: -32029, data: { quota: "senderQuotaMessages", limit: 6 } });
    expect(await mailbox(relay, token)).toHaveLength(6);
  });

  it("keeps the former home's head of the account's log and answers it with the log; refuses another account's, a signature that recovers no one, and a 17th former node", { timeout: 60_000 }, async () => {
    const relay = await relayWith({});
    const token = await wallet(TEST_KEYS.bob).token({ domain: relay.domain });
    const message = historic(alice, bob, "0a", 1767225600000);
    /** A head of bob's log signed by `key`'s node. */
    const headBy = async (key: Hex, size: number) => {
      const fields = { account: bob.address as Hex, size, root: `0x${"5e".repeat(32)}` as Hex, timestamp: 1767225600000 + size };
      const signature = await privateKeyToAccount(key).signTypedData({ domain: EIP712_DOMAIN, types: EIP712_TYPES, primaryType: "MailboxHead", message: { ...fields, size: BigInt(size), timestamp: BigInt(fields.timestamp) } });
      return { ...fields, account: bob.address, signature };
    };
    const importing = async (head: unknown) => (await call(relay.url, "neutralService_importMessages", { messages: [message], head }, token)).body;
    const prior = async () => ((await call(relay.url, "neutralService_getLog", {}, token)).body.result[0] as { prior?: unknown[] }).prior;
    const withMessages = async () => ((await call(relay.url, "neutralService_getLog", { messages: true }, token)).body.result[0] as { prior?: unknown[] }).prior;
    expect(await prior()).toBeUndefined();
    const former = await headBy(TEST_KEYS.peer, 7);
    expect((await importing(former)).error).toBeUndefined();
    expect(await prior()).toEqual([former]);
    expect(await withMessages()).toEqual([former]);
    // The same node's: a larger head replaces it, a smaller one does not.
    expect((await importing(await headBy(TEST_KEYS.peer, 3))).error).toBeUndefined();
    expect(await prior()).toEqual([former]);
    const larger = await headBy(TEST_KEYS.peer, 9);
    expect((await importing(larger)).error).toBeUndefined();
    expect(await prior()).toEqual([larger]);
    // Refused, nothing kept: another account's head, a signature that recovers no one.
    expect((await importing({ ...larger, account: alice.address })).error).toMatchObject({ code: -32602, data: { field: "head.account" } });
    expect((await importing({ ...larger, signature: `0x${"00".repeat(65)}` })).error).toMatchObject({ code: -32003, data: { field: "head.signature" } });
    // 16 former nodes at most: the 16th is kept, a 17th refused (and its messages not imported).
    const nodes = Array.from({ length: 16 }, () => generatePrivateKey());
    for (const key of nodes.slice(1)) expect((await importing(await headBy(key, 1))).error).toBeUndefined();
    expect(await prior()).toHaveLength(16);
    const past = await call(relay.url, "neutralService_importMessages", { messages: [historic(alice, bob, "0b", 1767225600001)], head: await headBy(generatePrivateKey(), 1) }, token);
    expect(past.body.error).toMatchObject({ code: -32602, data: { field: "head", limit: 16 } });
    expect(await mailbox(relay, token)).toEqual([{ ...message, id: expect.any(String) }]);
    expect((await prior())![0]).toEqual(larger);
  });
});
