// What every process of a federating node needs (its peers, the signed client, the directory),
// and the outbox's deliverer, which runs in one process per node: the only process, or the
// cluster primary (its workers kick it over IPC), and on PostgreSQL the replica holding the
// delivery lease. Nothing here loads the HTTP stack: the primary imports it.
import type { FederationConfig, RelayConfig } from "../config.js";
import type { Secp256k1 } from "../crypto/secp256k1.js";
import type { Logger } from "../log.js";
import type { MessageStore } from "../storage/store.js";
import { startDeliverer, type Deliverer } from "./deliverer.js";
import { createDirectory, type Directory } from "./directory.js";
import { createNodeClient, type NodeClient } from "./node-client.js";
import { createPeerRegistry, type PeerRegistry } from "./peers.js";

/** How often the node's deliverer looks at the outbox without being kicked: a safety net on SQLite; on PostgreSQL, how sends on other replicas are noticed. */
export const deliveryPollMs = (config: Pick<RelayConfig, "databaseUrl">): number => (config.databaseUrl === undefined ? 2_000 : 250);

/** Directory lookups wait at most this long for peers (or the peer timeout, if shorter). */
const LOOKUP_TIMEOUT_MS = 2_000;

export interface FederationParts {
  peers: PeerRegistry;
  client: NodeClient;
  directory: Directory;
}

export interface FederationOptions {
  config: FederationConfig;
  clockSkewMs: number;
  store: MessageStore;
  curve: Secp256k1;
  nodeKey: { privateKey: Uint8Array; address: string };
  logger: Logger;
}

/** The peers, the signed client and the directory: what every process of a federating node needs. */
export async function federationParts(options: FederationOptions): Promise<FederationParts> {
  const { config, store, curve, nodeKey, logger } = options;
  const client = createNodeClient({ self: nodeKey.address, privateKey: nodeKey.privateKey, curve });
  const peers = await createPeerRegistry({ peers: config.peers, store, client, self: nodeKey.address, logger, timeoutMs: Math.min(config.peerTimeoutMs, LOOKUP_TIMEOUT_MS) });
  const directory = createDirectory({
    self: nodeKey.address,
    store,
    curve,
    peers,
    client,
    logger,
    ttlMs: config.directoryTtlMs,
    lookupTimeoutMs: Math.min(config.peerTimeoutMs, LOOKUP_TIMEOUT_MS),
  });
  return { peers, client, directory };
}

/** Starts the node's deliverer in this process: its only process, or its cluster primary. */
export function startNodeDeliverer(options: FederationOptions, parts: FederationParts, { pollMs }: { pollMs: number }): Deliverer {
  return startDeliverer({
    self: options.nodeKey.address,
    store: options.store,
    curve: options.curve,
    peers: parts.peers,
    directory: parts.directory,
    client: parts.client,
    config: options.config,
    logger: options.logger,
    pollMs,
  });
}
