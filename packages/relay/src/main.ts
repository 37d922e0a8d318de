#!/usr/bin/env node
// The relay's command line: `pnpm start [flags]`. See `--help`, and the README's "Running a relay".
import cluster from "node:cluster";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { serveConnectionLedger } from "./cluster/connection-ledger.js";
import { RestartBackoff } from "./cluster/restart-backoff.js";
import { commandsHelp, isCommand } from "./commands/args.js";
import { ConfigError, helpText, metricsWanted, parseConfig, type RelayConfig } from "./config.js";
import { loadSecp256k1 } from "./crypto/secp256k1.js";
import { deliveryPollMs, federationParts, serveDeliveryKicks, startNodeDeliverer } from "./federation/parts.js";
import { serveNodeLimits } from "./limits/cluster-sync.js";
import { createLogger, flushLogs, type Logger } from "./log.js";
import { logCheckpointError, openNodeStorage, type NodeStorage } from "./node-storage.js";
import { startRetentionSweep } from "./retention.js";
import { serveWorkerAppends } from "./storage/shared-writer.js";
import { observeCommits } from "./live/commits.js";
import { broadcastCommits } from "./live/cluster-commits.js";
import type { AppendWriter } from "./storage/sqlite-append-writer.js";
import { startStoreWriter } from "./storage/sqlite.js";
import { SOFTWARE } from "./version.js";
import { workerFlags } from "./worker-flags.js";

function readConfig(): RelayConfig {
  try {
    const parsed = parseConfig(process.argv.slice(2));
    if (parsed.help) {
      process.stdout.write(`${helpText()}\n\n${commandsHelp().join("\n")}\n`);
      process.exit(0);
    }
    return parsed.config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`neutral-relay: ${error.message}\n`);
    process.exit(2);
  }
}

/**
 * The port every worker binds, set by the primary. With `--port 0` each listen picks a free port:
 * once every worker had died, the cluster's listening socket closed with the last one, and their
 * replacements listened on a new port, so the node's announced URL refused connections for good.
 * So the primary picks the free port itself, once, and every worker, first or replacement, asks for
 * that one (the same port in the request keeps them on one shared socket).
 */
const CLUSTER_PORT_VARIABLE = "NEUTRAL_CLUSTER_PORT";

/** A port free on `host` now (bound to 0, read, released). */
async function freePort(host: string): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Exits once stdout has taken the logs, or after 1 s if it does not: a dead or stalled log reader must not keep the node up. */
function exitAfterLogs(code: number): void {
  void flushLogs(1000).finally(() => process.exit(code));
}

/** Whether the database opens and answers a read: a worker crash loop with a healthy database is worth riding out. */
async function databaseAnswers(config: RelayConfig, curve: ReturnType<typeof loadSecp256k1>, logger: Logger): Promise<boolean> {
  try {
    const { store } = await openNodeStorage(config, curve, { migrate: false, logger });
    try {
      await store.getKeyBundle("0x0000000000000000000000000000000000000000");
    } finally {
      await store.close();
    }
    return true;
  } catch (error) {
    logger.error({ err: error }, "database check failed");
    return false;
  }
}

function logGeneratedKey(logger: Logger, { nodeKey, location }: Pick<NodeStorage, "nodeKey" | "location">): void {
  if (nodeKey.source !== "generated") return;
  const where = location.storage === "sqlite" ? { file: location.keyFile } : { database: location.database };
  logger.info({ address: nodeKey.address, ...where }, "generated a node key");
}

/** Where the node keeps its data, for the "listening" line (never a password). */
const storageFields = ({ location }: Pick<NodeStorage, "location">) =>
  location.storage === "sqlite" ? { storage: "sqlite", file: location.file } : { storage: "postgres", database: location.database };

/** Serves HTTP in this process until SIGTERM/SIGINT: the whole node (`workers` 1), or one of a primary's workers. */
async function serve(config: RelayConfig, logger: Logger, announce: boolean): Promise<void> {
  const curve = loadSecp256k1();
  if (announce) logger.info({ secp256k1: curve.implementation }, `secp256k1: ${curve.implementation}`);
  // Loaded here, not at the top: a supervising primary never serves, and leaves the HTTP stack,
  // the handlers and the SIWE parser out of its memory.
  const { createNode } = await import("./node.js");
  // In a cluster worker (announce false) createNode leaves the migrations and the appends to the primary.
  const relay = await createNode(config, { logger, curve, clusterWorker: !announce });
  const { nodeKey } = relay;
  if (announce) logGeneratedKey(logger, relay);
  // Before listening: a signal that follows the "listening" line at once must find its handler.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping: finishing in-flight requests");
    relay
      .close()
      .then(() => {
        logger.info("stopped");
        exitAfterLogs(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, "error while stopping");
        exitAfterLogs(1);
      });
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  const url = await relay.listen(); // closes the storage if it fails
  if (announce) logger.info({ url, address: nodeKey.address, secp256k1: curve.implementation, workers: 1, ...storageFields(relay) }, "listening");
  else logger.debug({ url }, "worker listening");
}

/** Prepares the storage once (key, schema), then runs `config.workers` serving processes. */
async function supervise(config: RelayConfig, logger: Logger): Promise<void> {
  const curve = loadSecp256k1();
  logger.info({ secp256k1: curve.implementation }, `secp256k1: ${curve.implementation}`);
  const storage = await openNodeStorage(config, curve, { logger }); // applies migrations before any worker opens the store
  const { nodeKey } = storage;
  logGeneratedKey(logger, storage);
  await storage.store.close();
  // One SQLite writer for all workers (see storage/shared-writer.ts), started at the first append.
  // It commits on this thread: the primary serves no requests, so nothing waits behind a commit.
  const { location } = storage;
  let writer: AppendWriter | undefined;
  if (location.storage === "sqlite") {
    // Every commit is told to every worker, for their open streams (live/cluster-commits.ts).
    writer = observeCommits(
      startStoreWriter({
        file: location.file,
        inline: true,
        onCheckpointError: logCheckpointError(logger, location.file),
      }),
      broadcastCommits,
    );
    serveWorkerAppends(writer);
  }
  serveNodeLimits(); // the workers' rate limits and quotas add up to the node's

  // The outbox of messages to other nodes is drained here, once for the node; the workers that
  // store such messages kick the deliverer (federation/index.ts). It has a store of its own.
  const deliveries = await openNodeStorage(config, curve, { migrate: false, logger, ...(writer && { writer }) });
  const federationOptions = {
    config: config.federation,
    clockSkewMs: config.limits.clockSkewMs,
    store: deliveries.store,
    curve,
    nodeKey: deliveries.nodeKey,
    logger,
  };
  const deliverer = startNodeDeliverer(federationOptions, await federationParts(federationOptions), { pollMs: deliveryPollMs(config) });
  serveDeliveryKicks(deliverer);
  // Expired messages are swept here too, through the same writer.
  const sweep = startRetentionSweep({ store: deliveries.store, retentionMs: config.limits.retentionSeconds * 1000, logger });

  // The node's metrics: this process's (the store, the outbox, its own CPU and memory) with every
  // worker's, summed (metrics/cluster.ts); on --metrics-port, served from here.
  const metrics = metricsWanted(config.metrics)
    ? await (await import("./metrics/process-metrics.js")).startPrimaryMetrics(config.metrics, deliveries.store, logger)
    : undefined;

  // The node's connection counts, per client and in total, across the workers.
  serveConnectionLedger({ maxConnections: config.connections.maxConnections, maxConnectionsPerClient: config.connections.maxConnectionsPerIp });

  let stopping = false;
  let announced = false;
  const backoff = new RestartBackoff();
  const restarts = new Set<NodeJS.Timeout>();
  const added = workerFlags([...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)]);
  if (added.length > 0) cluster.setupPrimary({ execArgv: [...process.execArgv, ...added] });
  // Counted here: cluster.workers drops a worker only once both its exit and its disconnect have
  // been seen, in either order, so it can still list the last worker when that one's exit arrives.
  const running = new Set<number>();
  // Every worker, replacements too, listens on this one port (CLUSTER_PORT_VARIABLE).
  const port = config.port === 0 ? await freePort(config.host) : config.port;
  const fork = () => {
    const worker = cluster.fork({ [CLUSTER_PORT_VARIABLE]: String(port) });
    running.add(worker.id);
    worker.on("error", (error: Error) => {
      if (worker.process.pid !== undefined) return void logger.warn({ err: error, worker: worker.process.pid }, "worker error");
      // It never started (e.g. no descriptor left for its pipes while a flood fills the primary's),
      // so no exit will be reported: replace it like one that died.
      running.delete(worker.id);
      if (stopping) return running.size === 0 ? finish() : undefined;
      const retryInMs = backoff.next(Date.now());
      logger.error({ err: error, retryInMs }, "could not start a worker");
      restart(retryInMs);
    });
  };

  cluster.on("listening", (_worker, address) => {
    if (announced) return;
    announced = true;
    const host = config.host.includes(":") ? `[${config.host}]` : config.host;
    logger.info(
      { url: `http://${host}:${address.port}`, address: nodeKey.address, secp256k1: curve.implementation, workers: config.workers, ...storageFields(storage) },
      "listening",
    );
  });
  let finishing = false;
  function finish(): void {
    if (finishing) return;
    finishing = true;
    const giveUp = setTimeout(() => {
      logger.error("the SQLite writer did not close within 10 s");
      exitAfterLogs(1);
    }, 10_000);
    void Promise.all([deliverer.stop(), sweep.stop()])
      .then(() => metrics?.close())
      .then(() => deliveries.store.close())
      .catch((error: unknown) => logger.error({ err: error }, "error while stopping the deliverer"))
      .then(() => writer?.close())
      .finally(() => {
        clearTimeout(giveUp);
        logger.info("stopped");
        exitAfterLogs(0);
      });
  }
  /** Forks a replacement after `delayMs`; in a crash loop, only while the database answers (else the node exits for its supervisor to see). */
  function restart(delayMs: number): void {
    const replace = () => {
      try {
        fork();
      } catch (error) {
        const retryInMs = backoff.next(Date.now());
        logger.error({ err: error, retryInMs }, "could not start a worker");
        restart(retryInMs);
      }
    };
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (stopping) return;
      if (!backoff.looping) return replace();
      void databaseAnswers(config, curve, logger).then((healthy) => {
        if (stopping) return;
        if (healthy) return replace();
        logger.fatal({ deaths: backoff.deaths }, "workers keep dying and the database does not answer; exiting");
        exitAfterLogs(1);
      });
    }, delayMs);
    restarts.add(timer);
  }
  cluster.on("exit", (worker, code, signal) => {
    running.delete(worker.id);
    if (stopping) {
      if (running.size === 0) finish();
      return;
    }
    // The workers still alive keep serving; the dead one comes back, later each time while they keep dying.
    const restartInMs = backoff.next(Date.now());
    logger.error({ worker: worker.process.pid, code, signal, running: running.size, restartInMs }, "worker exited unexpectedly");
    restart(restartInMs);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping: finishing in-flight requests");
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    if (running.size === 0) finish(); // every worker was dead, waiting for its restart
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  for (let i = 0; i < config.workers; i++) fork();
}

const command = process.argv[2];
if (cluster.isPrimary && isCommand(command)) {
  // Loaded only for a command: the serving node never needs it.
  void import("./commands/run.js").then(({ runCommand }) => runCommand(command, process.argv.slice(3)));
} else if (cluster.isPrimary) {
  const config = readConfig();
  const logger = createLogger(config.logLevel, { software: `${SOFTWARE.name}/${SOFTWARE.version}` });
  if (config.workers === 1) {
    serve(config, logger, true).catch((error: unknown) => {
      logger.fatal({ err: error }, "could not start");
      exitAfterLogs(1);
    });
  } else {
    supervise(config, logger).catch((error: unknown) => {
      logger.fatal({ err: error }, "could not start");
      exitAfterLogs(1);
    });
  }
} else {
  const config = readConfig();
  const clusterPort = process.env[CLUSTER_PORT_VARIABLE];
  if (clusterPort !== undefined) config.port = Number(clusterPort);
  const logger = createLogger(config.logLevel, { worker: cluster.worker?.id });
  serve(config, logger, false).catch((error: unknown) => {
    logger.fatal({ err: error }, "worker could not start");
    exitAfterLogs(1);
  });
}
