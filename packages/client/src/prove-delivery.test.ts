// Proving delivery (the verifiable mailbox) across two real nodes that federate, in this process:
// a sender asks whether what it sent is in the recipient's log, and gets the recipient's node's
// signed promise of the position (`LogReceipt`), checked by the SDK; what the recipient deleted, a
// node that does not answer, a promise that does not check out and a message not its own are each
// a problem on that message.
import { startFederation, type FederatedNode, type Federation } from "@neutral/relay/testing";
import { hashTypedData, toHex, typedData } from "@neutral/protocol";
import { recoverDigestSigner } from "@neutral/protocol/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNeutralContext, proveDelivery, ready, send } from "./actions/index.js";
import type { NeutralContext } from "./context.js";
import type { Message } from "./generated/types.js";
import { messageDigest } from "./messages.js";
import { createNeutral } from "./neutral.js";
import { startTamperingProxy, type TamperingProxy } from "../test/tampering-proxy.js";
import { privateKeyToAccount, TEST_KEYS } from "../test/wallet.js";

const SLOW = 120_000;
const bobAddress = privateKeyToAccount(TEST_KEYS.bob).address.toLowerCase();
const carolAddress = privateKeyToAccount(TEST_KEYS.carol).address.toLowerCase();

let federation: Federation;
let a: FederatedNode;
let b: FederatedNode;
let alice: NeutralContext;
let proxy: TamperingProxy;

beforeAll(async () => {
  federation = await startFederation({ inProcess: true, keys: [TEST_KEYS.node, TEST_KEYS.peer] });
  [a, b] = federation.nodes as [FederatedNode, FederatedNode];
  proxy = await startTamperingProxy(a.url);
  // Alice at A (through a proxy that can rewrite A's answers), Bob at B, Carol at A.
  alice = createNeutralContext({ url: proxy.url, domain: new URL(a.url).host, account: TEST_KEYS.alice });
  await ready(alice);
  await createNeutral({ url: b.url, account: TEST_KEYS.bob }).ready();
  await createNeutral({ url: a.url, account: TEST_KEYS.carol }).ready();
}, SLOW);

afterAll(async () => {
  await proxy?.close();
  await federation?.close();
}, SLOW);

/** Who signed a `LogReceipt` of `message`'s recipient's copy at `seq`, recovered without the SDK. */
const promiser = (message: Message, seq: number, receipt: string) =>
  recoverDigestSigner(hashTypedData(typedData("LogReceipt", { message: toHex(messageDigest(message)!), role: "receiver", seq })), receipt);

describe("proveDelivery", () => {
  it("gets the recipient's node's signed position of each copy: another node's (asked by the sender's), and the sender's own node's", { timeout: SLOW }, async () => {
    const toBob = (await send(alice, bobAddress, "to Bob, on B")).raw;
    const toCarol = (await send(alice, carolAddress, "to Carol, on A")).raw;
    const result = await proveDelivery(alice, [toBob, toCarol]);
    expect(result.problems).toEqual([]);
    expect(result.proven.map(({ id, node }) => ({ id, node }))).toEqual([
      { id: toBob.id, node: b.address },
      { id: toCarol.id, node: a.address },
    ]);
    for (const [message, proven] of [[toBob, result.proven[0]!], [toCarol, result.proven[1]!]] as const) {
      expect(promiser(message, proven.seq, proven.receipt)).toBe(proven.node);
    }
    // The promised position is the recipient's copy's, as the recipient's own log shows it.
    const bobsLog = await createNeutral({ url: b.url, account: TEST_KEYS.bob }).client.getLog({ limit: 1000 });
    expect(bobsLog.entries.find((entry) => entry.seq === result.proven[0]!.seq)).toMatchObject({ role: "received" });
  });

  it("names what is not proven: a copy the recipient deleted, a message not the caller's, a promise its node did not sign, a node that does not answer", { timeout: SLOW }, async () => {
    const deleted = (await send(alice, bobAddress, "Bob deletes this")).raw;
    const kept = (await send(alice, bobAddress, "Bob keeps this")).raw;
    // Bob deletes his copy at B, under B's id for it (ids are each node's own).
    const bob = createNeutral({ url: b.url, account: TEST_KEYS.bob });
    let atB: Message | undefined;
    for await (const message of bob.inbox({ limit: 10 }).messages()) if (message.raw.signature === deleted.signature) atB = message.raw;
    await bob.deleteMessages([atB!]);
    const carols = (await send(createNeutralContext({ url: a.url, account: TEST_KEYS.carol }), bobAddress, "Carol's, not Alice's")).raw;
    const result = await proveDelivery(alice, [deleted, kept, carols]);
    expect(result.proven.map(({ id }) => id)).toEqual([kept.id]);
    expect(result.problems).toEqual([
      { id: deleted.id, message: expect.stringMatching(/holds no copy of it/) },
      { id: carols.id, message: "not a message this account sent" },
    ]);
    // A's answer with a promise from no node: the SDK does not take it.
    proxy.rewrite = (method, answer) =>
      method === "neutralService_proveDelivery" ? [{ proofs: (answer as [{ proofs: { id: string; position?: { seq: number } }[] }])[0].proofs.map((proof) => ({ ...proof, position: { seq: proof.position!.seq, receipt: `0x${"1b".repeat(65)}` } })) }] : answer;
    try {
      expect((await proveDelivery(alice, [kept])).problems).toEqual([{ id: kept.id, message: `its position is not signed by the recipient's home node ${b.address}` }]);
    } finally {
      proxy.rewrite = undefined;
    }
    // B down: A cannot get its promise.
    await b.stop();
    try {
      expect((await proveDelivery(alice, [kept])).problems).toEqual([{ id: kept.id, message: expect.stringContaining(`the recipient's home node ${b.address} did not prove it`) }]);
    } finally {
      await b.start();
    }
  });
});
