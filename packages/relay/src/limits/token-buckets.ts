/** One dimension of a bucket: holds at most `capacity`, refills `perSecond`. */
export interface BucketDimension {
  capacity: number;
  perSecond: number;
}

export type Verdict = { ok: true } | { ok: false; retryAfterSeconds: number; dimension: number };

/** A sample of consumption: costs per dimension, by key. */
export type Usage = Map<string, number[]>;

interface Bucket {
  levels: number[];
  updatedAt: number;
  /** When the bucket last moved to the most recently used end of the table. */
  movedAt: number;
}

export interface TokenBucketsOptions {
  dimensions: readonly BucketDimension[];
  /**
   * Most keys held; past it the least recently used (to within {@link RECENCY_MS}) go first, which
   * only ever forgives. Default 100,000.
   */
  maxKeys?: number;
  /** Milliseconds, monotonic. */
  now?: () => number;
  /** Record own consumption for {@link TokenBuckets.takeUsage} (a cluster worker reports it to its primary). */
  trackUsage?: boolean;
}

/** How often, at most, buckets that have refilled to capacity are dropped: they hold nothing a new bucket would not. */
const SWEEP_MS = 1000;

/**
 * How long a bucket keeps its place in the recency order after it moved to the most recent end.
 * Moving it at every take (a Map delete, then a set) made V8 rebuild the long-lived table over and
 * over: old-space garbage on every send, which the workers' full collections pay for by the size
 * of their heaps (bench/HISTORY.md, issue 38). Eviction order is then exact to within this long.
 */
export const RECENCY_MS = 1000;

/**
 * Token buckets by key, each with one or more dimensions (e.g. messages and bytes) that are taken
 * together. A full bucket is the same as none, so full ones are dropped: the table holds only the
 * keys that spent something recently.
 *
 * Consumption can come from elsewhere too ({@link TokenBuckets.applyRemote}): the other workers of a
 * node report theirs, so that a key's budget is the node's, not each process's.
 */
export class TokenBuckets {
  readonly dimensions: readonly BucketDimension[];
  private readonly buckets = new Map<string, Bucket>();
  private readonly maxKeys: number;
  private readonly now: () => number;
  private usage: Usage | undefined;
  private sweptAt: number;

  constructor(options: TokenBucketsOptions) {
    this.dimensions = options.dimensions;
    for (const { capacity, perSecond } of this.dimensions) {
      if (!(capacity > 0 && perSecond > 0)) throw new Error("a bucket dimension needs a positive capacity and rate");
    }
    this.maxKeys = options.maxKeys ?? 100_000;
    this.now = options.now ?? (() => performance.now());
    this.usage = options.trackUsage ? new Map() : undefined;
    this.sweptAt = this.now();
  }

  /** Keys currently held (for tests and memory checks). */
  get size(): number {
    return this.buckets.size;
  }

  /** Takes `costs` from `key`'s bucket if every dimension holds its cost; otherwise takes nothing. */
  take(key: string, costs: readonly number[]): Verdict {
    const bucket = this.refilled(key);
    for (let d = 0; d < costs.length; d++) {
      const cost = costs[d]!;
      const level = bucket.levels[d]!;
      if (cost > level) {
        const { perSecond } = this.dimensions[d]!;
        return { ok: false, dimension: d, retryAfterSeconds: Math.max(1, Math.ceil((cost - level) / perSecond)) };
      }
    }
    this.spend(key, bucket, costs);
    return { ok: true };
  }

  /** Takes `costs` whatever the bucket holds: it may go below zero, and refills from there. */
  charge(key: string, costs: readonly number[]): void {
    this.spend(key, this.refilled(key), costs);
  }

  /** Gives back what a `take` or `charge` took (e.g. for work that turned out not to be done). */
  refund(key: string, costs: readonly number[]): void {
    this.charge(
      key,
      costs.map((cost) => -cost),
    );
  }

  /** Seconds until `key` could pay `costs` (0: now). */
  waitSeconds(key: string, costs: readonly number[]): number {
    const bucket = this.peek(key);
    let wait = 0;
    costs.forEach((cost, d) => {
      const level = bucket ? bucket.levels[d]! : this.dimensions[d]!.capacity;
      if (cost > level) wait = Math.max(wait, Math.ceil((cost - level) / this.dimensions[d]!.perSecond));
    });
    return wait;
  }

  /** Consumption reported by other processes sharing these limits: taken like a charge, never reported back. */
  applyRemote(usage: Iterable<readonly [string, readonly number[]]>): void {
    for (const [key, costs] of usage) {
      const bucket = this.refilled(key);
      costs.forEach((cost, d) => {
        if (d < bucket.levels.length) bucket.levels[d] = Math.min(this.dimensions[d]!.capacity, bucket.levels[d]! - cost);
      });
    }
  }

  /** Own consumption since the last call (needs `trackUsage`). */
  takeUsage(): Usage {
    const usage = this.usage ?? new Map<string, number[]>();
    if (this.usage) this.usage = new Map();
    return usage;
  }

  private spend(key: string, bucket: Bucket, costs: readonly number[]): void {
    for (let d = 0; d < costs.length; d++) {
      bucket.levels[d] = Math.min(this.dimensions[d]!.capacity, bucket.levels[d]! - costs[d]!);
    }
    if (this.usage) {
      const sum = this.usage.get(key);
      if (sum) for (let d = 0; d < costs.length; d++) sum[d]! += costs[d]!;
      else this.usage.set(key, [...costs]);
    }
  }

  private peek(key: string): Bucket | undefined {
    const bucket = this.buckets.get(key);
    if (bucket) this.refill(bucket, this.now());
    return bucket;
  }

  /** The key's bucket, refilled to now, and moved to the most recently used end unless it moved there within {@link RECENCY_MS}. */
  private refilled(key: string): Bucket {
    const time = this.now();
    if (time - this.sweptAt >= SWEEP_MS) this.sweep(time);
    let bucket = this.buckets.get(key);
    if (bucket) {
      this.refill(bucket, time);
      if (time - bucket.movedAt < RECENCY_MS) return bucket;
      this.buckets.delete(key);
      bucket.movedAt = time;
    } else {
      bucket = { levels: this.dimensions.map((dimension) => dimension.capacity), updatedAt: time, movedAt: time };
      if (this.buckets.size >= this.maxKeys) this.evictOldest();
    }
    this.buckets.set(key, bucket);
    return bucket;
  }

  private refill(bucket: Bucket, time: number): void {
    const seconds = (time - bucket.updatedAt) / 1000;
    if (seconds <= 0) return;
    for (let d = 0; d < bucket.levels.length; d++) {
      const { capacity, perSecond } = this.dimensions[d]!;
      bucket.levels[d] = Math.min(capacity, bucket.levels[d]! + seconds * perSecond);
    }
    bucket.updatedAt = time;
  }

  private sweep(time: number): void {
    this.sweptAt = time;
    for (const [key, bucket] of this.buckets) {
      this.refill(bucket, time);
      if (bucket.levels.every((level, d) => level >= this.dimensions[d]!.capacity)) this.buckets.delete(key);
    }
  }

  private evictOldest(): void {
    const oldest = this.buckets.keys().next();
    if (!oldest.done) this.buckets.delete(oldest.value);
  }
}
