// What every process of a node does around serving: log where its data and key are, and exit
// only once its logs are out.
import { flushLogs, type Logger } from "../log.js";
import type { NodeStorage } from "../node-storage.js";

/** Exits once stdout has taken the logs, or after 1 s if it does not: a dead or stalled log reader must not keep the node up. */
export function exitAfterLogs(code: number): void {
  void flushLogs(1000).finally(() => process.exit(code));
}

/** Says where a node key generated at this start was kept. */
export function logGeneratedKey(logger: Logger, { nodeKey, location }: Pick<NodeStorage, "nodeKey" | "location">): void {
  if (nodeKey.source !== "generated") return;
  const where = location.storage === "sqlite" ? { file: location.keyFile } : { database: location.database };
  logger.info({ address: nodeKey.address, ...where }, "generated a node key");
}

/** Where the node keeps its data, for the "listening" line (never a password). */
export const storageFields = ({ location }: Pick<NodeStorage, "location">) =>
  location.storage === "sqlite" ? { storage: "sqlite", file: location.file } : { storage: "postgres", database: location.database };
