// SQLite with workers: every commit happens in the primary (writer.ts), which tells every worker;
// each worker wakes its own subscriptions and drops the kept proofs of the logs that grew. A worker
// started (or restarted) later hears from then on: its subscriptions read the store first, so
// nothing before is missed.
//
// A committed message's JSON goes only to the workers streaming one of its accounts; the others
// hear the accounts alone, all their kept proofs need. Sent to every worker, it cost the primary,
// whose thread every append waits on, a serialization of the JSON per worker and message. Each
// worker tells the primary which accounts it streams (`streams`, once a turn). A stream opened
// before the primary has heard of it hears events without the message and reads the store, as on
// any wake-up (live/subscriptions.ts), so nothing is missed; a message sent to a worker that no
// longer streams its account is ignored there.
import type { CommitEvent, CommitFeed, CommitListener } from "../../live/commits.js";
import type { PrimaryLink, WorkersLink } from "../channel.js";

/** `events` as a worker streaming `streamed` hears them: each message kept where it goes into one of those accounts, the accounts alone elsewhere. */
export function commitsFor(events: readonly CommitEvent[], streamed: ReadonlySet<string> | undefined): readonly CommitEvent[] {
  return events.map((event) =>
    event.kind === "message" && event.message !== undefined && !event.accounts.some((account) => streamed?.has(account) === true) ? { kind: "message", accounts: event.accounts } : event,
  );
}

/**
 * In the primary: what tells each worker of the writer's commits (a worker gone meanwhile has nobody
 * to wake). The events published in one turn of microtasks (a transaction's appends resolve together)
 * go to each worker as one notice: a notice per append was ~65 channel writes a transaction under
 * sends, each a JSON serialization and a system call on the thread every append waits on
 * (bench/HISTORY.md, "One commits notice a transaction").
 */
export function routeCommits(workers: WorkersLink): { publish(events: readonly CommitEvent[]): void; stop(): void } {
  /** The accounts each worker streams, as it last said; absent: none. */
  const streamedBy = new Map<number, Set<string>>();
  const stopHearing = workers.on("streams", ({ opened, closed }, from) => {
    let streamed = streamedBy.get(from.id);
    if (!streamed) streamedBy.set(from.id, (streamed = new Set()));
    for (const account of closed) streamed.delete(account);
    for (const account of opened) streamed.add(account);
    if (streamed.size === 0) streamedBy.delete(from.id);
  });
  const stopExits = workers.onExit((worker) => streamedBy.delete(worker.id));
  let pending: CommitEvent[] = [];
  const tell = () => {
    const events = pending;
    pending = [];
    let unstreamed: readonly CommitEvent[] | undefined;
    for (const worker of workers.workers()) {
      const streamed = streamedBy.get(worker.id);
      const heard = streamed === undefined ? (unstreamed ??= commitsFor(events, undefined)) : commitsFor(events, streamed);
      workers.notify(worker, "commits", { events: heard });
    }
  };
  return {
    publish(events) {
      if (events.length === 0) return;
      // In commit order: the events of later appends are pushed after these, and told after them.
      if (pending.length === 0) queueMicrotask(tell);
      for (const event of events) pending.push(event);
    },
    stop() {
      stopHearing();
      stopExits();
    },
  };
}

/** In a worker: the commits its primary tells it; it tells the primary which accounts it streams. */
export function primaryCommitFeed(primary: PrimaryLink): CommitFeed {
  const listeners = new Set<CommitListener>();
  const stop = primary.on("commits", ({ events }) => {
    for (const listener of listeners) listener(events);
  });
  /** Streams of each account this process holds, by what `streaming` was told. */
  const streams = new Map<string, number>();
  /** The accounts the primary was told this worker streams. */
  const told = new Set<string>();
  /** Accounts whose count moved since the last report. */
  const moved = new Set<string>();
  let reporting: NodeJS.Immediate | undefined;
  const report = () => {
    reporting = undefined;
    const opened: string[] = [];
    const closed: string[] = [];
    for (const account of moved) {
      const streamed = streams.has(account);
      if (streamed && !told.has(account)) {
        told.add(account);
        opened.push(account);
      } else if (!streamed && told.delete(account)) closed.push(account);
    }
    moved.clear();
    if (opened.length > 0 || closed.length > 0) primary.notify("streams", { opened, closed });
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    streaming(account, streamed) {
      const count = (streams.get(account) ?? 0) + (streamed ? 1 : -1);
      if (count > 0) streams.set(account, count);
      else streams.delete(account);
      moved.add(account);
      reporting ??= setImmediate(report);
    },
    async close() {
      listeners.clear();
      if (reporting !== undefined) clearImmediate(reporting);
      stop();
    },
  };
}
