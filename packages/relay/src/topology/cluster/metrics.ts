// With --workers N every worker counts its own requests; one scrape must show the node. The
// primary asks each worker for its registry as JSON, adds its own (the outbox, the store, its
// process) and sums them with prom-client's AggregatorRegistry (metrics-primary.ts). A worker
// serving GET /metrics on the public port (--metrics-token) asks the primary for that text. This
// half, the worker's, loads nothing of prom-client: a worker without metrics never needs it.
import type { Registry } from "prom-client";
import type { Scrape } from "../../metrics/endpoint.js";
import type { PrimaryLink } from "../channel.js";

/** How long the primary waits for a worker's registry; one that does not answer is left out of that scrape. */
export const WORKER_TIMEOUT_MS = 2000;

/** In a worker: gives the primary this worker's registry when it asks; `scrape` asks the primary for the whole node's text. */
export function answerClusterMetrics(primary: PrimaryLink, own: Registry): { scrape: Scrape; stop: () => void } {
  const stop = primary.answer("metrics-registry", async () => ({ metrics: await own.getMetricsAsJSON() }));
  return {
    scrape: async () => {
      try {
        return (await primary.request("metrics-scrape", {}, { timeoutMs: WORKER_TIMEOUT_MS * 2 })).text;
      } catch {
        throw new Error("the primary did not answer with the node's metrics");
      }
    },
    stop,
  };
}
