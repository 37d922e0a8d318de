// The outbox is drained by one process of a node with workers: its primary. A worker that queues
// a message for another node kicks the primary's deliverer over the cluster channel.
import type { Deliverer, KickHint } from "../../federation/deliverer.js";
import type { PrimaryLink, WorkersLink } from "../channel.js";

/** In the primary: passes its workers' kicks to the deliverer. Returns the function that stops listening. */
export const serveDeliveryKicks = (workers: WorkersLink, deliverer: Deliverer): (() => void) => workers.on("delivery-kick", ({ hint }) => deliverer.kick(hint));

/** In a worker: asks the primary's deliverer to drain now. */
export const kickPrimaryDeliverer =
  (primary: PrimaryLink) =>
  (hint?: KickHint): void =>
    primary.notify("delivery-kick", { ...(hint && { hint }) });
