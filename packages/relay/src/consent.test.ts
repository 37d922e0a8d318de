// Consent on real relays (issue 24, openrpc.json "Consent"): a recipient's signed records and
// policy decide whether a sender's message reaches its inbox, its requests folder, or is refused;
// the recipient's node enforces it for senders on other nodes too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EIP712_DOMAIN, EIP712_TYPES } from "@neutral/protocol";
import { TEST_KEYS, wallet, type TestWallet } from "../test/wallets.js";
import { account, eventually, federation, startAll, type Federation, type TestNode } from "../test/federation.js";
import { nodesPerTest } from "../test/relays.js";
import { call } from "../testing/index.js";

const alice = wallet(TEST_KEYS.alice);
const bob = wallet(TEST_KEYS.bob);
const carol = wallet(TEST_KEYS.carol);
const dave = wallet(TEST_KEYS.mallory); // any fourth account

type State = "allowed" | "blocked" | "none";
async function record(signer: TestWallet, peer: string, state: State, timestamp = Date.now()) {
  const message = { account: signer.account.address, peer: peer as `0x${string}`, state, timestamp: BigInt(timestamp) };
  return { account: signer.address, peer, state, timestamp, signature: await signer.account.signTypedData({ domain: EIP712_DOMAIN, types: EIP712_TYPES, primaryType: "Consent", message }) };
}
async function policy(signer: TestWallet, mode: "open" | "allowed-only", timestamp = Date.now()) {
  const message = { account: signer.account.address, mode, timestamp: BigInt(timestamp) };
  return { account: signer.address, mode, timestamp, signature: await signer.account.signTypedData({ domain: EIP712_DOMAIN, types: EIP712_TYPES, primaryType: "ConsentPolicy", message }) };
}

const relayWith = nodesPerTest();

describe("consent on one node", () => {
  it("blocked senders are refused, unknown ones land in requests under allowed-only, allowed and replied-to ones in the inbox", { timeout: 60_000 }, async () => {
    const relay = await relayWith({ args: ["--request-quota-messages", "2"] });
    const tokens = new Map<TestWallet, string>();
    for (const user of [alice, bob, carol, dave]) tokens.set(user, await user.token({ domain: relay.domain }));
    const rpc = (user: TestWallet, method: string, params: unknown) => call(relay.url, method, params, tokens.get(user));
    const send = async (from: TestWallet, to: TestWallet, body: string) => (await rpc(from, "neutralService_sendMessage", [await from.sign({ to: to.address, message: body })])).body;
    const ids = async (filter: Record<string, unknown>, user = bob) =>
      ((await rpc(user, "neutralService_getInbox", [filter, 100])).body.result[0] as { data: { id: string; from: string }[] }).data.map((message) => message.from);

    const allowCarol = await record(bob, carol.address, "allowed");
    const blockDave = await record(bob, dave.address, "blocked");
    const allowedOnly = await policy(bob, "allowed-only");
    const set = await rpc(bob, "neutralService_setConsent", [[allowCarol, blockDave], allowedOnly]);
    expect(set.body.result).toEqual([{ account: bob.address, policy: allowedOnly, records: [allowCarol, blockDave] }]);

    // Blocked: refused, and the sender learns nothing but "not accepted"; nothing is stored.
    const refused = await send(dave, bob, "d1");
    expect(refused.error).toEqual({ code: -32002, message: "Forbidden: not accepted by the recipient", data: { reason: "not accepted" } });
    // Unknown: the requests folder, up to the request quota (2), then -32029 naming it.
    expect((await send(alice, bob, "a1")).error).toBeUndefined();
    expect((await send(alice, bob, "a2")).error).toBeUndefined();
    expect((await send(alice, bob, "a3")).error).toMatchObject({ code: -32029, data: { quota: "requestQuotaMessages", limit: 2 } });
    // Allowed: the inbox.
    expect((await send(carol, bob, "c1")).error).toBeUndefined();
    expect(await ids({})).toEqual([carol.address]);
    expect(await ids({ folder: "requests" })).toEqual([alice.address, alice.address]);
    expect((await rpc(bob, "neutralService_getInbox", [{ folder: "requests", direction: "all" }])).body.error).toMatchObject({ code: -32602 });
    const chat = await rpc(bob, "neutralService_getChat", [{ chat: alice.address }]);
    expect(chat.body.result[0].data).toEqual([]);
    expect((await rpc(bob, "neutralService_getChat", [{ chat: alice.address, folder: "requests" }])).body.result[0].data).toHaveLength(2);
    // The sender sees its messages as sent, wherever they landed.
    expect(await ids({ direction: "sent" }, alice)).toEqual([alice.address, alice.address]); // from: both sent by alice, to bob
    // Once bob writes to alice, her messages reach his inbox.
    expect((await send(bob, alice, "b1")).error).toBeUndefined();
    expect((await send(alice, bob, "a4")).error).toBeUndefined();
    expect(await ids({})).toEqual([alice.address, carol.address]);

    const listed = (await rpc(bob, "neutralService_getConsent", [])).body.result[0];
    expect(listed).toEqual({ account: bob.address, policy: allowedOnly, records: [allowCarol, blockDave].sort((x, y) => x.peer.localeCompare(y.peer)), end: true });
    // Unblocked ("none", newer): dave reaches the requests folder like anyone unknown.
    await rpc(bob, "neutralService_setConsent", [[await record(bob, dave.address, "none", Date.now() + 1)]]);
    expect((await send(dave, bob, "d2")).error).toBeUndefined();
    expect(await ids({ folder: "requests" })).toContain(dave.address);
  });

  it("refuses records of another account, a tampered signature, a peer given twice and a future timestamp, keeping none", { timeout: 60_000 }, async () => {
    const relay = await relayWith();
    const token = await bob.token({ domain: relay.domain });
    const refused = async (params: unknown) => (await call(relay.url, "neutralService_setConsent", params, token)).body.error as { code: number; data?: Record<string, unknown> };
    const good = await record(bob, alice.address, "blocked");
    expect(await refused([[good, await record(carol, dave.address, "allowed")]])).toMatchObject({ code: -32002, data: { field: "records[1].account" } });
    expect(await refused([[{ ...good, state: "allowed" }]])).toMatchObject({ code: -32003, data: { field: "records[0].signature" } });
    expect(await refused([[good, good]])).toMatchObject({ code: -32602 });
    expect(await refused([[good], await policy(bob, "allowed-only", Date.now() + 10 * 60_000)])).toMatchObject({ code: -32004 });
    expect((await call(relay.url, "neutralService_getConsent", [], token)).body.result[0]).toEqual({ account: bob.address, policy: null, records: [], end: true });
  });
});

describe("consent across nodes", () => {
  let fed: Federation;
  let a: TestNode;
  let b: TestNode;
  const alice2 = account(TEST_KEYS.alice);
  const bob2 = account(TEST_KEYS.bob);
  beforeAll(async () => {
    fed = await federation({ count: 2 });
    [a, b] = fed.nodes as [TestNode, TestNode];
    await startAll(fed.nodes);
    await alice2.homeAt(a);
    await bob2.homeAt(b);
  }, 120_000);
  afterAll(() => fed?.close(), 60_000);

  it("the recipient's node refuses a blocked remote sender for good: the sender's copy fails with no more than 'not accepted'", { timeout: 60_000 }, async () => {
    await bob2.ok(b, "neutralService_setConsent", [[await record(bob, alice.address, "blocked")]]);
    const sent = await alice2.send(a, bob2.address, "0badc0de");
    const failed = await eventually(
      "the sender's copy fails",
      async () => (await alice2.mailbox(a, "sent")).find((message) => message.id === sent.id),
      (message) => message?.status === "failed",
    );
    expect(failed!.reason).toContain("not accepted");
    expect(await bob2.mailbox(b)).toEqual([]);
  });
});
