// Every setting of a node, declared once: its flag (also its key in a `--config` file), its
// environment variable, its default, its range and its help. The config's type (`RelayConfig`),
// the parsing (config.ts), `--help`, the README's table and the config tests all come from here.
// The table's shape is the config's: a section here is a section there.
import os from "node:os";
import { parseProxyBlock } from "../http/client-address.js";
import { DEFAULT_LIMITS } from "@neutral/protocol";
import { choice, ConfigError, duration, integer, list, secret, text, url, baseUrl, type Declared, type Setting } from "./setting-kinds.js";
import { DEFAULT_READ_STATEMENTS } from "../storage/postgres-pages.js";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
/** How log lines are written (`--log-format`). */
export const LOG_FORMATS = ["auto", "json", "pretty"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A peer as the operator lists it: its URL, and optionally the node address it must have. */
export interface PeerConfig {
  /** Base URL, without a trailing slash. */
  url: string;
  /** Lowercase 0x address the peer's signatures must recover (`URL#0xADDRESS`); absent: the first address seen is pinned. */
  address?: string;
}

/** `URL` or `URL#0xADDRESS` → a peer. */
function peerOf(text: string, name: string): PeerConfig {
  const hash = text.indexOf("#");
  const url = baseUrl(name, hash === -1 ? text : text.slice(0, hash));
  if (hash === -1) return { url };
  const address = text.slice(hash + 1);
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new ConfigError(`${name} ${url}#…: the pinned node address must be 0x followed by 40 hex digits`);
  return { url, address: address.toLowerCase() };
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

/**
 * ~16,000 accounts' pages of 20 with a compact proof listing their positions (~4 KB each) per
 * worker, ~37,000 as the SDK asks them (`omitBound`, ~1.7 KB): a device that reads its inbox again
 * while nothing new came gets the same proof without a read of the log (bench/HISTORY.md, "Proofs
 * kept while a log does not grow").
 */
export const DEFAULT_KEPT_PROOFS_MIB = 64;

const LIMITS = "#limits-and-what-a-client-sees";
const MAX = Number.MAX_SAFE_INTEGER;
const HOUR_MS = 3_600_000;

const DECLARED = {
  host: text({ default: "127.0.0.1", help: "interface to listen on" }),
  port: integer({ min: 0, max: 65535, default: 8645, help: "TCP port; 0 picks a free one (the listening line says which; workers started later to replace dead ones listen on that same port)" }),
  dataDir: text({ default: "./data", help: "where the database (neutral.sqlite) and the node key (node.key) live" }),
  domains: list({
    flag: "domain",
    item: (domain) => domain,
    defaultNote: "HOST:PORT",
    help: "Sign-In with Ethereum domain accepted in tokens; repeat the flag or give a comma list. A loopback one (and the default on a loopback or wildcard HOST) also accepts the machine's other loopback names at its port: localhost, 127.0.0.1, [::1]",
  }),
  nodeKey: secret({
    pattern: /^0x[0-9a-fA-F]{64}$/,
    expected: "0x followed by 64 hex digits",
    defaultNote: "generated on first start into DATA_DIR/node.key, mode 0600",
    help: "0x hex private key that signs receipts",
  }),
  databaseUrl: secret({
    pattern: /^postgres(ql)?:\/\/[^\s]+$/,
    expected: "a postgres:// or postgresql:// URL",
    defaultNote: "none: SQLite in DATA_DIR",
    docs: "#postgresql-and-replicas",
    help: "postgres://user:password@host:port/database: store in PostgreSQL (replicas on one database are one node) instead of SQLite",
  }),
  databasePoolSize: integer({ min: 1, max: 1000, default: 10, help: "PostgreSQL connections per worker process" }),
  databaseReadStatements: integer({
    min: 1,
    max: 1000,
    default: DEFAULT_READ_STATEMENTS,
    docs: "#postgresql-and-replicas",
    help: "PostgreSQL: page reads in flight per worker process; pages asked meanwhile wait and go together, one statement per page shape (fewer backends at work at once cost each page less CPU)",
  }),
  sqliteMmapMib: integer({
    min: 0,
    max: MAX_SQLITE_MMAP_MIB,
    default: DEFAULT_SQLITE_MMAP_MIB,
    docs: "#retention-and-deletion",
    help: "SQLite: MiB of the database file each worker reads through a memory map rather than read calls (at most SQLite's largest map); saves a system call and a copy per page read, and the pages read count in the worker's resident memory; 0 = off",
  }),
  keptProofsMib: integer({
    min: 0,
    max: 4096,
    default: DEFAULT_KEPT_PROOFS_MIB,
    docs: "#the-mailbox-log-the-verifiable-mailbox",
    help: "MiB of page proofs each worker keeps, the last per account read with `proof`, served again while its log does not grow (~1.7 KB a page of 20 as the SDK asks it, ~4 KB with its positions listed); 0 = off",
  }),
  logLevel: choice({ values: LOG_LEVELS, default: "info", help: LOG_LEVELS.join(" | ") }),
  logFormat: choice({
    values: LOG_FORMATS,
    default: "auto",
    help: "json: a JSON object a line, for log collectors; pretty: a line a person reads (time, level, message, then the fields); auto: pretty when stdout is a terminal, else json",
  }),
  workers: integer({ min: 1, max: 64, default: Math.min(64, os.availableParallelism()), defaultNote: "one per core", help: "HTTP worker processes sharing the port and the database" }),
  rateLimit: integer({
    min: 0,
    max: 1_000_000,
    default: 100,
    docs: LIMITS,
    help: "per client IP and node: cost units per second, burst twice that (each JSON-RPC entry 1, +1 if it checks a signature: sendMessage, publishKey, publishHome; +1 per bearer token verified afresh); 0 = off",
  }),
  peerRateLimit: integer({
    min: 0,
    max: 100_000_000,
    default: 10_000,
    docs: "#security",
    help: "per peer node and node: cost units per second of its node-to-node calls, burst twice that (a delivery 1, +2 per message, +1 per home record it carries; a lookup 1, +1 per home record); past it the peer gets 429 and retries later; 0 = off",
  }),
  replicas: integer({ min: 1, max: 1000, default: 1, docs: LIMITS, help: "replicas serving this node (one PostgreSQL database): each enforces 1/N of the per-node rate limit and quotas" }),
  /** The protocol's limits, reported by nodeInfo (seeds/README.md §8). */
  limits: {
    maxBodyBytes: integer({ min: 1024, max: 64 * 1024 * 1024, default: DEFAULT_LIMITS.maxBodyBytes, docs: LIMITS, help: "largest request body" }),
    maxBatch: integer({ min: 1, max: 10_000, default: DEFAULT_LIMITS.maxBatch, docs: LIMITS, help: "most entries in one batch" }),
    maxMessageBytes: integer({ min: 1, max: 16 * 1024 * 1024, default: DEFAULT_LIMITS.maxMessageBytes, docs: LIMITS, help: "largest message body, in bytes of ciphertext" }),
    maxResponseBytes: integer({
      min: 1024,
      max: 1024 * 1024 * 1024,
      default: DEFAULT_LIMITS.maxResponseBytes,
      docs: LIMITS,
      help: "answer budget of one HTTP request, bytes of message JSON: pages stop short of it, batch entries past it get -32005",
    }),
    maxPageScan: integer({
      min: 101,
      max: 1_000_000,
      default: DEFAULT_LIMITS.maxPageScan,
      docs: LIMITS,
      help: "with since/until, most messages one page examines per mailbox part; the page then stops early with a cursor",
    }),
    clockSkewMs: integer({ min: 0, max: MAX, default: DEFAULT_LIMITS.clockSkewMs, help: "accepted distance of a message timestamp from the node's clock; also how far ahead a key bundle's may be" }),
    retentionSeconds: duration({
      flag: "retention",
      default: String(DEFAULT_LIMITS.retentionSeconds),
      maxDays: 3650,
      docs: "#retention-and-deletion",
      help: "how long a message is kept after this node stored it, then no longer served and deleted: seconds, or a number with s, m, h or d; 0 = until its owner deletes it",
    }),
  },
  /** The storage quotas, per node; 0 turns one off. */
  quotas: {
    periodSeconds: integer({ flag: "quota-period", min: 1, max: 30 * 24 * 3600, default: 3600, docs: LIMITS, help: "seconds: the period of the storage quotas" }),
    senderMessages: integer({ flag: "sender-quota-messages", min: 0, max: MAX, default: 10_000, docs: LIMITS, help: "messages one sender may store per period, per node; 0 = off" }),
    senderBytes: integer({ flag: "sender-quota-bytes", min: 0, max: MAX, default: 100 * 1024 * 1024, docs: LIMITS, help: "bytes of ciphertext one sender may store per period, per node; 0 = off" }),
    recipientMessages: integer({ flag: "recipient-quota-messages", min: 0, max: MAX, default: 20_000, docs: LIMITS, help: "messages one recipient's mailbox may receive per period, per node; 0 = off" }),
    recipientBytes: integer({ flag: "recipient-quota-bytes", min: 0, max: MAX, default: 200 * 1024 * 1024, docs: LIMITS, help: "bytes of ciphertext one recipient's mailbox may receive per period, per node; 0 = off" }),
    requestMessages: integer({
      flag: "request-quota-messages",
      min: 0,
      max: MAX,
      default: 5,
      docs: "#consent",
      help: "messages one sender may leave per period in the requests folder of one recipient who has not allowed it (consent: allowed-only); 0 = off",
    }),
  },
  /** Live delivery (neutralService_subscribe), as nodeInfo reports it. */
  live: {
    maxSubscriptions: integer({
      min: 1,
      max: 10_000_000,
      default: 10_000,
      docs: "#live-delivery",
      help: "open subscribe streams per worker process (and at most its share of --max-connections less --reserved-connections); one more is refused (-32029, Retry-After)",
    }),
    maxSubscriptionsPerAccount: integer({ min: 1, max: 10_000, default: 8, docs: "#live-delivery", help: "open subscribe streams per account and worker process; one more ends the account's oldest (end reason \"limit\")" }),
    subscriptionBufferBytes: integer({
      min: 1024,
      max: 1024 * 1024 * 1024,
      default: 64 * 1024,
      help: "events a stream lets wait for its client to read; past it the node reads no more for that stream until the client catches up",
    }),
    subscriptionStallMs: integer({
      min: 100,
      max: HOUR_MS,
      default: 30_000,
      help: "the window over which a client that is behind must read at least a buffer's worth, else its stream ends (end reason \"slow-consumer\")",
    }),
    keepAliveMs: integer({ min: 100, max: 15_000, default: 15_000, help: "keep-alive comment interval of an idle stream" }),
  },
  /** The nodes this one federates with, and how it delivers to them. */
  federation: {
    publicUrl: url({ defaultNote: "http://HOST:PORT", docs: "#federation", help: "the base URL peers reach this node at, reported by nodeInfo (url)" }),
    peers: list({
      flag: "peer",
      env: "NEUTRAL_PEERS",
      item: peerOf,
      distinct: (peer) => peer.url,
      defaultNote: "none: a node on its own",
      docs: "#peers-and-pinning",
      help: "a node to federate with: its base URL, or URL#0xADDRESS to pin its node address (otherwise the first one seen is pinned); repeat the flag or give a comma list",
    }),
    deliveryWaitMs: integer({ min: 0, max: 60_000, default: 2000, help: "how long sendMessage waits for the receipt of the recipient's node (another node) before answering the pending message" }),
    retryPeriodSeconds: integer({ flag: "retry-period", min: 1, max: 365 * 24 * 3600, default: 72 * 3600, docs: "#the-outbox-and-retries", help: "seconds a message to another node is retried before it fails" }),
    retryBackoffMs: integer({ min: 1, max: 24 * HOUR_MS, default: 1000, help: "the first retry of a failed delivery to a node comes after this; each next one waits twice as long (with jitter)" }),
    retryBackoffMaxMs: integer({ min: 1, max: 24 * HOUR_MS, default: 30 * 60_000, help: "the longest wait between two delivery attempts to one node" }),
    directoryTtlMs: integer({ min: 0, max: 7 * 24 * HOUR_MS, default: 5 * 60_000, help: "how long what peers said of an account (home record, key bundle, or none) is trusted before they are asked again" }),
    peerTimeoutMs: integer({ min: 100, max: 600_000, default: 10_000, help: "how long a call to a peer (a delivery) may take; directory lookups wait at most the smaller of this and 2 s" }),
  },
  /** Connections, timeouts and the memory held for clients. */
  connections: {
    maxConnections: integer({
      min: 1,
      max: 10_000_000,
      default: 10_000,
      docs: LIMITS,
      help: "open connections per node (each worker also stays 256 + pool size under its open-file limit); past it a new connection is reset at once",
    }),
    maxConnectionsPerIp: integer({
      min: 0,
      max: 10_000_000,
      default: 256,
      docs: LIMITS,
      help: "open connections per client IP (IPv6: per /64), per node; past it a new connection is reset at once; 0 = off (behind a proxy)",
    }),
    trustProxy: list({
      flag: "trust-proxy",
      item: (text, name) => {
        try {
          return parseProxyBlock(text);
        } catch (error) {
          throw new ConfigError(`${name}: ${(error as Error).message}`);
        }
      },
      distinct: (block) => block,
      defaultNote: "none: X-Forwarded-For is ignored",
      docs: "#behind-a-reverse-proxy",
      help: "addresses or CIDR blocks of the reverse proxies in front of the node (127.0.0.1, 10.0.0.0/8); repeat the flag or give a comma list. A request on a connection from one comes from the rightmost X-Forwarded-For address that is not a trusted proxy: the per-client rate limit, memory bound and streams, and the request log, use it. A trusted proxy's connections count in the node's total only, not per client. From anyone else the header is ignored",
    }),
    reservedConnections: integer({
      min: 0,
      max: 10_000_000 - 1,
      defaultNote: "a tenth of --max-connections",
      docs: LIMITS,
      help: "of --max-connections, how many subscribe streams never take: kept for ordinary requests; a new address's stream past a process's share ends the oldest stream of the address holding the most",
    }),
    headersTimeoutMs: integer({ min: 1000, max: HOUR_MS, default: 10_000, docs: LIMITS, help: "a request's headers must arrive within this from the connection's start (or the request's first byte); else 408 and closed" }),
    requestTimeoutMs: integer({ min: 1000, max: HOUR_MS, default: 30_000, docs: LIMITS, help: "a whole request, body included, must arrive within this; else 408 and closed" }),
    keepAliveTimeoutMs: integer({ min: 1000, max: HOUR_MS, default: 65_000, help: "an idle keep-alive connection is closed after this (above common load balancers' 60 s)" }),
    writeTimeoutMs: integer({ min: 1000, max: HOUR_MS, default: 30_000, docs: LIMITS, help: "an answer the client has not read this long after it was written is abandoned: connection closed" }),
    maxBufferedBytes: integer({
      min: 1024,
      max: MAX,
      default: 32 * 1024 * 1024,
      docs: LIMITS,
      help: "per worker process: request bodies and unsent answers held for all clients (at least --max-body-bytes); past it JSON-RPC requests get 503 / -32029 with Retry-After",
    }),
    maxBufferedBytesPerIp: integer({
      min: 0,
      max: MAX,
      default: 8 * 1024 * 1024,
      docs: LIMITS,
      help: "per worker process and client IP: the same (0, or at least --max-body-bytes); past it 429 / -32029 with Retry-After; 0 = off (behind a proxy)",
    }),
  },
  /** Where GET /metrics (Prometheus) is served: by default nowhere. */
  metrics: {
    port: integer({
      flag: "metrics-port",
      min: 0,
      max: 65535,
      defaultNote: "none: no listener",
      docs: "#metrics",
      help: "serve GET /metrics (Prometheus text, the whole node) on this port of --metrics-host, off the public port; 0 picks a free one (the metrics listening line says which)",
    }),
    host: text({ flag: "metrics-host", default: "127.0.0.1", help: "interface of the --metrics-port listener" }),
    token: secret({
      flag: "metrics-token",
      pattern: /^[\x21-\x7e]{16,256}$/,
      expected: "16 to 256 visible ASCII characters (no spaces)",
      defaultNote: "none: 404 there",
      docs: "#metrics",
      help: "also serve GET /metrics on the public port, to requests with Authorization: Bearer TOKEN (compared in constant time, never logged)",
    }),
  },
};

/** A declared table, or a section of one. */
interface DeclaredTable {
  readonly [key: string]: Declared<unknown, boolean> | DeclaredTable;
}

/** The same table with every setting named: its flag and variable filled in. */
type Named<T> = { readonly [K in keyof T]: T[K] extends Declared<infer V, infer R> ? Setting<V, R> : Named<T[K]> };

const kebab = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

function named<T extends DeclaredTable>(table: T): Named<T> {
  return Object.fromEntries(
    Object.entries(table).map(([key, entry]) => {
      if (!("parse" in entry)) return [key, named(entry as DeclaredTable)];
      const declared = entry as Declared<unknown, boolean>;
      const flag = declared.flag ?? kebab(key);
      return [key, { ...declared, flag, env: declared.env ?? `NEUTRAL_${flag.toUpperCase().replace(/-/g, "_")}` }];
    }),
  ) as Named<T>;
}

/** Every setting of a node, by section. */
export const SETTINGS = named(DECLARED);
export type Settings = typeof SETTINGS;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type AnySetting = Setting<unknown, boolean>;
/** The values a table of settings gives: a setting without a value absent, a section an object. */
export type ConfigOf<T> = Simplify<
  {
    -readonly [K in keyof T as T[K] extends Setting<unknown, false> ? never : K]: T[K] extends Setting<infer V, true> ? V : ConfigOf<T[K]>;
  } & {
    -readonly [K in keyof T as T[K] extends Setting<unknown, false> ? K : never]?: T[K] extends Setting<infer V, false> ? V : never;
  }
>;

/** A node's configuration: what `SETTINGS` gives, section by section. */
export type RelayConfig = ConfigOf<Settings>;

/** Each setting with where it sits in the config (`["limits", "maxBatch"]`), in the table's order. */
export function everySetting(table: object = SETTINGS, at: readonly string[] = []): { path: string[]; setting: AnySetting }[] {
  return Object.entries(table).flatMap(([key, entry]: [string, object]) =>
    "parse" in entry ? [{ path: [...at, key], setting: entry as AnySetting }] : everySetting(entry, [...at, key]),
  );
}

/**
 * What the settings say of each other, checked once each has been read: each check names the
 * settings it is about (its message speaks of flags; a file's keys are the same names).
 */
export function checkSettings(config: RelayConfig): void {
  const { limits, quotas, connections, federation, replicas } = config;
  for (const [name, figure] of [
    ["sender-quota-bytes", quotas.senderBytes],
    ["recipient-quota-bytes", quotas.recipientBytes],
  ] as const) {
    // Each replica enforces its share: a share smaller than one message could never be used.
    if (figure > 0 && Math.ceil(figure / replicas) < limits.maxMessageBytes) {
      throw new ConfigError(`--${name} must be 0 or at least --max-message-bytes (${limits.maxMessageBytes}) × --replicas (${replicas})`);
    }
  }
  if (connections.reservedConnections !== undefined && connections.reservedConnections >= connections.maxConnections) {
    throw new ConfigError(`--reserved-connections must be an integer in 0..${connections.maxConnections - 1} (below --max-connections), got ${connections.reservedConnections}`);
  }
  if (connections.headersTimeoutMs > connections.requestTimeoutMs) throw new ConfigError("--headers-timeout-ms must not exceed --request-timeout-ms");
  // A body is held whole while it arrives: a bound below the largest body would refuse it every time.
  if (connections.maxBufferedBytes < limits.maxBodyBytes) throw new ConfigError(`--max-buffered-bytes must be at least --max-body-bytes (${limits.maxBodyBytes})`);
  if (connections.maxBufferedBytesPerIp > 0 && connections.maxBufferedBytesPerIp < limits.maxBodyBytes) {
    throw new ConfigError(`--max-buffered-bytes-per-ip must be 0 or at least --max-body-bytes (${limits.maxBodyBytes})`);
  }
  if (federation.retryBackoffMaxMs < federation.retryBackoffMs) throw new ConfigError("--retry-backoff-max-ms must be at least --retry-backoff-ms");
}
