// Federation against dishonest nodes and hostile requests, on real relays: a node that is not a
// peer cannot deliver or look up; a peer cannot inject a message "from" an account homed elsewhere;
// a delivery tampered with on the way is refused, and so is a forged receipt on the way back; a
// recipient the other node does not host fails with its refusal; a peer's address, once pinned,
// never changes.
import { fixtureSigner, TEST_KEYS } from "@neutral/protocol/testing";
import { afterEach, describe, expect, it } from "vitest";
import { account, eventually, federation, nodeCall, nodeProxy, startAll, type Federation, type NodeProxy, type StoredMessage } from "../../test/federation.js";

const alice = account(TEST_KEYS.alice);
const bob = account(TEST_KEYS.bob);
/** A node key no federation here lists. */
const STRANGER_KEY = `0x${"7".repeat(64)}` as const;

let fed: Federation | undefined;
let proxy: NodeProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await fed?.close();
  fed = undefined;
}, 60_000);

/** What a peer sends for `message` (from its sender's copy) as `neutralService_deliver` params. */
const relayed = (message: StoredMessage) => ({
  from: message.from,
  to: message.to,
  message: message.message,
  timestamp: message.timestamp,
  signature: message.signature,
  sender_receipt: message.sender_receipt,
});

describe("node-to-node requests", () => {
  it("from a node that is not a peer: refused (403), nothing stored; malformed or misdirected signatures: 401 with a reason", async () => {
    fed = await federation({ count: 2 });
    const [a, b] = fed.nodes as [NonNullable<typeof fed>["nodes"][0], NonNullable<typeof fed>["nodes"][0]];
    await startAll(fed.nodes);
    await alice.homeAt(a);
    await bob.homeAt(b);
    const message = await alice.send(a, bob.address, "c0de");
    const stranger = fixtureSigner(STRANGER_KEY);
    const homes = [alice.signer.homeRecord(a.address, Date.now() - 60_000)];
    const answer = await nodeCall(stranger, b, "neutralService_deliver", [[relayed(message)], homes]);
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatchObject({ code: -32002, data: { reason: "not a peer" } });
    const lookup = await nodeCall(stranger, b, "neutralService_lookup", [[bob.address]]);
    expect(lookup.status).toBe(403);

    // A's own key, but signed for another node, for another method, long ago, or by someone else.
    const nodeA = fixtureSigner(a.key);
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_lookup", params: [[bob.address]] });
    const cases: [string, string, RegExp][] = [
      ["another destination", nodeA.nodeAuthorization(a.address, "neutralService_lookup", body), /signed for another node/],
      ["another method", nodeA.nodeAuthorization(b.address, "neutralService_deliver", body), /signed method is not the request's/],
      ["an old timestamp", nodeA.nodeAuthorization(b.address, "neutralService_lookup", body, Date.now() - 3_600_000), /outside the clock window/],
      ["a signature by another key", nodeA.nodeAuthorization(b.address, "neutralService_lookup", body).replace(`origin="${a.address}"`, `origin="${stranger.address}"`), /does not recover origin/],
      ["a malformed header", "NeutralNode origin=nope", /malformed NeutralNode authorization/],
    ];
    const { post } = await import("../../testing/index.js");
    for (const [what, authorization, reason] of cases) {
      const refused = await post(b.url, body, undefined, { authorization });
      expect(refused.status, what).toBe(401);
      expect(refused.body.error.data.reason, what).toMatch(reason);
    }
    // A user's bearer token does not open node-to-node methods, nor a node's signature the users'.
    const asUser = await bob.call(b, "neutralService_lookup", [[bob.address]]);
    expect(asUser.body.error).toMatchObject({ code: -32001 });
    const userMethod = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_getInbox", params: [{}] });
    const asNode = await post(b.url, userMethod, undefined, { authorization: nodeA.nodeAuthorization(b.address, "neutralService_getInbox", userMethod) });
    expect(asNode.status).toBe(401);
    expect((await bob.mailbox(b)).map((m) => m.signature)).toEqual([message.signature]);
  }, 120_000);

  it("a peer that is not the sender's home cannot inject a message from that sender", async () => {
    fed = await federation({ count: 3 });
    const [a, b, c] = fed.nodes as [NonNullable<typeof fed>["nodes"][0], NonNullable<typeof fed>["nodes"][0], NonNullable<typeof fed>["nodes"][0]];
    await startAll(fed.nodes);
    await alice.homeAt(a);
    await bob.homeAt(b);
    // C, a peer of B, relays a message alice really signed, with its own sender receipt.
    const nodeC = fixtureSigner(c.key);
    const signed = alice.signer.signMessageFor(bob.address, "feed");
    const forged = {
      ...signed,
      sender_receipt: nodeC.signTypedData("Receipt", {
        message: `0x${Buffer.from((await import("../crypto/eip712.js")).messageDigest(signed)).toString("hex")}`,
        role: "sender",
      }),
    };
    const claims = [[], [alice.signer.homeRecord(a.address)], [{ ...alice.signer.homeRecord(a.address), node: c.address }]];
    for (const homes of claims) {
      const answer = await nodeCall(nodeC, b, "neutralService_deliver", [[forged], homes]);
      expect(answer.status).toBe(200);
      const [outcome] = answer.body.result[0].outcomes;
      expect(outcome.refused).toMatchObject({ code: -32002, permanent: true });
      expect(outcome.refused.message).toMatch(/homed at|no home record/);
    }
    // Its own receipt on a message from one of its own accounts is fine; on another node's, refused.
    const withAsReceipt = await alice.send(a, bob.address, "beef");
    const replayed = await nodeCall(nodeC, b, "neutralService_deliver", [[relayed(withAsReceipt)]]);
    expect(replayed.body.result[0].outcomes[0].refused).toMatchObject({ code: -32003, permanent: true });
    expect((await bob.mailbox(b)).map((m) => m.message)).toEqual(["beef"]);
  }, 120_000);

  it("a delivery tampered with on the way is refused whole; a forged receipt on the way back is not accepted; both arrive once the tampering stops", async () => {
    const target: { url: string } = { url: "" };
    proxy = await nodeProxy(() => target.url);
    const through = proxy;
    // A reaches B through the proxy; B reaches A directly.
    fed = await federation({ count: 2, args: ["--delivery-wait-ms", "300"], peerUrl: (from) => (from === 0 ? through.url : undefined) });
    const [a, b] = fed.nodes as [NonNullable<typeof fed>["nodes"][0], NonNullable<typeof fed>["nodes"][0]];
    target.url = b.url;
    await startAll(fed.nodes);
    await alice.homeAt(a);
    await bob.homeAt(b);

    // The body changed in transit: B refuses the request (its signature covers the body).
    through.rewriteRequest = (body) => body.replace(/"message":"([0-9a-f])/, (_, first: string) => `"message":"${first === "0" ? "1" : "0"}`);
    const first = await alice.send(a, bob.address, "0123");
    expect(first.status).toBe("pending");
    await eventually("a refused attempt", async () => through.requests.filter((r) => r.method === "neutralService_deliver").length, (n) => n >= 2, 30_000);
    expect(await bob.mailbox(b)).toEqual([]);

    // The answer's receipt replaced by one B did not sign: A keeps the message pending.
    through.rewriteRequest = undefined;
    const impostor = fixtureSigner(STRANGER_KEY);
    through.rewriteAnswer = (text) => text.replace(/"receiver_receipt":"0x[0-9a-f]{130}"/g, `"receiver_receipt":"${impostor.signTypedData("Receipt", { message: `0x${"00".repeat(32)}`, role: "receiver" })}"`);
    await eventually("B to store it (the request was honest)", () => bob.mailbox(b), (inbox) => inbox.length === 1, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const [copy] = await alice.mailbox(a, "sent");
    expect(copy!.status).toBe("pending");

    // Honest again: delivered, with B's own receipt; B stored it once.
    through.rewriteAnswer = undefined;
    const [delivered] = await eventually("delivered", () => alice.mailbox(a, "sent"), (copies) => copies[0]?.status === undefined, 30_000);
    expect(delivered!.receiver_receipt).toBe((await bob.mailbox(b))[0]!.receiver_receipt);
    expect(await bob.mailbox(b)).toHaveLength(1);
  }, 120_000);

  it("a recipient the other node does not host: refused for good, and the sender's copy fails with that reason", async () => {
    fed = await federation({ count: 3, args: ["--delivery-wait-ms", "2000"] });
    const [a, b, c] = fed.nodes as [NonNullable<typeof fed>["nodes"][0], NonNullable<typeof fed>["nodes"][0], NonNullable<typeof fed>["nodes"][0]];
    await startAll(fed.nodes);
    await alice.homeAt(a);
    // dave signed a record naming B, but never published it there: C tells A of it.
    const dave = account(`0x${"d".repeat(63)}2`);
    const record = dave.signer.homeRecord(b.address);
    const told = await nodeCall(fixtureSigner(c.key), a, "neutralService_lookup", [[], [record]]);
    expect(told.status).toBe(200);
    expect(await alice.ok(a, "neutralService_getHome", [dave.address])).toMatchObject({ node: b.address });
    const sent = await alice.send(a, dave.address, "abcd");
    const failed = sent.status === "failed" ? sent : (await eventually("failed", () => alice.mailbox(a, "sent"), (copies) => copies[0]?.status === "failed"))[0]!;
    expect(failed.status).toBe("failed");
    expect(failed.reason).toMatch(/refused by the recipient's node: .*not homed at this node/);
  }, 120_000);
});

describe("a recipient that moved", () => {
  it("a node that missed the move delivers to the old home, which refuses with the new record; the message goes on to the new home", async () => {
    // C's calls to A go through a proxy that lets nothing through: A misses C's announcement.
    const blocked: { url: string } = { url: "http://127.0.0.1:1" };
    proxy = await nodeProxy(() => blocked.url);
    const cToA = proxy;
    fed = await federation({ count: 3, peerUrl: (from, to) => (from === 2 && to === 0 ? cToA.url : undefined) });
    const [a, b, c] = fed.nodes as [NonNullable<typeof fed>["nodes"][0], NonNullable<typeof fed>["nodes"][0], NonNullable<typeof fed>["nodes"][0]];
    await startAll(fed.nodes);
    await alice.homeAt(a);
    const erin = account(`0x${"e".repeat(63)}2`);
    await erin.homeAt(b, Date.now() - 1000);
    const before = await alice.send(a, erin.address, "01"); // A now knows (and caches) erin at B
    expect(before.receiver_receipt).toBeDefined();
    await erin.homeAt(c);
    await eventually("B knowing erin moved", () => alice.ok<{ node: string }>(b, "neutralService_getHome", [erin.address]), (home) => home.node === c.address);
    expect(await alice.ok(a, "neutralService_getHome", [erin.address])).toMatchObject({ node: b.address }); // A missed it
    const sent = await alice.send(a, erin.address, "02");
    const [, moved] = await eventually("the copy delivered", () => alice.mailbox(a, "sent"), (copies) => copies[1]?.status === undefined && copies[1]?.receiver_receipt !== undefined, 30_000);
    expect(moved!.signature).toBe(sent.signature);
    expect((await erin.mailbox(c)).map((message) => message.signature)).toEqual([sent.signature]);
    expect((await erin.mailbox(b)).map((message) => message.signature)).toEqual([before.signature]);
    expect(await alice.ok(a, "neutralService_getHome", [erin.address])).toMatchObject({ node: c.address }); // learned from B's refusal
  }, 120_000);
});

describe("peer addresses", () => {
  it("an unpinned peer is pinned at first contact; when it later signs with another key it is not a peer any more", async () => {
    fed = await federation({ count: 2, pinned: () => false, args: ["--delivery-wait-ms", "300"] });
    const [a, b] = fed.nodes as [NonNullable<typeof fed>["nodes"][0], NonNullable<typeof fed>["nodes"][0]];
    await startAll(fed.nodes);
    await alice.homeAt(a);
    await bob.homeAt(b);
    const pinned = (node: typeof a) =>
      eventually(
        `${node.name} pinning its peer`,
        () => alice.ok<{ peers: { url: string; address?: string }[] }>(node, "neutralService_nodeInfo", []),
        (value) => value.peers[0]?.address !== undefined,
      );
    expect((await pinned(a)).peers).toEqual([{ url: b.url, address: b.address }]);
    expect((await pinned(b)).peers).toEqual([{ url: a.url, address: a.address }]);
    // Delivered: at once on a quiet machine, or soon after the 300 ms wait on a loaded one.
    const first = await alice.send(a, bob.address, "01");
    await eventually("the first message delivered", () => alice.mailbox(a, "sent"), (sent) => sent.some((message) => message.id === first.id && message.receiver_receipt !== undefined), 15_000);

    // B comes back with another key on the same URL: A keeps the first address and refuses the new one.
    await b.stop();
    b.key = STRANGER_KEY;
    await b.start();
    const pending = await alice.send(a, bob.address, "02");
    expect(pending.status).toBe("pending");
    const changed = fixtureSigner(STRANGER_KEY);
    const answer = await nodeCall(changed, a, "neutralService_lookup", [[alice.address]]);
    expect(answer.status).toBe(403);
    // The log line may reach the test a moment after the answer.
    await eventually(
      "A's log of the refusal",
      async () => a.relay!.logs.some((line) => line.msg === "refused a node-to-node request from a node that is not a peer" && line.origin === changed.address),
      (logged) => logged,
      5_000,
    );
    expect((await alice.ok<{ peers: { address?: string }[] }>(a, "neutralService_nodeInfo", [])).peers[0]!.address).toBe(fixtureSigner(TEST_KEYS.peer).address);
  }, 120_000);
});
