import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { registerStorageGauges } from "./storage-gauges.js";

describe("registerStorageGauges", () => {
  it("reports the footprint and the outbox, from one sample per cacheMs", async () => {
    let now = 1_000_000;
    let reads = 0;
    const registry = new Registry();
    registerStorageGauges(
      registry,
      {
        footprint: async () => (reads++, { bytes: 8192 * 10, messages: 42 }),
        outboxDestinations: async () => [
          { node: "0x01", count: 3, oldest: now - 90_000 },
          { node: "0x02", count: 2, oldest: now - 30_000 },
        ],
      },
      { cacheMs: 5000, now: () => now },
    );
    const text = await registry.metrics();
    expect(text).toContain("neutral_store_bytes 81920");
    expect(text).toContain("neutral_store_messages 42");
    expect(text).toContain("neutral_outbox_messages 5");
    expect(text).toContain("neutral_outbox_oldest_age_seconds 90");
    await registry.metrics();
    expect(reads).toBe(1);
    now += 5000;
    await registry.metrics();
    expect(reads).toBe(2);
  });

  it("reports an empty outbox as 0 s old", async () => {
    const registry = new Registry();
    registerStorageGauges(registry, { footprint: async () => ({ bytes: 1, messages: 0 }), outboxDestinations: async () => [] });
    expect(await registry.metrics()).toContain("neutral_outbox_oldest_age_seconds 0");
  });
});
