import os from "node:os";
import { parseArgs } from "node:util";
import type { Limits } from "./service.js";

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
  logLevel: LogLevel;
  /** Processes serving HTTP (SQLite in WAL lets them share the file). */
  workers: number;
  /** Requests per second per client IP (burst: twice that); 0 turns the limit off. */
  rateLimit: number;
  limits: Limits;
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

interface Flag {
  env: string;
  help: string;
  default?: string;
  multiple?: boolean;
}

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
  "log-level": { env: "NEUTRAL_LOG_LEVEL", default: "info", help: LOG_LEVELS.join(" | ") },
  workers: { env: "NEUTRAL_WORKERS", default: String(Math.min(64, os.availableParallelism())), help: "HTTP worker processes (default: one per core)" },
  "rate-limit": { env: "NEUTRAL_RATE_LIMIT", default: "100", help: "requests per second per client IP, burst twice that; 0 = off" },
  "max-body-bytes": { env: "NEUTRAL_MAX_BODY_BYTES", default: String(1024 * 1024), help: "largest request body" },
  "max-batch": { env: "NEUTRAL_MAX_BATCH", default: "100", help: "most entries in one batch" },
  "max-message-bytes": { env: "NEUTRAL_MAX_MESSAGE_BYTES", default: String(64 * 1024), help: "largest message body, in bytes of ciphertext" },
  "clock-skew-ms": { env: "NEUTRAL_CLOCK_SKEW_MS", default: String(5 * 60 * 1000), help: "accepted distance of a message timestamp from the node's clock; also how far ahead a key bundle's may be" },
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
    lines.push(`  --${name.padEnd(18)} ${flag.env.padEnd(26)} ${flag.help}${flag.help.includes("default") ? "" : fallback}`);
  }
  lines.push("  --help                                        this text", "");
  lines.push("Serves JSON-RPC on POST /, plus GET /health, /openrpc.json and /docs/.");
  return lines.join("\n");
}

function integer(name: FlagName, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new ConfigError(`--${name} must be an integer in ${min}..${max}, got ${JSON.stringify(text)}`);
  }
  return Number(text);
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
      logLevel,
      workers: integer("workers", required("workers"), 1, 64),
      rateLimit: integer("rate-limit", required("rate-limit"), 0, 1_000_000),
      limits: {
        maxLimit: 100, // fixed by the spec's Limit schema
        maxBatch: integer("max-batch", required("max-batch"), 1, 10_000),
        maxBodyBytes: integer("max-body-bytes", required("max-body-bytes"), 1024, 64 * 1024 * 1024),
        maxMessageBytes: integer("max-message-bytes", required("max-message-bytes"), 1, 16 * 1024 * 1024),
        clockSkewMs: integer("clock-skew-ms", required("clock-skew-ms"), 0, Number.MAX_SAFE_INTEGER),
      },
    },
  };
}
