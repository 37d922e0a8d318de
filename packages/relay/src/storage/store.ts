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
 * The first `limit + 1` messages, in the walk's order, of the union of per-range results (each in
 * walk order, each at most `limit + 1` long). A message in several ranges (one sent to oneself is
 * both received and sent) counts once.
 */
export function mergeRanges(query: Pick<PageQuery, "order" | "limit">, perRange: StoredMessage[][]): StoredMessage[] {
  if (perRange.length === 1) return perRange[0]!;
  const seen = new Set<number>();
  return perRange
    .flat()
    .filter((row) => !seen.has(row.id) && seen.add(row.id))
    .sort(query.order === "asc" ? (a, b) => a.id - b.id : (a, b) => b.id - a.id)
    .slice(0, query.limit + 1);
}

/** A page from the first `limit + 1` matching rows in walk order. */
export function pageOf(query: Pick<PageQuery, "limit">, rows: StoredMessage[]): Page {
  const end = rows.length <= query.limit;
  if (!end) rows.length = query.limit;
  return { messages: rows, end };
}

/** One step of a backend's schema, applied once, in version order. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
