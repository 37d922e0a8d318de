// What a serving process gets from the process topology it runs in. The subsystems take these
// parts as plain functions and objects and never ask which process they are in: the default is a
// node of one process (also a PostgreSQL replica, and what tests and embedding programs use); a
// cluster worker's come from cluster/worker.ts.
import type { Registry } from "prom-client";
import type { KickHint } from "../federation/deliverer.js";
import { ConnectionLedger, localGate, type ConnectionGate, type ConnectionLimits } from "../http/connection-guard.js";
import type { TokenBuckets } from "../limits/token-buckets.js";
import type { CommitFeed } from "../live/commits.js";
import type { Scrape } from "../metrics/endpoint.js";
import type { AppendWriter } from "../storage/sqlite-append-writer.js";

export interface ServingTopology {
  /**
   * "alone": this process is the whole node (one process, or one PostgreSQL replica): it applies
   * migrations, sweeps, drains the outbox and serves --metrics-port itself. "worker": one of a
   * primary's workers, which does those for it.
   */
  readonly role: "alone" | "worker";
  /** Who admits connections: a ledger of this process's, or the primary's. */
  connectionGate(limits: ConnectionLimits): ConnectionGate;
  /** SQLite: the writer every append goes through and the feed of its commits, the primary's; absent: the store's own. */
  readonly sqlite?: { writer(): AppendWriter; commits(): CommitFeed };
  /** Shares what the rate limits and quotas take with the node's other processes (limits are per node); absent: nothing to share. */
  readonly shareLimits?: (tables: Record<string, TokenBuckets>) => () => void;
  /** Kicks the node's deliverer, which runs in another process; absent: it runs in this one. */
  readonly kickDeliverer?: (hint?: KickHint) => void;
  /** Gives this process's metrics registry to the process that gathers the node's, which answers scrapes; absent: this process answers alone. */
  readonly shareMetrics?: (own: Registry) => { scrape: Scrape; stop(): void };
}

/** A node of one process: the default. */
export const SINGLE_PROCESS: ServingTopology = {
  role: "alone",
  connectionGate: (limits) => localGate(new ConnectionLedger(limits)),
};
