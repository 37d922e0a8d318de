import cluster, { type Worker as ClusterWorker } from "node:cluster";
import { AggregatorRegistry, type Registry } from "prom-client";

// With --workers N every worker counts its own requests; one scrape must show the node. The
// primary asks each worker for its registry as JSON, adds its own (the outbox, the store, its
// process) and sums them with prom-client's AggregatorRegistry: counters and histograms add up,
// the event-loop lag is averaged, the start time omitted. A worker serving GET /metrics on the
// public port (--metrics-token) asks the primary for that text. The messages are our own rather
// than AggregatorRegistry.clusterMetrics()'s, which leaves out the primary's registry.

const REQUEST = "neutral:metrics-request";
const REGISTRY = "neutral:metrics-registry";
const SCRAPE = "neutral:metrics-scrape";
const TEXT = "neutral:metrics-text";

/** How long the primary waits for a worker's registry; one that does not answer is left out of that scrape. */
const WORKER_TIMEOUT_MS = 2000;

type RegistryJson = Awaited<ReturnType<Registry["getMetricsAsJSON"]>>;

interface RequestMessage {
  type: typeof REQUEST;
  id: number;
}
interface RegistryMessage {
  type: typeof REGISTRY;
  id: number;
  metrics: RegistryJson;
}
interface ScrapeMessage {
  type: typeof SCRAPE;
  id: number;
}
interface TextMessage {
  type: typeof TEXT;
  id: number;
  text?: string;
}

const typed = <M extends { type: string; id: number }>(message: unknown, type: M["type"]): message is M =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === type && typeof (message as { id?: unknown }).id === "number";

/** The text format of a set of registries, summed as one (prom-client's aggregation). */
async function aggregateText(registries: RegistryJson[]): Promise<string> {
  return AggregatorRegistry.aggregate(registries).metrics();
}

/** In the primary: the node's metrics text, its own registry's with every worker's; and it answers workers that ask for it. */
export function serveClusterMetrics(own: Registry): { scrape: () => Promise<string>; stop: () => void } {
  let nextId = 1;
  const waiting = new Map<number, (metrics: RegistryJson | undefined) => void>();

  const askWorker = (worker: ClusterWorker) =>
    new Promise<RegistryJson | undefined>((resolve) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        resolve(undefined);
      }, WORKER_TIMEOUT_MS);
      waiting.set(id, (metrics) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(metrics);
      });
      worker.send({ type: REQUEST, id } satisfies RequestMessage, undefined, (error: Error | null) => {
        if (error) waiting.get(id)?.(undefined);
      });
    });

  async function scrape(): Promise<string> {
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is ClusterWorker => worker !== undefined && worker.isConnected());
    const answers = await Promise.all([own.getMetricsAsJSON(), ...workers.map(askWorker)]);
    return aggregateText(answers.filter((metrics): metrics is RegistryJson => metrics !== undefined));
  }

  const onMessage = (worker: ClusterWorker, message: unknown) => {
    if (typed<RegistryMessage>(message, REGISTRY)) return void waiting.get(message.id)?.(message.metrics);
    if (!typed<ScrapeMessage>(message, SCRAPE)) return;
    const reply = (text: string | undefined) => {
      if (worker.isConnected()) worker.send({ type: TEXT, id: message.id, ...(text !== undefined && { text }) } satisfies TextMessage, undefined, () => {});
    };
    scrape().then(reply, () => reply(undefined));
  };
  cluster.on("message", onMessage);
  return { scrape, stop: () => cluster.off("message", onMessage) };
}

/** In a worker: gives the primary this worker's registry when it asks; `scrape` asks the primary for the whole node's text. */
export function answerClusterMetrics(own: Registry): { scrape: () => Promise<string>; stop: () => void } {
  const send = process.send?.bind(process);
  if (!send || !cluster.isWorker) throw new Error("answerClusterMetrics() works in a cluster worker only");
  let nextId = 1;
  const waiting = new Map<number, (text: string | undefined) => void>();
  const onMessage = (message: unknown) => {
    if (typed<TextMessage>(message, TEXT)) return void waiting.get(message.id)?.(message.text);
    if (!typed<RequestMessage>(message, REQUEST)) return;
    own.getMetricsAsJSON().then(
      (metrics) => {
        if (process.connected) send({ type: REGISTRY, id: message.id, metrics } satisfies RegistryMessage, undefined, {}, () => {});
      },
      () => {}, // the primary's wait ends by itself
    );
  };
  process.on("message", onMessage);
  return {
    scrape: () =>
      new Promise<string>((resolve, reject) => {
        const id = nextId++;
        const timer = setTimeout(() => settle(undefined), WORKER_TIMEOUT_MS * 2);
        function settle(text: string | undefined) {
          clearTimeout(timer);
          waiting.delete(id);
          if (text === undefined) reject(new Error("the primary did not answer with the node's metrics"));
          else resolve(text);
        }
        waiting.set(id, settle);
        if (!process.connected) return settle(undefined);
        send({ type: SCRAPE, id } satisfies ScrapeMessage, undefined, {}, (error: Error | null) => {
          if (error) settle(undefined);
        });
      }),
    stop: () => process.off("message", onMessage),
  };
}
