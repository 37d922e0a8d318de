// Soak (pnpm test:soak): 10,000 streams of one account against a real relay on loopback. The limit
// itself is tested at the limit in live.test.ts; this shows the node holds up when a client keeps
// opening streams for a long while.
import { afterAll, describe, expect, it } from "vitest";
import { serves } from "../../test/clients.js";
import { subscribe, type Stream } from "../../test/live.js";
import { TEST_KEYS, wallet } from "../../test/wallets.js";
import { startRelay, type RunningRelay } from "../../testing/index.js";

const bob = wallet(TEST_KEYS.bob);

describe("live delivery under a client that keeps subscribing", () => {
  let relay: RunningRelay | undefined;
  const streams: Stream[] = [];
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await relay?.crash();
  });

  it("10,000 streams of one account, 50 opening at a time: each new one ends the account's oldest, the newest 8 stay, and the node serves", { timeout: 180_000 }, async () => {
    relay = await startRelay({ args: ["--max-subscriptions-per-account", "8"] });
    const token = await bob.token({ domain: relay.domain });
    const ended: Promise<unknown>[] = [];
    let open8: Stream[] = [];
    for (let i = 0; i < 10_000; i += 50) {
      const batchOf = await Promise.all(Array.from({ length: 50 }, () => subscribe(relay!.url, token)));
      for (const stream of batchOf) {
        expect(stream.status).toBe(200);
        ended.push(stream.done);
      }
      open8 = [...open8, ...batchOf].slice(-8);
    }
    streams.push(...open8);
    await Promise.race([Promise.all(ended.slice(0, -8)), new Promise((_, reject) => setTimeout(() => reject(new Error("the older streams did not all end")), 60_000))]);
    expect(await serves(relay.url)).toBe(true);
    for (const stream of open8) expect(stream.events.every((event) => event.method !== "neutralService_end")).toBe(true);
  });
});
