import { messageJsonWithId } from "@neutral/protocol";
import type { AppendWriter, WireEntry, WireResult } from "../storage/sqlite-append-writer.js";

// What live delivery needs to hear of the store: that something was committed for an account.
// Events are wake-ups: a subscription that hears one reads the store from its cursor, so an event
// lost or repeated costs a read, never a message (and `resync` wakes every subscription, after a gap
// in what this process could hear, e.g. a lost database connection).
//
// A SQLite store's events may also carry the message committed (`CommittedMessage`): one writer
// commits its messages in id order, and its feed tells them in that order, so a stream that has read
// everything up to the event sends the message as it is, without reading the store
// (subscriptions.ts). A PostgreSQL feed never carries it: replicas' ids can commit out of order.

/** A new message as its append committed it: what a caught-up stream sends without a read. */
export interface CommittedMessage {
  readonly id: number;
  /** Its wire JSON, as a read of the store would give it now. */
  readonly json: string;
  /** Lowercase 0x addresses. */
  readonly from: string;
  readonly to: string;
  readonly timestamp: number;
  /** As `WireAppend`: "out" has only the sender's copy here, "in" only the recipient's. */
  readonly route?: "out" | "in";
  /** "requests": the recipient's copy is in its requests folder. */
  readonly folder?: "requests";
}

export type CommitEvent =
  /** Messages were committed into these accounts' mailboxes (lowercase 0x addresses); `message`: the one committed, when the feed tells it in commit order. */
  | { readonly kind: "message"; readonly accounts: readonly string[]; readonly message?: CommittedMessage }
  /** The sender's copy `id` of a message to another node changed status (delivered or failed). */
  | { readonly kind: "status"; readonly account: string; readonly id: number }
  /** Anything may have been committed: every subscription reads from its cursor. */
  | { readonly kind: "resync" };

export type CommitListener = (events: readonly CommitEvent[]) => void;

/** Where a process hears of commits: its own and, across processes, the others'. */
export interface CommitFeed {
  /** Calls `listener` with every batch of events from now on; returns the unsubscribe. */
  subscribe(listener: CommitListener): () => void;
  /**
   * Told when this process begins (true) or stops (false) streaming `account`. A feed across
   * processes carries a committed message only to the processes that stream one of its accounts
   * (cluster/commits.ts); the others hear the accounts alone. Until the feed's source has heard of a
   * new stream, its events come without the message: the stream reads instead, as on any wake-up.
   */
  streaming?(account: string, streamed: boolean): void;
  close(): Promise<void>;
}

/** A feed this process publishes into; `publish` batches a turn's events (one IPC message, one pass over subscribers). */
export interface LocalCommitFeed extends CommitFeed {
  publish(events: readonly CommitEvent[]): void;
}

export function createLocalCommitFeed(): LocalCommitFeed {
  const listeners = new Set<CommitListener>();
  let queued: CommitEvent[] = [];
  const flush = () => {
    const events = queued;
    queued = [];
    for (const listener of listeners) listener(events);
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publish(events) {
      if (events.length === 0) return;
      if (queued.length === 0) queueMicrotask(flush);
      queued.push(...events);
    },
    async close() {
      listeners.clear();
    },
  };
}

/**
 * The accounts whose mailboxes a message goes into (store.ts `append`): a local message its
 * sender's and its recipient's, one to another node (`out`) only its sender's, one delivered here
 * (`in`) only its recipient's.
 */
export function mailboxesOf(from: string, to: string, route: "out" | "in" | undefined): string[] {
  if (route === "out") return [from];
  if (route === "in" || from === to) return [to];
  return [from, to];
}

/** The events one committed writer entry makes: a new message wakes the mailboxes it went into, carrying it; a resend, none. */
export function commitEventsOf(wire: WireEntry, result: WireResult): CommitEvent[] {
  // A deletion or a sweep adds nothing a stream has not seen: streams read only what is still stored.
  if ("remove" in wire || "sweep" in wire || "sweepExpiring" in wire) return [];
  if ("settle" in wire) return [{ kind: "status", account: wire.settle.sender, id: wire.settle.id }];
  if ("import" in wire) return wire.import.entries.length > 0 ? [{ kind: "message", accounts: [wire.import.owner] }] : [];
  // A resend answers the original, already stored; a new message, its id (or its JSON, when the
  // writer signed its receipts: `created`).
  let id: number;
  let json: string | undefined;
  if (typeof result === "number") {
    id = result;
    json = wire.tail === undefined ? undefined : messageJsonWithId(id, wire.tail);
  } else if ("created" in result && result.created === true) ({ id, json } = result);
  else return [];
  const accounts = mailboxesOf(wire.from, wire.to, wire.route);
  if (json === undefined) return [{ kind: "message", accounts }];
  const message: CommittedMessage = {
    id,
    json,
    from: wire.from,
    to: wire.to,
    timestamp: wire.timestamp,
    ...(wire.route !== undefined && { route: wire.route }),
    ...(wire.folder !== undefined && { folder: wire.folder }),
  };
  return [{ kind: "message", accounts, message }];
}

/** `writer`, telling `publish` of every entry once it has committed. */
export function observeCommits(writer: AppendWriter, publish: (events: readonly CommitEvent[]) => void): AppendWriter {
  return {
    append(wire) {
      return writer.append(wire).then((result) => {
        publish(commitEventsOf(wire, result));
        return result;
      });
    },
    close: () => writer.close(),
  };
}
