// Which process this is, and how the node runs in it: alone (`--workers 1`), as the primary of
// `--workers N`, or as one of its workers. The command line (main.ts) reads the config and calls
// runNode; nothing else decides a process's role.
import cluster from "node:cluster";
import type { RelayConfig } from "../config.js";
import type { Logger } from "../log.js";
import { exitAfterLogs } from "../node/lifecycle.js";
import { serve } from "../node/serve.js";
import { StartupError } from "../node/startup-checks.js";
import { CLUSTER_PORT_VARIABLE, runClusterPrimary } from "./cluster/primary.js";
import { SINGLE_PROCESS } from "./serving.js";

/** This process: the first one started (which may supervise workers), or one of its workers. */
export const processRole = (): { kind: "first" } | { kind: "worker"; id: number } =>
  cluster.isWorker ? { kind: "worker", id: cluster.worker?.id ?? 0 } : { kind: "first" };

/** The config a worker serves with: its primary's port (see CLUSTER_PORT_VARIABLE). */
function workerConfig(config: RelayConfig): RelayConfig {
  const port = process.env[CLUSTER_PORT_VARIABLE];
  return port === undefined ? config : { ...config, port: Number(port) };
}

/** Runs the node in this process as its role says, until SIGTERM/SIGINT; exits 1 if it cannot start. */
export function runNode(config: RelayConfig, logger: Logger): void {
  const fail = (what: string) => (error: unknown) => {
    // A reason the operator can fix is one line; anything else, with its stack.
    if (error instanceof StartupError) logger.fatal(`${what}: ${error.message}`);
    else logger.fatal({ err: error }, what);
    exitAfterLogs(1);
  };
  if (cluster.isWorker) {
    // Loaded only in a worker: the primary and a node alone never link to a primary.
    void import("./cluster/worker.js").then(({ clusterWorkerTopology }) => serve(workerConfig(config), logger, clusterWorkerTopology())).catch(fail("worker could not start"));
  } else if (config.workers === 1) serve(config, logger, SINGLE_PROCESS).catch(fail("could not start"));
  else runClusterPrimary(config, logger).catch(fail("could not start"));
}
