import type { MessageStore } from "../storage/store.js";

/** What GET /ready answers: ready, or why not. */
export type Readiness = { ready: true } | { ready: false; reason: string };

export interface ReadinessCheck {
  check(): Promise<Readiness>;
  /** From now on not ready (the node is stopping): a load balancer stops sending before the port closes. */
  stopping(): void;
}

/**
 * Readiness (GET /ready): the database answers, within `timeoutMs`, and has every migration this
 * software needs. A probe is public and may come often: one check serves every probe for `cacheMs`.
 */
export function createReadiness(store: Pick<MessageStore, "migrated">, options: { timeoutMs?: number; cacheMs?: number } = {}): ReadinessCheck {
  const timeoutMs = options.timeoutMs ?? 2000;
  const cacheMs = options.cacheMs ?? 1000;
  let cached: { at: number; verdict: Promise<Readiness> } | undefined;
  let stopping = false;

  async function probe(): Promise<Readiness> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Readiness>((resolve) => {
      timer = setTimeout(() => resolve({ ready: false, reason: `the database did not answer within ${timeoutMs} ms` }), timeoutMs);
    });
    const answered = store.migrated().then(
      (migrated): Readiness => (migrated ? { ready: true } : { ready: false, reason: "database migrations are pending" }),
      // Never the error's text: it may name the database's host or user.
      (): Readiness => ({ ready: false, reason: "the database is unreachable" }),
    );
    try {
      return await Promise.race([answered, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    check() {
      if (stopping) return Promise.resolve({ ready: false, reason: "the node is stopping" });
      const at = performance.now();
      if (!cached || at - cached.at >= cacheMs) cached = { at, verdict: probe() };
      return cached.verdict;
    },
    stopping() {
      stopping = true;
    },
  };
}
