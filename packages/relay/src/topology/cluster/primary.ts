// A node of several processes (`--workers N`): this primary prepares the storage once (key,
// schema), forks the workers that serve HTTP, replaces those that die, and serves them over the
// cluster channel: the one SQLite writer and its commit feed, the node's connection ledger, the
// sharing of the rate limits and quotas, the outbox's deliverer and the node's metrics. It serves
// no requests itself.
import cluster from "node:cluster";
import { createServer, type AddressInfo } from "node:net";
import { metricsWanted, type RelayConfig } from "../../config.js";
import { loadSecp256k1 } from "../../crypto/secp256k1.js";
import { deliveryPollMs, federationParts, startNodeDeliverer } from "../../federation/parts.js";
import { observeCommits } from "../../live/commits.js";
import type { Logger } from "../../log.js";
import { exitAfterLogs, logGeneratedKey, storageFields } from "../../node/lifecycle.js";
import { checkPortFree, lockDataDir } from "../../node/startup-checks.js";
import { logCheckpointError, openNodeStorage } from "../../node-storage.js";
import { startRetentionSweep } from "../../retention.js";
import type { AppendWriter } from "../../storage/sqlite-append-writer.js";
import { startStoreWriter } from "../../storage/sqlite.js";
import { workerFlags } from "../../worker-flags.js";
import { linkToWorkers } from "../channel.js";
import { routeCommits } from "./commits.js";
import { serveConnectionLedger } from "./connections.js";
import { serveDeliveryKicks } from "./deliveries.js";
import { serveNodeLimits } from "./limits.js";
import { RestartBackoff } from "./restart-backoff.js";
import { serveWorkerAppends } from "./writer.js";

/**
 * The port every worker binds, set by the primary. With `--port 0` each listen picks a free port:
 * once every worker had died, the cluster's listening socket closed with the last one, and their
 * replacements listened on a new port, so the node's announced URL refused connections for good.
 * So the primary picks the free port itself, once, and every worker, first or replacement, asks for
 * that one (the same port in the request keeps them on one shared socket).
 */
export const CLUSTER_PORT_VARIABLE = "NEUTRAL_CLUSTER_PORT";

/** A port free on `host` now (bound to 0, read, released). */
async function freePort(host: string): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
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

/** Prepares the storage once (key, schema), then runs `config.workers` serving processes until SIGTERM/SIGINT. */
export async function runClusterPrimary(config: RelayConfig, logger: Logger): Promise<void> {
  const curve = loadSecp256k1();
  logger.info({ secp256k1: curve.implementation }, `secp256k1: ${curve.implementation}`);
  // Before anything is made on disk: the port is free, and no other node runs on the data dir. The
  // lock is held as long as this process runs (the workers do not take it).
  await checkPortFree(config.host, config.port);
  const dataDirLock = config.databaseUrl === undefined ? lockDataDir(config.dataDir) : undefined;
  const storage = await openNodeStorage(config, curve, { logger }); // applies migrations before any worker opens the store
  const { nodeKey } = storage;
  logGeneratedKey(logger, storage);
  await storage.store.close();
  const workers = linkToWorkers();
  /** What this primary serves its workers, stopped when it finishes. */
  const services: (() => void)[] = [];
  // One SQLite writer for all workers (writer.ts), started at the first append. It commits on this
  // thread: the primary serves no requests, so nothing waits behind a commit.
  const { location } = storage;
  let writer: AppendWriter | undefined;
  if (location.storage === "sqlite") {
    // Every commit is told to every worker, for their open streams and kept proofs (commits.ts).
    const commits = routeCommits(workers);
    services.push(commits.stop);
    writer = observeCommits(startStoreWriter({ file: location.file, inline: true, onCheckpointError: logCheckpointError(logger, location.file), receiptKey: nodeKey.privateKey }), commits.publish);
    services.push(serveWorkerAppends(workers, writer));
  }
  services.push(serveNodeLimits(workers)); // the workers' rate limits and quotas add up to the node's

  // The outbox of messages to other nodes is drained here, once for the node; the workers that
  // store such messages kick the deliverer (deliveries.ts). It has a store of its own.
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
  services.push(serveDeliveryKicks(workers, deliverer));
  // Expired messages are swept here too, through the same writer.
  const sweep = startRetentionSweep({ store: deliveries.store, retentionMs: config.limits.retentionSeconds * 1000, logger });

  // The node's metrics: this process's (the store, the outbox, its own CPU and memory) with every
  // worker's, summed (metrics-primary.ts); on --metrics-port, served from here.
  let metrics: { close: () => Promise<void> } | undefined;
  if (metricsWanted(config.metrics)) {
    const [{ startPrimaryMetrics }, { serveClusterMetrics }] = await Promise.all([import("../../metrics/process-metrics.js"), import("./metrics-primary.js")]);
    metrics = await startPrimaryMetrics(config.metrics, deliveries.store, logger, (own) => serveClusterMetrics(workers, own));
  }

  // The node's connection counts, per client and in total, across the workers.
  services.push(serveConnectionLedger(workers, { maxConnections: config.connections.maxConnections, maxConnectionsPerClient: config.connections.maxConnectionsPerIp }).stop);

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
    for (const stop of services) stop();
    void Promise.all([deliverer.stop(), sweep.stop()])
      .then(() => metrics?.close())
      .then(() => deliveries.store.close())
      .catch((error: unknown) => logger.error({ err: error }, "error while stopping the deliverer"))
      .then(() => writer?.close())
      .finally(() => {
        dataDirLock?.release();
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
