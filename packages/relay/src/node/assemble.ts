// The one composition root of a serving process: its config and process topology in, a relay
// serving over the configured storage out. The command line (topology/run.ts) calls it in every
// serving process; so can a program embedding a node, and the tests (one process, in-process).
import { metricsWanted, type RelayConfig } from "../config.js";
import { loadSecp256k1, type Secp256k1 } from "../crypto/secp256k1.js";
import type { Logger } from "../log.js";
import { openNodeStorage, type NodeStorage } from "../node-storage.js";
import { startRetentionSweep } from "../retention.js";
import { checkPortFree, lockDataDir, type DataDirLock } from "./startup-checks.js";
import { createFederation, deliveryPollMs, type Federation } from "../federation/index.js";
import { createRelay, type Relay } from "../relay.js";
import { SINGLE_PROCESS, type ServingTopology } from "../topology/serving.js";

export interface NodeOptions {
  logger: Logger;
  /** The secp256k1 implementation. Default: `loadSecp256k1()` (libsecp256k1 when its addon loads, else pure JS). */
  curve?: Secp256k1;
  /**
   * The process topology it serves in (topology/serving.ts). Default: a node of one process, which
   * applies the migrations, sweeps and drains its outbox itself; a cluster worker's primary does
   * those, commits its SQLite appends and keeps the node's connection counts and limits.
   */
  topology?: ServingTopology;
}

/** A node: the relay, and what it serves from. */
export interface RelayNode extends Relay {
  /** The key that signs the node's receipts, and where it came from. */
  readonly nodeKey: NodeStorage["nodeKey"];
  /** Where the messages are kept, for logs (never a password). */
  readonly location: NodeStorage["location"];
  readonly curve: Secp256k1;
}

/**
 * Opens the node's storage as `config` says (SQLite in the data dir, or PostgreSQL at
 * `databaseUrl`; the node key from the config, the key file or the database) and assembles the
 * relay over it. `listen()` starts serving; `close()` stops, lets requests in flight finish and
 * closes the storage. If listening fails, the storage is closed before the error is thrown.
 *
 * ```ts
 * const parsed = parseConfig(["--port", "0", "--data-dir", dir], {});
 * if (parsed.help) throw new Error("no --help here");
 * const node = await createNode(parsed.config, { logger: createLogger("info") });
 * const url = await node.listen();
 * // …
 * await node.close();
 * ```
 */
export async function createNode(config: RelayConfig, options: NodeOptions): Promise<RelayNode> {
  const { logger } = options;
  const curve = options.curve ?? loadSecp256k1();
  const topology = options.topology ?? SINGLE_PROCESS;
  const worker = topology.role === "worker";
  // Before anything is made on disk: the port is free, and no other node runs on the data dir
  // (a worker's primary checked both, and holds the data dir).
  let dataDirLock: DataDirLock | undefined;
  if (!worker) {
    await checkPortFree(config.host, config.port);
    if (config.databaseUrl === undefined) dataDirLock = lockDataDir(config.dataDir);
  }
  // A worker's primary has applied the migrations, and commits every worker's SQLite appends.
  const shared = config.databaseUrl === undefined ? topology.sqlite : undefined;
  let storage: NodeStorage;
  try {
    storage = await openNodeStorage(config, curve, {
      migrate: !worker,
      ...(shared && { writer: shared.writer(), writerCommits: shared.commits() }),
      liveDelivery: true,
      logger,
    });
  } catch (error) {
    dataDirLock?.release();
    throw error;
  }
  const { commits } = storage;
  // prom-client only for a node that serves metrics.
  const metrics = metricsWanted(config.metrics) ? (await import("../metrics/process-metrics.js")).createRelayMetrics : undefined;
  let relay: Relay;
  let federation: Federation | undefined;
  // Expired messages are swept where the outbox is drained: here, unless this is a cluster worker.
  const sweep = worker ? undefined : startRetentionSweep({ store: storage.store, retentionMs: config.limits.retentionSeconds * 1000, logger });
  try {
    // The outbox is drained by one process of the node: this one, unless it is a cluster worker
    // (then its primary, topology/cluster/primary.ts); on PostgreSQL by the replica holding the lease, which notices
    // other replicas' sends by looking every 250 ms.
    federation = await createFederation({
      config: config.federation,
      clockSkewMs: config.limits.clockSkewMs,
      store: storage.store,
      curve,
      nodeKey: storage.nodeKey,
      logger,
      kickDeliverer: topology.kickDeliverer,
      pollMs: deliveryPollMs(config),
    });
    relay = createRelay({
      config,
      logger,
      curve,
      nodeKey: storage.nodeKey,
      store: storage.store,
      federation,
      topology,
      ...(metrics && { metrics }),
      ...(commits && { commits }),
    });
  } catch (error) {
    await sweep?.stop();
    await commits?.close();
    await federation?.close();
    await storage.store.close();
    dataDirLock?.release();
    throw error;
  }
  return {
    server: relay.server,
    nodeKey: storage.nodeKey,
    location: storage.location,
    curve,
    async listen() {
      try {
        return await relay.listen();
      } catch (error) {
        await sweep?.stop();
        await relay.close(0); // the limits' timers, the connection guard, the store
        dataDirLock?.release();
        throw error;
      }
    },
    async close(graceMs) {
      await sweep?.stop();
      await relay.close(graceMs);
      dataDirLock?.release();
    },
  };
}
