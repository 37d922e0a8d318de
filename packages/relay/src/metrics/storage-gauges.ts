import { Gauge, type Registry } from "prom-client";
import type { MessageStore, StoreFootprint } from "../storage/store.js";

interface StorageSample extends StoreFootprint {
  outboxMessages: number;
  /** Seconds the oldest message waiting for another node has waited; 0 when none waits. */
  outboxOldestSeconds: number;
}

/**
 * The storage's gauges, read at scrape time: the database's size and message count, and the
 * federation outbox's depth and oldest entry's age. One sample (three small queries, no table
 * scan: MessageStore.footprint, and the outbox grouped by destination over its index) serves every
 * scrape for `cacheMs`, so that scrapers, however many and frequent, cost the database little.
 */
export function registerStorageGauges(registry: Registry, store: Pick<MessageStore, "footprint" | "outboxDestinations">, options: { cacheMs?: number; now?: () => number } = {}): void {
  const cacheMs = options.cacheMs ?? 5000;
  const now = options.now ?? Date.now;
  let cached: { at: number; sample: Promise<StorageSample | undefined> } | undefined;

  async function read(): Promise<StorageSample> {
    const [footprint, destinations] = await Promise.all([store.footprint(), store.outboxDestinations()]);
    let outboxMessages = 0;
    let oldest = Infinity;
    for (const destination of destinations) {
      outboxMessages += destination.count;
      oldest = Math.min(oldest, destination.oldest);
    }
    return { ...footprint, outboxMessages, outboxOldestSeconds: oldest === Infinity ? 0 : Math.max(0, (now() - oldest) / 1000) };
  }
  /** The cached sample; undefined when the database did not answer (the gauges then keep their last values). */
  function sample(): Promise<StorageSample | undefined> {
    const at = now();
    if (!cached || at - cached.at >= cacheMs) cached = { at, sample: read().catch(() => undefined) };
    return cached.sample;
  }
  const gauge = (name: string, help: string, pick: (sample: StorageSample) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const read = await sample();
        if (read) this.set(pick(read));
      },
    });
  gauge("neutral_store_bytes", "Bytes the database takes (SQLite: page_count × page_size of the main file; PostgreSQL: its tables with indexes and TOAST); sampled at most every few seconds", (s) => s.bytes);
  gauge("neutral_store_messages", "Messages stored (SQLite: the span of ids kept, from the lowest to the highest: the retention sweep deletes from the low end, and a message its owners deleted counts until the sweep; PostgreSQL: the planner's estimate); sampled at most every few seconds", (s) => s.messages);
  gauge("neutral_outbox_messages", "Messages waiting in the outbox for another node to take them (federation)", (s) => s.outboxMessages);
  gauge("neutral_outbox_oldest_age_seconds", "How long the oldest message in the outbox has waited; 0 when it is empty", (s) => s.outboxOldestSeconds);
}
