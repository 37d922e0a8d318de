import type { IncomingMessage } from "node:http";
import type { EntryHook, RequestHook } from "@neutral/server";
import type { Authenticate } from "../auth/authenticator.js";
import { reportedLimits, type RelayConfig } from "../config.js";
import { createRateLimiter, type RateLimiter } from "../http/rate-limit.js";
import type { Caller, Limits, RelayContext } from "../rpc/index.js";
import { admitRequest, chargeEntry, peerEntryCost, rateLimitedError } from "./request-costs.js";
import { createStorageQuotas, type StorageQuotas } from "./storage-quotas.js";
import type { TokenBuckets } from "./token-buckets.js";


/** A node's per-client rate limit and storage quotas, shared by its worker processes. */
export interface NodeLimits {
  /** What nodeInfo reports: the configured per-node figures. */
  readonly reported: Limits;
  readonly quotas: StorageQuotas | undefined;
  /**
   * The HTTP stub's `onRequest` hook: admits a JSON-RPC request for one unit before its body is
   * read (else 429) and notes its client in the context (limits/request-costs.ts); undefined: no rate limit.
   */
  readonly onRequest: RequestHook<RelayContext> | undefined;
  /** The dispatcher's `onEntry` hook: charges each entry of a request (limits/request-costs.ts); undefined: no rate limit. */
  readonly onEntry: EntryHook<RelayContext> | undefined;
  /** The `authenticate` hook: a token verified afresh costs one unit, refused (429) when there is none. */
  authenticate(authenticate: Authenticate): (authorization: string | undefined, request: IncomingMessage) => RelayContext;
  /** A peer's node-to-node request, its signature checked: refused (-32029, 429) while the peer's budget is spent; undefined: no peer limit. */
  readonly admitPeer: ((node: string) => void) | undefined;
  stop(): void;
}

/**
 * `clientOf`: the client a request counts against (its IPv4 address or IPv6 /64; behind a trusted
 * reverse proxy, the one X-Forwarded-For names: relay.ts). `share`: how this process shares what its
 * limits take with the node's other processes (a cluster worker's, topology/cluster/limits.ts);
 * absent, a process alone, it has nothing to share.
 */
export function createNodeLimits(config: RelayConfig, clientOf: (request: IncomingMessage) => string, share?: (tables: Record<string, TokenBuckets>) => () => void): NodeLimits {
  const { replicas } = config;
  const trackUsage = share !== undefined;
  let limiter: RateLimiter | undefined;
  if (config.rateLimit > 0) {
    const perSecond = config.rateLimit / replicas;
    // At least the cost of one signature-checking entry, or such a request could never be admitted.
    limiter = createRateLimiter({ perSecond, burst: Math.max(2, perSecond * 2), trackUsage });
  }
  const quotas = createStorageQuotas(config.quotas, { replicas, trackUsage });
  // Each peer's own budget (keyed by its node address, not its IP: a peer is one caller wherever it
  // calls from), charged what its calls cost: a delivery per message and record (request-costs.ts).
  let peerLimiter: RateLimiter | undefined;
  if (config.peerRateLimit > 0) {
    const perSecond = config.peerRateLimit / replicas;
    // A full delivery (100 messages, 100 records: 301 units) always fits a burst.
    peerLimiter = createRateLimiter({ perSecond, burst: Math.max(2 * perSecond, 2 * 301), trackUsage });
  }
  const tables: Record<string, TokenBuckets> = {
    ...(limiter && { rate: limiter.buckets }),
    ...(peerLimiter && { peers: peerLimiter.buckets }),
    ...Object.fromEntries(Object.entries(quotas?.tables ?? {}).map(([name, table]) => [`quota-${name}`, table])),
  };
  const stopSharing = share?.(tables) ?? (() => {});

  const chargeClient = limiter && chargeEntry<RelayContext>(limiter);
  // A peer's entries go to its own budget, into debt if need be (admitPeer refuses its next call
  // until it is repaid): the call was admitted, so it is served.
  const chargePeer = peerLimiter && ((entry: { raw: unknown }, context: RelayContext) => peerLimiter.charge(`node:${context.auth!.address}`, peerEntryCost(entry.raw)));
  const onEntry: EntryHook<RelayContext> | undefined =
    chargeClient || chargePeer
      ? (entry, context) => {
          if (context.auth?.kind === "node") return chargePeer?.(entry, context);
          return chargeClient?.(entry, context);
        }
      : undefined;

  return {
    reported: reportedLimits(config),
    quotas,
    onRequest: limiter && admitRequest<RelayContext>(limiter, clientOf),
    onEntry,
    admitPeer:
      peerLimiter &&
      ((node) => {
        // Looked at, not taken: the call's own unit is in its entry's cost.
        const wait = peerLimiter.buckets.waitSeconds(`node:${node}`, [1]);
        if (wait > 0) throw rateLimitedError(wait, "Rate limited: this peer's calls used up its budget (--peer-rate-limit); retry later");
      }),
    authenticate(authenticate) {
      if (!limiter) {
        return (authorization) => {
          const { address, expiresAt } = authenticate(authorization);
          return { auth: { address, expiresAt } };
        };
      }
      return (authorization, request) => {
        const client = clientOf(request);
        const beforeRecovery = () => {
          const verdict = limiter.take(client);
          if (!verdict.ok) throw rateLimitedError(verdict.retryAfterSeconds, "Rate limited: no budget left to verify this token");
        };
        const { address, expiresAt } = authenticate(authorization, beforeRecovery);
        const caller: Caller = { address, expiresAt };
        return { auth: caller }; // the client is in the context already (onRequest)
      };
    },
    stop: stopSharing,
  };
}
