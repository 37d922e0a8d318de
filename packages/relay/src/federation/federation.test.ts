// Federation on real relays (openrpc.json "Federation"): three nodes on loopback, each a peer of the
// others, accounts homed on each. Messages cross nodes with a receipt from each home node; a node
// that is down gets its messages once it is back, in order, exactly once; messages that cannot
// arrive fail with a reason; the directory answers for the whole federation.
import { messageDigest, receiptDigest } from "../crypto/eip712.js";
import { loadSecp256k1 } from "../crypto/secp256k1.js";
import { TEST_KEYS } from "@neutral/protocol/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { account, DELIVERY_WAIT_MS, eventually, federation, startAll, type Federation, type StoredMessage, type TestNode } from "../../test/federation.js";

const curve = loadSecp256k1();
const alice = account(TEST_KEYS.alice);
const bob = account(TEST_KEYS.bob);
const carol = account(TEST_KEYS.carol);

/** Who signed each receipt of a stored message (over its copy's position, when the message carries it). */
function receiptSigners(message: StoredMessage): { sender?: string; receiver?: string } {
  const digest = messageDigest(message);
  const signer = (receipt: string | undefined, role: "sender" | "receiver", seq: number | undefined) =>
    receipt === undefined ? undefined : curve.recoverAddress(receiptDigest(digest, role, seq), Buffer.from(receipt.slice(2), "hex"));
  return { sender: signer(message.sender_receipt, "sender", message.sender_seq), receiver: signer(message.receiver_receipt, "receiver", message.receiver_seq) };
}

/** The position of `id` in `owner`'s log on `node`, as the node's log read says. */
async function positionOf(node: TestNode, owner: ReturnType<typeof account>, id: string, role: "received" | "sent"): Promise<number | undefined> {
  const log = await owner.ok<{ entries: { seq: number; id: string; role: string }[] }>(node, "neutralService_getLog", { from: 1, limit: 1000 });
  return log.entries.find((entry) => entry.id === id && entry.role === role)?.seq;
}

const hexOf = (i: number) => i.toString(16).padStart(8, "0");

/** Two nodes started with `options`: alice homed at A, bob at B. */
async function aliceAtABobAtB(options: Omit<Parameters<typeof federation>[0], "count">): Promise<{ fed: Federation; a: TestNode; b: TestNode }> {
  const fed = await federation({ count: 2, ...options });
  const [a, b] = fed.nodes as [TestNode, TestNode];
  await startAll(fed.nodes);
  await alice.homeAt(a);
  await bob.homeAt(b);
  // Each node knows the other account's home before a test stops one. A node hears of a record
  // published elsewhere by a push, which on a loaded machine may not have arrived when the other
  // node stops (a send at A then fails: "the recipient's home node is not known"), or by asking.
  const homeOf = (node: TestNode, account: string) => alice.ok<{ node?: string } | null>(node, "neutralService_getHome", [account]);
  await eventually("A knows bob's home", () => homeOf(a, bob.address), (record) => record?.node?.toLowerCase() === b.address.toLowerCase());
  await eventually("B knows alice's home", () => homeOf(b, alice.address), (record) => record?.node?.toLowerCase() === a.address.toLowerCase());
  return { fed, a, b };
}

/** `count` messages from alice to bob through A, as A acknowledged them. */
async function sendToBob(a: TestNode, count: number): Promise<StoredMessage[]> {
  const acknowledged: StoredMessage[] = [];
  for (let i = 0; i < count; i++) acknowledged.push(await alice.send(a, bob.address, hexOf(i)));
  return acknowledged;
}

describe("three nodes", () => {
  let fed: Federation;
  beforeAll(async () => {
    fed = await federation({ count: 3 });
    await startAll(fed.nodes);
    const [a, b, c] = fed.nodes as [TestNode, TestNode, TestNode];
    await alice.homeAt(a);
    await bob.homeAt(b);
    await carol.homeAt(c);
  }, 120_000);
  afterAll(() => fed?.close(), 60_000);

  it("nodeInfo reports each node's URL and its peers, pinned", async () => {
    const [a, b, c] = fed.nodes;
    const info = await alice.ok<{ url: string; peers: { url: string; address: string }[]; limits: Record<string, number> }>(a!, "neutralService_nodeInfo", []);
    expect(info.url).toBe(a!.url);
    expect(info.peers).toEqual([
      { url: b!.url, address: b!.address },
      { url: c!.url, address: c!.address },
    ]);
    expect(info.limits).toMatchObject({ deliveryWaitMs: DELIVERY_WAIT_MS, retryPeriodSeconds: 259_200 });
  });

  it("any node answers getHome and getKey for an account homed on another, as its account signed them", async () => {
    const [a, , c] = fed.nodes;
    for (const node of [a!, c!]) {
      const home = await alice.ok<{ account: string; node: string }>(node, "neutralService_getHome", [bob.address]);
      expect(home).toMatchObject({ account: bob.address, node: fed.nodes[1]!.address });
      const key = await alice.ok<{ account: string; key: string }>(node, "neutralService_getKey", [bob.address]);
      expect(key).toMatchObject({ account: bob.address, key: bob.signer.xOnlyPublicKey });
    }
    expect(await alice.ok(a!, "neutralService_getHome", [`0x${"ab".repeat(20)}`])).toBeNull();
  });

  it("a message from A's user to B's: each home node signs its receipt; both read it; the reply goes back", async () => {
    const [a, b] = fed.nodes as [TestNode, TestNode];
    const sent = await alice.send(a, bob.address, "c0ffee01");
    expect(sent.status).toBeUndefined(); // delivered within the wait
    expect(receiptSigners(sent)).toEqual({ sender: a.address, receiver: b.address });
    const inbox = await bob.mailbox(b);
    const received = inbox.find((message) => message.signature === sent.signature)!;
    expect(received).toBeDefined();
    expect({ ...received, id: sent.id }).toEqual(sent); // the same message and receipts, under B's own id
    // Each receipt binds its node's copy's position: alice's sent copy at A, bob's received one at B.
    expect(sent.sender_seq).toBe(await positionOf(a, alice, sent.id, "sent"));
    expect(sent.receiver_seq).toBe(await positionOf(b, bob, received.id, "received"));
    expect(await bob.mailbox(a)).toEqual([]); // nothing of bob's on A
    const chat = await alice.ok<{ data: StoredMessage[] }>(a, "neutralService_getChat", [{ chat: bob.address }]);
    expect(chat.data[0]).toEqual(sent);

    const reply = await bob.send(b, alice.address, "beef02");
    expect(receiptSigners(reply)).toEqual({ sender: b.address, receiver: a.address });
    expect((await alice.mailbox(a)).map((message) => message.signature)).toContain(reply.signature);
    expect((await alice.ok<{ data: StoredMessage[] }>(a, "neutralService_getChat", [{ chat: bob.address }])).data.map((m) => m.signature)).toEqual([reply.signature, sent.signature]);
  });

  it("a sender-set end travels with the message: both nodes serve it until then and delete it after; a delivery past its end is refused for good", { timeout: 60_000 }, async () => {
    const [a, b] = fed.nodes as [TestNode, TestNode];
    const timestamp = Date.now();
    const signed = alice.signer.signMessageFor(bob.address, "e0e0e0", timestamp, timestamp + 4000);
    const sent = await alice.ok<StoredMessage>(a, "neutralService_sendMessage", [signed]);
    expect(sent).toMatchObject({ expires: timestamp + 4000 });
    expect(sent.status).toBeUndefined();
    expect(receiptSigners(sent)).toEqual({ sender: a.address, receiver: b.address });
    const received = (await bob.mailbox(b)).find((message) => message.signature === sent.signature);
    expect({ ...received, id: sent.id }).toEqual(sent);
    const holds = async () => [(await alice.mailbox(a, "all")).some((m) => m.signature === sent.signature), (await bob.mailbox(b, "all")).some((m) => m.signature === sent.signature)];
    expect(await holds()).toEqual([true, true]);
    await eventually("both nodes drop the message after its end", holds, (held) => !held[0] && !held[1], 20_000);
    expect(Date.now()).toBeGreaterThanOrEqual(timestamp + 4000);
    // A (or anyone holding A's key) delivering it again now: refused for good, not stored again.
    const { nodeCall } = await import("../../test/federation.js");
    const { fixtureSigner } = await import("@neutral/protocol/testing");
    const relayed = { from: sent.from, to: sent.to, message: sent.message, timestamp: sent.timestamp, expires: sent.expires, signature: sent.signature, sender_receipt: sent.sender_receipt, sender_seq: sent.sender_seq };
    const answer = await nodeCall(fixtureSigner(a.key), b, "neutralService_deliver", [[relayed]]);
    expect(answer.body.result[0].outcomes[0].refused).toMatchObject({ code: -32602, permanent: true });
    expect(answer.body.result[0].outcomes[0].refused.message).toMatch(/expires/);
    expect((await bob.mailbox(b, "all")).some((m) => m.signature === sent.signature)).toBe(false);
  });

  it("a resend through the sender's node answers the stored (delivered) message, and B stores it once", async () => {
    const [a, b] = fed.nodes as [TestNode, TestNode];
    const timestamp = Date.now();
    const first = await alice.send(a, bob.address, "0ddba110", timestamp);
    const again = await alice.send(a, bob.address, "0ddba110", timestamp);
    expect(again).toEqual(first);
    expect((await bob.mailbox(b)).filter((message) => message.signature === first.signature)).toHaveLength(1);
  });

  it("a sender must send through its home node, and needs a home record to write to another node", async () => {
    const [a, b] = fed.nodes as [TestNode, TestNode];
    const elsewhere = await alice.call(b, "neutralService_sendMessage", [alice.signer.signMessageFor(bob.address, "aa")]);
    expect(elsewhere.body.error).toMatchObject({ code: -32002, data: { field: "message.from", home: { node: a.address } } });
    const dave = account(`0x${"d".repeat(63)}1`);
    const homeless = await dave.call(a, "neutralService_sendMessage", [dave.signer.signMessageFor(bob.address, "aa")]);
    expect(homeless.body.error).toMatchObject({ code: -32002, data: { reason: "no home record" } });
    // To an account of its own node, a v1 sender without a record still writes.
    expect((await dave.send(a, alice.address, "aa")).receiver_receipt).toBeDefined();
  });

  it("an import of history at a node that is not the account's home is refused, naming the home", async () => {
    const [a, b] = fed.nodes as [TestNode, TestNode];
    const { fixtureSigner, fixtureStoredMessage } = await import("@neutral/protocol/testing");
    const stored = fixtureStoredMessage(fixtureSigner(a.key), alice.signer.signMessageFor(bob.address, "aa"));
    const message = { id: "1", message: stored.message, from: stored.from, to: stored.to, signature: stored.signature, sender_receipt: stored.senderReceipt, receiver_receipt: stored.receiverReceipt, timestamp: stored.timestamp };
    const elsewhere = await alice.call(b, "neutralService_importMessages", [[message]]);
    expect(elsewhere.body.error).toMatchObject({ code: -32002, data: { home: { node: a.address } } });
    expect((await alice.call(a, "neutralService_importMessages", [[message]])).body.error).toBeUndefined();
  });

  it("a home record naming another node is refused", async () => {
    const [a, b] = fed.nodes as [TestNode, TestNode];
    const answer = await alice.call(a, "neutralService_publishHome", [alice.signer.homeRecord(b.address)]);
    expect(answer.body.error).toMatchObject({ code: -32602, data: { param: "record", path: "/node" } });
  });

  it("moving home: a newer record at another node; the old home hears of it, and new messages go to the new one", async () => {
    const [a, b, c] = fed.nodes as [TestNode, TestNode, TestNode];
    const erin = account(`0x${"e".repeat(63)}1`);
    await erin.homeAt(b, Date.now() - 1000);
    const before = await alice.send(a, erin.address, "01");
    expect(receiptSigners(before).receiver).toBe(b.address);
    await erin.homeAt(c);
    // B learns of the move from C's announcement; A from B's refusal or its own lookup.
    await eventually("B knowing erin moved", () => alice.ok<{ node: string }>(b, "neutralService_getHome", [erin.address]), (home) => home.node === c.address);
    const after = await alice.send(a, erin.address, "02");
    await eventually(
      "the message to reach C",
      () => erin.mailbox(c),
      (inbox) => inbox.some((message) => message.signature === after.signature),
    );
    const settled = await eventually("alice's copy delivered", () => alice.mailbox(a, "sent"), (sent) => sent.find((m) => m.signature === after.signature)?.status === undefined);
    expect(receiptSigners(settled.find((m) => m.signature === after.signature)!).receiver).toBe(c.address);
    expect((await erin.mailbox(b)).map((m) => m.signature)).toEqual([before.signature]);
  }, 60_000);
});

describe("a peer that is down", () => {
  let fed: Federation;
  afterEach(() => fed?.close(), 60_000);

  it("pending while B is down; 200 messages arrive exactly once, in the sender's order, when it is back", async () => {
    const started = await aliceAtABobAtB({ args: ["--delivery-wait-ms", "0"] });
    const { a, b } = started;
    fed = started.fed;
    await b.stop();
    const sent = await sendToBob(a, 200);
    for (const message of sent) {
      expect(message.status).toBe("pending");
      expect(message.receiver_receipt).toBeUndefined();
      expect(receiptSigners(message).sender).toBe(a.address);
    }
    expect((await alice.mailbox(a, "sent")).every((message) => message.status === "pending")).toBe(true);
    await b.start();
    const delivered = await eventually("every copy delivered", () => alice.mailbox(a, "sent"), (copies) => copies.length === 200 && copies.every((m) => m.status === undefined), 60_000);
    for (const message of delivered) expect(receiptSigners(message)).toEqual({ sender: a.address, receiver: b.address });
    const inbox = await bob.mailbox(b);
    expect(inbox.map((message) => message.message)).toEqual(sent.map((message) => message.message));
  }, 180_000);

  it("a recipient no node knows: refused (-32603, try again) while a peer does not answer; stored here (v1) once every peer says it does not know it either", async () => {
    fed = await federation({ count: 2 });
    const [a, b] = fed.nodes as [TestNode, TestNode];
    await startAll(fed.nodes);
    await alice.homeAt(a);
    await b.stop();
    const stranger = account(`0x${"5".repeat(63)}1`);
    const refused = await alice.call(a, "neutralService_sendMessage", [alice.signer.signMessageFor(stranger.address, "77")]);
    expect(refused.body.error).toMatchObject({ code: -32603, data: { reason: "peers unreachable" } });
    await b.start();
    // A's first lookup after B failed waits for B no more (B is asked in the background): the next one finds it back.
    const stored = await eventually(
      "B counted again",
      () => alice.call(a, "neutralService_sendMessage", [alice.signer.signMessageFor(stranger.address, "77")]),
      (answer) => Array.isArray(answer.body?.result),
      20_000,
    ).then((answer) => answer.body.result[0] as StoredMessage);
    expect(receiptSigners(stored)).toEqual({ sender: a.address, receiver: a.address });
    expect((await stranger.mailbox(a)).map((message) => message.signature)).toEqual([stored.signature]);
  }, 120_000);

  it("fails with a reason once the retry period is over", async () => {
    const started = await aliceAtABobAtB({ args: ["--delivery-wait-ms", "0", "--retry-period", "2"] });
    const { a, b } = started;
    fed = started.fed;
    await b.stop();
    const pending = await alice.send(a, bob.address, "5a");
    expect(pending.status).toBe("pending");
    const [failed] = await eventually("the copy failed", () => alice.mailbox(a, "sent"), (copies) => copies[0]?.status === "failed", 30_000);
    expect(failed!.reason).toMatch(new RegExp(`not delivered to the recipient's node ${b.address} within`));
    expect(failed!.reason).toMatch(/last attempt/);
    // B comes back: the failed message stays failed, and is not delivered.
    await b.start();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await bob.mailbox(b)).toEqual([]);
  }, 120_000);

  it("kill -9 of A with a full outbox, then restart: every acknowledged message is delivered exactly once", async () => {
    const started = await aliceAtABobAtB({ args: ["--delivery-wait-ms", "0"], processes: true });
    const { a, b } = started;
    fed = started.fed;
    await b.stop();
    const acknowledged = await sendToBob(a, 50);
    await a.crash();
    await b.start();
    await a.start();
    await eventually("bob has them all", () => bob.mailbox(b), (inbox) => inbox.length >= 50, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 500)); // nothing more comes
    expect((await bob.mailbox(b)).map((message) => message.signature)).toEqual(acknowledged.map((message) => message.signature));
  }, 180_000);

  it("kill -9 of B while batches are arriving: no message lost, none stored twice", async () => {
    const started = await aliceAtABobAtB({ args: ["--delivery-wait-ms", "0"], processes: true });
    const { a, b } = started;
    fed = started.fed;
    await b.stop();
    const count = 1000;
    const acknowledged = await sendToBob(a, count);
    await b.start();
    // Batches of at most 100: crash B once the first ones are in, before the last. The probe is one
    // message, every few ms: reading the whole mailbox every 100 ms once saw all 1,000 arrive first.
    const deadline = Date.now() + 60_000;
    while ((await bob.ok<{ data: StoredMessage[] }>(b, "neutralService_getInbox", [{}, 1])).data.length === 0) {
      if (Date.now() > deadline) throw new Error("no batch reached B in 60 s");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await b.crash();
    const sent = await alice.mailbox(a, "sent");
    expect(sent.filter((message) => message.status === "pending").length, "B was crashed before every batch had been acknowledged").toBeGreaterThan(0);
    await b.start();
    const inbox = await eventually("every message at B", () => bob.mailbox(b), (messages) => messages.length >= count, 120_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await bob.mailbox(b)).map((message) => message.signature)).toEqual(acknowledged.map((message) => message.signature));
    expect(inbox).toHaveLength(count);
    await eventually("every copy delivered", () => alice.mailbox(a, "sent"), (copies) => copies.every((m) => m.status === undefined), 30_000);
  }, 240_000);
});

describe("a node with worker processes", () => {
  let fed: Federation | undefined;
  afterEach(() => fed?.close(), 60_000);

  it("its primary drains the outbox its workers fill, kicked over IPC, and the workers see the receipts", async () => {
    const started = await aliceAtABobAtB({ workers: 2 });
    const { a, b } = started;
    fed = started.fed;
    // Each send is answered by one of A's workers, which waits for the primary's delivery.
    const sent = await sendToBob(a, 20);
    for (const message of sent) expect(receiptSigners(message)).toEqual({ sender: a.address, receiver: b.address });
    expect((await bob.mailbox(b)).map((message) => message.signature)).toEqual(sent.map((message) => message.signature));
    // With B down and up again, the primary's timers retry without any kick.
    await b.stop();
    const pending = await alice.send(a, bob.address, "aa55");
    expect(pending.status).toBe("pending");
    await b.start();
    await eventually("delivered after B came back", () => alice.mailbox(a, "sent"), (copies) => copies.every((m) => m.status === undefined), 60_000);
  }, 180_000);
});
