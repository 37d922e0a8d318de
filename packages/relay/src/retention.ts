import type { Logger } from "./log.js";
import type { MessageStore } from "./storage/store.js";

/** Messages one sweep transaction deletes at most: short transactions, so sends never wait long behind one. */
export const SWEEP_BATCH = 500;

export interface RetentionSweep {
  /** Sweeps now (also what the timer runs); resolves with how many messages it deleted. */
  sweepNow(): Promise<number>;
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/** How often the sweep looks: a tenth of the retention, between 1 s and 1 min. */
export const sweepIntervalMs = (retentionMs: number): number => Math.min(60_000, Math.max(1000, Math.round(retentionMs / 10)));

/**
 * Deletes the messages older than the retention, in the background, in batches of
 * {@link SWEEP_BATCH} through the store's writer. Reads do not wait for it: they already skip an
 * expired message (store.ts `RetentionFloor`); the sweep gives back the space. One process of a
 * node runs it: the one that drains the outbox (a SQLite node's primary, or its only process; each
 * PostgreSQL replica, whose deletes of the same rows are idempotent).
 */
export function startRetentionSweep(options: { store: MessageStore; retentionMs: number; logger: Logger }): RetentionSweep | undefined {
  const { store, retentionMs, logger } = options;
  if (retentionMs <= 0) return undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  async function sweep(): Promise<number> {
    const started = Date.now();
    let swept = 0;
    for (;;) {
      const deleted = await store.sweepExpired(SWEEP_BATCH);
      swept += deleted;
      if (deleted < SWEEP_BATCH || stopped) break;
    }
    if (swept > 0) logger.info({ swept, ms: Date.now() - started }, "retention: deleted expired messages");
    return swept;
  }
  const sweepNow = () =>
    (running ??= sweep().finally(() => {
      running = undefined;
    }));
  const timer = setInterval(() => {
    sweepNow().catch((error: unknown) => logger.warn({ err: error }, "retention sweep failed; it runs again at the next interval"));
  }, sweepIntervalMs(retentionMs));
  timer.unref();
  return {
    sweepNow,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}
