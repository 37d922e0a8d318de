import type { Logger } from "./log.js";
import type { MessageStore } from "./storage/store.js";

/**
 * Messages one call of the store's sweep deletes at most. SQLite splits it into transactions of
 * ~2,000 rows grouped by owner (sqlite-append-batch.js `SWEEP_STEP_ROWS`): the more messages a
 * pass holds, the more of an owner's rows share a page, written once (README, "Retention and
 * deletion"). PostgreSQL deletes it in one statement (MVCC: no reader or sender waits for it).
 */
export const SWEEP_BATCH = 10_000;

export interface RetentionSweep {
  /** Stops the timers and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/** How often the sweep looks: a tenth of the retention, between 1 s and 1 min. */
export const sweepIntervalMs = (retentionMs: number): number => Math.min(60_000, Math.max(1000, Math.round(retentionMs / 10)));

/** How often sender-set ends (`expires`) are looked for: one index probe when none is due. */
export const SENDER_EXPIRY_INTERVAL_MS = 1000;

/**
 * Deletes messages in the background, in batches of {@link SWEEP_BATCH} through the store's writer:
 * those older than the retention (reads already skip them: store.ts `RetentionFloor`; the sweep
 * gives back the space), and those whose sender-set end has come (`ExpiringMessage`; looked for
 * every second, so one is served at most about a second after its end). One process of a node runs
 * it: the one that drains the outbox (a SQLite node's primary, or its only process; each
 * PostgreSQL replica, whose deletes of the same rows are idempotent).
 */
export function startRetentionSweep(options: { store: MessageStore; retentionMs: number; logger: Logger; now?: () => number }): RetentionSweep {
  const { store, retentionMs, logger, now = Date.now } = options;
  let running: Promise<number> | undefined;
  let stopped = false;

  async function inBatches(sweepOne: () => Promise<number>): Promise<number> {
    let swept = 0;
    for (;;) {
      const deleted = await sweepOne();
      swept += deleted;
      if (deleted < SWEEP_BATCH || stopped) return swept;
    }
  }
  async function sweep(withRetention: boolean): Promise<number> {
    const started = Date.now();
    const old = withRetention && retentionMs > 0 ? await inBatches(() => store.sweepExpired(SWEEP_BATCH)) : 0;
    if (old > 0) logger.info({ swept: old, ms: Date.now() - started }, "retention: deleted expired messages");
    const ended = await inBatches(() => store.sweepSenderExpired(SWEEP_BATCH, now()));
    if (ended > 0) logger.info({ swept: ended, ms: Date.now() - started }, "retention: deleted messages past their sender-set end");
    return old + ended;
  }
  let runningWithRetention = false;
  /** One sweep at a time; a retention sweep asked for while only sender-set ends are swept follows it. */
  function sweepOnce(withRetention: boolean): Promise<number> {
    if (running && (runningWithRetention || !withRetention)) return running;
    const run: Promise<number> = (running ?? Promise.resolve(0))
      .catch(() => 0)
      .then(() => sweep(withRetention))
      .finally(() => {
        if (running === run) running = undefined;
      });
    running = run;
    runningWithRetention = withRetention;
    return run;
  }
  const every = (ms: number, withRetention: boolean) => {
    const timer = setInterval(() => {
      sweepOnce(withRetention).catch((error: unknown) => logger.warn({ err: error }, "retention sweep failed; it runs again at the next interval"));
    }, ms);
    timer.unref();
    return timer;
  };
  const timers = [every(SENDER_EXPIRY_INTERVAL_MS, false), ...(retentionMs > 0 ? [every(sweepIntervalMs(retentionMs), true)] : [])];
  return {
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}
