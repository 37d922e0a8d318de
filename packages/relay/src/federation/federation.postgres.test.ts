// A node on PostgreSQL with two replicas is one node to its peers: both take sends for other
// nodes, one of them drains the shared outbox (the delivery lease), and every message reaches the
// other node once. Real processes, a real PostgreSQL, a proxy in front of the other node counting
// what arrives.
import { fixtureSigner, TEST_KEYS } from "@neutral/protocol/testing";
import { afterEach, describe, expect, it } from "vitest";
import { account, eventually, FAST_RETRIES, freePort, nodeProxy, type NodeProxy, type StoredMessage, type TestNode } from "../../test/federation.js";
import { createTestSchema, type TestSchema } from "../../test/postgres.js";
import { startRelay, tempDir, type RunningRelay } from "../../testing/index.js";

const alice = account(TEST_KEYS.alice);
const bob = account(TEST_KEYS.bob);
const nodeA = fixtureSigner(TEST_KEYS.node);
const nodeB = fixtureSigner(TEST_KEYS.peer);

/** A running relay as the `account` helpers take it. */
const asNode = (name: string, relay: RunningRelay): TestNode & { relay: RunningRelay } => ({
  name,
  key: TEST_KEYS.node,
  address: relay.address,
  port: Number(new URL(relay.url).port),
  domain: new URL(relay.url).host,
  url: relay.url,
  dataDir: relay.dataDir,
  relay,
  start: () => Promise.resolve(relay),
  stop: async () => void (await relay.stop()),
  crash: () => relay.crash(),
});

describe("a PostgreSQL node with two replicas, federating", () => {
  let schema: TestSchema | undefined;
  let proxy: NodeProxy | undefined;
  const running: RunningRelay[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((relay) => relay.crash()));
    await proxy?.close();
    await schema?.drop();
  }, 60_000);

  it("drains its outbox once: 100 messages sent through both replicas reach the other node exactly once, in order", async () => {
    schema = await createTestSchema();
    const bPort = await freePort();
    const bDir = tempDir("neutral-fed-b-");
    proxy = await nodeProxy(() => `http://127.0.0.1:${bPort}`);
    const replicaArgs = ["--node-key", TEST_KEYS.node, "--peer", `${proxy.url}#${nodeB.address}`, ...FAST_RETRIES, "--delivery-wait-ms", "0"];
    const env = { NEUTRAL_DATABASE_URL: schema.url };
    const first = await startRelay({ args: replicaArgs, env });
    running.push(first);
    const second = await startRelay({ args: replicaArgs, env });
    running.push(second);
    const replicas = [asNode("A1", first), asNode("A2", second)];

    const startB = async () => {
      const relay = await startRelay({ dataDir: bDir, args: ["--port", String(bPort), "--node-key", TEST_KEYS.peer, "--peer", `${first.url}#${nodeA.address}`, ...FAST_RETRIES] });
      running.push(relay);
      return asNode("B", relay);
    };
    const firstB = await startB();
    await alice.homeAt(replicas[0]!);
    await bob.homeAt(firstB);
    await firstB.stop();
    running.splice(running.indexOf(firstB.relay), 1);

    const sent: StoredMessage[] = [];
    for (let i = 0; i < 100; i++) sent.push(await alice.send(replicas[i % 2]!, bob.address, i.toString(16).padStart(4, "0")));
    expect(sent.every((message) => message.status === "pending")).toBe(true);
    const b = await startB();

    const inbox = await eventually("bob to have all 100", () => bob.mailbox(b), (messages) => messages.length >= 100, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // a second drain would have come by now
    expect((await bob.mailbox(b)).map((message) => message.signature)).toEqual(sent.map((message) => message.signature));
    expect(inbox).toHaveLength(100);
    // What B answered through the proxy: each message delivered once, not once per replica.
    const delivered = proxy.requests
      .filter((request) => request.method === "neutralService_deliver" && request.status === 200)
      .flatMap((request) => request.params.messages as { signature: string }[]);
    expect(delivered.map((message) => message.signature)).toEqual(sent.map((message) => message.signature));
    for (const replica of replicas) {
      const copies = await eventually(`${replica.name}'s copies delivered`, () => alice.mailbox(replica, "sent"), (messages) => messages.every((m) => m.status === undefined), 30_000);
      expect(copies).toHaveLength(100);
    }
  }, 180_000);
});
