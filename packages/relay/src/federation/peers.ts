// The peers this node federates with, as the operator listed them, and each one's node address:
// pinned by the operator (`--peer URL#0xADDRESS`), or the address the peer's nodeInfo first gave,
// kept in the database (`peer_pins`) so that every process and every restart agrees. A pinned
// address never changes: a peer that later signs with another key is not a peer.
import type { PeerConfig } from "../config.js";
import type { Logger } from "../log.js";
import type { FederationStore } from "../storage/store.js";
import type { NodeClient, PeerTarget } from "./node-client.js";

/** A peer as nodeInfo reports it. */
export interface Peer {
  url: string;
  address?: string;
}

export interface PeerRegistry {
  /** Every configured peer, with its address once known. */
  list(): Peer[];
  /** The peer with this (lowercase) address, if it is one. */
  byAddress(address: string): PeerTarget | undefined;
  /** Learns the addresses of peers not pinned yet (bounded in time, at most once per `retryMs` while some stay unknown). */
  resolve(): Promise<void>;
  /** Whether some peer's address is still unknown. */
  readonly unresolved: boolean;
  /** Stops trying in the background. */
  close(): void;
}

export interface PeerRegistryOptions {
  peers: readonly PeerConfig[];
  store: Pick<FederationStore, "pinPeer" | "peerPins">;
  client: Pick<NodeClient, "nodeAddress">;
  /** This node's address: a peer listed with it (this node itself) is ignored. */
  self: string;
  logger: Logger;
  timeoutMs: number;
}

/** The least time between two attempts to reach an unpinned peer on demand (a request from an unknown node asks for one). */
const RESOLVE_RETRY_MS = 200;
/** In the background, unpinned peers are tried again after this, doubling up to a minute. */
const BACKGROUND_RETRY_MS = 1_000;

export async function createPeerRegistry(options: PeerRegistryOptions): Promise<PeerRegistry> {
  const { logger, store, client } = options;
  const pins = await store.peerPins();
  const peers: Peer[] = options.peers.map((configured) => {
    const stored = pins.get(configured.url);
    if (configured.address !== undefined) {
      if (stored !== undefined && stored !== configured.address) {
        logger.warn({ peer: configured.url, pinned: configured.address, seen: stored }, "the operator pins another address than the one first seen at this peer: the operator's wins");
      }
      return { url: configured.url, address: configured.address };
    }
    return stored === undefined ? { url: configured.url } : { url: configured.url, address: stored };
  });
  const byAddress = new Map<string, PeerTarget>();
  const index = () => {
    byAddress.clear();
    for (const peer of peers) if (peer.address !== undefined && peer.address !== options.self) byAddress.set(peer.address, { url: peer.url, address: peer.address });
  };
  index();
  let lastAttempt = -Infinity;
  /** Peers whose failure to answer was logged as a warning already. */
  const warned = new Set<string>();
  let resolving: Promise<void> | undefined;

  async function resolveNow(): Promise<void> {
    lastAttempt = Date.now();
    await Promise.all(
      peers
        .filter((peer) => peer.address === undefined)
        .map(async (peer) => {
          let seen: string;
          try {
            seen = await client.nodeAddress(peer.url, options.timeoutMs);
          } catch (error) {
            // A peer not up yet is one line (its reason, no stack), not one per retry.
            const reason = error instanceof Error ? error.message : String(error);
            if (warned.has(peer.url)) logger.debug({ peer: peer.url, reason }, "a peer's node address: still unknown");
            else logger.warn({ peer: peer.url, reason }, "could not learn a peer's node address; retrying in the background until it answers");
            warned.add(peer.url);
            return;
          }
          // Another process (a worker, a replica) may have pinned it first: the first pin wins.
          const pinned = await store.pinPeer(peer.url, seen);
          if (pinned !== seen) logger.warn({ peer: peer.url, pinned, seen }, "a peer answers with another node address than the one pinned for it: refused");
          peer.address = pinned;
          logger.info({ peer: peer.url, address: pinned }, "pinned a peer's node address");
        }),
    );
    index();
  }

  // Until every peer is pinned, keep trying in the background (a peer may start after this node).
  let backgroundTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const background = (delayMs: number) => {
    if (closed || delayMs <= 0 || !peers.some((peer) => peer.address === undefined)) return;
    backgroundTimer = setTimeout(() => {
      void registry.resolve().finally(() => background(Math.min(60_000, delayMs * 2)));
    }, delayMs);
    backgroundTimer.unref();
  };

  const registry: PeerRegistry = {
    close() {
      closed = true;
      clearTimeout(backgroundTimer);
    },
    list: () => peers.map((peer) => ({ ...peer })),
    byAddress: (address) => byAddress.get(address.toLowerCase()),
    get unresolved() {
      return peers.some((peer) => peer.address === undefined);
    },
    resolve() {
      if (!peers.some((peer) => peer.address === undefined)) return Promise.resolve();
      if (resolving) return resolving;
      if (Date.now() - lastAttempt < RESOLVE_RETRY_MS) return Promise.resolve();
      resolving = resolveNow().finally(() => {
        resolving = undefined;
      });
      return resolving;
    },
  };
  background(BACKGROUND_RETRY_MS);
  return registry;
}
