import pg from "pg";
import type { AcceptedMessage } from "../message.js";
import type { SettledDelivery } from "../storage/store.js";
import { mailboxesOf, type CommitEvent, type CommitFeed, type CommitListener } from "./commits.js";

// PostgreSQL: every replica's appends and settlements send a notice (pg_notify, in the statement's
// own transaction, so delivered exactly when it commits) on the schema's channel, and every replica
// LISTENs on a connection of its own. Notices are not kept while a listener is disconnected: after
// a reconnect the feed sends `resync`, and every subscription reads the store from its cursor.

/** A notice's text stays well under PostgreSQL's 8,000-byte payload bound. */
const MAX_NOTICE = 7_000;

/** The channel of a schema's commit notices. */
export const commitChannelOf = (schema: string) => `neutral_commits:${schema}`.slice(0, 63);

/** `prefix` + items joined by `separator`, in notices of at most MAX_NOTICE characters. */
function notices(prefix: string, items: readonly string[], separator: string): string[] {
  const out: string[] = [];
  let current = "";
  for (const item of items) {
    if (current !== "" && current.length + separator.length + item.length > MAX_NOTICE) {
      out.push(prefix + current);
      current = "";
    }
    current = current === "" ? item : current + separator + item;
  }
  if (current !== "") out.push(prefix + current);
  return out;
}

/** The notices of a batch of appends: the accounts whose mailboxes they go into ("m:" + addresses). */
export function messageNotices(messages: readonly Pick<AcceptedMessage, "from" | "to" | "route">[]): string[] {
  const accounts = new Set<string>();
  for (const { from, to, route } of messages) {
    for (const account of mailboxesOf(from, to, route?.kind === "outbound" ? "out" : route?.kind === "inbound" ? "in" : undefined)) accounts.add(account);
  }
  return notices("m:", [...accounts], ",");
}

/** The notices of settled deliveries: each sender's copy that changed ("s:" + sender:id;…). */
export function statusNotices(settled: readonly Pick<SettledDelivery, "sender" | "id">[]): string[] {
  return notices("s:", settled.map((entry) => `${entry.sender}:${entry.id}`), ";");
}

const ADDRESS = /^0x[0-9a-f]{40}$/;

/** The events of one notice; anything malformed is a resync (a wake-up too many costs a read, one too few a message). */
export function eventsOfNotice(payload: string | undefined): CommitEvent[] {
  if (payload?.startsWith("m:")) {
    const accounts = payload.slice(2).split(",");
    if (accounts.every((account) => ADDRESS.test(account))) return [{ kind: "message", accounts }];
  } else if (payload?.startsWith("s:")) {
    const events: CommitEvent[] = [];
    for (const item of payload.slice(2).split(";")) {
      const [account, id] = item.split(":");
      if (account === undefined || !ADDRESS.test(account) || !/^\d{1,16}$/.test(id ?? "")) return [{ kind: "resync" }];
      events.push({ kind: "status", account, id: Number(id) });
    }
    return events;
  }
  return [{ kind: "resync" }];
}

export interface PostgresCommitFeedOptions {
  url: string;
  /** Told when the listening connection is lost (it reconnects by itself). */
  onLost?: (error: Error) => void;
  /** Told when it is back (and every subscription was told to read from its cursor). */
  onRestored?: () => void;
}

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/** Listens for the node's commit notices on a connection of its own, reconnecting (with backoff) when it drops. */
export async function postgresCommitFeed(options: PostgresCommitFeedOptions): Promise<CommitFeed> {
  const listeners = new Set<CommitListener>();
  const emit = (events: readonly CommitEvent[]) => {
    for (const listener of listeners) listener(events);
  };
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delay = RECONNECT_MIN_MS;

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: options.url, application_name: `neutral-relay:live:${process.pid}`, keepAlive: true });
    const lost = (error: Error) => {
      if (client !== next) return;
      client = undefined;
      next.removeAllListeners("notification");
      next.end().catch(() => {});
      if (closed) return;
      options.onLost?.(error);
      schedule();
    };
    next.on("error", lost);
    next.on("end", () => lost(new Error("the connection ended")));
    next.on("notification", (notice) => emit(eventsOfNotice(notice.payload)));
    try {
      await next.connect();
      const { rows } = await next.query<{ schema: string }>("SELECT current_schema() AS schema");
      await next.query(`LISTEN ${next.escapeIdentifier(commitChannelOf(rows[0]!.schema))}`);
    } catch (error) {
      next.removeAllListeners();
      next.on("error", () => {});
      await next.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
  }

  function schedule(): void {
    retry = setTimeout(() => {
      retry = undefined;
      connect().then(
        () => {
          delay = RECONNECT_MIN_MS;
          if (closed) return;
          emit([{ kind: "resync" }]); // what was committed while nobody listened
          options.onRestored?.();
        },
        (error: unknown) => {
          if (closed) return;
          options.onLost?.(error instanceof Error ? error : new Error(String(error)));
          delay = Math.min(delay * 2, RECONNECT_MAX_MS);
          schedule();
        },
      );
    }, delay);
  }

  await connect();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      listeners.clear();
      const open = client;
      client = undefined;
      await open?.end().catch(() => {});
    },
  };
}
