// SQLite with workers: every commit happens in the primary (writer.ts), which tells every worker;
// each worker wakes its own subscriptions. A worker started (or restarted) later hears from then
// on: its subscriptions read the store first, so nothing before is missed.
import type { CommitEvent, CommitFeed, CommitListener } from "../../live/commits.js";
import type { PrimaryLink, WorkersLink } from "../channel.js";

/** In the primary: what sends a batch of commit events to every worker (a worker gone meanwhile has nobody to wake). */
export const broadcastCommits =
  (workers: WorkersLink) =>
  (events: readonly CommitEvent[]): void =>
    workers.broadcast("commits", { events });

/** In a worker: the commits its primary broadcasts. */
export function primaryCommitFeed(primary: PrimaryLink): CommitFeed {
  const listeners = new Set<CommitListener>();
  const stop = primary.on("commits", ({ events }) => {
    for (const listener of listeners) listener(events);
  });
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      stop();
    },
  };
}
