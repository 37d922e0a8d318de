// The federation's metrics on two real nodes: sends by route on each side, and the outbox of a
// node whose peer is down (its depth and its oldest message's age).
import { TEST_KEYS } from "@neutral/protocol/testing";
import { afterAll, describe, expect, it } from "vitest";
import { account, eventually, federation, startAll, type Federation, type TestNode } from "../../test/federation.js";

const alice = account(TEST_KEYS.alice);
const bob = account(TEST_KEYS.bob);

/** The samples of a node's --metrics-port listener, unlabelled or as `name{label="value"}`. */
async function samples(node: TestNode): Promise<Map<string, number>> {
  const url = node.relay?.logs.find((log) => log.msg === "metrics listening")?.url;
  if (typeof url !== "string") throw new Error(`node ${node.name} has no metrics listener`);
  const text = await (await fetch(url)).text();
  return new Map(
    text
      .split("\n")
      .filter((line) => line !== "" && !line.startsWith("#"))
      .map((line) => [line.slice(0, line.lastIndexOf(" ")), Number(line.slice(line.lastIndexOf(" ") + 1))]),
  );
}

describe("federation metrics", () => {
  let fed: Federation | undefined;
  afterAll(() => fed?.close(), 60_000);

  it(
    "counts an outbound send at the sender's node and an inbound one at the recipient's; a peer down fills the outbox, and its age grows",
    async () => {
      fed = await federation({ count: 2, args: ["--metrics-port", "0"] });
      const [a, b] = fed.nodes as [TestNode, TestNode];
      await startAll(fed.nodes);
      await alice.homeAt(a);
      await bob.homeAt(b);

      const delivered = await alice.send(a, bob.address, "c0ffee01");
      expect(delivered.status).toBeUndefined(); // B's receipt came within the wait
      expect((await samples(b)).get('neutral_sends_total{route="inbound"}')).toBe(1);

      await b.stop();
      const pending = await alice.send(a, bob.address, "c0ffee02");
      expect(pending.status).toBe("pending");
      // The storage gauges are sampled at most every 5 s: wait for a fresh sample.
      const atA = await eventually("A's outbox holds the pending message", () => samples(a), (s) => s.get("neutral_outbox_messages") === 1, 15_000);
      expect(atA.get('neutral_sends_total{route="outbound"}')).toBe(2);
      expect(atA.get('neutral_sends_total{route="local"}')).toBe(0);
      expect(atA.get("neutral_outbox_oldest_age_seconds")).toBeGreaterThan(0);
      expect(atA.get("neutral_store_messages")).toBe(2);
    },
    60_000,
  );
});
