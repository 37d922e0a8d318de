// The actions standalone (`@neutral/client/actions`) against a real relay, and `createNeutral` as
// exactly those actions bound to one session.
import { startNode, type InProcessNode } from "@neutral/relay/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toSigner } from "../account.js";
import { NeutralError } from "../errors.js";
import { deriveMessagingKey } from "../messaging-key.js";
import { createNeutral } from "../neutral.js";
import { privateKeyToAccount, signingProvider, TEST_KEYS } from "../../test/wallet.js";
import * as actions from "./index.js";
import { createNeutralContext, homeOf, inbox, keyOf, publishHome, publishKey, ready, send, type SendErrorType } from "./index.js";

let relay: InProcessNode;
const aliceAddress = privateKeyToAccount(TEST_KEYS.alice).address.toLowerCase();
const bobAddress = privateKeyToAccount(TEST_KEYS.bob).address.toLowerCase();
const carolAddress = privateKeyToAccount(TEST_KEYS.carol).address.toLowerCase();

// Starting a relay beside other suites on a loaded 2-core machine can take a while.
beforeAll(async () => {
  relay = await startNode({ args: ["--node-key", TEST_KEYS.node] });
}, 120_000);

afterAll(async () => {
  await relay?.stop();
});

describe("createNeutral", () => {
  it("is the actions bound to one session: a method for each action but the two steps of ready and proveDelivery (kept out of the size budget)", () => {
    const neutral = createNeutral({ url: relay.url, account: TEST_KEYS.alice });
    const accessors = ["url", "client", "getAddress", "token", "nodeInfo"];
    const standalone = ["createNeutralContext", "memoryAuditStore", "memoryHeadStore", "publishHome", "publishKey", "proveDelivery"];
    const methods = Object.keys(neutral).filter((name) => !accessors.includes(name));
    const bound = Object.entries(actions)
      .filter(([name, value]) => typeof value === "function" && !standalone.includes(name))
      .map(([name]) => name);
    expect(methods.sort()).toEqual(bound.sort());
  });
});

describe("the actions on one context", () => {
  it("get ready once per session: home record and key bundle published, then no wallet prompt", { timeout: 60_000 }, async () => {
    const wallet = signingProvider(TEST_KEYS.carol);
    const context = createNeutralContext({ url: relay.url, account: wallet, address: carolAddress });
    await ready(context);
    const asked = wallet.calls.length;
    expect(asked).toBeGreaterThan(0);
    await ready(context);
    // The steps again, standalone: the node already has both, so nothing is signed.
    const home = await publishHome(context);
    expect(home).toMatchObject({ account: carolAddress, node: relay.address.toLowerCase() });
    expect(await homeOf(context, carolAddress)).toEqual(home);
    const key = await deriveMessagingKey(toSigner(TEST_KEYS.carol));
    const bundle = await publishKey(context, key);
    expect(bundle).toEqual(await keyOf(context, carolAddress));
    expect(bundle.key).toBe(key.publicKeyHex);
    expect(wallet.calls.length).toBe(asked);
  });

  it("send and read as the bound methods do, and fail with the errors their types name", { timeout: 60_000 }, async () => {
    const alice = createNeutralContext({ url: relay.url, account: TEST_KEYS.alice });
    const bob = createNeutral({ url: relay.url, account: TEST_KEYS.bob });

    const early = (await send(alice, bobAddress, "too early").catch((error: unknown) => error)) as SendErrorType;
    expect(early).toBeInstanceOf(NeutralError);
    expect(early).toMatchObject({ code: "NO_RECIPIENT_KEY" });
    const malformed = (await send(alice, "0x0", "x").catch((error: unknown) => error)) as SendErrorType;
    expect(malformed).toMatchObject({ name: "NeutralError", code: "INVALID_ARGUMENT" });

    await bob.ready();
    const sent = await send(alice, bobAddress, "hello from an action");
    expect(sent).toMatchObject({ from: aliceAddress, to: bobAddress, direction: "sent", text: "hello from an action", verified: true });
    const mine: string[] = [];
    for await (const message of inbox(alice, { direction: "sent" }).messages()) mine.push(message.id);
    expect(mine).toContain(sent.id);
    const read = [];
    for await (const message of bob.inbox().messages()) read.push(message);
    expect(read.find((message) => message.id === sent.id)).toMatchObject({ from: aliceAddress, text: "hello from an action", verified: true });
  });
});
