import { TokenBuckets } from "../limits/token-buckets.js";

export type RateVerdict = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Takes `cost` tokens (default 1) for `key` if it holds them; otherwise takes none and answers how many seconds to wait. */
  take(key: string, cost?: number): RateVerdict;
  /** Takes `cost` tokens whatever the key holds (it may go into debt, repaid before its next `take`). */
  charge(key: string, cost: number): void;
  /** The buckets underneath, for sharing consumption between the node's processes. */
  readonly buckets: TokenBuckets;
}

export interface RateLimiterOptions {
  perSecond: number;
  /** Default: twice `perSecond`. */
  burst?: number;
  maxKeys?: number;
  now?: () => number;
  /** Record consumption for the node's other processes (see topology/cluster/limits.ts). */
  trackUsage?: boolean;
}

/**
 * A token bucket per key (client IP): `perSecond` tokens a second, holding at most `burst`.
 * What a request costs is the caller's to say (limits/request-costs.ts). Buckets of the least
 * recently seen keys are dropped past `maxKeys`, which only ever forgives.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { perSecond } = options;
  const buckets = new TokenBuckets({
    dimensions: [{ capacity: options.burst ?? perSecond * 2, perSecond }],
    ...(options.maxKeys !== undefined && { maxKeys: options.maxKeys }),
    ...(options.now && { now: options.now }),
    ...(options.trackUsage && { trackUsage: true }),
  });
  return {
    buckets,
    take(key, cost = 1) {
      const verdict = buckets.take(key, [cost]);
      return verdict.ok ? verdict : { ok: false, retryAfterSeconds: verdict.retryAfterSeconds };
    },
    charge(key, cost) {
      if (cost !== 0) buckets.charge(key, [cost]);
    },
  };
}
