// Serving HTTP in this process until SIGTERM/SIGINT: the whole node, or one of a primary's workers.
import type { RelayConfig } from "../config.js";
import { loadSecp256k1 } from "../crypto/secp256k1.js";
import type { Logger } from "../log.js";
import type { ServingTopology } from "../topology/serving.js";
import { exitAfterLogs, logGeneratedKey, storageFields } from "./lifecycle.js";

export async function serve(config: RelayConfig, logger: Logger, topology: ServingTopology): Promise<void> {
  const alone = topology.role === "alone";
  const curve = loadSecp256k1();
  if (alone) logger.info({ secp256k1: curve.implementation }, `secp256k1: ${curve.implementation}`);
  // Loaded here, not at the top: a supervising primary never serves, and leaves the HTTP stack,
  // the handlers and the SIWE parser out of its memory.
  const { createNode } = await import("./assemble.js");
  const relay = await createNode(config, { logger, curve, topology });
  const { nodeKey } = relay;
  if (alone) logGeneratedKey(logger, relay);
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
  if (alone) logger.info({ url, address: nodeKey.address, secp256k1: curve.implementation, workers: 1, ...storageFields(relay) }, "listening");
  else logger.debug({ url }, "worker listening");
}
