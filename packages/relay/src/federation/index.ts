// Federation for one serving process of a node (issue 21, openrpc.json "Federation"): its peers,
// the directory, the check of node-to-node requests, and a way to the node's deliverer (parts.ts).
import { isPendingMessageJson } from "@neutral/protocol";
import type { Deliverer } from "./deliverer.js";
import { createNodeAuthenticator, type NodeAuthenticate } from "./node-auth.js";
import type { KickHint } from "./deliverer.js";
import { federationParts, startNodeDeliverer, type FederationOptions, type FederationParts } from "./parts.js";

export { NODE_METHODS } from "./node-auth.js";
export type { Route } from "./directory.js";
export { deliveryPollMs, federationParts, startNodeDeliverer, type FederationOptions, type FederationParts } from "./parts.js";

/** A serving process's view of federation. */
export interface Federation extends FederationParts {
  /** Whether this node has peers at all (without, it behaves exactly as a v1 node). */
  readonly enabled: boolean;
  checkNodeRequest: NodeAuthenticate;
  /** Asks the node's deliverer to drain now (`destination`: a message was just queued for it; `peerUp`: that peer just called us, so its backoff ends). */
  kick(hint?: KickHint): void;
  /**
   * Waits up to `waitMs` for the sender's copy of message `id` to be settled (delivered or
   * failed); resolves with its JSON then, or undefined if it is still pending.
   */
  settled(owner: string, id: number, waitMs: number): Promise<string | undefined>;
  close(): Promise<void>;
}

/**
 * `kickDeliverer`: how to reach the node's deliverer when it runs in another process (a cluster
 * worker's primary: topology/); absent, the deliverer runs here.
 */
export async function createFederation(options: FederationOptions & { kickDeliverer?: ((hint?: KickHint) => void) | undefined; pollMs: number }): Promise<Federation> {
  const parts = await federationParts(options);
  const { store } = options;
  let deliverer: Deliverer | undefined;
  if (!options.kickDeliverer) deliverer = startNodeDeliverer(options, parts, { pollMs: options.pollMs });
  const kick = (hint?: KickHint) => (deliverer ? deliverer.kick(hint) : options.kickDeliverer?.(hint));
  // A send waiting for its receipt is woken when the deliverer settles it here; elsewhere (a
  // worker whose primary delivers, a replica without the lease) it looks in the database.
  const waiters = new Map<number, Set<(json: string) => void>>();
  deliverer?.onSettled((settled) => {
    for (const { id, json } of settled) for (const wake of waiters.get(id) ?? []) wake(json);
  });
  // Learn the unpinned peers' addresses now rather than at the first request that needs one.
  if (parts.peers.unresolved) void parts.peers.resolve();
  return {
    ...parts,
    enabled: parts.peers.list().length > 0,
    checkNodeRequest: createNodeAuthenticator({ self: options.nodeKey.address, curve: options.curve, clockSkewMs: options.clockSkewMs, peers: parts.peers, logger: options.logger }),
    kick,
    async settled(owner, id, waitMs) {
      const deadline = Date.now() + waitMs;
      let settledJson: string | undefined;
      let wake = () => {};
      const onSettled = (json: string) => {
        settledJson = json;
        wake();
      };
      const listening = deliverer ? (waiters.get(id) ?? new Set()) : undefined;
      if (listening) waiters.set(id, listening.add(onSettled));
      try {
        // The caller has just seen the copy pending: wait first, then look.
        for (let delay = deliverer ? 250 : 5; ; delay = Math.min(deliverer ? 250 : 100, delay * 2)) {
          const left = deadline - Date.now();
          if (settledJson !== undefined || left <= 0) return settledJson;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Math.min(delay, left));
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          if (settledJson !== undefined) return settledJson;
          const json = await store.sentMessage(owner, id);
          if (json !== undefined && !isPendingMessageJson(json)) return json;
        }
      } finally {
        listening?.delete(onSettled);
        if (listening?.size === 0) waiters.delete(id);
      }
    },
    async close() {
      parts.peers.close();
      await deliverer?.stop();
      parts.client.close();
    },
  };
}
