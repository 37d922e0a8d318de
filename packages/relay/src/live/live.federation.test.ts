// Live delivery with federation: a message delivered from another node appears live to its
// recipient, and a sender's pending message turning delivered (or failed) arrives as a status event.
import { TEST_KEYS } from "@neutral/protocol/testing";
import { afterEach, describe, expect, it } from "vitest";
import { account, federation, startAll, type Federation, type TestNode } from "../../test/federation.js";
import { subscribe, type LiveEvent, type Stream } from "../../test/live.js";

const alice = account(TEST_KEYS.alice);
const bob = account(TEST_KEYS.bob);
const caughtUp = (events: LiveEvent[]) => events.some((event) => event.method === "neutralService_caughtUp");
const tokenAt = (who: typeof alice, node: TestNode) => who.signer.bearerToken({ domain: node.domain, lifetimeMs: 3_600_000 }).token;

describe("live delivery across nodes", () => {
  let fed: Federation | undefined;
  let streams: Stream[] = [];
  afterEach(async () => {
    for (const stream of streams) stream.close();
    streams = [];
    await fed?.close();
    fed = undefined;
  }, 60_000);

  it("a message delivered from another node reaches its recipient's stream; the sender's pending copy turns delivered as a status event; one undelivered past the retry period, failed", { timeout: 120_000 }, async () => {
    // A retry period B's restart fits in after a pending send's whole wait (B down: 3 s), and a
    // failure the test can wait for.
    fed = await federation({ count: 2, args: ["--retry-period", "15", "--delivery-wait-ms", "3000"] });
    const [a, b] = fed.nodes as [TestNode, TestNode];
    await startAll(fed.nodes);
    await alice.homeAt(a);
    await bob.homeAt(b);

    const bobs = await subscribe(b.url, tokenAt(bob, b));
    const alicesSent = await subscribe(a.url, tokenAt(alice, a), { filter: { direction: "sent" } });
    streams.push(bobs, alicesSent);
    await Promise.all([bobs.until(caughtUp), alicesSent.until(caughtUp)]);

    const statusOf = (id: string) => (event: LiveEvent) => event.method === "neutralService_status" && (event.params.message as { id: string }).id === id;

    // B up: delivered within the wait; bob's node stores it and his stream has it.
    const first = await alice.send(a, bob.address, "c0ffee01");
    expect(first.status).toBeUndefined();
    await bobs.until((events) => events.some((event) => event.method === "neutralService_message"));
    const delivered = bobs.events.find((event) => event.method === "neutralService_message")!;
    expect(delivered.params.message).toMatchObject({ from: alice.address, to: bob.address, message: "c0ffee01", receiver_receipt: first.receiver_receipt });

    // The stream sent the first message's copy as it was stored (pending), then its status.
    await alicesSent.until((events) => events.some(statusOf(first.id)));
    expect(alicesSent.events.find((event) => event.id === first.id)!.params.message).toMatchObject({ status: "pending" });

    // B down: the copy is pending (the stream sends it so), then turns delivered when B is back.
    await b.stop();
    const second = await alice.send(a, bob.address, "c0ffee02");
    expect(second.status).toBe("pending");
    await alicesSent.until((events) => events.some((event) => event.id === second.id));
    expect(alicesSent.events.find((event) => event.id === second.id)!.params.message).toMatchObject({ status: "pending" });
    await b.start();
    await alicesSent.until((events) => events.some(statusOf(second.id)), 60_000);
    const status = alicesSent.events.find(statusOf(second.id))!;
    expect(status.id).toBeUndefined(); // not a resume point
    expect(status.params).toMatchObject({ status: "delivered", message: { id: second.id, receiver_receipt: expect.stringMatching(/^0x/) } });
    expect((status.params.message as Record<string, unknown>).status).toBeUndefined();

    // B down past the retry period: the copy fails, and the stream says so.
    await b.stop();
    const third = await alice.send(a, bob.address, "c0ffee03");
    expect(third.status).toBe("pending");
    await alicesSent.until((events) => events.some(statusOf(third.id)), 60_000);
    expect(alicesSent.events.find(statusOf(third.id))!.params).toMatchObject({ status: "failed", message: { id: third.id, status: "failed", reason: expect.any(String) } });
  });
});
