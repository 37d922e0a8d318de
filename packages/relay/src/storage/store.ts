import type { AcceptedMessage } from "../message.js";

/** Which side of a mailbox: messages its owner received, or sent. A message to oneself is both. */
export type Side = "received" | "sent";

/** One part of a mailbox: a side, optionally only the messages exchanged with one peer. */
export interface MailboxRange {
  side: Side;
  /** Lowercase 0x address of the other party (the sender of a received message, the recipient of a sent one). */
  peer?: string;
}

export interface PageQuery {
  /** Lowercase 0x address whose mailbox is read. */
  owner: string;
  /** The page is the union of these ranges; a message in several is returned once. */
  ranges: readonly MailboxRange[];
  /** Message timestamps, ms: `since` inclusive, `until` exclusive. */
  since?: number;
  until?: number;
  /** Exclusive message id bounds. */
  after?: number;
  before?: number;
  /** "asc": oldest first from `after`; "desc": newest first from `before`. */
  order: "asc" | "desc";
  /** Most messages returned (1..100). */
  limit: number;
  /**
   * With `since` or `until`: the most mailbox entries one range examines (default
   * {@link DEFAULT_MAX_SCAN}). A filter that matches few of them ends the page early, short or even
   * empty, with `resumeAt` saying where the walk goes on: no page costs more than this many rows.
   */
  maxScan?: number;
  /**
   * The most bytes of message JSON the page holds (default: no bound). The page stops before the
   * message that would pass it, but holds at least one message when one matches.
   */
  maxBytes?: number;
}

/** A stored message: its id and its wire JSON (see `messageJson`). */
export interface StoredMessage {
  id: number;
  json: string;
}

export interface Page {
  messages: StoredMessage[];
  /** True exactly when no further message matches in the walk's direction. */
  end: boolean;
  /**
   * Where the next page continues when that is not the last message's id: the store stopped at the
   * scan bound (`maxScan`) having examined every entry up to this id. Absent otherwise.
   */
  resumeAt?: number;
}

/** How many mailbox entries a range with a time filter examines at most (`PageQuery.maxScan`). */
export const DEFAULT_MAX_SCAN = 256;

/** What a backend read from one range of a page query. */
export interface RangeRead {
  /** Matching messages in walk order, at most `limit + 1`. */
  rows: StoredMessage[];
  /** Set when the read stopped at the scan bound before finding `limit + 1` matches: the last id it examined. */
  stoppedAt?: number;
}

export interface AppendResult {
  stored: StoredMessage;
  /** False when a message with the same digest was already stored; `stored` is that original. */
  created: boolean;
}

/** An account's key bundle as stored and served: the wire form, every hex field lowercase and 0x-prefixed. */
export interface StoredKeyBundle {
  /** 0x + 40 hex. */
  account: string;
  /** The x-only messaging public key: 0x + 64 hex. */
  key: string;
  /** ms since the epoch, as the account signed it. */
  timestamp: number;
  /** The account's EIP-712 `KeyBundle` signature: 0x + 130 hex. */
  signature: string;
}

/**
 * The key directory: one current bundle per account, the one with the greatest timestamp. Checking
 * bundles (signature, caller, clock) is the service's job; the store keeps what it is given.
 */
export interface KeyStore {
  /**
   * Makes `bundle` its account's current bundle if none is stored or the stored one's timestamp is
   * strictly smaller; otherwise changes nothing. Resolves with the bundle current afterwards
   * (`bundle`, or the stored one) once the write is durable. The comparison and the write are one
   * atomic step, also against other processes sharing the storage.
   */
  putKeyBundle(bundle: StoredKeyBundle): Promise<StoredKeyBundle>;
  /** The account's current bundle (`account`: lowercase 0x address), or undefined. */
  getKeyBundle(account: string): Promise<StoredKeyBundle | undefined>;
}

/**
 * Where a node keeps messages and the key directory. Implementations: SQLite (`openSqliteStore`);
 * the storage conformance suite (`conformance.ts`) is the contract every backend passes.
 */
export interface MessageStore extends KeyStore {
  /** A short name for logs, e.g. "sqlite". */
  readonly kind: string;
  /**
   * Stores a message in its recipient's and its sender's mailbox under a new id, greater than
   * every id stored before, unless one with the same digest exists. Resolves only once the write
   * is durable.
   */
  append(message: AcceptedMessage): Promise<AppendResult>;
  /** Keyset page: the cost does not depend on how deep into the mailbox the page is. */
  page(query: PageQuery): Promise<Page>;
  /** The peer of the owner's most recent message (the highest id), sent or received. */
  latestPeer(owner: string): Promise<string | undefined>;
  /** Finishes pending writes and releases the storage. */
  close(): Promise<void>;
}

/** Ids never reach 2^53; cursors beyond it (up to 19 digits are well-formed) behave as 2^53. */
export const ID_CEILING = Number.MAX_SAFE_INTEGER;

/** A decimal id cursor as a number, clamped to [0, ID_CEILING]. */
export function cursorValue(id: string): number {
  return id.length > 15 && BigInt(id) >= BigInt(ID_CEILING) ? ID_CEILING : Number(id);
}

/**
 * The page from what each range read. Several ranges are merged in walk order, a message in more
 * than one (one sent to oneself is both received and sent) counted once. The page is exact up to
 * the nearest point any range has read to: a range that stopped at its scan bound leaves the rest
 * to the next page (`resumeAt`). Then `maxBytes` may cut the page shorter (never below one message).
 */
export function pageOfRanges(query: Pick<PageQuery, "order" | "limit" | "maxBytes">, reads: readonly RangeRead[]): Page {
  const asc = query.order === "asc";
  const beyond = (id: number, bound: number) => (asc ? id > bound : id < bound);
  // How far every range is known: a range read whole is known to its end; one with `limit + 1`
  // rows, to its last row; one stopped at the scan bound, to where it stopped.
  let known: number | undefined;
  for (const read of reads) {
    const reach = read.rows.length > query.limit ? read.rows[query.limit]!.id : read.stoppedAt;
    if (reach !== undefined && (known === undefined || beyond(known, reach))) known = reach;
  }
  let rows: StoredMessage[];
  if (reads.length === 1) rows = reads[0]!.rows;
  else {
    const seen = new Set<number>();
    rows = reads
      .flatMap((read) => read.rows)
      .filter((row) => !seen.has(row.id) && seen.add(row.id))
      .sort(asc ? (a, b) => a.id - b.id : (a, b) => b.id - a.id);
  }
  if (known !== undefined) {
    const bound = known;
    rows = rows.filter((row) => !beyond(row.id, bound));
  }
  let page: Page;
  if (rows.length > query.limit) page = { messages: rows.slice(0, query.limit), end: false };
  else if (known === undefined) page = { messages: rows, end: true };
  else page = { messages: rows, end: false, ...(rows.at(-1)?.id !== known && { resumeAt: known }) };
  return query.maxBytes === undefined ? page : fitPageBytes(page, query.maxBytes);
}

/** Cuts a page to at most `maxBytes` of JSON, keeping at least one message; a cut page is not the end. */
export function fitPageBytes(page: Page, maxBytes: number): Page {
  let bytes = 0;
  const { messages } = page;
  for (let i = 0; i < messages.length; i++) {
    bytes += messages[i]!.json.length + 1;
    if (bytes > maxBytes && i > 0) return { messages: messages.slice(0, i), end: false };
  }
  return page;
}

/** One step of a backend's schema, applied once, in version order. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
