// A serving process that is one of a cluster primary's workers: what it shares with its primary.
import { linkToPrimary } from "../channel.js";
import type { ServingTopology } from "../serving.js";
import { primaryCommitFeed } from "./commits.js";
import { primaryGate } from "./connections.js";
import { kickPrimaryDeliverer } from "./deliveries.js";
import { shareLimitsWithNode } from "./limits.js";
import { answerClusterMetrics } from "./metrics.js";
import { primaryWriter } from "./writer.js";

/** The topology of a cluster worker: the primary's writer and commits, connection ledger, limits, deliverer and metrics. */
export function clusterWorkerTopology(): ServingTopology {
  const primary = linkToPrimary();
  return {
    role: "worker",
    connectionGate: (limits) => primaryGate(primary, limits),
    sqlite: { writer: () => primaryWriter(primary), commits: () => primaryCommitFeed(primary) },
    shareLimits: (tables) => shareLimitsWithNode(primary, tables),
    kickDeliverer: kickPrimaryDeliverer(primary),
    shareMetrics: (own) => answerClusterMetrics(primary, own),
  };
}
