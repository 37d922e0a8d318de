// The operator's view of a running node: GET /metrics (Prometheus text) and GET /ready, on real
// relay processes. Each figure is checked against what the test itself sent and was answered.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelay, type RunningRelay } from "../../testing/index.js";
import { TEST_KEYS, wallet } from "../../test/wallets.js";
import { createTestSchema, type TestSchema } from "../../test/postgres.js";
import { sendMany } from "../../test/live.js";

const alice = wallet(TEST_KEYS.alice);
const bob = wallet(TEST_KEYS.bob);
const METRICS_TOKEN = "metrics-token-for-the-test-0123456789";
/** Starting two workers and the primary on a loaded 2-core machine takes a few seconds; a test's own requests, about one. */
const TEST_TIMEOUT_MS = 30_000;

/** One sample of the text format: `name{labels} value`. */
type Samples = Map<string, number>;

/** Parses the text format into `name{label="value",…}` → value, labels sorted by name (the order Prometheus ignores). */
function parseMetrics(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels = [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, name, value]) => `${name}="${value}"`).sort();
    samples.set(`${match[1]}{${labels.join(",")}}`, Number(match[3]));
  }
  return samples;
}

/** A sample's value, 0 when the series is not there (yet). */
const value = (samples: Samples, name: string, labels: Record<string, string> = {}): number =>
  samples.get(`${name}{${Object.entries(labels).map(([label, v]) => `${label}="${v}"`).sort().join(",")}}`) ?? 0;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * One request on a connection of its own (no keep-alive): the cluster hands each new connection to
 * the next worker, so a run of these reaches both workers, as separate clients would.
 */
function fresh(url: string, options: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const outgoing = request(
      url,
      { method: options.method ?? "GET", agent: false, headers: { ...(body !== undefined && { "content-type": "application/json" }), ...options.headers } },
      (incoming) => {
        let text = "";
        incoming.setEncoding("utf8");
        incoming.on("data", (chunk: string) => (text += chunk));
        incoming.on("end", () => resolve({ status: incoming.statusCode!, headers: incoming.headers, text }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

let nextId = 1;
const rpc = (url: string, method: string, params: unknown[], token?: string) =>
  fresh(url, { method: "POST", body: { jsonrpc: "2.0", id: nextId++, method, params }, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

/** The `--metrics-port` listener's URL, from its log line. */
function metricsUrl(relay: RunningRelay): string {
  const line = relay.logs.find((log) => log.msg === "metrics listening");
  if (typeof line?.url !== "string") throw new Error(`no "metrics listening" line:\n${relay.stdout()}`);
  return line.url;
}

async function scrape(url: string, headers: Record<string, string> = {}): Promise<Samples> {
  const answer = await fresh(url, { headers });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(answer.text);
}

describe("a node of two workers with --metrics-port and --metrics-token", () => {
  let relay: RunningRelay;
  let metrics: string;

  beforeAll(async () => {
    // Rate limit 5/s (bursts of 10): the first requests fit, a flood does not.
    relay = await startRelay({ workers: 2, args: ["--rate-limit", "5", "--metrics-port", "0"], env: { NEUTRAL_METRICS_TOKEN: METRICS_TOKEN } });
    metrics = metricsUrl(relay);
  }, TEST_TIMEOUT_MS);
  afterAll(async () => {
    await relay?.stop();
  }, TEST_TIMEOUT_MS);

  it(
    "counts every worker's requests in one scrape: by method and outcome, auth failures by reason, rate-limit refusals, sends by route, latency",
    async () => {
      const before = await scrape(metrics);
      const token = await alice.token({ domain: relay.domain });

      const inbox = await rpc(relay.url, "neutralService_getInbox", [], token);
      expect(inbox.status, inbox.text).toBe(200);
      expect(JSON.parse(inbox.text).result).toBeDefined();
      const refused = await rpc(relay.url, "neutralService_getInbox", [], "not-a-token");
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.text).error.data.reason).toMatch(/^malformed token/);
      const sent = await rpc(relay.url, "neutralService_sendMessage", [await alice.sign({ to: bob.address, message: "0102" })], token);
      expect(JSON.parse(sent.text).result, sent.text).toBeDefined();

      // A flood from one client, until the node has refused it a few times: each answer tallied.
      let inboxOk = 1;
      let inboxRefused = 0; // -32029 once the body was read (the entry's charge, or the token's)
      let unread = 0; // 429 before the body was read: no method known
      for (let i = 0; i < 200 && inboxRefused + unread < 3; i++) {
        const answer = await rpc(relay.url, "neutralService_getInbox", [], token);
        const parsed = JSON.parse(answer.text) as { id: unknown; result?: unknown; error?: { code: number } };
        if (parsed.result !== undefined) inboxOk++;
        else if (parsed.error?.code === -32029 && parsed.id === null) unread++;
        else if (parsed.error?.code === -32029) inboxRefused++;
        else throw new Error(`unexpected answer ${answer.text}`);
      }
      expect(inboxRefused + unread).toBeGreaterThan(0);

      const after = await scrape(metrics);
      const delta = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);
      const getInbox = { method: "neutralService_getInbox" };
      expect(delta("neutral_requests_total", { ...getInbox, outcome: "ok" })).toBe(inboxOk);
      expect(delta("neutral_requests_total", { ...getInbox, outcome: "-32001" })).toBe(1);
      expect(delta("neutral_requests_total", { ...getInbox, outcome: "-32029" })).toBe(inboxRefused);
      expect(delta("neutral_requests_total", { method: "unknown", outcome: "-32029" })).toBe(unread);
      expect(delta("neutral_requests_total", { method: "neutralService_sendMessage", outcome: "ok" })).toBe(1);
      expect(delta("neutral_auth_failures_total", { reason: "malformed token" })).toBe(1);
      expect(delta("neutral_rate_limited_total", { limit: "rate" })).toBe(inboxRefused + unread);
      expect(delta("neutral_sends_total", { route: "local" })).toBe(1);
      expect(delta("neutral_sends_total", { route: "outbound" })).toBe(0);
      expect(delta("neutral_request_duration_seconds_count", getInbox)).toBe(inboxOk + 1 + inboxRefused);
      expect(delta("neutral_request_duration_seconds_bucket", { ...getInbox, le: "+Inf" })).toBe(inboxOk + 1 + inboxRefused);
      // The primary's own: the store and the outbox, and every process's CPU and memory summed.
      expect(value(after, "neutral_store_bytes")).toBeGreaterThan(0);
      expect(after.has("neutral_outbox_messages{}")).toBe(true);
      expect(after.has("neutral_outbox_oldest_age_seconds{}")).toBe(true);
      expect(after.has("neutral_open_subscriptions{}")).toBe(true);
      expect(value(after, "process_resident_memory_bytes")).toBeGreaterThan(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "serves /metrics on the public port only with the token (401 without it or with another), never logs the token, and is ready",
    async () => {
      const none = await fresh(`${relay.url}/metrics`);
      expect(none.status).toBe(401);
      expect(none.headers["www-authenticate"]).toMatch(/^Bearer/);
      expect(none.text).not.toContain("neutral_");
      const wrong = await fresh(`${relay.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}x` } });
      expect(wrong.status).toBe(401);
      const basic = await fresh(`${relay.url}/metrics`, { headers: { authorization: `Basic ${METRICS_TOKEN}` } });
      expect(basic.status).toBe(401);
      // Served by a worker, asked of the primary: the whole node's.
      const samples = await scrape(`${relay.url}/metrics`, { authorization: `Bearer ${METRICS_TOKEN}` });
      expect(samples.has('neutral_requests_total{method="neutralService_getInbox",outcome="ok"}')).toBe(true);
      expect(value(samples, "neutral_store_bytes")).toBeGreaterThan(0);

      const ready = await fresh(`${relay.url}/ready`);
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.text)).toEqual({ status: "ready" });
      expect((await fresh(`${metrics.replace(/\/metrics$/, "")}/other`)).status).toBe(404);
      expect(relay.stdout() + relay.stderr()).not.toContain(METRICS_TOKEN);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("a node of one process", () => {
  it(
    "with --metrics-port alone: the metrics are on that port, 404 on the public one; /ready 200",
    async () => {
      const relay = await startRelay({ args: ["--metrics-port", "0"] });
      try {
        expect((await fresh(`${relay.url}/metrics`)).status).toBe(404);
        expect((await fresh(`${relay.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(404);
        const url = metricsUrl(relay);
        const before = await scrape(url);
        expect((await rpc(relay.url, "neutralService_nodeInfo", [])).status).toBe(200);
        const after = await scrape(url);
        const nodeInfo = { method: "neutralService_nodeInfo", outcome: "ok" };
        expect(value(after, "neutral_requests_total", nodeInfo) - value(before, "neutral_requests_total", nodeInfo)).toBe(1);
        expect(value(after, "process_start_time_seconds")).toBeGreaterThan(0); // one process: its own, not summed
        const ready = await fresh(`${relay.url}/ready`);
        expect([ready.status, ready.text]).toEqual([200, '{"status":"ready"}']);
      } finally {
        await relay.stop();
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "without either flag: no metrics anywhere (404), and no metrics listener",
    async () => {
      const relay = await startRelay();
      try {
        expect((await fresh(`${relay.url}/metrics`)).status).toBe(404);
        expect(relay.logs.some((log) => log.msg === "metrics listening")).toBe(false);
        expect((await fresh(`${relay.url}/ready`)).status).toBe(200);
      } finally {
        await relay.stop();
      }
    },
    TEST_TIMEOUT_MS,
  );
});

describe("a node on PostgreSQL", () => {
  let schema: TestSchema | undefined;
  afterAll(async () => {
    await schema?.drop().catch(() => {});
  }, TEST_TIMEOUT_MS);

  it(
    "reports the store from PostgreSQL (messages, bytes, outbox, sends), is ready, and is not once its database is gone",
    async () => {
      schema = await createTestSchema();
      const relay = await startRelay({ args: ["--metrics-port", "0"], env: { NEUTRAL_DATABASE_URL: schema.url } });
      try {
        const url = metricsUrl(relay);
        expect((await fresh(`${relay.url}/ready`)).status).toBe(200);
        const before = await scrape(url);
        const token = await alice.token({ domain: relay.domain });
        await sendMany(relay, alice, token, bob.address, 3, 1);
        // The store gauges are sampled (storage-gauges.ts): wait for a sample after the sends.
        let after = await scrape(url);
        const deadline = Date.now() + 15_000;
        while (value(after, "neutral_store_messages") < 3 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          after = await scrape(url);
        }
        expect(value(after, "neutral_store_messages")).toBe(3);
        expect(value(after, "neutral_store_bytes")).toBeGreaterThan(0);
        expect(value(after, "neutral_outbox_messages")).toBe(0);
        expect(value(after, "neutral_sends_total", { route: "local" }) - value(before, "neutral_sends_total", { route: "local" })).toBe(3);
        // The database gone (its schema dropped under the node): not ready, with a reason; alive still.
        await schema.drop();
        schema = undefined;
        const ready = await fresh(`${relay.url}/ready`);
        expect(ready.status).toBe(503);
        expect((await fresh(`${relay.url}/health`)).status).toBe(200);
      } finally {
        await relay.stop();
      }
    },
    60_000,
  );
});
