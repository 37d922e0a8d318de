import { collectDefaultMetrics, Registry } from "prom-client";
import type { MetricsConfig } from "../config.js";

/** Whether the operator asked for metrics at all (a port or a token): otherwise nothing is counted. */
export const metricsWanted = (config: MetricsConfig): boolean => config.port !== undefined || config.token !== undefined;

/**
 * A registry of this process's own, with prom-client's default process metrics (CPU, memory,
 * event-loop lag, GC, handles): not the global one, so that several relays in one process (tests,
 * an embedding program) each count their own.
 */
export function processRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}
