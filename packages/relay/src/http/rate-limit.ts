import { LRUCache } from "lru-cache";

export interface RateLimiter {
  /** Takes one token for `key`; answers how many seconds to wait when there is none. */
  take(key: string): { ok: true } | { ok: false; retryAfterSeconds: number };
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * A token bucket per key (client IP): `perSecond` tokens a second, holding at most `burst`.
 * Buckets of the least recently seen keys are dropped past `maxKeys`, which only ever forgives.
 */
export function createRateLimiter(options: { perSecond: number; burst?: number; maxKeys?: number; now?: () => number }): RateLimiter {
  const { perSecond } = options;
  const burst = options.burst ?? perSecond * 2;
  const now = options.now ?? (() => performance.now());
  const buckets = new LRUCache<string, Bucket>({ max: options.maxKeys ?? 100_000 });
  return {
    take(key) {
      const time = now();
      let bucket = buckets.get(key);
      if (!bucket) {
        bucket = { tokens: burst, updatedAt: time };
        buckets.set(key, bucket);
      } else {
        bucket.tokens = Math.min(burst, bucket.tokens + ((time - bucket.updatedAt) / 1000) * perSecond);
        bucket.updatedAt = time;
      }
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true };
      }
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond)) };
    },
  };
}
