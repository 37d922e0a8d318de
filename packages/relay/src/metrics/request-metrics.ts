import type { IncomingMessage } from "node:http";
import type { HttpExchange, JsonRpcResponse, RequestContext, RequestHook } from "@neutral/server";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { limitOf, reasonLabel } from "./labels.js";

/** Where a stored message came from and goes: the `route` label of `neutral_sends_total`. */
export type SendRoute = "local" | "outbound" | "inbound";

/** What a serving process counts (every worker its own; the primary adds them up: topology/cluster/metrics-primary.ts). */
export interface RequestMetrics {
  /** The HTTP stub's `onRequest` hook: notes when the request arrived, for the latency histogram. */
  readonly onRequest: RequestHook<RequestContext>;
  /** The HTTP stub's `onExchange`: counts each entry of a JSON-RPC exchange by method and outcome. */
  observe(exchange: HttpExchange<RequestContext>): void;
  /** A message newly stored (not a resend). */
  stored(route: SendRoute): void;
}

/** The arrival time, on the request itself: a number property, where a WeakMap entry would be one more object per request. */
const ARRIVED = Symbol("neutral.arrived");
type Marked = IncomingMessage & { [ARRIVED]?: number };

/** Method label of what names no method this node serves (any string would make a label of it). */
const UNKNOWN_METHOD = "unknown";

/** Seconds: from a cached read (~0.1 ms) to a send waiting for another node's receipt (deliveryWaitMs, 2 s by default). */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const methodOf = (entry: unknown): unknown => (typeof entry === "object" && entry !== null ? (entry as { method?: unknown }).method : undefined);

interface MethodSeries {
  ok: Counter.Internal;
  /** Per error code, made at its first occurrence (codes are the spec's few). */
  errors: Map<number, Counter.Internal>;
  /** Absent for streams, which last as long as their client stays. */
  latency?: Histogram.Internal<"method">;
}

/**
 * Registers the request metrics in `registry`. `methods` are the names the node serves (every
 * other `method` counts as "unknown": the label's values stay bounded), `streams` those answered
 * as event streams; `openSubscriptions` reads the live streams open in this process.
 */
export function createRequestMetrics(registry: Registry, methods: readonly string[], streams: ReadonlySet<string>, openSubscriptions?: () => number): RequestMetrics {
  const requests = new Counter({
    name: "neutral_requests_total",
    help: "JSON-RPC entries answered, by method and outcome (ok, or the JSON-RPC error code); a batch counts each entry",
    labelNames: ["method", "outcome"] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "neutral_request_duration_seconds",
    help: "From a request's arrival to its answer written, by method (a batch's entries each observe the batch); streams are not observed",
    labelNames: ["method"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const authFailures = new Counter({
    name: "neutral_auth_failures_total",
    help: "Requests refused -32001 (HTTP 401), by the reason the error's data gives",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  const refusals = new Counter({
    name: "neutral_rate_limited_total",
    help: "Entries refused -32029 (HTTP 429/503), by the limit: rate, a storage quota, subscriptions, client-memory, server-memory, shutdown",
    labelNames: ["limit"] as const,
    registers: [registry],
  });
  const sends = new Counter({
    name: "neutral_sends_total",
    help: "Messages newly stored (resends not counted), by route: local (both accounts here), outbound (to another node's account), inbound (delivered by another node)",
    labelNames: ["route"] as const,
    registers: [registry],
  });
  if (openSubscriptions) {
    new Gauge({
      name: "neutral_open_subscriptions",
      help: "Live delivery streams (neutralService_subscribe) open now",
      registers: [registry],
      collect() {
        this.set(openSubscriptions());
      },
    });
  }
  // A child is in the text only once set: at 0 from the start, every series is there to rate() from the first scrape.
  const zeroed = (child: Counter.Internal) => (child.inc(0), child);
  const routes: Record<SendRoute, Counter.Internal> = {
    local: zeroed(sends.labels("local")),
    outbound: zeroed(sends.labels("outbound")),
    inbound: zeroed(sends.labels("inbound")),
  };

  const series = new Map<string, MethodSeries>();
  const seriesOf = (method: string): MethodSeries => {
    let found = series.get(method);
    if (!found) {
      found = { ok: zeroed(requests.labels(method, "ok")), errors: new Map(), ...(!streams.has(method) && { latency: latency.labels(method) }) };
      if (found.latency) latency.zero({ method });
      series.set(method, found);
    }
    return found;
  };
  for (const method of [...methods, UNKNOWN_METHOD]) seriesOf(method);
  const known = new Set(methods);
  const rateLimits = new Map<string, Counter.Internal>();
  const authReasons = new Map<string, Counter.Internal>();

  function count(method: unknown, response: JsonRpcResponse | undefined, seconds: number | undefined): void {
    const name = typeof method === "string" && known.has(method) ? method : UNKNOWN_METHOD;
    const methodSeries = seriesOf(name);
    if (seconds !== undefined) methodSeries.latency?.observe(seconds);
    if (response === undefined || !("error" in response)) return void methodSeries.ok.inc();
    const { code, data } = response.error;
    let errors = methodSeries.errors.get(code);
    if (!errors) methodSeries.errors.set(code, (errors = requests.labels(name, String(code))));
    errors.inc();
    if (code === -32001) {
      const reason = reasonLabel(data);
      let counter = authReasons.get(reason);
      if (!counter) authReasons.set(reason, (counter = authFailures.labels(reason)));
      counter.inc();
    } else if (code === -32029) {
      const limit = limitOf(data);
      let counter = rateLimits.get(limit);
      if (!counter) rateLimits.set(limit, (counter = refusals.labels(limit)));
      counter.inc();
    }
  }

  return {
    onRequest: ({ request, rpc }) => {
      if (rpc) (request as Marked)[ARRIVED] = performance.now();
    },
    observe(exchange) {
      const arrived = (exchange.request as Marked)[ARRIVED];
      const seconds = arrived === undefined ? undefined : (performance.now() - arrived) / 1000;
      const { body, response } = exchange;
      if (!Array.isArray(body)) {
        // One request, or a whole request refused (before its body was read: no method).
        return count(methodOf(body), Array.isArray(response) ? response[0] : response, seconds);
      }
      if (!Array.isArray(response)) {
        for (const entry of body) count(methodOf(entry), response, seconds); // the batch refused whole (401, too large)
        return;
      }
      // A batch's answers come in its entries' order, without the notifications'.
      const byId = new Map<unknown, JsonRpcResponse>();
      for (const answer of response) if (!byId.has(answer.id)) byId.set(answer.id, answer);
      for (const entry of body) {
        const id = typeof entry === "object" && entry !== null ? (entry as { id?: unknown }).id : null;
        count(methodOf(entry), byId.get(id ?? null), seconds);
      }
    },
    stored: (route) => routes[route].inc(),
  };
}
