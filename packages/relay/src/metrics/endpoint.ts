import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The Prometheus text format's content type (prom-client's Registry.PROMETHEUS_CONTENT_TYPE: this module does not load prom-client). */
export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** What serves GET /metrics: the node's metrics as text (in a cluster, gathered from every process). */
export type Scrape = () => Promise<string>;

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Whether an `Authorization` header is `Bearer <token>`, compared in constant time: both sides
 * hashed first, so neither the token's length nor where a guess first differs shows in the timing.
 */
export function bearerChecker(token: string): (authorization: string | undefined) => boolean {
  const expected = digest(token);
  return (authorization) => {
    const match = /^Bearer +(\S+) *$/i.exec(authorization ?? "");
    // A missing header is hashed too: every refusal takes the same path.
    return timingSafeEqual(digest(match?.[1] ?? ""), expected) && match !== null;
  };
}

/** Answers GET/HEAD with the scrape (503 if it failed), anything else 405. */
export async function answerScrape(request: IncomingMessage, response: ServerResponse, scrape: Scrape): Promise<void> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }).end("Method Not Allowed\n");
    return;
  }
  let text: string;
  try {
    text = await scrape();
  } catch {
    response.writeHead(503, { "content-type": "text/plain; charset=utf-8", "retry-after": "1" }).end("The metrics could not be gathered; try again\n");
    return;
  }
  const body = Buffer.from(text);
  response.writeHead(200, { "content-type": METRICS_CONTENT_TYPE, "content-length": String(body.length), "cache-control": "no-store" });
  response.end(request.method === "HEAD" ? undefined : body);
}

/** The --metrics-port listener: GET /metrics and nothing else, for the operator's Prometheus. */
export interface MetricsListener {
  readonly server: Server;
  /** Starts listening on `host:port` (0: a free port); resolves with the metrics URL. */
  listen(port: number, host: string): Promise<string>;
  close(): Promise<void>;
}

export function createMetricsListener(scrape: Scrape): MetricsListener {
  const server = createServer({ requestTimeout: 10_000, headersTimeout: 5000 }, (request, response) => {
    const pathname = (request.url ?? "/").split("?", 1)[0];
    if (pathname !== "/metrics") return void response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not Found: the metrics are at /metrics\n");
    answerScrape(request, response, scrape).catch(() => response.destroy());
  });
  return {
    server,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          const { port: bound } = server.address() as AddressInfo;
          resolve(`http://${host.includes(":") ? `[${host}]` : host}:${bound}/metrics`);
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
