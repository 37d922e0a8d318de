// The primary's half of the node's metrics (metrics.ts): loaded only when the operator asks for metrics.
import { AggregatorRegistry, type Registry } from "prom-client";
import type { Scrape } from "../../metrics/endpoint.js";
import type { RegistryJson, WorkersLink } from "../channel.js";
import { WORKER_TIMEOUT_MS } from "./metrics.js";

/**
 * In the primary: the node's metrics text, its own registry's with every worker's, summed (counters
 * and histograms add up, the event-loop lag is averaged, the start time omitted); and it answers
 * workers that ask for it. Our own messages rather than AggregatorRegistry.clusterMetrics()'s,
 * which leave out the primary's registry.
 */
export function serveClusterMetrics(workers: WorkersLink, own: Registry): { scrape: Scrape; stop: () => void } {
  async function scrape(): Promise<string> {
    const asked = workers.workers().map(async (worker) => (await workers.request(worker, "metrics-registry", {}, WORKER_TIMEOUT_MS))?.metrics);
    const answers = await Promise.all([own.getMetricsAsJSON(), ...asked]);
    return AggregatorRegistry.aggregate(answers.filter((metrics): metrics is RegistryJson => metrics !== undefined)).metrics();
  }
  const stop = workers.answer("metrics-scrape", async () => ({ text: await scrape() }));
  return { scrape, stop };
}
