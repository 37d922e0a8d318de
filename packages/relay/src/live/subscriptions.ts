import { ErrorCode, RpcError, rawJson, type StreamEvent } from "@neutral/server";
import type { EndReason, SubscribeNotification } from "@neutral/server/neutral-service";
import { StoreClosedError } from "../errors.js";
import type { MailboxRange, MessageStore, Page, PageQuery } from "../storage/store.js";
import type { CommitEvent, CommitFeed } from "./commits.js";

// Live delivery (openrpc.json neutralService_subscribe, protocol.md §12). Gap-free by construction:
// a stream never sends what it was told, only what it reads from the store, forwards from its
// cursor (a keyset walk: ids are committed in id order, so what a forward read sees is complete up
// to its last id). Commit events only wake the streams of the accounts concerned. A stream
// registers before its first read, so a commit made while it reads the catch-up wakes it again.

export interface LiveLimits {
  /** Streams this process keeps open at once; one more is refused with -32029. */
  maxSubscriptions: number;
  /** Streams of one account in this process; one more ends the account's oldest (reason `limit`). */
  maxSubscriptionsPerAccount: number;
}

export interface SubscriptionsOptions {
  store: MessageStore;
  feed: CommitFeed;
  limits: LiveLimits;
  /** The scan bound of pages with since/until (nodeInfo `maxPageScan`). */
  maxPageScan: number;
  now?: () => number;
}

/** What a stream reads: an owner's mailbox ranges, with the filter's time window. */
export interface StreamSelection {
  owner: string;
  ranges: readonly MailboxRange[];
  since?: number;
  until?: number;
}

type Event = StreamEvent<SubscribeNotification>;

const END_MESSAGES: Record<EndReason, string> = {
  "token-expired": "The bearer token expired: subscribe again with a fresh one, after the last id received",
  shutdown: "The node is stopping: subscribe again (to it or another replica) after the last id received",
  "slow-consumer": "The client did not read the stream: subscribe again after the last id received, and read faster",
  limit: "This account opened more streams than the node allows (maxSubscriptionsPerAccount); this was its oldest",
};

/** The last event of a stream ended for `reason`, naming the last id sent. */
export function endEvent(reason: EndReason, cursor: string | undefined): Event {
  return { method: "neutralService_end", params: { reason, message: END_MESSAGES[reason], ...(cursor !== undefined && { cursor }) } };
}

/** Most status changes one stream keeps waiting to be sent; past it the oldest are dropped (they are re-read on resume). */
const MAX_PENDING_STATUSES = 1_000;
/** Messages one read of the store takes (the spec's largest page). */
const READ_BATCH = 100;

/** One open stream: what wakes it, and what ends it. */
class Subscription {
  /** Something may have been committed since the stream last read. */
  dirty = true;
  readonly statuses: number[] = [];
  ended: EndReason | undefined;
  #wake: (() => void) | undefined;

  constructor(
    readonly selection: StreamSelection,
    readonly opened: number,
  ) {}

  notify(): void {
    this.#wake?.();
  }

  wake(): void {
    this.dirty = true;
    this.notify();
  }

  status(id: number): void {
    if (this.statuses.length >= MAX_PENDING_STATUSES) this.statuses.shift();
    this.statuses.push(id);
    this.notify();
  }

  end(reason: EndReason): void {
    this.ended ??= reason;
    this.notify();
  }

  /** Resolves at the next wake-up, status, end or abort. */
  wait(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.#wake = undefined;
        signal.removeEventListener("abort", done);
        resolve();
      };
      this.#wake = done;
      signal.addEventListener("abort", done, { once: true });
    });
  }
}

export interface OpenStream {
  selection: StreamSelection;
  /** Exclusive: the stream starts after this id (0: from the first message). */
  after: number;
  /** When the caller's token expires, ms since the epoch; the stream ends then. */
  expiresAt?: number;
  signal: AbortSignal;
}

export interface Subscriptions {
  /** Opens a stream, or throws the RpcError refusing it (the process is at its limit). */
  open(stream: OpenStream): AsyncIterable<Event>;
  /** Streams open in this process. */
  readonly count: number;
  /** Ends every stream with the `shutdown` reason and refuses new ones; resolves once they have all finished. */
  close(): Promise<void>;
}

/** Whether a sender's copy belongs to the selection (a status change of a message the stream would not send is not sent either). */
function selects(selection: StreamSelection, message: { to?: unknown; timestamp?: unknown }): boolean {
  if (selection.since !== undefined && !(typeof message.timestamp === "number" && message.timestamp >= selection.since)) return false;
  if (selection.until !== undefined && !(typeof message.timestamp === "number" && message.timestamp < selection.until)) return false;
  return selection.ranges.some((range) => range.side === "sent" && (range.peer === undefined || range.peer === message.to));
}

/** Attempts of a stream's read before the stream gives up (and is cut: its client resumes). */
const READ_ATTEMPTS = 6;

export function createSubscriptions(options: SubscriptionsOptions): Subscriptions {
  const { store, limits } = options;
  const now = options.now ?? Date.now;
  const byAccount = new Map<string, Set<Subscription>>();
  /** Each open stream's end. */
  const running = new Set<Promise<void>>();
  let count = 0;
  let closing = false;

  const onCommits = (events: readonly CommitEvent[]) => {
    for (const event of events) {
      if (event.kind === "message") {
        for (const account of event.accounts) byAccount.get(account)?.forEach((subscription) => subscription.wake());
      } else if (event.kind === "status") {
        byAccount.get(event.account)?.forEach((subscription) => subscription.status(event.id));
      } else {
        for (const subscriptions of byAccount.values()) subscriptions.forEach((subscription) => subscription.wake());
      }
    }
  };
  const unsubscribe = options.feed.subscribe(onCommits);

  function register(subscription: Subscription): void {
    const owner = subscription.selection.owner;
    let mine = byAccount.get(owner);
    if (!mine) byAccount.set(owner, (mine = new Set()));
    // At the account's bound: its oldest stream goes (a client reconnecting before the node saw its
    // old connection drop must not be locked out by it).
    if (mine.size >= limits.maxSubscriptionsPerAccount) {
      let oldest: Subscription | undefined;
      for (const other of mine) if (other.ended === undefined && (oldest === undefined || other.opened < oldest.opened)) oldest = other;
      oldest?.end("limit");
    }
    mine.add(subscription);
    count++;
  }

  function unregister(subscription: Subscription): void {
    const owner = subscription.selection.owner;
    const mine = byAccount.get(owner);
    if (mine?.delete(subscription)) count--;
    if (mine?.size === 0) byAccount.delete(owner);
  }

  let opened = 0;

  /**
   * A page, read again after a failure (a database connection lost and replaced) with a growing
   * wait, about 6 s in all: a stream outlives a short outage instead of cutting its client off.
   */
  async function readPage(query: PageQuery, signal: AbortSignal): Promise<Page> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await store.page(query);
      } catch (error) {
        if (attempt >= READ_ATTEMPTS || signal.aborted || error instanceof StoreClosedError) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
      }
    }
  }

  async function* run(subscription: Subscription, stream: OpenStream, done: () => void): AsyncGenerator<Event> {
    const { selection, signal } = stream;
    const base: Omit<PageQuery, "after" | "limit" | "order"> = {
      owner: selection.owner,
      ranges: selection.ranges,
      ...(selection.since !== undefined && { since: selection.since }),
      ...(selection.until !== undefined && { until: selection.until }),
      maxScan: options.maxPageScan,
    };
    let cursor = stream.after;
    let sentAny = false;
    const cursorText = () => (sentAny || stream.after > 0 ? String(cursor) : undefined);
    let expiry: NodeJS.Timeout | undefined;
    try {
      if (stream.expiresAt !== undefined) {
        const left = stream.expiresAt - now();
        if (left <= 0) subscription.end("token-expired");
        else {
          // A timer's delay is at most 2^31-1 ms; tokens live at most a day.
          expiry = setTimeout(() => subscription.end("token-expired"), Math.min(left, 2 ** 31 - 1));
          expiry.unref();
        }
      }
      let caughtUp = false;
      for (;;) {
        if (signal.aborted) return;
        if (subscription.ended !== undefined) {
          yield endEvent(subscription.ended, cursorText());
          return;
        }
        if (subscription.dirty) {
          subscription.dirty = false;
          for (;;) {
            const page = await readPage({ ...base, after: cursor, order: "asc", limit: READ_BATCH }, signal);
            for (const message of page.messages) {
              if (signal.aborted || subscription.ended !== undefined) break;
              cursor = message.id;
              sentAny = true;
              yield { id: String(message.id), method: "neutralService_message", params: rawJson(`{"message":${message.json}}`) };
            }
            if (signal.aborted || subscription.ended !== undefined) break;
            if (page.resumeAt !== undefined && page.resumeAt > cursor) cursor = page.resumeAt;
            if (page.end) break;
          }
          if (!caughtUp && !signal.aborted && subscription.ended === undefined) {
            caughtUp = true;
            const at = cursorText();
            yield { method: "neutralService_caughtUp", params: at === undefined ? {} : { cursor: at } };
          }
          continue;
        }
        const id = subscription.statuses.shift();
        if (id !== undefined) {
          // Not yet sent: the message itself will come, with its new status.
          if (id > cursor) continue;
          const json = await store.sentMessage(selection.owner, id);
          if (json === undefined) continue;
          const message = JSON.parse(json) as { to?: unknown; timestamp?: unknown; status?: unknown };
          if (message.status === "pending" || !selects(selection, message)) continue;
          yield { method: "neutralService_status", params: rawJson(`{"message":${json},"status":"${message.status === "failed" ? "failed" : "delivered"}"}`) };
          continue;
        }
        await subscription.wait(signal);
      }
    } finally {
      clearTimeout(expiry);
      unregister(subscription);
      done();
    }
  }

  return {
    open(stream) {
      if (closing) throw new RpcError(ErrorCode.RateLimited, "Server busy: the node is stopping; subscribe again shortly (to another replica, if it has one)", { retryAfter: 1, reason: "shutdown" });
      if (count >= limits.maxSubscriptions) {
        throw new RpcError(ErrorCode.RateLimited, `Server busy: this node process has ${limits.maxSubscriptions} open streams (maxSubscriptions); retry later`, {
          retryAfter: 5,
          reason: "subscriptions",
          limit: limits.maxSubscriptions,
        });
      }
      const subscription = new Subscription(stream.selection, opened++);
      // Registered before the first read: a commit during the catch-up wakes the stream again. (The
      // HTTP glue starts every stream it is given, so its `finally` unregisters it.)
      register(subscription);
      let finish!: () => void;
      const over = new Promise<void>((resolve) => (finish = resolve));
      running.add(over);
      return run(subscription, stream, () => {
        running.delete(over);
        finish();
      });
    },
    get count() {
      return count;
    },
    async close() {
      closing = true;
      unsubscribe();
      for (const subscriptions of byAccount.values()) subscriptions.forEach((subscription) => subscription.end("shutdown"));
      await Promise.all(running);
    },
  };
}
