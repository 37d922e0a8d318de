import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { isNodeAuthorization } from "@neutral/protocol";
import { createDispatcher, createHttpHandler, RpcError, type HttpExchange, type JsonRpcResponse, type MethodDescriptor, type RequestBody, type RequestHook } from "@neutral/server";
import { service } from "@neutral/server/neutral-service";
import { createAuthenticator } from "./auth/authenticator.js";
import { describeServedDomains, servedDomains } from "./auth/domains.js";
import { metricsWanted, streamsPerProcess, type RelayConfig } from "./config.js";
import type { Secp256k1 } from "./crypto/secp256k1.js";
import { clientAddress, trustedProxies, type TrustedProxies } from "./http/client-address.js";
import { clientKey } from "./http/client-key.js";
import { guardConnections, processConnectionCap } from "./http/connection-guard.js";
import { requestIdHook, requestMark } from "./http/request-id.js";
import { createFallbackRoutes } from "./http/routes.js";
import { createNodeLimits } from "./limits/node-limits.js";
import { StoreClosedError } from "./errors.js";
import type { Federation } from "./federation/index.js";
import type { Logger } from "./log.js";
import type { NodeKey } from "./node-key.js";
import { createHandlers, type RelayContext } from "./rpc/index.js";
import type { MessageStore } from "./storage/store.js";
import type { CommitFeed } from "./live/commits.js";
import { KeptProofs } from "./mailbox-log/kept-proofs.js";
import { createMemoryRelease } from "./live/memory-release.js";
import { createSubscriptions, endEvent } from "./live/subscriptions.js";
import { bearerChecker, createMetricsListener, type MetricsListener } from "./metrics/endpoint.js";
import type { createRelayMetrics, RelayMetrics } from "./metrics/process-metrics.js";
import { createReadiness } from "./http/readiness.js";
import { SINGLE_PROCESS, type ServingTopology } from "./topology/serving.js";
import { SOFTWARE } from "./version.js";

export interface RelayOptions {
  config: RelayConfig;
  logger: Logger;
  curve: Secp256k1;
  nodeKey: NodeKey;
  /** The open store (see `openNodeStorage`, or `createNode` for the whole node as configured); the relay closes it in `close()`. */
  store: MessageStore;
  /** The node's peers, directory and deliverer; the relay closes it in `close()`. Absent: no federation (and no node-to-node methods). */
  federation?: Federation;
  /** Where this process hears of commits (live/): its own and the other processes'. The relay closes it in `close()`. Absent: `subscribe` is refused. */
  commits?: CommitFeed;
  /**
   * The process topology this relay serves in (topology/serving.ts): who admits connections, who
   * else counts toward the node's limits and metrics. Default: a node of one process.
   */
  topology?: ServingTopology;
  /**
   * The metrics' factory (metrics/process-metrics.ts), which `createNode` loads when `config.metrics`
   * asks for metrics: passed in rather than imported, so that a node without metrics never loads prom-client.
   */
  metrics?: typeof createRelayMetrics;
}

export interface Relay {
  readonly server: Server;
  /** Starts listening; resolves with the base URL. */
  listen(): Promise<string>;
  /** Stops accepting, lets in-flight requests finish (at most `graceMs`), then closes the store. */
  close(graceMs?: number): Promise<void>;
}

/** Connections the kernel may queue before the node accepts them. */
const ACCEPT_BACKLOG = 4096;

/** What the access log says of an exchange: methods, caller, outcome, latency. Never a token or a body. */
function describeExchange(exchange: HttpExchange<RelayContext>, trusted: TrustedProxies | undefined): Record<string, unknown> {
  const entries = Array.isArray(exchange.body) ? exchange.body : [exchange.body];
  const methods = entries.map((entry) => (typeof entry === "object" && entry !== null && typeof (entry as { method?: unknown }).method === "string" ? (entry as { method: string }).method.slice(0, 64) : "?"));
  const responses: JsonRpcResponse[] = exchange.response === undefined ? [] : Array.isArray(exchange.response) ? exchange.response : [exchange.response];
  const errors = responses.flatMap((response) => ("error" in response ? [response.error.code] : []));
  const mark = requestMark(exchange.request);
  const started = mark?.start;
  return {
    reqId: mark?.id,
    client: clientAddress(exchange.request, trusted),
    method: exchange.body === undefined ? undefined : Array.isArray(exchange.body) ? methods.slice(0, 20) : methods[0],
    ...(Array.isArray(exchange.body) && { batch: entries.length }),
    caller: exchange.context?.auth?.address,
    ...(exchange.context?.auth?.kind === "node" && { callerKind: "node" }),
    status: exchange.status,
    outcome: errors.length === 0 ? "ok" : "error",
    ...(errors.length > 0 && { errors: errors.slice(0, 20) }),
    ms: started === undefined ? undefined : Math.round((performance.now() - started) * 100) / 100,
  };
}

/**
 * The relay over an open store: handlers, the JSON-RPC dispatcher and HTTP stack with the node's
 * limits plugged in as hooks (rate limit, request ids), the connection guard. Storage is the
 * caller's to open: `createNode(config)` does both, as `neutral-relay` runs it.
 */
export function createRelay(options: RelayOptions): Relay {
  const { config, logger, curve, nodeKey, store, federation } = options;
  let domains: string[] = servedDomains(config.domains);
  // The client a request counts against: its connection's address, or behind a trusted reverse
  // proxy the one X-Forwarded-For names (http/client-address.ts).
  const trusted = trustedProxies(config.connections.trustProxy);
  const clientOf = (request: IncomingMessage) => clientKey(clientAddress(request, trusted));
  let publicUrl = config.federation.publicUrl ?? "";
  // Rate limit and storage quotas, per node (shared with the other workers: topology/cluster/limits.ts).
  const topology = options.topology ?? SINGLE_PROCESS;
  const limits = createNodeLimits(config, clientOf, topology.shareLimits);
  const { commits } = options;
  // Streams leave room for ordinary requests (--reserved-connections): their bound in this process.
  const live = { ...config.live, maxSubscriptions: streamsPerProcess(config) };
  const memory = commits && createMemoryRelease();
  // Proofs are kept only where every commit is heard of: a kept proof must not outlive its log's size.
  const keptProofs = commits && config.keptProofsMib > 0 ? new KeptProofs(config.keptProofsMib * 1024 * 1024) : undefined;
  const stopKeptProofs = keptProofs && commits?.subscribe((events) => keptProofs.committed(events));
  const subscriptions =
    commits &&
    createSubscriptions({
      store,
      feed: commits,
      limits: live,
      maxPageScan: config.limits.maxPageScan,
      maxReadBytes: config.live.subscriptionBufferBytes,
      ...(memory && { onStreamEnded: memory.streamEnded }),
    });
  // Metrics only when the operator asked for them (--metrics-port, --metrics-token): else nothing is counted.
  let metrics: RelayMetrics | undefined;
  if (metricsWanted(config.metrics)) {
    if (!options.metrics) throw new Error("config.metrics asks for metrics: pass options.metrics (createNode does)");
    const methods: Readonly<Record<string, MethodDescriptor>> = service.methods;
    metrics = options.metrics({
      store,
      methods: [...Object.keys(methods), "rpc.discover"],
      streams: new Set(Object.entries(methods).flatMap(([name, method]) => (method.stream ? [name] : []))),
      ...(subscriptions && { openSubscriptions: () => subscriptions.count }),
      ...(topology.shareMetrics && { share: topology.shareMetrics }),
    });
  }
  const readiness = createReadiness(store);
  const handlers = createHandlers({
    store,
    curve,
    nodeKey: nodeKey.privateKey,
    limits: limits.reported,
    ...(limits.quotas && { quotas: limits.quotas }),
    domains: () => domains,
    software: SOFTWARE,
    ...(federation && { federation }),
    delivery: config.federation,
    publicUrl: () => publicUrl,
    ...(subscriptions && { live: { subscriptions, limits: live } }),
    ...(metrics && { onStored: metrics.requests.stored }),
    ...(keptProofs && { keptProofs }),
  });
  const dispatcher = createDispatcher<RelayContext>({
    service,
    handlers,
    maxBatch: config.limits.maxBatch,
    maxResponseBytes: config.limits.maxResponseBytes,
    ...(limits.onEntry && { onEntry: limits.onEntry }),
    onInternalError: (error, method) => {
      // A request still running when close() gave up waiting finds the store closed: expected while stopping.
      if (error instanceof StoreClosedError) logger.warn({ method }, "request cut short: the store is closed (stopping)");
      else logger.error({ err: error, method }, "internal error");
    },
  });
  const authenticateUser = limits.authenticate(createAuthenticator({ curve, acceptsDomain: (domain) => domains.includes(domain), servedDomains: () => describeServedDomains(domains) }));
  // A peer's node-to-node request carries the node's signature over the body; anything else, an account's bearer token.
  const authenticate = async (authorization: string | undefined, request: IncomingMessage, body: RequestBody): Promise<RelayContext> => {
    // The client a stream counts against (live/subscriptions.ts), with or without a rate limit.
    if (!isNodeAuthorization(authorization)) return { ...authenticateUser(authorization, request), client: clientOf(request) };
    if (!federation) throw RpcError.unauthorized("this node does not federate: NeutralNode authorization is not accepted");
    const node = await federation.checkNodeRequest(authorization!, body);
    limits.admitPeer?.(node);
    return { auth: { address: node, kind: "node" } };
  };
  const logRequests = logger.isLevelEnabled("info");
  // Pre-dispatch hooks, in order: name the request (for the access log), then admit it for the rate limit.
  // The metrics' first: a request the rate limit refuses is timed too.
  const onRequest: RequestHook<RelayContext>[] = [
    ...(metrics ? [metrics.requests.onRequest] : []),
    ...(logRequests ? [requestIdHook<RelayContext>()] : []),
    ...(limits.onRequest ? [limits.onRequest] : []),
  ];
  const observe = metrics?.requests.observe;
  const onExchange =
    logRequests || observe
      ? (exchange: HttpExchange<RelayContext>) => {
          observe?.(exchange);
          if (logRequests) logger.info(describeExchange(exchange, trusted), "rpc");
        }
      : undefined;
  const { token } = config.metrics;

  const rpc = createHttpHandler<RelayContext>({
    realm: "neutralService",
    dispatcher,
    onRequest,
    cors: { exposeHeaders: ["x-request-id"] },
    authenticate,
    maxBodyBytes: config.limits.maxBodyBytes,
    heldBytes: { total: config.connections.maxBufferedBytes, perClient: config.connections.maxBufferedBytesPerIp },
    clientKey: clientOf,
    writeTimeoutMs: config.connections.writeTimeoutMs,
    streams: {
      keepAliveMs: config.live.keepAliveMs,
      bufferBytes: config.live.subscriptionBufferBytes,
      stallMs: config.live.subscriptionStallMs,
      endEvent: (reason, lastId) => endEvent(reason, lastId),
    },
    fallback: createFallbackRoutes({
      ready: readiness.check,
      ...(metrics && token !== undefined && { metrics: { authorized: bearerChecker(token), scrape: metrics.scrape } }),
    }),
    onInternalError: (error) => logger.error({ err: error }, "internal error in the HTTP layer"),
    ...(onExchange && { onExchange }),
  });

  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = config.connections;
  const serverOptions = {
    headersTimeout: headersTimeoutMs,
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    // How often Node looks for requests past those timeouts (default 30 s: a stalled request could live 30 s longer).
    connectionsCheckingInterval: 1000,
  };
  const server = createServer(serverOptions, rpc);
  const connectionLimits = { maxConnections: config.connections.maxConnections, maxConnectionsPerClient: config.connections.maxConnectionsPerIp };
  const gate = topology.connectionGate(connectionLimits);
  // Descriptors kept for everything but client connections: files, IPC, the PostgreSQL pool.
  const reserve = 256 + (config.databaseUrl === undefined ? 0 : config.databasePoolSize);
  const processCap = processConnectionCap(config.connections.maxConnections, reserve);
  if (processCap < config.connections.maxConnections) logger.warn({ processCap, maxConnections: config.connections.maxConnections }, "the open-file limit caps this process's connections below --max-connections");
  const stopGuard = guardConnections(server, {
    gate,
    processCap,
    onRefused: (refused) => logger.warn({ refused }, "refused connections over the limits"),
    ...(trusted && { trustedProxy: (address: string) => trusted.has(address) }),
  });

  // The --metrics-port listener of a node of one process (a cluster's primary serves its own: topology/cluster/primary.ts).
  let metricsListener: MetricsListener | undefined;

  async function listenForMetrics(): Promise<void> {
    const { port, host } = config.metrics;
    if (!metrics || topology.role === "worker" || port === undefined) return;
    metricsListener = createMetricsListener(metrics.scrape);
    const url = await metricsListener.listen(port, host);
    logger.info({ url }, "metrics listening");
  }

  return {
    server,
    async listen() {
      const url = await new Promise<string>((resolve, reject) => {
        server.once("error", reject);
        // A burst of connects (a flood of streams opening at once) must not overflow the accept
        // queue: an honest client's SYN dropped there waits 1, 3, 7 s… to be retried. Node's
        // default is 511; the kernel caps it at net.core.somaxconn (4096 on current Linux).
        server.listen({ port: config.port, host: config.host, backlog: ACCEPT_BACKLOG }, () => {
          server.off("error", reject);
          const { port } = server.address() as AddressInfo;
          const hostPart = config.host.includes(":") ? `[${config.host}]` : config.host;
          if (config.domains.length === 0) domains = servedDomains([`${hostPart}:${port}`]);
          if (config.federation.publicUrl === undefined) publicUrl = `http://${hostPart}:${port}`;
          resolve(`http://${hostPart}:${port}`);
        });
      });
      try {
        await listenForMetrics();
      } catch (error) {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        throw error;
      }
      return url;
    },
    async close(graceMs = 10_000) {
      readiness.stopping();
      // Open streams end with the "shutdown" reason (each says where to resume); their connections then go idle.
      const streamsOver = subscriptions?.close();
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
      await streamsOver;
      memory?.stop();
      stopKeptProofs?.();
      await commits?.close();
      limits.stop();
      stopGuard();
      await federation?.close();
      await metricsListener?.close();
      metrics?.stop();
      await store.close();
    },
  };
}
