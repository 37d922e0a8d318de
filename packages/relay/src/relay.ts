import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createDispatcher, createHttpHandler, ErrorCode, errorResponse, RpcError, type HttpExchange, type JsonRpcResponse } from "@neutral/server";
import { createAuthenticator } from "./auth/authenticator.js";
import type { RelayConfig } from "./config.js";
import type { Secp256k1 } from "./crypto/secp256k1.js";
import { createRateLimiter } from "./http/rate-limit.js";
import { createFallbackRoutes } from "./http/routes.js";
import type { Logger } from "./log.js";
import type { NodeKey } from "./node-key.js";
import { createHandlers, type RelayContext } from "./service.js";
import { DATABASE_FILE, openSqliteStore } from "./storage/sqlite.js";
import type { MessageStore } from "./storage/store.js";
import { SOFTWARE } from "./version.js";

export { DATABASE_FILE };

export interface RelayOptions {
  config: RelayConfig;
  logger: Logger;
  curve: Secp256k1;
  nodeKey: NodeKey;
  /** Default: SQLite in the data dir. */
  store?: MessageStore;
}

export interface Relay {
  readonly server: Server;
  /** Starts listening; resolves with the base URL. */
  listen(): Promise<string>;
  /** Stops accepting, lets in-flight requests finish (at most `graceMs`), then closes the store. */
  close(graceMs?: number): Promise<void>;
}

const START = Symbol("start");
const REQUEST_ID = Symbol("requestId");
type TimedRequest = IncomingMessage & { [START]?: number; [REQUEST_ID]?: string };

/** What the access log says of an exchange: methods, caller, outcome, latency. Never a token or a body. */
function describeExchange(exchange: HttpExchange<RelayContext>): Record<string, unknown> {
  const entries = Array.isArray(exchange.body) ? exchange.body : [exchange.body];
  const methods = entries.map((entry) => (typeof entry === "object" && entry !== null && typeof (entry as { method?: unknown }).method === "string" ? (entry as { method: string }).method.slice(0, 64) : "?"));
  const responses: JsonRpcResponse[] = exchange.response === undefined ? [] : Array.isArray(exchange.response) ? exchange.response : [exchange.response];
  const errors = responses.flatMap((response) => ("error" in response ? [response.error.code] : []));
  const request = exchange.request as TimedRequest;
  const started = request[START];
  return {
    reqId: request[REQUEST_ID],
    method: exchange.body === undefined ? undefined : Array.isArray(exchange.body) ? methods.slice(0, 20) : methods[0],
    ...(Array.isArray(exchange.body) && { batch: entries.length }),
    caller: exchange.context?.auth?.address,
    status: exchange.status,
    outcome: errors.length === 0 ? "ok" : "error",
    ...(errors.length > 0 && { errors: errors.slice(0, 20) }),
    ms: started === undefined ? undefined : Math.round((performance.now() - started) * 100) / 100,
  };
}

export function createRelay(options: RelayOptions): Relay {
  const { config, logger, curve, nodeKey } = options;
  const store = options.store ?? openSqliteStore({ file: path.join(config.dataDir, DATABASE_FILE) });
  let domains: string[] = config.domains;
  const handlers = createHandlers({
    store,
    curve,
    nodeKey: nodeKey.privateKey,
    limits: config.limits,
    domains: () => domains,
    software: SOFTWARE,
  });
  const dispatcher = createDispatcher<RelayContext>({
    handlers,
    maxBatch: config.limits.maxBatch,
    onInternalError: (error, method) => logger.error({ err: error, method }, "internal error"),
  });
  const authenticate = createAuthenticator({ curve, acceptsDomain: (domain) => domains.includes(domain) });
  const logRequests = logger.isLevelEnabled("info");
  let requestCount = 0;
  const requestIdPrefix = `${process.pid.toString(36)}-`;

  const rpc = createHttpHandler<RelayContext>({
    dispatcher,
    authenticate: (authorization) => ({ auth: { address: authenticate(authorization).address } }),
    maxBodyBytes: config.limits.maxBodyBytes,
    fallback: createFallbackRoutes(),
    onInternalError: (error) => logger.error({ err: error }, "internal error in the HTTP layer"),
    ...(logRequests && {
      onExchange: (exchange: HttpExchange<RelayContext>) => {
        logger.info(describeExchange(exchange), "rpc");
      },
    }),
  });

  const limiter = config.rateLimit > 0 ? createRateLimiter({ perSecond: config.rateLimit }) : undefined;
  const isRpc = (request: IncomingMessage) => request.method === "POST" && (request.url === "/" || request.url?.startsWith("/?"));

  const server = createServer((request: TimedRequest, response: ServerResponse) => {
    if (logRequests) {
      request[START] = performance.now();
      const requestId = requestIdPrefix + (++requestCount).toString(36);
      request[REQUEST_ID] = requestId;
      response.setHeader("x-request-id", requestId);
    }
    if (limiter && isRpc(request)) {
      const verdict = limiter.take(request.socket.remoteAddress ?? "unknown");
      if (!verdict.ok) {
        request.resume();
        const body = JSON.stringify(
          errorResponse(null, new RpcError(ErrorCode.RateLimited, "Rate limited: slow down", { retryAfter: verdict.retryAfterSeconds })),
        );
        response.writeHead(429, { "content-type": "application/json", "retry-after": String(verdict.retryAfterSeconds), "access-control-allow-origin": "*" });
        response.end(body);
        return;
      }
    }
    rpc(request, response);
  });
  server.keepAliveTimeout = 65_000;

  return {
    server,
    listen() {
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(config.port, config.host, () => {
          server.off("error", reject);
          const { port } = server.address() as AddressInfo;
          const hostPart = config.host.includes(":") ? `[${config.host}]` : config.host;
          if (config.domains.length === 0) domains = [`${hostPart}:${port}`];
          resolve(`http://${hostPart}:${port}`);
        });
      });
    },
    async close(graceMs = 10_000) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        // Keep-alive connections turn idle as their last response is written; close them then.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearTimeout(timer);
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      });
      await store.close();
    },
  };
}
