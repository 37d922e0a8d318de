import os from "node:os";
import { parseArgs } from "node:util";
import { DEFAULT_LIMITS, MAX_PAGE_LIMIT } from "@neutral/protocol";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface RelayConfig {
  host: string;
  /** 0 picks a free port. */
  port: number;
  dataDir: string;
  /** SIWE domains accepted; empty means the default `HOST:PORT` the node listens on. */
  domains: string[];
  /** 0x + 64 hex, from --node-key / NEUTRAL_NODE_KEY; absent means the key file in the data dir (or the database's key). */
  nodeKey?: string;
  /** postgres:// URL: PostgreSQL instead of SQLite in the data dir. A secret (it may hold a password). */
  databaseUrl?: string;
  /** PostgreSQL connections per serving process. */
  databasePoolSize: number;
  /** SQLite: how much of the database file each serving process reads through a memory map, MiB; 0: read calls only. */
  sqliteMmapMib: number;
  logLevel: LogLevel;
  /** Processes serving HTTP (SQLite in WAL lets them share the file). */
  workers: number;
  /** Cost units per second per client IP, per node (burst: twice that; limits/request-costs.ts); 0 turns the limit off. */
  rateLimit: number;
  /** Cost units per second per peer node, per node (burst: twice that; a delivery costs per message and record: limits/request-costs.ts); 0 turns the limit off. */
  peerRateLimit: number;
  /** Machines enforcing this node's per-node limits (PostgreSQL replicas): each enforces its share. */
  replicas: number;
  limits: Limits;
  /** Connections, timeouts and the memory held for clients (issue 19: findings 2, 3, 5). */
  connections: ConnectionConfig;
  /** The nodes this one federates with, and how it delivers to them (issue 21). */
  federation: FederationConfig;
  /** Live delivery's limits (issue 22). */
  live: LiveConfig;
  /** Where GET /metrics is served (Prometheus): by default nowhere. */
  metrics: MetricsConfig;
}

/** The operator's choice of where the node's metrics are served: a port of their own, the public port behind a token, both, or neither (the default). */
export interface MetricsConfig {
  /** A listener of its own on `host` (0 picks a free port); absent: none. */
  port?: number;
  host: string;
  /** The bearer token that unlocks GET /metrics on the public port; absent: 404 there. A secret. */
  token?: string;
}

/** A peer as the operator lists it: its URL, and optionally the node address it must have. */
export interface PeerConfig {
  /** Base URL, without a trailing slash. */
  url: string;
  /** Lowercase 0x address the peer's signatures must recover (`URL#0xADDRESS`); absent: the first address seen is pinned. */
  address?: string;
}

export interface FederationConfig {
  /** The base URL peers reach this node at; absent means `http://HOST:PORT` once the port is known. */
  publicUrl?: string;
  peers: PeerConfig[];
  /** How long sendMessage waits for a remote receipt before answering the pending message. */
  deliveryWaitMs: number;
  /** How long a message to another node is retried before it fails. */
  retryPeriodSeconds: number;
  /** The first retry's delay; each further one doubles it (with jitter), up to `retryBackoffMaxMs`. */
  retryBackoffMs: number;
  retryBackoffMaxMs: number;
  /** How long what peers said of an account (its home record, its key bundle, or that they have none) is trusted before asking again. */
  directoryTtlMs: number;
  /** How long a call to a peer may take (a delivery batch); directory lookups wait at most the smaller of this and 2 s. */
  peerTimeoutMs: number;
}

/** The limits a node enforces and nodeInfo reports (`limits`): the spec's, as the operator set them. */
export interface Limits {
  maxLimit: number;
  maxBatch: number;
  maxBodyBytes: number;
  maxMessageBytes: number;
  clockSkewMs: number;
  /** The answer budget of one HTTP request, bytes of message JSON (openrpc.json `maxResponseBytes`). */
  maxResponseBytes: number;
  /** With since/until, the most mailbox entries one page examines per range (`maxPageScan`). */
  maxPageScan: number;
  /** How long a message is kept after this node stored it, seconds; 0: until its owner deletes it (`retentionSeconds`). */
  retentionSeconds: number;
  /** Per client IP, per node: cost units per second (limits/request-costs.ts); absent: off. */
  rateLimit?: number;
  /** Per peer node, per node: cost units per second of node-to-node calls (limits/request-costs.ts); absent: off. */
  peerRateLimit?: number;
  /** The storage quotas' period, present when one is on; each quota is per node, absent when off. */
  quotaPeriodSeconds?: number;
  senderQuotaMessages?: number;
  senderQuotaBytes?: number;
  recipientQuotaMessages?: number;
  recipientQuotaBytes?: number;
  /** Messages one sender may leave in one recipient's requests folder per period (consent); absent when off. */
  requestQuotaMessages?: number;
}

/** Live delivery (neutralService_subscribe), as nodeInfo reports it in `limits`. */
export interface LiveConfig {
  /** Open streams per process; one more is refused (-32029). */
  maxSubscriptions: number;
  /** Open streams per account and process; one more ends the account's oldest. */
  maxSubscriptionsPerAccount: number;
  /** Bytes of events a stream lets wait for its client. */
  subscriptionBufferBytes: number;
  /** How long that buffer may stay full before the stream ends (slow consumer). */
  subscriptionStallMs: number;
  /** Keep-alive interval of an idle stream. */
  keepAliveMs: number;
}

export interface ConnectionConfig {
  /** Open connections per node; past it a new one is reset at once. */
  maxConnections: number;
  /** Open connections per client IP (IPv6: per /64), per node; 0 = off. */
  maxConnectionsPerIp: number;
  /** Of `maxConnections`, how many event streams never take: room kept for ordinary requests (issue 33, finding 4). */
  reservedConnections: number;
  /** A request's headers must arrive within this, from the connection's start or the request's first byte (else 408, closed). */
  headersTimeoutMs: number;
  /** A whole request, body included, must arrive within this (else 408, closed). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** An answer its client has not taken this long after it was written is abandoned (connection destroyed). */
  writeTimeoutMs: number;
  /** Per worker process: bytes of request bodies and unsent answers held for all clients; past it -32029 / 503. */
  maxBufferedBytes: number;
  /** Per worker process and client IP: the same, past it -32029 / 429; 0 = off. */
  maxBufferedBytesPerIp: number;
}

/**
 * How long after its timestamp a message may still arrive at this node (openrpc.json "Retention and
 * deletion"): a resend within the clock skew, a peer's delivery within the retry period and the
 * clock skew. A delivery older than that is refused for good, and a message swept sooner keeps its
 * digest that long, so that it is never stored twice.
 */
export const arrivalWindowMs = (config: { federation: Pick<FederationConfig, "retryPeriodSeconds">; limits: Pick<Limits, "clockSkewMs"> }): number =>
  config.federation.retryPeriodSeconds * 1000 + config.limits.clockSkewMs;

/**
 * The streams one serving process keeps open at most: `--max-subscriptions`, and its share of the
 * connections streams may take (`--max-connections` less `--reserved-connections`, split between
 * the workers), so that streams never take the room ordinary requests need (issue 33, finding 4).
 */
export const streamsPerProcess = (config: Pick<RelayConfig, "workers" | "live" | "connections">): number =>
  Math.max(1, Math.min(config.live.maxSubscriptions, Math.floor((config.connections.maxConnections - config.connections.reservedConnections) / config.workers)));

/** Whether the operator asked for metrics at all (a port or a token): otherwise nothing is counted. */
export const metricsWanted = (config: MetricsConfig): boolean => config.port !== undefined || config.token !== undefined;

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

interface Flag {
  env: string;
  help: string;
  default?: string;
  multiple?: boolean;
}

/** The largest memory map SQLite takes (better-sqlite3 builds it with SQLITE_MAX_MMAP_SIZE 0x7fff0000 bytes). */
const MAX_SQLITE_MMAP_MIB = 2047;
/**
 * Off: workers read the database with read calls. Mapped, reads skip a system call and a copy per
 * page (a few per cent of a getInbox's relay CPU in bench 2c), but the pages read through the map count in
 * the workers' resident memory (a 1 GiB map: ~970 MB RSS after the 1M-message bench's reads), so
 * it is the operator's choice (relay README, "Retention and deletion"). It did not reliably lessen
 * the retention sweep's cost to reads (2c: 0.88-1.00 over four runs).
 */
export const DEFAULT_SQLITE_MMAP_MIB = 0;

const FLAGS = {
  host: { env: "NEUTRAL_HOST", default: "127.0.0.1", help: "interface to listen on" },
  port: { env: "NEUTRAL_PORT", default: "8645", help: "TCP port; 0 picks a free one" },
  "data-dir": { env: "NEUTRAL_DATA_DIR", default: "./data", help: "where the database and the node key live" },
  domain: {
    env: "NEUTRAL_DOMAIN",
    multiple: true,
    help: "Sign-In with Ethereum domain accepted in tokens; repeat the flag or give a comma list (default: HOST:PORT)",
  },
  "node-key": {
    env: "NEUTRAL_NODE_KEY",
    help: "0x hex private key that signs receipts (default: generated on first start into DATA_DIR/node.key, mode 0600); prefer the variable, flags show in ps",
  },
  "database-url": {
    env: "NEUTRAL_DATABASE_URL",
    help: "postgres://user:password@host:port/database: store in PostgreSQL (replicas on one database are one node) instead of SQLite in DATA_DIR; prefer the variable, flags show in ps",
  },
  "database-pool-size": { env: "NEUTRAL_DATABASE_POOL_SIZE", default: "10", help: "PostgreSQL connections per worker process" },
  "sqlite-mmap-mib": {
    env: "NEUTRAL_SQLITE_MMAP_MIB",
    default: String(DEFAULT_SQLITE_MMAP_MIB),
    help: "SQLite: MiB of the database file each worker reads through a memory map rather than read calls (up to 2047; the pages read count in the worker's resident memory); 0 = off",
  },
  "log-level": { env: "NEUTRAL_LOG_LEVEL", default: "info", help: LOG_LEVELS.join(" | ") },
  workers: { env: "NEUTRAL_WORKERS", default: String(Math.min(64, os.availableParallelism())), help: "HTTP worker processes (default: one per core)" },
  "rate-limit": {
    env: "NEUTRAL_RATE_LIMIT",
    default: "100",
    help: "per client IP and node: cost units per second, burst twice that (each JSON-RPC entry 1, +1 if it checks a signature: sendMessage, publishKey, publishHome; +1 per bearer token verified afresh); 0 = off",
  },
  "peer-rate-limit": {
    env: "NEUTRAL_PEER_RATE_LIMIT",
    default: "10000",
    help: "per peer node and node: cost units per second of its node-to-node calls, burst twice that (a delivery 1, +2 per message, +1 per home record it carries; a lookup 1, +1 per home record); past it the peer gets 429 and retries later; 0 = off",
  },
  replicas: {
    env: "NEUTRAL_REPLICAS",
    default: "1",
    help: "replicas serving this node (one PostgreSQL database): each enforces 1/N of the per-node rate limit and quotas",
  },
  "quota-period": { env: "NEUTRAL_QUOTA_PERIOD", default: "3600", help: "seconds: the period of the four storage quotas below" },
  "sender-quota-messages": { env: "NEUTRAL_SENDER_QUOTA_MESSAGES", default: "10000", help: "messages one sender may store per period, per node; 0 = off" },
  "sender-quota-bytes": { env: "NEUTRAL_SENDER_QUOTA_BYTES", default: String(100 * 1024 * 1024), help: "bytes of ciphertext one sender may store per period, per node; 0 = off" },
  "recipient-quota-messages": { env: "NEUTRAL_RECIPIENT_QUOTA_MESSAGES", default: "20000", help: "messages one recipient's mailbox may receive per period, per node; 0 = off" },
  "recipient-quota-bytes": {
    env: "NEUTRAL_RECIPIENT_QUOTA_BYTES",
    default: String(200 * 1024 * 1024),
    help: "bytes of ciphertext one recipient's mailbox may receive per period, per node; 0 = off",
  },
  "request-quota-messages": {
    env: "NEUTRAL_REQUEST_QUOTA_MESSAGES",
    default: "5",
    help: "messages one sender may leave per period in the requests folder of one recipient who has not allowed it (consent: allowed-only); 0 = off",
  },
  "max-body-bytes": { env: "NEUTRAL_MAX_BODY_BYTES", default: String(DEFAULT_LIMITS.maxBodyBytes), help: "largest request body" },
  "max-batch": { env: "NEUTRAL_MAX_BATCH", default: String(DEFAULT_LIMITS.maxBatch), help: "most entries in one batch" },
  "max-message-bytes": { env: "NEUTRAL_MAX_MESSAGE_BYTES", default: String(DEFAULT_LIMITS.maxMessageBytes), help: "largest message body, in bytes of ciphertext" },
  "max-response-bytes": {
    env: "NEUTRAL_MAX_RESPONSE_BYTES",
    default: String(DEFAULT_LIMITS.maxResponseBytes),
    help: "answer budget of one HTTP request, bytes of message JSON: pages stop short of it, batch entries past it get -32005",
  },
  retention: {
    env: "NEUTRAL_RETENTION",
    default: `${DEFAULT_LIMITS.retentionSeconds}`,
    help: "how long a message is kept after this node stored it, then no longer served and deleted: seconds, or a number with s, m, h or d; 0 = until its owner deletes it",
  },
  "max-page-scan": { env: "NEUTRAL_MAX_PAGE_SCAN", default: String(DEFAULT_LIMITS.maxPageScan), help: "with since/until, most messages one page examines per mailbox part; the page then stops early with a cursor" },
  "clock-skew-ms": { env: "NEUTRAL_CLOCK_SKEW_MS", default: String(DEFAULT_LIMITS.clockSkewMs), help: "accepted distance of a message timestamp from the node's clock; also how far ahead a key bundle's may be" },
  "max-subscriptions": { env: "NEUTRAL_MAX_SUBSCRIPTIONS", default: "10000", help: "open subscribe streams per worker process; one more is refused (-32029, Retry-After)" },
  "max-subscriptions-per-account": {
    env: "NEUTRAL_MAX_SUBSCRIPTIONS_PER_ACCOUNT",
    default: "8",
    help: "open subscribe streams per account and worker process; one more ends the account's oldest (end reason \"limit\")",
  },
  "subscription-buffer-bytes": {
    env: "NEUTRAL_SUBSCRIPTION_BUFFER_BYTES",
    default: String(64 * 1024),
    help: "events a stream lets wait for its client to read; past it the node reads no more for that stream until the client catches up",
  },
  "subscription-stall-ms": { env: "NEUTRAL_SUBSCRIPTION_STALL_MS", default: "30000", help: "a stream whose buffer stays full this long is ended (end reason \"slow-consumer\")" },
  "keep-alive-ms": { env: "NEUTRAL_KEEP_ALIVE_MS", default: "15000", help: "keep-alive comment interval of an idle stream (at most 15000)" },
  "public-url": {
    env: "NEUTRAL_PUBLIC_URL",
    help: "the base URL peers reach this node at, reported by nodeInfo (default http://HOST:PORT)",
  },
  peer: {
    env: "NEUTRAL_PEERS",
    multiple: true,
    help: "a node to federate with: its base URL, or URL#0xADDRESS to pin its node address (otherwise the first one seen is pinned); repeat the flag or give a comma list (default: none, a node on its own)",
  },
  "delivery-wait-ms": { env: "NEUTRAL_DELIVERY_WAIT_MS", default: "2000", help: "how long sendMessage waits for the receipt of the recipient's node (another node) before answering the pending message" },
  "retry-period": { env: "NEUTRAL_RETRY_PERIOD", default: String(72 * 3600), help: "seconds a message to another node is retried before it fails" },
  "retry-backoff-ms": { env: "NEUTRAL_RETRY_BACKOFF_MS", default: "1000", help: "the first retry of a failed delivery to a node comes after this; each next one waits twice as long (with jitter)" },
  "retry-backoff-max-ms": { env: "NEUTRAL_RETRY_BACKOFF_MAX_MS", default: String(30 * 60_000), help: "the longest wait between two delivery attempts to one node" },
  "directory-ttl-ms": { env: "NEUTRAL_DIRECTORY_TTL_MS", default: String(5 * 60_000), help: "how long what peers said of an account (home record, key bundle, or none) is trusted before they are asked again" },
  "peer-timeout-ms": { env: "NEUTRAL_PEER_TIMEOUT_MS", default: "10000", help: "how long a call to a peer (a delivery) may take; directory lookups wait at most the smaller of this and 2 s" },
  "max-connections": {
    env: "NEUTRAL_MAX_CONNECTIONS",
    default: "10000",
    help: "open connections per node (each worker also stays 256 + pool size under its open-file limit); past it a new connection is reset at once",
  },
  "max-connections-per-ip": {
    env: "NEUTRAL_MAX_CONNECTIONS_PER_IP",
    default: "256",
    help: "open connections per client IP (IPv6: per /64), per node; past it a new connection is reset at once; 0 = off (behind a proxy)",
  },
  "reserved-connections": {
    env: "NEUTRAL_RESERVED_CONNECTIONS",
    help: "of --max-connections, how many subscribe streams never take: kept for ordinary requests; each worker process holds at most (max-connections - this) / workers streams, shedding the oldest stream of the address holding the most when a new address subscribes (default: a tenth of --max-connections)",
  },
  "headers-timeout-ms": { env: "NEUTRAL_HEADERS_TIMEOUT_MS", default: "10000", help: "a request's headers must arrive within this from the connection's start (or the request's first byte); else 408 and closed" },
  "request-timeout-ms": { env: "NEUTRAL_REQUEST_TIMEOUT_MS", default: "30000", help: "a whole request, body included, must arrive within this; else 408 and closed" },
  "keep-alive-timeout-ms": { env: "NEUTRAL_KEEP_ALIVE_TIMEOUT_MS", default: "65000", help: "an idle keep-alive connection is closed after this (above common load balancers' 60 s)" },
  "write-timeout-ms": { env: "NEUTRAL_WRITE_TIMEOUT_MS", default: "30000", help: "an answer the client has not read this long after it was written is abandoned: connection closed" },
  "max-buffered-bytes": {
    env: "NEUTRAL_MAX_BUFFERED_BYTES",
    default: String(32 * 1024 * 1024),
    help: "per worker process: request bodies and unsent answers held for all clients; past it JSON-RPC requests get 503 / -32029 with Retry-After",
  },
  "max-buffered-bytes-per-ip": {
    env: "NEUTRAL_MAX_BUFFERED_BYTES_PER_IP",
    default: String(8 * 1024 * 1024),
    help: "per worker process and client IP: the same; past it 429 / -32029 with Retry-After; 0 = off (behind a proxy)",
  },
  "metrics-port": {
    env: "NEUTRAL_METRICS_PORT",
    help: "serve GET /metrics (Prometheus text) on this port of --metrics-host, for the whole node; 0 picks a free one (default: no such listener)",
  },
  "metrics-host": { env: "NEUTRAL_METRICS_HOST", default: "127.0.0.1", help: "interface of the --metrics-port listener" },
  "metrics-token": {
    env: "NEUTRAL_METRICS_TOKEN",
    help: "also serve GET /metrics on the public port, to requests with Authorization: Bearer TOKEN (16 to 256 visible ASCII characters; default: 404 there); prefer the variable, flags show in ps",
  },
} satisfies Record<string, Flag>;

type FlagName = keyof typeof FLAGS;

export function helpText(): string {
  const lines = [
    "neutral-relay: a neutralService node (JSON-RPC 2.0 over HTTP; SQLite, or PostgreSQL for replicas)",
    "",
    "Usage: pnpm start [flags]      (or: node packages/relay/dist/main.js [flags])",
    "",
    "Flags (each also an environment variable; a flag wins over its variable):",
  ];
  for (const [name, flag] of Object.entries(FLAGS) as [FlagName, Flag][]) {
    const fallback = flag.default !== undefined ? ` (default ${flag.default})` : "";
    lines.push(`  --${name.padEnd(24)} ${flag.env.padEnd(32)} ${flag.help}${flag.help.includes("default") ? "" : fallback}`);
  }
  lines.push(`  --${"help".padEnd(24)} ${"".padEnd(32)} this text`, "");
  lines.push("Serves JSON-RPC on POST /, plus GET / (what this node is, where the rest is), /health, /ready, /openrpc.json and /docs/.");
  return lines.join("\n");
}

function integer(name: FlagName, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new ConfigError(`--${name} must be an integer in ${min}..${max}, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

/** The `ConnectionConfig` flags, checked against each other and against the largest body. */
function connectionConfig(
  integer: (name: FlagName, text: string, min: number, max: number) => number,
  value: (name: FlagName) => string | undefined,
  maxBodyBytes: number,
): ConnectionConfig {
  const required = (name: FlagName) => value(name)!;
  const timeout = (name: FlagName) => integer(name, required(name), 1000, 3_600_000);
  const maxConnections = integer("max-connections", required("max-connections"), 1, 10_000_000);
  const reserved = value("reserved-connections");
  const config: ConnectionConfig = {
    maxConnections,
    maxConnectionsPerIp: integer("max-connections-per-ip", required("max-connections-per-ip"), 0, 10_000_000),
    reservedConnections: reserved === undefined ? Math.floor(maxConnections / 10) : integer("reserved-connections", reserved, 0, maxConnections - 1),
    headersTimeoutMs: timeout("headers-timeout-ms"),
    requestTimeoutMs: timeout("request-timeout-ms"),
    keepAliveTimeoutMs: timeout("keep-alive-timeout-ms"),
    writeTimeoutMs: timeout("write-timeout-ms"),
    maxBufferedBytes: integer("max-buffered-bytes", required("max-buffered-bytes"), 1024, Number.MAX_SAFE_INTEGER),
    maxBufferedBytesPerIp: integer("max-buffered-bytes-per-ip", required("max-buffered-bytes-per-ip"), 0, Number.MAX_SAFE_INTEGER),
  };
  if (config.headersTimeoutMs > config.requestTimeoutMs) throw new ConfigError("--headers-timeout-ms must not exceed --request-timeout-ms");
  // A body is held whole while it arrives: a bound below the largest body would refuse it every time.
  if (config.maxBufferedBytes < maxBodyBytes) throw new ConfigError(`--max-buffered-bytes must be at least --max-body-bytes (${maxBodyBytes})`);
  if (config.maxBufferedBytesPerIp > 0 && config.maxBufferedBytesPerIp < maxBodyBytes) {
    throw new ConfigError(`--max-buffered-bytes-per-ip must be 0 or at least --max-body-bytes (${maxBodyBytes})`);
  }
  return config;
}

/** A base URL without its trailing slash, or a ConfigError naming the flag. */
function baseUrl(flag: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${flag} must be an http:// or https:// URL, got ${JSON.stringify(text.slice(0, 200))}`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
    throw new ConfigError(`${flag} must be an http:// or https:// base URL without credentials, query or fragment, got ${JSON.stringify(text.slice(0, 200))}`);
  }
  return url.href.replace(/\/+$/, "");
}

/** `URL` or `URL#0xADDRESS` → a peer. */
function peerOf(text: string): PeerConfig {
  const hash = text.indexOf("#");
  const url = baseUrl("--peer", hash === -1 ? text : text.slice(0, hash));
  if (hash === -1) return { url };
  const address = text.slice(hash + 1);
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new ConfigError(`--peer ${url}#…: the pinned node address must be 0x followed by 40 hex digits`);
  return { url, address: address.toLowerCase() };
}

const DURATION_UNITS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

/** Seconds from `90d`, `12h`, `30m`, `45s` or a plain number of seconds: 0 to ten years. */
function duration(name: FlagName, text: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(text.trim());
  const seconds = match ? Number(match[1]) * DURATION_UNITS[(match[2] || "s") as keyof typeof DURATION_UNITS] : Number.NaN;
  if (!Number.isSafeInteger(seconds) || seconds > 3650 * 86_400) {
    throw new ConfigError(`--${name} must be a duration of at most 3650d: seconds, or a number with s, m, h or d (got ${JSON.stringify(text)})`);
  }
  return seconds;
}

function federationConfig(value: (name: FlagName) => string | undefined, flags: unknown, variable: string | undefined): FederationConfig {
  const lists = Array.isArray(flags) && flags.length > 0 ? (flags as string[]) : variable ? [variable] : [];
  const peers = lists
    .flatMap((list) => list.split(","))
    .map((peer) => peer.trim())
    .filter((peer) => peer !== "")
    .map(peerOf);
  const seen = new Set<string>();
  for (const peer of peers) {
    if (seen.has(peer.url)) throw new ConfigError(`--peer ${peer.url} is listed twice`);
    seen.add(peer.url);
  }
  const publicUrl = value("public-url");
  const number = (name: FlagName, min: number, max: number) => integer(name, value(name)!, min, max);
  const config: FederationConfig = {
    ...(publicUrl !== undefined && { publicUrl: baseUrl("--public-url", publicUrl) }),
    peers,
    deliveryWaitMs: number("delivery-wait-ms", 0, 60_000),
    retryPeriodSeconds: number("retry-period", 1, 365 * 24 * 3600),
    retryBackoffMs: number("retry-backoff-ms", 1, 24 * 3600_000),
    retryBackoffMaxMs: number("retry-backoff-max-ms", 1, 24 * 3600_000),
    directoryTtlMs: number("directory-ttl-ms", 0, 7 * 24 * 3600_000),
    peerTimeoutMs: number("peer-timeout-ms", 100, 600_000),
  };
  if (config.retryBackoffMaxMs < config.retryBackoffMs) throw new ConfigError("--retry-backoff-max-ms must be at least --retry-backoff-ms");
  return config;
}

function metricsConfig(value: (name: FlagName) => string | undefined): MetricsConfig {
  const port = value("metrics-port");
  const token = value("metrics-token");
  // Never echo the token: a wrong one may be a right one with a typo.
  if (token !== undefined && !/^[\x21-\x7e]{16,256}$/.test(token)) throw new ConfigError("--metrics-token must be 16 to 256 visible ASCII characters (no spaces)");
  return {
    ...(port !== undefined && { port: integer("metrics-port", port, 0, 65535) }),
    host: value("metrics-host")!,
    ...(token !== undefined && { token }),
  };
}

export type ParsedCommandLine = { help: true } | { help: false; config: RelayConfig };

/** Flags, then environment variables, then defaults. Throws ConfigError naming the bad flag. */
export function parseConfig(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ParsedCommandLine {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        ...Object.fromEntries(
          (Object.entries(FLAGS) as [FlagName, Flag][]).map(([name, flag]) => [name, { type: "string", multiple: flag.multiple === true }]),
        ),
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new ConfigError(`${(error as Error).message}\nRun with --help for the flags.`);
  }
  const values = parsed.values as Record<string, string | string[] | boolean | undefined>;
  if (values.help) return { help: true };

  const value = (name: FlagName): string | undefined => {
    const given = values[name];
    if (typeof given === "string") return given;
    return env[FLAGS[name].env] ?? (FLAGS[name] as Flag).default;
  };
  const required = (name: FlagName) => value(name)!;

  const domainValues = values.domain;
  const domains = (Array.isArray(domainValues) && domainValues.length > 0 ? domainValues : env.NEUTRAL_DOMAIN ? [env.NEUTRAL_DOMAIN] : [])
    .flatMap((list) => list.split(","))
    .map((domain) => domain.trim())
    .filter((domain) => domain !== "");

  const federation = federationConfig(value, values.peer, env.NEUTRAL_PEERS);

  const nodeKey = value("node-key");
  if (nodeKey !== undefined && !/^0x[0-9a-fA-F]{64}$/.test(nodeKey)) {
    throw new ConfigError("--node-key must be 0x followed by 64 hex digits"); // never echo a secret
  }
  const databaseUrl = value("database-url");
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/[^\s]+$/.test(databaseUrl)) {
    throw new ConfigError("--database-url must be a postgres:// or postgresql:// URL"); // never echo it: it may hold a password
  }
  const logLevel = required("log-level") as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`--log-level must be one of ${LOG_LEVELS.join(", ")}`);
  const replicas = integer("replicas", required("replicas"), 1, 1000);
  const maxMessageBytes = integer("max-message-bytes", required("max-message-bytes"), 1, 16 * 1024 * 1024);
  const quota = (name: "sender-quota-messages" | "sender-quota-bytes" | "recipient-quota-messages" | "recipient-quota-bytes" | "request-quota-messages") => {
    const figure = integer(name, required(name), 0, Number.MAX_SAFE_INTEGER);
    // Each replica enforces its share: a share smaller than one message could never be used.
    if (name.endsWith("bytes") && figure > 0 && Math.ceil(figure / replicas) < maxMessageBytes) {
      throw new ConfigError(`--${name} must be 0 or at least --max-message-bytes (${maxMessageBytes}) × --replicas (${replicas})`);
    }
    return figure;
  };
  const quotas = {
    senderQuotaMessages: quota("sender-quota-messages"),
    senderQuotaBytes: quota("sender-quota-bytes"),
    recipientQuotaMessages: quota("recipient-quota-messages"),
    recipientQuotaBytes: quota("recipient-quota-bytes"),
    requestQuotaMessages: quota("request-quota-messages"),
  };
  const quotaPeriodSeconds = integer("quota-period", required("quota-period"), 1, 30 * 24 * 3600);
  const connections = connectionConfig(integer, value, integer("max-body-bytes", required("max-body-bytes"), 1024, 64 * 1024 * 1024));
  const quotasOn = Object.values(quotas).some((figure) => figure > 0);
  const metrics = metricsConfig(value);

  return {
    help: false,
    config: {
      host: required("host"),
      port: integer("port", required("port"), 0, 65535),
      dataDir: required("data-dir"),
      domains,
      ...(nodeKey !== undefined && { nodeKey }),
      ...(databaseUrl !== undefined && { databaseUrl }),
      databasePoolSize: integer("database-pool-size", required("database-pool-size"), 1, 1000),
      sqliteMmapMib: integer("sqlite-mmap-mib", required("sqlite-mmap-mib"), 0, MAX_SQLITE_MMAP_MIB),
      federation,
      logLevel,
      workers: integer("workers", required("workers"), 1, 64),
      rateLimit: integer("rate-limit", required("rate-limit"), 0, 1_000_000),
      peerRateLimit: integer("peer-rate-limit", required("peer-rate-limit"), 0, 100_000_000),
      replicas,
      connections,
      metrics,
      live: {
        maxSubscriptions: integer("max-subscriptions", required("max-subscriptions"), 1, 10_000_000),
        maxSubscriptionsPerAccount: integer("max-subscriptions-per-account", required("max-subscriptions-per-account"), 1, 10_000),
        subscriptionBufferBytes: integer("subscription-buffer-bytes", required("subscription-buffer-bytes"), 1024, 1024 * 1024 * 1024),
        subscriptionStallMs: integer("subscription-stall-ms", required("subscription-stall-ms"), 100, 3_600_000),
        keepAliveMs: integer("keep-alive-ms", required("keep-alive-ms"), 100, 15_000),
      },
      limits: {
        maxLimit: MAX_PAGE_LIMIT, // fixed by the spec's Limit schema
        maxBatch: integer("max-batch", required("max-batch"), 1, 10_000),
        maxBodyBytes: integer("max-body-bytes", required("max-body-bytes"), 1024, 64 * 1024 * 1024),
        maxMessageBytes,
        clockSkewMs: integer("clock-skew-ms", required("clock-skew-ms"), 0, Number.MAX_SAFE_INTEGER),
        maxResponseBytes: integer("max-response-bytes", required("max-response-bytes"), 1024, 1024 * 1024 * 1024),
        maxPageScan: integer("max-page-scan", required("max-page-scan"), 101, 1_000_000),
        retentionSeconds: duration("retention", required("retention")),

        ...(quotasOn && { quotaPeriodSeconds }),
        ...(quotas.senderQuotaMessages > 0 && { senderQuotaMessages: quotas.senderQuotaMessages }),
        ...(quotas.senderQuotaBytes > 0 && { senderQuotaBytes: quotas.senderQuotaBytes }),
        ...(quotas.recipientQuotaMessages > 0 && { recipientQuotaMessages: quotas.recipientQuotaMessages }),
        ...(quotas.recipientQuotaBytes > 0 && { recipientQuotaBytes: quotas.recipientQuotaBytes }),
        ...(quotas.requestQuotaMessages > 0 && { requestQuotaMessages: quotas.requestQuotaMessages }),
      },
    },
  };
}
