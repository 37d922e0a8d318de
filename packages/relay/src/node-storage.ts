// The node's storage as configured: the one place that turns the app's config into a store (the
// storage modules take their own options, and know nothing of RelayConfig) and the node's key.
import path from "node:path";
import { arrivalWindowMs, type RelayConfig } from "./config.js";
import type { Secp256k1 } from "./crypto/secp256k1.js";
import type { Logger } from "./log.js";
import { generateNodeKey, loadNodeKey, NODE_KEY_FILE, type NodeKey } from "./node-key.js";
import { DATABASE_FILE, openSqliteStore, startStoreWriter } from "./storage/sqlite.js";
import type { AppendWriter } from "./storage/sqlite-append-writer.js";
import type { MessageStore } from "./storage/store.js";
import { createLocalCommitFeed, observeCommits, type CommitFeed } from "./live/commits.js";

export interface NodeStorage {
  store: MessageStore;
  nodeKey: NodeKey;
  /** Where the messages (and a generated key) are kept, for logs: never a password. */
  location: { storage: "sqlite"; file: string; keyFile: string } | { storage: "postgres"; database: string };
  /** With `liveDelivery`: where this process hears of commits (live/), to be closed with the store. */
  commits?: CommitFeed;
}

/** How a SQLite writer's failed background checkpoint is logged (the writer's own checkpoints still bound the WAL). */
export const logCheckpointError = (logger: Logger, file: string) => (error: Error) =>
  logger.warn({ err: error, file }, "WAL checkpoint failed; the writer checkpoints by itself");

export interface OpenStorageOptions {
  /** Apply pending migrations (default true); a worker whose primary already did may skip them. */
  migrate?: boolean;
  /** SQLite: commit appends through this writer (a worker's is its primary's) instead of one of the store's own. */
  writer?: AppendWriter;
  /** SQLite, with `writer` and `liveDelivery`: the feed of that writer's commits (a worker's: its primary's). */
  writerCommits?: CommitFeed;
  /**
   * Also open the feed of commits that wakes live streams: on SQLite the store's own writer's (or
   * `writerCommits`), on PostgreSQL the database's notices.
   */
  liveDelivery?: boolean;
  logger: Logger;
}

/**
 * The node's store and signing key, as configured: SQLite in the data dir with the key in
 * DATA_DIR/node.key, or PostgreSQL (`databaseUrl`) with the key kept in the database, where every
 * replica finds it. A configured `--node-key` wins in both cases.
 */
export async function openNodeStorage(
  config: Pick<RelayConfig, "dataDir" | "nodeKey" | "databaseUrl" | "databasePoolSize" | "databaseReadStatements"> & {
    sqliteMmapMib?: number;
    limits?: Pick<RelayConfig["limits"], "retentionSeconds" | "clockSkewMs">;
    federation?: Pick<RelayConfig["federation"], "retryPeriodSeconds">;
  },
  curve: Secp256k1,
  options: OpenStorageOptions,
): Promise<NodeStorage> {
  const { logger } = options;
  const retentionMs = (config.limits?.retentionSeconds ?? 0) * 1000;
  const sweptDigestsMs = config.limits && config.federation ? arrivalWindowMs({ limits: config.limits, federation: config.federation }) : undefined;
  if (config.databaseUrl === undefined) {
    const nodeKey = loadNodeKey(config.dataDir, curve, config.nodeKey);
    const file = path.join(config.dataDir, DATABASE_FILE);
    const onCheckpointError = logCheckpointError(logger, file);
    let { writer } = options;
    let commits: CommitFeed | undefined;
    if (options.liveDelivery && writer) {
      if (!options.writerCommits) throw new Error("openNodeStorage: live delivery over a given writer needs its commits (writerCommits)");
      commits = options.writerCommits;
    } else if (options.liveDelivery) {
      const local = createLocalCommitFeed();
      writer = observeCommits(startStoreWriter({ file, onCheckpointError, receiptKey: nodeKey.privateKey }), (events) => local.publish(events));
      commits = local;
    }
    const store = openSqliteStore({
      file,
      migrate: options.migrate ?? true,
      ...(writer && { writer }),
      receiptKey: nodeKey.privateKey,
      onCheckpointError,
      retentionMs,
      ...(sweptDigestsMs !== undefined && { sweptDigestsMs }),
      mmapBytes: (config.sqliteMmapMib ?? 0) * 1024 * 1024,
    });
    return { store, nodeKey, location: { storage: "sqlite", file, keyFile: path.join(config.dataDir, NODE_KEY_FILE) }, ...(commits && { commits }) };
  }

  // Loaded only for a PostgreSQL node: pg is a third of the relay's start-up on SQLite.
  const [{ describeDatabaseUrl, openPostgresStore }, { postgresCommitFeed }] = await Promise.all([import("./storage/postgres.js"), import("./live/postgres-commits.js")]);
  const database = describeDatabaseUrl(config.databaseUrl);
  const store = await openPostgresStore({
    url: config.databaseUrl,
    poolSize: config.databasePoolSize,
    readStatements: config.databaseReadStatements,
    migrate: options.migrate ?? true,
    retentionMs,
    ...(sweptDigestsMs !== undefined && { sweptDigestsMs }),
    onIdleError: (error) => logger.warn({ err: error, database }, "PostgreSQL connection lost; the pool reconnects"),
  });
  try {
    let nodeKey: NodeKey;
    if (config.nodeKey !== undefined) {
      nodeKey = loadNodeKey(config.dataDir, curve, config.nodeKey);
      const stored = await store.storedNodeKey();
      if (stored !== undefined && curve.addressOf(stored) !== nodeKey.address) {
        logger.warn(
          { address: nodeKey.address, databaseAddress: curve.addressOf(stored) },
          "this replica signs with its configured --node-key, but the database keeps another node's key: replicas of one database must sign as one node (give them all the same --node-key, or none)",
        );
      }
    } else {
      const { privateKey, created } = await store.nodeKey(() => generateNodeKey(curve));
      let address: string;
      try {
        address = curve.addressOf(privateKey);
      } catch {
        throw new Error("the node key kept in the database is not a valid secp256k1 private key");
      }
      nodeKey = { privateKey, address, source: created ? "generated" : "database" };
    }
    const commits = options.liveDelivery
      ? await postgresCommitFeed({
          url: config.databaseUrl,
          onLost: (error) => logger.warn({ err: error, database }, "live delivery lost its PostgreSQL connection; reconnecting (streams catch up from their cursors)"),
          onRestored: () => logger.info({ database }, "live delivery reconnected to PostgreSQL"),
        })
      : undefined;
    return { store, nodeKey, location: { storage: "postgres", database }, ...(commits && { commits }) };
  } catch (error) {
    await store.close();
    throw error;
  }
}
