// The stores the suite's tests run on: what a backend gives (OpenedStore), and one store per test or one an area's tests share.
import { afterAll, afterEach, beforeAll, beforeEach, onTestFinished, type TestContext } from "vitest";
import type { MessageStore } from "@neutral/relay";

/** The store options (ms) a durable backend's `reopen` takes: a retention policy, and how long swept digests are remembered. */
export interface StoreOptions {
  retentionMs?: number;
  sweptDigestsMs?: number;
}

/** What a backend's `open` gives: a fresh, empty store, how to open its storage again, and how to remove it. */
export interface OpenedStore {
  store: MessageStore;
  /**
   * Opens the same storage again (as after a restart), with the store options given (a retention
   * policy, ms); given only by durable backends.
   */
  reopen?: (options?: StoreOptions) => Promise<MessageStore>;
  /** Removes the storage; called after every store of this storage is closed. */
  cleanup: () => Promise<void>;
}

/** The backend's `open`: fresh, empty storage on every call. */
export type OpenStore = () => Promise<OpenedStore>;

/**
 * A store of its own for each test of an area, opened before the test and closed and removed after
 * it: for tests that read store-wide state (the outbox, peer pins, sweeps, the footprint) or change
 * the store itself (close, reopen, store options).
 */
export interface StorePerTest {
  /** The test's store: the one opened for it, or the last one `reopen` gave. */
  readonly store: MessageStore;
  /** Closes `store` (the suite closes every store still open once the test ends). */
  close(store: MessageStore): Promise<void>;
  /** Closes the test's store (unless closed already) and opens its storage again; skips the test if the backend can't. */
  reopen(context: TestContext, options?: StoreOptions): Promise<MessageStore>;
}

/**
 * One store the tests of an area share, opened before the first and closed and removed after the
 * last: for tests that read and write only their own fresh accounts (`parties()`), so that what
 * the other tests stored is invisible to them.
 */
export interface SharedStore {
  /** The area's store. */
  readonly store: MessageStore;
  /** A store of the calling test's own, for a test of the area that reads store-wide state; closed and removed when the test ends. */
  own(): Promise<MessageStore>;
}

const outsideATest = (): never => {
  throw new Error("the conformance suite's stores are there only while its tests run");
};

/** Declares, in the calling describe, a store for each of its tests. */
export function storePerTest(open: OpenStore): StorePerTest {
  let opened: OpenedStore | undefined;
  let current: MessageStore | undefined;
  let live: MessageStore[] = [];

  beforeEach(async () => {
    opened = await open();
    current = opened.store;
    live = [current];
  });

  afterEach(async () => {
    const storage = opened;
    const stores = live;
    [opened, current, live] = [undefined, undefined, []];
    for (const store of stores) await store.close();
    await storage?.cleanup();
  });

  async function close(store: MessageStore): Promise<void> {
    live = live.filter((other) => other !== store);
    await store.close();
  }

  return {
    get store() {
      return current ?? outsideATest();
    },
    close,
    async reopen(context, options) {
      const reopenStorage = (opened ?? outsideATest()).reopen;
      if (!reopenStorage) return context.skip("this backend gives no reopen");
      const previous = current ?? outsideATest();
      if (live.includes(previous)) await close(previous);
      current = await reopenStorage(options);
      live.push(current);
      return current;
    },
  };
}

/** Declares, in the calling describe, one store its tests share. */
export function sharedStore(open: OpenStore): SharedStore {
  let opened: OpenedStore | undefined;

  beforeAll(async () => {
    opened = await open();
  });

  afterAll(async () => {
    const storage = opened;
    opened = undefined;
    await storage?.store.close();
    await storage?.cleanup();
  });

  return {
    get store() {
      return (opened ?? outsideATest()).store;
    },
    async own() {
      const mine = await open();
      onTestFinished(async () => {
        await mine.store.close();
        await mine.cleanup();
      });
      return mine.store;
    },
  };
}
