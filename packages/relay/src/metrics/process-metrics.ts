// What a process of the node counts, assembled. Loaded (with prom-client, ~4 MB per process) only
// when the operator asks for metrics: createNode and the primary import this module dynamically.
import { collectDefaultMetrics, Registry } from "prom-client";
import type { MetricsConfig } from "../config.js";
import type { Logger } from "../log.js";
import type { MessageStore } from "../storage/store.js";
import { createMetricsListener, type MetricsListener, type Scrape } from "./endpoint.js";
import { createRequestMetrics, type RequestMetrics } from "./request-metrics.js";
import { registerStorageGauges } from "./storage-gauges.js";

/**
 * A registry of this process's own, with prom-client's default process metrics (CPU, memory,
 * event-loop lag, GC, handles): not the global one, so that several relays in one process (tests,
 * an embedding program) each count their own.
 */
function processRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** A serving process's metrics: what its requests count, and the text of a scrape. */
export interface RelayMetrics {
  readonly requests: RequestMetrics;
  /** The node's metrics as text: this process's, or in a cluster worker the whole node's, asked of the primary. */
  scrape: Scrape;
  stop(): void;
}

export interface RelayMetricsParts {
  store: Pick<MessageStore, "footprint" | "outboxDestinations">;
  /** The methods the node serves (others count as "unknown"), and which of them answer as streams. */
  methods: readonly string[];
  streams: ReadonlySet<string>;
  openSubscriptions?: () => number;
  /**
   * In a cluster worker: gives its registry to the primary, which keeps the storage gauges and
   * answers with the whole node's text (topology/cluster/metrics.ts); absent, this process answers alone.
   */
  share?: (own: Registry) => { scrape: Scrape; stop(): void };
}

export function createRelayMetrics(parts: RelayMetricsParts): RelayMetrics {
  const registry = processRegistry();
  const requests = createRequestMetrics(registry, parts.methods, parts.streams, parts.openSubscriptions);
  if (parts.share) return { requests, ...parts.share(registry) };
  registerStorageGauges(registry, parts.store);
  return { requests, scrape: () => registry.metrics(), stop: () => {} };
}

/**
 * In the primary of a cluster: its registry (the storage gauges, its process) and the workers',
 * summed; served on `--metrics-port` when set, and to workers that ask (`--metrics-token`).
 */
export async function startPrimaryMetrics(
  config: MetricsConfig,
  store: RelayMetricsParts["store"],
  logger: Logger,
  gather: (own: Registry) => { scrape: Scrape; stop(): void },
): Promise<{ close: () => Promise<void> }> {
  const registry = processRegistry();
  registerStorageGauges(registry, store);
  const cluster = gather(registry);
  let listener: MetricsListener | undefined;
  if (config.port !== undefined) {
    listener = createMetricsListener(cluster.scrape);
    const url = await listener.listen(config.port, config.host);
    logger.info({ url }, "metrics listening");
  }
  return {
    async close() {
      cluster.stop();
      await listener?.close();
    },
  };
}
