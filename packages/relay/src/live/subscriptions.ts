import { ErrorCode, RpcError, rawJson, type StreamEvent } from "@neutral/server";
import type { EndReason, SubscribeNotification } from "@neutral/server/neutral-service";
import { StoreClosedError } from "../errors.js";
import type { MailboxRange, MessageStore, Page, PageQuery, StoredMessage } from "../storage/store.js";
import type { CommitEvent, CommitFeed, CommittedMessage } from "./commits.js";
import { Deadlines } from "./deadlines.js";

// Live delivery (openrpc.json neutralService_subscribe, protocol.md §12). Gap-free by construction:
// a stream sends what it reads from the store, forwards from its cursor (a keyset walk: ids are
// committed in id order, so what a forward read sees is complete up to its last id). Commit events
// wake the streams of the accounts concerned. A stream registers before its first read, so a commit
// made while it reads the catch-up wakes it again.
//
// A stream that has read everything (`live`) and hears a commit event carrying its message (a feed
// that tells its commits in commit order: commits.ts) sends that message without reading: every
// commit after its last read is told to it after that read began, in order, so what it is told
// then is all there is. Any other event ends that: the stream reads from its cursor again.

export interface LiveLimits {
  /**
   * Streams this process keeps open at once. At the bound, a stream from a client address holding
   * fewer streams than the one holding the most ends that address's oldest stream (reason `limit`);
   * otherwise it is refused with -32029. Addresses that cost nothing to hold many streams cannot
   * lock a new one out (issue 33, finding 4).
   */
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
  /**
   * The most message JSON one read of a stream holds, bytes (at least one message): what the stream
   * holds while its client reads what was sent before. The relay gives it the stream's buffer bound
   * (`subscriptionBufferBytes`), so a stream holds about twice that and one message at most.
   */
  maxReadBytes: number;
  /** Told when a stream has ended (`live/memory-release.ts`: what many streams held is given back). */
  onStreamEnded?: () => void;
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

/** The `limit` end of a stream shed at the process's bound (`LiveLimits.maxSubscriptions`). */
const SHED_MESSAGE =
  "The node is at its stream bound (maxSubscriptions) and another client subscribed: this was the oldest stream of the address holding the most; subscribe again later";

/** The last event of a stream ended for `reason`, naming the last id sent; `message` replaces the reason's usual words. */
export function endEvent(reason: EndReason, cursor: string | undefined, message = END_MESSAGES[reason]): Event {
  return { method: "neutralService_end", params: { reason, message, ...(cursor !== undefined && { cursor }) } };
}

/** Most status changes one stream keeps waiting to be sent; past it the oldest are dropped (they are re-read on resume). */
const MAX_PENDING_STATUSES = 1_000;
/** Messages one read of the store takes at most (the spec's largest page); fewer when they are big (`maxReadBytes`). */
const READ_BATCH = 100;
/**
 * Messages a stream's first read asks for, before it knows how big they are: the store reads the
 * rows it is asked for (and one more) before it cuts the page to its byte bound, and a row of a
 * 64 KiB message costs ~1 ms to read here. A hundred streams opening at once must not read a
 * hundred of them each (issue 33, finding 1).
 */
const FIRST_READ = 1;

/** Whether the stream's selection holds a copy of a committed message (as a read of its ranges would find it). */
function selectsCommitted(selection: StreamSelection, message: CommittedMessage): boolean {
  if (selection.since !== undefined && message.timestamp < selection.since) return false;
  if (selection.until !== undefined && message.timestamp >= selection.until) return false;
  const received = message.route !== "out" && message.to === selection.owner ? (message.folder === "requests" ? "requests" : "received") : undefined;
  const sent = message.route !== "in" && message.from === selection.owner;
  return selection.ranges.some((range) =>
    range.side === "sent" ? sent && (range.peer === undefined || range.peer === message.to) : range.side === received && (range.peer === undefined || range.peer === message.from),
  );
}

/** One open stream: what wakes it, and what ends it. */
class Subscription {
  /** Something may have been committed since the stream last read. */
  dirty = true;
  /**
   * The stream has read everything up to `cursor` and heard of every commit since, each with its
   * message: what it is told next it sends as it is (`committed`).
   */
  live = false;
  /** The id of the last message sent (or skipped past by a read), 0 before any. */
  cursor: number;
  /** Messages told to the stream while live, not sent yet, in id order. */
  readonly told: StoredMessage[] = [];
  #toldBytes = 0;
  readonly statuses: number[] = [];
  ended: EndReason | undefined;
  /** What the end event says, when not its reason's usual words. */
  endMessage: string | undefined;
  /** Resolves the stream's `wait`, while it waits. */
  #wake: (() => void) | undefined;

  constructor(
    readonly selection: StreamSelection,
    readonly opened: number,
    /** The client address it came from (http/client-key.ts). */
    readonly client: string,
    after: number,
    /** The most message JSON `told` holds, bytes; past it the stream reads instead. */
    readonly maxToldBytes: number,
  ) {
    this.cursor = after;
  }

  notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  wake(): void {
    this.dirty = true;
    this.live = false;
    // What was told is read again, from the cursor.
    this.told.length = 0;
    this.#toldBytes = 0;
    this.notify();
  }

  /** A message committed into the stream's account: sent as it is while live, read otherwise. */
  committed(message: CommittedMessage): void {
    if (!this.live) return this.wake();
    if (message.id <= this.cursor || !selectsCommitted(this.selection, message)) return;
    // A client that does not read what it is sent: what it was told waits in the store instead.
    if (this.#toldBytes + message.json.length > this.maxToldBytes && this.told.length > 0) return this.wake();
    this.told.push({ id: message.id, json: message.json });
    this.#toldBytes += message.json.length;
    this.notify();
  }

  /** The next message told, taken off the queue. */
  takeTold(): StoredMessage | undefined {
    const message = this.told.shift();
    if (message !== undefined) this.#toldBytes -= message.json.length;
    return message;
  }

  status(id: number): void {
    if (this.statuses.length >= MAX_PENDING_STATUSES) this.statuses.shift();
    this.statuses.push(id);
    this.notify();
  }

  end(reason: EndReason, message?: string): void {
    if (this.ended === undefined) {
      this.ended = reason;
      this.endMessage = message;
    }
    this.notify();
  }

  /**
   * Resolves at the next wake-up, status or end, or at the stream's abort (its `run` notifies then).
   * What a waiting stream holds is its promise's resolve alone: a caught-up stream waits seconds
   * between wake-ups, so whatever a wait allocates outlives a scavenge and is promoted (garbage
   * collection is the largest share of a wake-up's cost with ten thousand streams: bench/HISTORY.md).
   */
  wait(): Promise<void> {
    return new Promise((resolve) => (this.#wake = resolve));
  }
}

export interface OpenStream {
  selection: StreamSelection;
  /** The client address the stream comes from (http/client-key.ts): what the process's bound sheds by. */
  client: string;
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

/**
 * Turns of the event loop that the streams' reads share. A stream reads the store in a turn granted
 * here: each turn lets a few readers go (first come, first served), as many as fit in about
 * TURN_MS by the last turns' cost, and the rest wait for the next ones. A few hundred streams
 * reading big catch-ups at once then cost every other request a few milliseconds, not seconds:
 * one read each per turn was a two-second turn (issue 33, finding 1).
 */
function createReadTurns(): () => Promise<void> {
  const TURN_MS = 3;
  const waiting: (() => void)[] = [];
  let perTurn = 8;
  let turnStarted: number | undefined;
  let scheduled = false;
  const turn = () => {
    scheduled = false;
    const now = performance.now();
    // What the last turn cost (its reads, and everything the event loop did since): more readers next time if cheap, fewer if not.
    if (turnStarted !== undefined) perTurn = now - turnStarted > TURN_MS ? Math.max(1, perTurn >> 1) : Math.min(256, perTurn * 2);
    turnStarted = waiting.length > 0 ? now : undefined;
    for (const resolve of waiting.splice(0, perTurn)) resolve();
    if (waiting.length > 0) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(turn);
  };
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      schedule();
    });
}

/** Attempts of a stream's read before the stream gives up (and is cut: its client resumes). */
const READ_ATTEMPTS = 6;

export function createSubscriptions(options: SubscriptionsOptions): Subscriptions {
  const { store, limits } = options;
  const now = options.now ?? Date.now;
  const byAccount = new Map<string, Set<Subscription>>();
  /** Open streams by client address, each set oldest first. */
  const byClient = new Map<string, Set<Subscription>>();
  /** Each open stream's end. */
  const running = new Set<Promise<void>>();
  let count = 0;
  let closing = false;
  const nextTurn = createReadTurns();
  /** Ends each stream whose token expired (within about a second), all on one timer. */
  const expiries = new Deadlines<Subscription>((subscription) => subscription.end("token-expired"), now);

  const onCommits = (events: readonly CommitEvent[]) => {
    for (const event of events) {
      if (event.kind === "message") {
        const message = event.message;
        const tell = message === undefined ? (subscription: Subscription) => subscription.wake() : (subscription: Subscription) => subscription.committed(message);
        for (const account of event.accounts) byAccount.get(account)?.forEach(tell);
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
    if (!mine) {
      byAccount.set(owner, (mine = new Set()));
      options.feed.streaming?.(owner, true);
    }
    // At the account's bound: its oldest stream goes (a client reconnecting before the node saw its
    // old connection drop must not be locked out by it).
    if (mine.size >= limits.maxSubscriptionsPerAccount) {
      let oldest: Subscription | undefined;
      for (const other of mine) if (other.ended === undefined && (oldest === undefined || other.opened < oldest.opened)) oldest = other;
      oldest?.end("limit");
    }
    mine.add(subscription);
    let theirs = byClient.get(subscription.client);
    if (!theirs) byClient.set(subscription.client, (theirs = new Set()));
    theirs.add(subscription);
    count++;
  }

  /** Forgets a stream (idempotent): it no longer counts, nor wakes. */
  function unregister(subscription: Subscription): void {
    const owner = subscription.selection.owner;
    const mine = byAccount.get(owner);
    if (mine?.delete(subscription)) count--;
    if (mine?.size === 0) {
      byAccount.delete(owner);
      options.feed.streaming?.(owner, false);
    }
    const theirs = byClient.get(subscription.client);
    theirs?.delete(subscription);
    if (theirs?.size === 0) byClient.delete(subscription.client);
  }

  /**
   * At the process's bound: ends the oldest stream of the address holding the most, if it holds
   * more than `client` would with this one; true when room was made.
   */
  function shedFor(client: string): boolean {
    const held = byClient.get(client)?.size ?? 0;
    let most: Set<Subscription> | undefined;
    for (const streams of byClient.values()) if (most === undefined || streams.size > most.size) most = streams;
    if (most === undefined || most.size <= held + 1) return false;
    const oldest = most.values().next().value as Subscription;
    unregister(oldest); // counted out now; its generator sends the end event and finishes on its own
    oldest.end("limit", SHED_MESSAGE);
    return true;
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
    let sentAny = false;
    /**
     * The event of the next message of `unsent`, which leaves it and moves the cursor past it. The
     * message is taken here, not in the generator below: V8 keeps a suspended generator's registers
     * as they were, so a message the generator held while waiting for its client to read would stay
     * alive beside the copy the socket holds (seen in a heap snapshot: one 130 KB string per stream).
     */
    const eventOf = (message: StoredMessage): Event => {
      subscription.cursor = message.id;
      sentAny = true;
      return { id: String(message.id), method: "neutralService_message", params: rawJson(`{"message":${message.json}}`) };
    };
    const nextEvent = (unsent: StoredMessage[]): Event => eventOf(unsent.shift()!);
    const toldEvent = (): Event => eventOf(subscription.takeTold()!);
    /** The biggest message of a page, bytes of JSON. */
    const biggestOf = (page: Page): number => page.messages.reduce((most, message) => Math.max(most, message.json.length), 0);
    // How many messages a read asks for: as many as `maxReadBytes` holds of the biggest message of
    // the last page, so that big messages are not read a hundred at a time only to be cut to one.
    let readLimit = FIRST_READ;
    const cursorText = () => (sentAny || stream.after > 0 ? String(subscription.cursor) : undefined);
    let expiry: number | undefined;
    const onAbort = () => subscription.notify();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      if (stream.expiresAt !== undefined) {
        if (stream.expiresAt <= now()) subscription.end("token-expired");
        else expiry = expiries.add(subscription, stream.expiresAt);
      }
      let caughtUp = false;
      for (;;) {
        if (signal.aborted) return;
        if (subscription.ended !== undefined) {
          yield endEvent(subscription.ended, cursorText(), subscription.endMessage);
          return;
        }
        if (subscription.dirty) {
          subscription.dirty = false;
          for (;;) {
            // Each read in a turn of its own: a stream whose client takes all it is sent (the
            // kernel's buffers fill first) would otherwise read and send its whole catch-up in one
            // chain of promises, and a few hundred opened at once would hold every other request
            // for seconds (issue 33, finding 1).
            await nextTurn();
            if (signal.aborted || subscription.ended !== undefined) break; // gone while it waited its turn: nothing to read for it
            // Without lookahead: the message after the page is read with the next page, not twice.
            const page = await readPage({ ...base, after: subscription.cursor, order: "asc", limit: readLimit, maxBytes: options.maxReadBytes, lookahead: false }, signal);
            const biggest = biggestOf(page);
            if (biggest > 0) readLimit = Math.max(1, Math.min(READ_BATCH, Math.floor(options.maxReadBytes / biggest)));
            // Each message leaves the page as it is sent: what the client has not taken yet is
            // held by the HTTP glue alone (counted there), not a second time here.
            const unsent = page.messages;
            while (unsent.length > 0 && !signal.aborted && subscription.ended === undefined) yield nextEvent(unsent);
            if (signal.aborted || subscription.ended !== undefined) break;
            if (page.resumeAt !== undefined && page.resumeAt > subscription.cursor) subscription.cursor = page.resumeAt;
            if (page.end) {
              // Read to the end, and nothing committed since the read began: what comes next is told.
              if (!subscription.dirty) subscription.live = true;
              break;
            }
          }
          if (!caughtUp && !signal.aborted && subscription.ended === undefined) {
            caughtUp = true;
            const at = cursorText();
            yield { method: "neutralService_caughtUp", params: at === undefined ? {} : { cursor: at } };
          }
          continue;
        }
        if (subscription.told.length > 0) {
          // In a turn, as a read would be: the event loop answers what it has before it writes to streams.
          await nextTurn();
          if (subscription.told.length > 0 && !signal.aborted && subscription.ended === undefined) yield toldEvent();
          continue;
        }
        const id = subscription.statuses.shift();
        if (id !== undefined) {
          // Not yet sent: the message itself will come, with its new status.
          if (id > subscription.cursor) continue;
          const json = await store.sentMessage(selection.owner, id);
          if (json === undefined) continue;
          const message = JSON.parse(json) as { to?: unknown; timestamp?: unknown; status?: unknown };
          if (message.status === "pending" || !selects(selection, message)) continue;
          yield { method: "neutralService_status", params: rawJson(`{"message":${json},"status":"${message.status === "failed" ? "failed" : "delivered"}"}`) };
          continue;
        }
        await subscription.wait();
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
      if (expiry !== undefined) expiries.delete(subscription, expiry);
      unregister(subscription);
      done();
      options.onStreamEnded?.();
    }
  }

  return {
    open(stream) {
      if (closing) throw new RpcError(ErrorCode.RateLimited, "Server busy: the node is stopping; subscribe again shortly (to another replica, if it has one)", { retryAfter: 1, reason: "shutdown" });
      if (count >= limits.maxSubscriptions && !shedFor(stream.client)) {
        throw new RpcError(ErrorCode.RateLimited, `Server busy: this node process has ${limits.maxSubscriptions} open streams (maxSubscriptions); retry later`, {
          retryAfter: 5,
          reason: "subscriptions",
          limit: limits.maxSubscriptions,
        });
      }
      const subscription = new Subscription(stream.selection, opened++, stream.client, stream.after, options.maxReadBytes);
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
      expiries.clear();
    },
  };
}
