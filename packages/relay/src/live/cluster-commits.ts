import cluster from "node:cluster";
import type { CommitEvent, CommitFeed, CommitListener } from "./commits.js";

// SQLite with workers: every commit happens in the primary (storage/shared-writer.ts), which tells
// every worker; each worker wakes its own subscriptions. A worker started (or restarted) later
// hears from then on: its subscriptions read the store first, so nothing before is missed.

const COMMITS = "neutral:commits";

interface CommitsMessage {
  type: typeof COMMITS;
  events: readonly CommitEvent[];
}

const isCommitsMessage = (message: unknown): message is CommitsMessage =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === COMMITS && Array.isArray((message as { events?: unknown }).events);

/** In the primary: sends a batch of commit events to every worker. */
export function broadcastCommits(events: readonly CommitEvent[]): void {
  const message: CommitsMessage = { type: COMMITS, events };
  for (const worker of Object.values(cluster.workers ?? {})) {
    if (worker?.isConnected()) worker.send(message, () => {}); // a worker gone meanwhile has nobody to wake
  }
}

/** In a worker: the commits its primary broadcasts. */
export function primaryCommitFeed(): CommitFeed {
  const listeners = new Set<CommitListener>();
  const onMessage = (message: unknown) => {
    if (!isCommitsMessage(message)) return;
    for (const listener of listeners) listener(message.events);
  };
  process.on("message", onMessage);
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      process.off("message", onMessage);
    },
  };
}
