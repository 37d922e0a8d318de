// How a supervising primary replaces workers that die (issue 19, finding 8). It used to give up,
// and take the whole node down, after six deaths in ten seconds; now it never gives up while the
// database answers. The first death is replaced at once; while workers keep dying, each replacement
// waits twice as long as the one before, up to a cap, so that a crash loop costs little CPU and the
// workers still alive keep serving. A quiet period resets the delay.

export interface RestartBackoffOptions {
  /** Delay after the second death in a row, ms (the first is replaced at once). */
  firstDelayMs: number;
  /** Longest delay, ms. */
  maxDelayMs: number;
  /** A death this long after the previous one starts a new series, ms. */
  quietMs: number;
  /** Deaths in a row from which a crash loop is suspected (and the database is checked before each restart). */
  loopAfter: number;
}

export const DEFAULT_RESTART_BACKOFF: RestartBackoffOptions = { firstDelayMs: 100, maxDelayMs: 5000, quietMs: 30_000, loopAfter: 5 };

export class RestartBackoff {
  #deaths = 0;
  #lastDeath = Number.NEGATIVE_INFINITY;

  constructor(readonly options: RestartBackoffOptions = DEFAULT_RESTART_BACKOFF) {}

  /** A worker died at `now` (ms): how long to wait before forking its replacement. */
  next(now: number): number {
    if (now - this.#lastDeath >= this.options.quietMs) this.#deaths = 0;
    this.#lastDeath = now;
    const delay = this.#deaths === 0 ? 0 : Math.min(this.options.maxDelayMs, this.options.firstDelayMs * 2 ** (this.#deaths - 1));
    this.#deaths++;
    return delay;
  }

  /** Deaths in the current series. */
  get deaths(): number {
    return this.#deaths;
  }

  /** True once the current series is long enough to suspect a crash loop. */
  get looping(): boolean {
    return this.#deaths >= this.options.loopAfter;
  }
}
