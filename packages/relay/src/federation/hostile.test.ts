// Federation against a hostile peer and a dead one (issue 33, findings 2, 3, 6, 7 and 8), on real
// relays on loopback: a peer that replays an account's bundle and home records never becomes its
// home, with the real node up or down; one refused message holds back only its own sender and
// recipient; a dead peer taxes no local request; a peer's delivery costs what it asks of the node;
// a swept message does not come back through a peer.
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from "node:net";
import { hashTypedData, toHex, type Hex } from "@neutral/protocol";
import { fixtureSigner, TEST_KEYS } from "@neutral/protocol/testing";
import { afterEach, describe, expect, it } from "vitest";
import { startHostilePeer, startRelay, type HostilePeer, type RunningRelay } from "../../testing/index.js";
import { account, eventually, federation, freePort, nodeCall, startAll, type Federation, type StoredMessage, type TestNode } from "../../test/federation.js";

const alice = account(TEST_KEYS.alice);
const bob = account(TEST_KEYS.bob);
const carol = account(TEST_KEYS.carol);
const dave = account(TEST_KEYS.mallory); // a fourth account (the test key is called mallory)
/** The hostile peer's node key: a public test key, never a real secret. */
const HOSTILE_KEY = `0x${"6".repeat(64)}` as const;

let fed: Federation | undefined;
let hostile: HostilePeer | undefined;
let relays: RunningRelay[] = [];
let blackHole: TcpServer | undefined;
/** The connections the dead peer accepted (and never answered). */
const swallowed: Socket[] = [];
afterEach(async () => {
  await hostile?.close();
  hostile = undefined;
  await fed?.close();
  fed = undefined;
  await Promise.all(relays.map((relay) => relay.stop()));
  relays = [];
  for (const socket of swallowed.splice(0)) socket.destroy();
  await new Promise<void>((resolve) => (blackHole ? blackHole.close(() => resolve()) : resolve()));
  blackHole = undefined;
}, 60_000);

/** An account's key bundle as `publishKey` takes it (and as any node serves it: public and signed). */
function bundleOf(user: ReturnType<typeof account>, timestamp = Date.now()) {
  const fields = { account: user.signer.address, key: user.signer.xOnlyPublicKey, timestamp };
  return { ...fields, signature: user.signer.signTypedData("KeyBundle", fields) };
}

describe("a hostile peer that replays an account's bundle and home records", () => {
  /** A (the victim's real node) and S (the sender's), both listing the hostile peer H, which S asks and delivers to like any peer. */
  async function setup(): Promise<{ a: TestNode; s: TestNode; h: HostilePeer }> {
    const port = await freePort();
    const h = (hostile = await startHostilePeer({ key: HOSTILE_KEY, port }));
    fed = await federation({ count: 2, args: ["--peer", `${h.url}#${h.address}`] });
    const [a, s] = fed.nodes as [TestNode, TestNode];
    await startAll(fed.nodes);
    await alice.homeAt(s);
    return { a, s, h };
  }

  it("a copy of a bundle never homes its account: to an account with only a bundle, another node sends nothing (-32002), the real node up or down; the hostile peer gets nothing", { timeout: 90_000 }, async () => {
    const { a, s, h } = await setup();
    const victim = carol;
    await victim.ok(a, "neutralService_publishKey", [bundleOf(victim)]);
    h.keys = [await alice.ok(a, "neutralService_getKey", [victim.address])];
    for (const realNode of ["up", "down"] as const) {
      if (realNode === "down") await a.stop();
      const answer = await alice.call(s, "neutralService_sendMessage", [alice.signer.signMessageFor(victim.address, "c0ffee")]);
      expect(answer.body.error, `the real node ${realNode}`).toMatchObject({ code: -32002, data: { field: "message.to", reason: "recipient has no home record" } });
    }
    expect(h.delivered).toEqual([]);
    expect(h.calls).not.toContain("neutralService_deliver");
    // Its own node's senders still reach it there (v1: a bundle homes its account where it was published).
    await a.start();
    await dave.ok(a, "neutralService_publishKey", [bundleOf(dave)]);
    const local = await dave.send(a, victim.address, "0a");
    expect(local.receiver_receipt).toBeDefined();
    expect((await victim.mailbox(a)).map((message) => message.message)).toEqual(["0a"]);
  });

  it("with a home record, mail goes to the node it names: delivered with the real node up, pending while it is down (never to the replaying peer), delivered when it is back", { timeout: 90_000 }, async () => {
    const { a, s, h } = await setup();
    const victim = carol;
    // Once homed at H (an older record it signed), now homed at A.
    const older = victim.signer.homeRecord(h.address, Date.now() - 60_000);
    await victim.homeAt(a);
    h.homes = [older, await alice.ok(a, "neutralService_getHome", [victim.address])];
    h.keys = [await alice.ok(a, "neutralService_getKey", [victim.address])];
    const delivered = await alice.send(s, victim.address, "01");
    expect(delivered.status).toBeUndefined();
    await a.stop();
    const pending = await alice.send(s, victim.address, "02");
    expect(pending.status).toBe("pending");
    expect(h.delivered).toEqual([]);
    await a.start();
    await eventually(
      "the pending message delivered once A is back",
      () => victim.mailbox(a),
      (inbox) => inbox.length === 2,
      30_000,
    );
    expect((await victim.mailbox(a)).map((message) => message.message)).toEqual(["01", "02"]);
    expect(h.delivered).toEqual([]);
  });
});

describe("one refused message", () => {
  it("holds back only its own sender and recipient: a peer's other mail is delivered at once while it waits", { timeout: 120_000 }, async () => {
    fed = await federation({ count: 2 });
    const [a, b] = fed.nodes as [TestNode, TestNode];
    await startAll(fed.nodes);
    for (const user of [alice, dave]) await user.homeAt(a);
    for (const user of [bob, carol]) await user.homeAt(b);
    // Bob takes messages from strangers only into his requests folder, 5 per sender per hour.
    const policy = { account: bob.signer.address, mode: "allowed-only" as const, timestamp: Date.now() };
    await bob.ok(b, "neutralService_setConsent", [[], { ...policy, signature: bob.signer.signTypedData("ConsentPolicy", policy) }]);
    // Alice, a stranger to him, sends 6: the 6th is over her request quota for his folder.
    for (let i = 0; i < 6; i++) await alice.send(a, bob.address, `a${i}`);
    // Then Dave writes to Carol, on the same peer: delivered at once, not after Alice's 6th.
    const started = Date.now();
    const honest = [];
    for (let i = 0; i < 20; i++) honest.push(await dave.send(a, carol.address, `d0${String(i).padStart(2, "0")}`));
    await eventually(
      "Dave's 20 messages delivered",
      () => dave.mailbox(a, "sent"),
      (sent) => sent.filter((message) => message.to === carol.address && message.status === undefined).length === 20,
      10_000,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await carol.mailbox(b)).map((message) => message.message)).toEqual(honest.map((message) => message.message));
    // Alice's first 5 are in Bob's requests folder, in order; her 6th still waits, pending.
    const requests = await bob.ok<{ data: StoredMessage[] }>(b, "neutralService_getInbox", [{ folder: "requests" }, 100, "0"]);
    expect(requests.data.map((message) => message.message)).toEqual(["a0", "a1", "a2", "a3", "a4"]);
    const sent = (await alice.mailbox(a, "sent")).filter((message) => message.to === bob.address);
    expect(sent.map((message) => message.status ?? "delivered")).toEqual(["delivered", "delivered", "delivered", "delivered", "delivered", "pending"]);
  });
});

describe("a dead peer", () => {
  it("taxes no request about this node's own accounts (a bundle here and no record), and a lookup about an unknown account waits for it once per TTL", { timeout: 90_000 }, async () => {
    // A peer that accepts connections and never answers.
    blackHole = createTcpServer((socket) => void swallowed.push(socket));
    await new Promise<void>((resolve) => blackHole!.listen(0, "127.0.0.1", resolve));
    const port = (blackHole.address() as { port: number }).port;
    const relay = await startRelay({ args: ["--peer", `http://127.0.0.1:${port}#0x${"de".repeat(20)}`] });
    relays.push(relay);
    const node = { url: relay.url, port: Number(new URL(relay.url).port) } as TestNode;
    for (const user of [alice, bob]) await user.ok(node, "neutralService_publishKey", [bundleOf(user)]);
    const timed = async <T>(work: () => Promise<T>) => {
      const started = performance.now();
      await work();
      return performance.now() - started;
    };
    // A request that waits for the peer takes its lookup's 2 s timer at least: none of these may.
    // (Not a speed target: a few ms on a quiet machine, over 1 s seen in CI beside other tests.)
    const WAITED_MS = 1900;
    expect(await timed(() => alice.send(node, bob.address, "aa"))).toBeLessThan(WAITED_MS);
    expect(await timed(() => alice.ok(node, "neutralService_getKey", [bob.address]))).toBeLessThan(WAITED_MS);
    expect(await timed(() => bob.send(node, alice.address, "bb"))).toBeLessThan(WAITED_MS);
    // An account nobody here knows: the first lookup waits for the dead peer (and is refused: it
    // might live there); the next, about another account, does not wait for it again.
    const first = await timed(() => alice.call(node, "neutralService_getKey", [carol.address]));
    expect(first).toBeGreaterThan(1500);
    expect(await timed(() => alice.call(node, "neutralService_getKey", [dave.address]))).toBeLessThan(WAITED_MS);
    const unknown = await alice.call(node, "neutralService_sendMessage", [alice.signer.signMessageFor(dave.address, "cc")]);
    expect(unknown.body.error).toMatchObject({ code: -32603, data: { reason: "peers unreachable" } });
  });
});

/** A delivery as node `origin` (a node key) sends it: `count` messages to `to`, each from a new account homed at that node, with their home records. */
function deliveryFrom(origin: ReturnType<typeof fixtureSigner>, to: string, count: number, timestamp = Date.now()) {
  const senders = Array.from({ length: count }, () => fixtureSigner(`0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")}`));
  const messages = senders.map((sender) => {
    const signed = sender.signMessageFor(to, "ab", timestamp);
    const digest = toHex(hashTypedData({ primaryType: "Message", message: { from: signed.from, to: to as Hex, message: `0x${signed.message}`, timestamp: signed.timestamp } }));
    return { ...signed, sender_receipt: origin.signTypedData("Receipt", { message: digest, role: "sender" }) };
  });
  return { messages, homes: senders.map((sender) => sender.homeRecord(origin.address)) };
}

describe("a peer's delivery", () => {
  it("costs the peer's budget per message and record it carries (--peer-rate-limit): past it, 429 with Retry-After, and nothing stored", { timeout: 90_000 }, async () => {
    fed = await federation({ count: 2, argsOf: (i) => (i === 1 ? ["--peer-rate-limit", "1"] : []) });
    const [a, b] = fed.nodes as [TestNode, TestNode];
    await startAll(fed.nodes);
    await bob.homeAt(b);
    const info = await bob.ok<{ limits: { peerRateLimit?: number } }>(b, "neutralService_nodeInfo", []);
    expect(info.limits.peerRateLimit).toBe(1);
    // 100 messages from 100 accounts homed at A, each with its home record: 1 + 200 + 100 = 301
    // units a call, against a bucket of 602 (a full delivery always fits twice) refilled 1 a second.
    // A call is admitted while the bucket holds a unit and charged in full, into debt if need be:
    // the third is admitted only if the first two took over a second (a loaded machine), and then
    // leaves a debt of ~300 units that refuses the fourth.
    const nodeA = fixtureSigner(a.key);
    const { messages, homes } = deliveryFrom(nodeA, bob.address, 100);
    const answers = [];
    for (let i = 0; i < 4 && answers.at(-1)?.status !== 429; i++) answers.push(await nodeCall(nodeA, b, "neutralService_deliver", [messages, homes]));
    expect(answers.slice(0, 2).map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers[0]!.body.result[0].outcomes.every((outcome: { receiver_receipt?: string }) => typeof outcome.receiver_receipt === "string")).toBe(true);
    const refused = answers.at(-1)!;
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(refused.body.error).toMatchObject({ code: -32029 });
    // The first stored them; the next answered the same receipts; the refused one did nothing.
    expect((await bob.mailbox(b)).length).toBe(100);
    // The peer's other calls wait too, its users' own requests do not.
    expect((await nodeCall(nodeA, b, "neutralService_lookup", [[bob.address]])).status).toBe(429);
    expect((await bob.call(b, "neutralService_getInbox", [{}, 1])).status).toBe(200);
  });

  it("older than the retry period and the clock skew: refused for good (-32004); a swept message delivered again is answered its receipt and not stored again", { timeout: 90_000 }, async () => {
    fed = await federation({ count: 2, argsOf: (i) => (i === 1 ? ["--retry-period", "60", "--clock-skew-ms", "2000", "--retention", "2s"] : []) });
    const [a, b] = fed.nodes as [TestNode, TestNode];
    await startAll(fed.nodes);
    await bob.homeAt(b);
    const nodeA = fixtureSigner(a.key);
    const old = deliveryFrom(nodeA, bob.address, 1, Date.now() - 63_000);
    const refused = await nodeCall(nodeA, b, "neutralService_deliver", [old.messages, old.homes]);
    expect(refused.body.result[0].outcomes[0]).toMatchObject({ refused: { code: -32004, permanent: true } });

    const fresh = deliveryFrom(nodeA, bob.address, 1);
    const first = await nodeCall(nodeA, b, "neutralService_deliver", [fresh.messages, fresh.homes]);
    const outcome = first.body.result[0].outcomes[0] as { receiver_receipt: string; receiver_seq: number };
    expect(outcome).toEqual({ receiver_receipt: expect.stringMatching(/^0x[0-9a-f]{130}$/), receiver_seq: expect.any(Number) });
    // Retention 2 s: once swept, the same message again is answered as stored, and stays gone.
    await eventually("the message swept", () => bob.mailbox(b), (inbox) => inbox.length === 0, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the sweep's pass done (messages row gone)
    const again = await nodeCall(nodeA, b, "neutralService_deliver", [fresh.messages, fresh.homes]);
    // Its copy is gone: the receipt is signed again over the position the copy took, the same one.
    expect(again.body.result[0].outcomes[0]).toEqual(outcome);
    expect(await bob.mailbox(b)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 3000)); // past its retention, were it stored again
    expect(await bob.mailbox(b)).toEqual([]);
  });
});
