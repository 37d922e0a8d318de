import type { MailboxRole, WireMessageFields } from "@neutral/protocol";
import type { AcceptedMessage } from "../message.js";

/**
 * Which side of a mailbox: messages its owner received (into the inbox, or into the requests
 * folder: first contact under an "allowed-only" consent policy), or sent. A message to oneself is
 * received and sent.
 */
export type Side = "received" | "sent" | "requests";

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
  /**
   * false: read at most `limit` messages of each range, not the one after them that tells whether
   * the walk ends there; a full page then has `end: false` even when nothing follows it (the next,
   * empty, page says so). For readers of big messages that walk on anyway (a stream's catch-up):
   * the message past the page is not read for nothing. Default true.
   */
  lookahead?: boolean;
  /**
   * Read the position of the owner's copy each row is with it (`StoredMessage.copies`), for a
   * page that proves itself. A store may leave them out (the caller looks them up).
   */
  withPositions?: boolean;
}

/** A message of an account's own history, imported (moving home): every field and both original receipts. */
export interface ImportedMessage {
  fields: WireMessageFields & { receiverReceipt: string };
  /** The EIP-712 digest of the sender's `Message` (or `ExpiringMessage`). */
  digest: Uint8Array;
}

/** A stored message: its id and its wire JSON (see `messageJson`). */
export interface StoredMessage {
  id: number;
  json: string;
  /**
   * From a page read asked `withPositions`, when the store reads them with the rows (both stores
   * here do): the position of the owner's copy the page's row is, with its role. A proof of the page
   * then needs no lookup of them (`MessageStore.positions`). Never given for a message to oneself:
   * it has two copies, and a page may have read only one, so its proof looks both up.
   */
  copies?: PageCopy[];
}

/** The position of one of the owner's copies, as a page read found it. */
export interface PageCopy {
  seq: number;
  role: MailboxRole;
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
  /** Matching messages in walk order, at most `limit + 1` (`limit` without `lookahead`). */
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
   * Makes `bundle` its account's current bundle if none is stored or it supersedes the stored one
   * (@neutral/protocol `supersedes`: the greater timestamp, then the greater signature); otherwise changes nothing. Resolves with the bundle current afterwards
   * (`bundle`, or the stored one) once the write is durable. The comparison and the write are one
   * atomic step, also against other processes sharing the storage.
   */
  putKeyBundle(bundle: StoredKeyBundle): Promise<StoredKeyBundle>;
  /** The account's current bundle (`account`: lowercase 0x address), or undefined. */
  getKeyBundle(account: string): Promise<StoredKeyBundle | undefined>;
}

/** An account's home record as stored and served (every hex field lowercase, 0x-prefixed). */
export interface StoredHomeRecord {
  account: string;
  /** The home node's address. */
  node: string;
  /** ms since the epoch, as the account signed it. */
  timestamp: number;
  /** The account's EIP-712 `Home` signature. */
  signature: string;
}

/**
 * An outbox's lanes: a destination's messages are delivered in this many sequences at once, each
 * holding whole (sender, recipient) conversations (by the recipient), so that one sender's messages
 * to one recipient keep their order while another lane's batch is being stored.
 */
export const OUTBOX_LANES = 4;

/** The lane of a message to `recipient` (lowercase 0x address). */
export const laneOf = (recipient: string): number => Number.parseInt(recipient.slice(-2), 16) % OUTBOX_LANES;

/** A message waiting in the outbox for its recipient's node. */
export interface OutboxEntry {
  /** The message's id here (the sender's copy). */
  id: number;
  /** The sender (lowercase 0x): owner of the copy to update. */
  sender: string;
  /** The node it is for. */
  destination: string;
  /** When it entered the outbox, ms. */
  createdAt: number;
  /** The sender's copy's wire JSON (status pending). */
  json: string;
  /** The message's EIP-712 digest (hex, no 0x): what the receiver receipt signs. */
  digest: string;
}

/** How deliveries to one node are going: persisted so that a restart keeps the backoff. */
export interface DestinationState {
  node: string;
  /** Consecutive failed attempts. */
  failures: number;
  /** No attempt before this time, ms. */
  nextAttemptAt: number;
  /** The last failure, in words (never a secret). */
  lastError: string;
}

/** A destination with messages in the outbox. */
export interface OutboxDestination {
  node: string;
  /** Messages waiting. */
  count: number;
  /** The oldest entry's `createdAt`. */
  oldest: number;
  /** Its backoff, if deliveries to it have failed. */
  state?: DestinationState;
}

/** The end of one outbox entry: its sender's copy now reads `json` (delivered or failed), and it leaves the outbox. */
export interface SettledDelivery {
  id: number;
  sender: string;
  json: string;
}

/**
 * What federation keeps (issue 21, openrpc.json "Federation"): home records, the peers' pinned
 * addresses, the outbox of messages to other nodes and each destination's backoff.
 */
export interface FederationStore {
  /**
   * Keeps `record` if it supersedes the account's stored one (@neutral/protocol `supersedes`: the
   * greater timestamp, then the greater signature); resolves with the record current afterwards, once durable.
   */
  putHomeRecord(record: StoredHomeRecord): Promise<StoredHomeRecord>;
  /** `putHomeRecord` for many records at once, in one transaction; resolves with the record current afterwards for each, in order. */
  putHomeRecords(records: readonly StoredHomeRecord[]): Promise<StoredHomeRecord[]>;
  /** The account's newest home record, or undefined. */
  getHomeRecord(account: string): Promise<StoredHomeRecord | undefined>;
  /** Pins `url`'s node address unless one is pinned already; resolves with the address pinned (the earlier one wins). */
  pinPeer(url: string, address: string): Promise<string>;
  /** Every pinned peer address by URL. */
  peerPins(): Promise<Map<string, string>>;
  /** The destinations with messages waiting, each with its backoff state. */
  outboxDestinations(): Promise<OutboxDestination[]>;
  /** Up to `limit` entries for `destination` with an id above `afterId` (default 0), of one `lane` (default all), in id order (the order the node accepted them). */
  outboxEntries(destination: string, limit: number, afterId?: number, lane?: number): Promise<OutboxEntry[]>;
  /** Entries older than `createdBefore` (any destination), oldest first: those past the retry period. */
  expiredOutboxEntries(createdBefore: number, limit: number): Promise<OutboxEntry[]>;
  /** In one transaction: each sender's copy gets its new JSON and leaves the outbox. Entries no longer in the outbox are skipped. */
  settleDeliveries(settled: readonly SettledDelivery[]): Promise<void>;
  /** Moves outbox entries to another destination (the recipient moved home). */
  redirectOutbox(ids: readonly number[], destination: string): Promise<void>;
  /** Records a destination's backoff (or clears it with `undefined` state for `node`). */
  setDestinationState(node: string, state: DestinationState | undefined): Promise<void>;
  /** The JSON of `owner`'s sent message `id` where its sent row holds one (always for a message to another node), or undefined. */
  sentMessage(owner: string, id: number): Promise<string | undefined>;
  /**
   * Makes this process the one that drains the outbox, if no other process of the node is: a
   * PostgreSQL node's replicas share one outbox, which must be drained once. Resolves with the
   * lease, or undefined when another process holds it. `lost` resolves if the lease ends by itself
   * (the database connection dropped).
   */
  leadDeliveries(): Promise<DeliveryLease | undefined>;
}

/** This process drains the outbox until `release()` or until the lease is `lost`. */
export interface DeliveryLease {
  readonly lost: Promise<void>;
  release(): Promise<void>;
}

/**
 * Where a node keeps messages, the key directory and what federation needs. Implementations:
 * SQLite (`openSqliteStore`), PostgreSQL (`openPostgresStore`); the storage conformance suite
 * (`testing/store-conformance.ts`) is the contract every backend passes.
 */
export interface MessageStore extends KeyStore, FederationStore, ConsentStore {
  /** A short name for logs, e.g. "sqlite". */
  readonly kind: string;
  /**
   * Stores a message under a new id, greater than every id stored before, unless one with the same
   * digest exists (or was swept lately: `sweepExpired`; then it is answered as stored, under its old id), in the mailboxes its route says: a local message in its recipient's and its
   * sender's, an outbound one in its sender's (and the outbox, in the same transaction), an inbound
   * one in its recipient's. Resolves only once the write is durable.
   */
  append(message: AcceptedMessage): Promise<AppendResult>;
  /**
   * The node's key, from the service that stores through this store (rpc `createHandlers`): appends
   * lacking receipts this node owes get them signed with it, over their copies' positions, in the
   * transaction that stores them (`AcceptedMessage`). A store committing through another's writer
   * (a cluster worker's, through its primary) signs with that writer's key. Giving another key
   * than the one given before throws.
   */
  useReceiptKey(privateKey: Uint8Array): void;
  /** Keyset page: the cost does not depend on how deep into the mailbox the page is. */
  page(query: PageQuery): Promise<Page>;
  /** The peer of the owner's most recent message (the highest id), sent or received. */
  latestPeer(owner: string): Promise<string | undefined>;
  /**
   * Deletes `owner`'s copies of the messages `ids` (the received copy of a message it received, the
   * sent copy of one it sent; both for one to itself), durably; ids not in its mailbox are skipped.
   * If some of them are still pending delivery to another node, deletes nothing and answers them.
   * `request`, the account's signed `DeletionRequest` as JSON, is kept for each position whose copy
   * this removes (`LogEntry.removal`), in the same transaction. With `seqs`, only the copies at those
   * positions go (a request that names its positions: a copy stored since is not one it names).
   */
  deleteMessages(owner: string, ids: readonly number[], request?: string, seqs?: readonly number[]): Promise<{ pending: number[] }>;
  /**
   * Stores `owner`'s copies of messages from its own history (moving home), as given: its received
   * copy of one it received, its sent copy of one it sent (both for one to itself), each under a new
   * id in the order given, durably, in one transaction. A message already in `owner`'s mailbox (same
   * digest) is answered as it is; one held here for the other party only gets `owner`'s copy added
   * under its id. Answers each message's id, `owner`'s JSON of it, and whether `owner`'s copy is new.
   */
  importMessages(owner: string, messages: readonly ImportedMessage[]): Promise<(StoredMessage & { created: boolean })[]>;
  /**
   * The retention sweep: deletes up to `limit` of the messages stored longer ago than the store's
   * retention (every copy and trace, outbox entry included, but the digest of one stored so lately
   * that it could still arrive again: see `DEFAULT_SWEPT_DIGESTS_MS`), and answers how many. 0 when none is
   * left, or without a retention. Reads stop serving an expired message before it is swept. SQLite
   * commits it in steps (appends go in between), PostgreSQL in one statement. The positions of the
   * copies it removes say so in the log (`removal` "retention": the ids below the sweep's floor).
   */
  sweepExpired(limit: number): Promise<number>;
  /**
   * Deletes up to `limit` messages whose sender-set end (`expires`, `ExpiringMessage`) is at most
   * `now` (every copy and trace), and answers how many. Cheap when none is due: one index probe.
   * What the log needs of each (`removal` "expired": its timestamp, end and body's keccak-256) is
   * kept in the same transaction.
   */
  sweepSenderExpired(limit: number, now: number): Promise<number>;
  /**
   * `owner`'s mailbox log (openrpc.json "The verifiable mailbox"): its positions from `from`
   * (inclusive) in order, at most `limit`. Every copy stored in the mailbox took the next position
   * in the transaction that stored it; a copy deleted since keeps its position. With `messages`,
   * each copy reads still serve comes with its JSON (`LogEntry.json`).
   */
  log(owner: string, from: number, limit: number, options?: { messages?: boolean }): Promise<LogEntry[]>;
  /**
   * Keeps `head`, the signed head of `account`'s log at a former home `node` (openrpc.json
   * `MailboxHead`, as JSON, of `size` positions), as the account's prior history (`LogPage.prior`):
   * per node the largest given. Answers "full", keeping nothing, when the account already has
   * heads of `limit` other nodes.
   */
  putPriorHead(account: string, node: string, size: number, head: string, limit: number): Promise<"kept" | "full">;
  /** The heads `putPriorHead` kept for `account` (JSON), in the order their nodes were first given. */
  priorHeads(account: string): Promise<string[]>;
  /**
   * What the node keeps of message `id` while it keeps a copy of it: its parties, timestamp and
   * EIP-712 digest (0x hex); undefined when it is gone (a store may need a copy for the timestamp).
   */
  messageRecord(id: number): Promise<MessageRecord | undefined>;
  /** The id of the message with this timestamp and EIP-712 digest (0x hex), while the node keeps a copy of it; undefined otherwise. */
  messageIdOf(timestamp: number, digest: string): Promise<number | undefined>;
  /** How many positions `owner`'s log has: its last position, 0 for none. */
  logSize(owner: string): Promise<number>;
  /**
   * The positions of `owner`'s copies of the messages `ids` (a message to oneself has two: received,
   * then sent), in the order of `ids`; an id with no copy in the mailbox (never stored, or deleted)
   * has none.
   */
  positions(owner: string, ids: readonly number[]): Promise<LogEntry[]>;
  /**
   * The tiles of `owner`'s log the store keeps at `level` (a multiple of mailbox-log/tree.ts
   * `TILE_HEIGHT`), with indexes in [from, to): tile t is the root of the whole subtree of positions
   * t·2^level + 1 … (t+1)·2^level. A store may keep none (the tree then reads the leaves); one it
   * keeps is always right.
   */
  logTiles(owner: string, level: number, from: number, to: number): Promise<LogTile[]>;
  /**
   * The leaf hashes of `owner`'s positions `from`, `from` + 1, … (at most `count`; fewer past the
   * log's end), as the tree reads them: only the hashes, with none of `log`'s reasons and JSON.
   */
  logLeaves(owner: string, from: number, count: number): Promise<Uint8Array[]>;
  /** Finishes pending writes and releases the storage. */
  close(): Promise<void>;
  /** Whether every migration this software knows is applied (GET /ready); rejects when the database does not answer. */
  migrated(): Promise<boolean>;
  /** What the storage takes, for the node's metrics: one or two cheap queries, never a table scan. */
  footprint(): Promise<StoreFootprint>;
}

/** A message as the node's own table keeps it (not a copy: the parties and the digest). */
export interface MessageRecord {
  id: number;
  /** Lowercase 0x addresses. */
  from: string;
  to: string;
  timestamp: number;
  /** The sender's EIP-712 digest, 0x + 64 hex. */
  digest: string;
}

/** One position of an account's mailbox log. */
export interface LogEntry {
  /** The position, from 1. */
  seq: number;
  /** The id of the message whose copy took it. */
  id: number;
  role: MailboxRole;
  /** The position's leaf hash (`mailboxLeafHash` of @neutral/protocol): 0x + 64 hex. */
  leafHash: string;
  /** From `log` only: why the position's copy is gone, when the store knows (openrpc.json `LogRemoval`). */
  removal?: LogEntryRemoval;
  /** From `log` with `messages` only: the copy's JSON as reads serve it, while they serve it (never with `removal`). */
  json?: string;
}

/**
 * Why a position's copy is gone: its account deleted it (`request`: the signed request, as JSON),
 * its sender's `expires` ended it (what the sweep kept of the message: its parties, timestamp, end
 * and body's keccak-256, 0x + hex), or the retention sweep removed it.
 */
export type LogEntryRemoval =
  | { reason: "deleted"; request: string }
  | { reason: "expired"; from: string; to: string; timestamp: number; expires: number; messageHash: string }
  /** `retentionSeconds`: the retention that removed it, at most; absent where the store does not know it. */
  | { reason: "retention"; retentionSeconds?: number };

/** A tile of an account's log: the root of a whole aligned subtree. */
export interface LogTile {
  index: number;
  /** 32 bytes. */
  hash: Uint8Array;
}

/** The storage's size as metrics report it. */
export interface StoreFootprint {
  /** Bytes on disk: SQLite's main file (page_count × page_size), PostgreSQL's tables with their indexes and TOAST. */
  bytes: number;
  /**
   * Messages stored: on SQLite the span of ids kept (the retention sweep deletes the oldest; a
   * message deleted by its owners counts until swept), on PostgreSQL the planner's estimate.
   */
  messages: number;
}

/**
 * How long after it was stored a message the retention sweep deletes is still recognised by its
 * digest (a resend, a peer's second delivery: answered as stored, not stored again), unless the
 * store is told otherwise: the longest a message may take to arrive, which is a peer's retry period
 * (openrpc.json, 72 h by default) plus the clock skew (5 min). The relay passes its own figures.
 */
export const DEFAULT_SWEPT_DIGESTS_MS = 72 * 3_600_000 + 5 * 60_000;

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
export function pageOfRanges(query: Pick<PageQuery, "order" | "limit" | "maxBytes" | "lookahead">, reads: readonly RangeRead[]): Page {
  const asc = query.order === "asc";
  const beyond = (id: number, bound: number) => (asc ? id > bound : id < bound);
  // How far every range is known: a range read whole is known to its end; one with `limit + 1`
  // rows, to its last row; one stopped at the scan bound, to where it stopped.
  let known: number | undefined;
  for (const read of reads) {
    // Without lookahead, a range read whole is known only to its last row.
    const full = read.rows.length > query.limit ? read.rows[query.limit]!.id : query.lookahead === false && read.rows.length === query.limit ? read.rows[query.limit - 1]!.id : undefined;
    const reach = full ?? read.stoppedAt;
    if (reach !== undefined && (known === undefined || beyond(known, reach))) known = reach;
  }
  let rows: StoredMessage[];
  if (reads.length === 1) rows = reads[0]!.rows;
  else {
    // A message in two ranges (one to oneself, received and sent) is one message, with both copies.
    const byId = new Map<number, StoredMessage>();
    for (const row of reads.flatMap((read) => read.rows)) {
      const seen = byId.get(row.id);
      if (seen === undefined) byId.set(row.id, row);
      else if (seen.copies !== undefined && row.copies !== undefined) byId.set(row.id, { ...seen, copies: [...seen.copies, ...row.copies] });
    }
    rows = [...byId.values()].sort(asc ? (a, b) => a.id - b.id : (a, b) => b.id - a.id);
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

/** The message a retention floor looks up: the first one stored at or after the cutoff. */
export interface FreshMessage {
  id: number;
  acceptedAt: number;
}

/**
 * The lowest message id a read serves under a retention policy: messages get ids in the order they
 * are stored, so "stored at most `retentionMs` ago" is "id at least the floor". Each backend asks
 * {@link RetentionFloor.current}; when it is undefined, it looks up the first fresh message from
 * `lookupFrom()` and hands it to `found`. That happens only once the floor message itself expires,
 * and at most once every `min(1 s, retention / 1000)`: a message is served at most that long past
 * its expiry, and reads pay nothing otherwise.
 */
export class RetentionFloor {
  private id = 0;
  private recheckAt = 0;
  constructor(
    readonly retentionMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The retention in whole seconds (0: none), as a removal states it (`LogEntryRemoval`). */
  get retentionSeconds(): number {
    return Math.floor(this.retentionMs / 1000);
  }

  /** The floor, or undefined when it must be looked up again. Always 0 without a retention. */
  current(): number | undefined {
    if (this.retentionMs <= 0) return 0;
    return this.now() < this.recheckAt ? this.id : undefined;
  }

  /** Where to look from, and the cutoff: the first message with `id >= from` and `acceptedAt >= cutoff` is the floor. */
  lookup(): { from: number; cutoff: number } {
    return { from: this.id, cutoff: this.now() - this.retentionMs };
  }

  /** The floor, from the lookup's answer: that message, or (none is fresh) past `lastId`, the last id handed out. */
  found(fresh: FreshMessage | undefined, lastId: number): number {
    const clock = this.now();
    const step = Math.min(1000, this.retentionMs / 1000);
    if (fresh) {
      this.id = fresh.id;
      this.recheckAt = Math.max(fresh.acceptedAt + this.retentionMs, clock + step);
    } else {
      this.id = Math.max(this.id, lastId + 1);
      this.recheckAt = clock + Math.max(step, Math.min(this.retentionMs, 1000));
    }
    return this.id;
  }
}

/** An account's signed consent about one peer (openrpc.json `ConsentRecord`), hex lowercase. */
export interface StoredConsentRecord {
  account: string;
  peer: string;
  state: "allowed" | "blocked" | "none";
  timestamp: number;
  signature: string;
}

/** An account's signed consent policy (openrpc.json `ConsentPolicy`). */
export interface StoredConsentPolicy {
  account: string;
  mode: "open" | "allowed-only";
  timestamp: number;
  signature: string;
}

/** What a recipient decided about one sender: the store's answer for routing one message. */
export interface ConsentVerdict {
  /** The recipient's record about the sender ("none" without one). */
  state: StoredConsentRecord["state"];
  /** The recipient's policy ("open" without one). */
  mode: StoredConsentPolicy["mode"];
  /** The recipient has itself sent the sender a message (asked only under "allowed-only"). */
  replied: boolean;
}

/** Consent (issue 24): who reaches an account's inbox, kept on its home node. */
export interface ConsentStore {
  /**
   * Keeps each record, and the policy, that is newer (greater timestamp) than the stored one, in
   * one transaction; resolves, once durable, with the current policy and the current records of
   * the peers given.
   */
  putConsent(account: string, records: readonly StoredConsentRecord[], policy?: StoredConsentPolicy): Promise<{ policy?: StoredConsentPolicy; records: StoredConsentRecord[] }>;
  /** The account's policy and its records other than "none", by peer address after `after`, at most `limit`; `end` when none follows. */
  consentList(account: string, after: string | undefined, limit: number): Promise<{ policy?: StoredConsentPolicy; records: StoredConsentRecord[]; end: boolean }>;
  /** What `recipient` decided about `sender`. */
  consentFor(recipient: string, sender: string): Promise<ConsentVerdict>;
}

/** One step of a backend's schema, applied once, in version order. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
