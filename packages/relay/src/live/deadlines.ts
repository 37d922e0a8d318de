/**
 * Deadlines of many items on one timer: what ends each live stream when its bearer token expires.
 * A timer per stream cost ~380 bytes of heap each (a `Timeout`, and a timer list of its own for
 * almost every stream: tokens expire at all sorts of delays), held for the stream's life
 * (bench/HISTORY.md, "One timer for the streams' token expiries").
 *
 * While any item waits, one timer looks every `granularityMs` (a second by default) for the items
 * whose time has come: an item is due at most about that long after its time, never before it.
 * Items due at the same look share a set.
 */
export class Deadlines<T> {
  /** Items by the look they are due at (its time). */
  readonly #due = new Map<number, Set<T>>();
  #count = 0;
  /** While the timer runs: the time of the last look (or of the timer's start). */
  #checked = 0;
  #ticker: NodeJS.Timeout | undefined;

  constructor(
    private readonly onDue: (item: T) => void,
    private readonly now: () => number = Date.now,
    private readonly granularityMs = 1000,
  ) {}

  /** Items waiting. */
  get size(): number {
    return this.#count;
  }

  /**
   * `item` is due at `at` (ms since the epoch): `onDue` is called with it within `granularityMs`
   * after that (at the next look, for a time already past), unless it is deleted first. Returns the
   * time it is kept under, which {@link delete} takes.
   */
  add(item: T, at: number): number {
    if (this.#ticker === undefined) {
      this.#checked = this.now();
      this.#ticker = setInterval(() => this.#look(), this.granularityMs);
      this.#ticker.unref();
    }
    // The first look at or after `at` (looks are `granularityMs` apart from when the timer started);
    // a time already past is due at the next look.
    const time = this.#checked + Math.max(1, Math.ceil((at - this.#checked) / this.granularityMs)) * this.granularityMs;
    let items = this.#due.get(time);
    if (items === undefined) this.#due.set(time, (items = new Set()));
    if (!items.has(item)) {
      items.add(item);
      this.#count++;
    }
    return time;
  }

  /** `item`, kept under `time` (what {@link add} returned), is no longer waited for. */
  delete(item: T, time: number): void {
    const items = this.#due.get(time);
    if (!items?.delete(item)) return;
    this.#count--;
    if (items.size === 0) this.#due.delete(time);
    if (this.#count === 0) this.#stop();
  }

  /** Forgets every item and stops the timer. */
  clear(): void {
    this.#due.clear();
    this.#count = 0;
    this.#stop();
  }

  #look(): void {
    const now = this.now();
    for (let time = this.#checked + this.granularityMs; time <= now; time += this.granularityMs) {
      this.#checked = time;
      const items = this.#due.get(time);
      if (items === undefined) continue;
      this.#due.delete(time);
      this.#count -= items.size;
      for (const item of items) this.onDue(item);
    }
    if (this.#count === 0) this.#stop();
  }

  #stop(): void {
    clearInterval(this.#ticker);
    this.#ticker = undefined;
  }
}
