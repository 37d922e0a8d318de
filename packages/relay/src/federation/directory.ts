// Where an account is homed, and its messaging key, anywhere in the federation (openrpc.json
// "Federation"). Home records are kept in the database, learned ones too (each names its node and
// carries the account's signature, so keeping a newer one is always right); key bundles learned
// from peers are kept in memory only, because a bundle in this node's table means "published
// here", which homes an account that has no record (v1). Peers are asked when this node has no
// record naming itself, at most once per `ttlMs` per account, within `lookupTimeoutMs`.
import { LRUCache } from "lru-cache";
import type { Secp256k1 } from "../crypto/secp256k1.js";
import type { Logger } from "../log.js";
import type { MessageStore, StoredHomeRecord, StoredKeyBundle } from "../storage/store.js";
import { PeerCallError, type NodeClient, type PeerTarget } from "./node-client.js";
import type { PeerRegistry } from "./peers.js";
import { verifiedHomeRecord, verifiedKeyBundle } from "./records.js";

/**
 * Where a message to an account goes: stored here, delivered to a peer, nowhere this node can reach
 * (homed on a node that is not a peer), or not known now (no record anywhere, and some peer did not
 * answer: it may be homed there).
 */
export type Route = { kind: "local" } | { kind: "remote"; peer: PeerTarget } | { kind: "unreachable"; node: string } | { kind: "unknown" };

/** How long a home record read from storage is reused by this process. */
const HOME_CACHE_MS = 5_000;

export interface Directory {
  /** The account's newest home record this node knows or learns from its peers (if it has none naming itself), or undefined. */
  home(account: string): Promise<StoredHomeRecord | undefined>;
  /** The account's newest home record in this node's storage (read at most once a second per account), or undefined: no peer is asked. */
  localHome(account: string): Promise<StoredHomeRecord | undefined>;
  /** Forgets what this process remembers of an account's home (a record was just published here). */
  forget(account: string): void;
  /** The account's key bundle: this node's, or for an account homed elsewhere the newest its peers hold. */
  key(account: string): Promise<StoredKeyBundle | undefined>;
  /** Where a message to `recipient` is stored. */
  route(recipient: string): Promise<Route>;
  /** Keeps the records that are signed by their account and newer than the stored ones; returns those of them now current. */
  learnHomes(records: readonly unknown[]): Promise<StoredHomeRecord[]>;
  /** Tells every peer of a record just published here (best effort, in the background). */
  announce(record: StoredHomeRecord): void;
  /** Answers a peer's lookup: this node's own records of `accounts` (it asks no one). */
  localRecords(accounts: readonly string[]): Promise<{ homes: StoredHomeRecord[]; keys: StoredKeyBundle[] }>;
}

export interface DirectoryOptions {
  /** This node's address (lowercase). */
  self: string;
  store: MessageStore;
  curve: Secp256k1;
  peers: PeerRegistry;
  client: NodeClient;
  logger: Logger;
  ttlMs: number;
  lookupTimeoutMs: number;
}

/** Most accounts whose lookups, checked records and stored homes each cache remembers. */
const CACHE_SIZE = 100_000;

/** What the peers said of one account. */
interface Looked {
  /** Every peer answered: the result is remembered for `ttlMs` (otherwise the next call asks again). */
  complete: boolean;
  /** The newest key bundle any peer holds. */
  key?: StoredKeyBundle;
  /** Which peer holds it (an account without a home record is homed where its bundle is). */
  keyHolder?: PeerTarget;
}

export function createDirectory(options: DirectoryOptions): Directory {
  const { self, store, curve, peers, client, logger } = options;
  const federated = peers.list().length > 0;
  const looked = new LRUCache<string, Looked>({ max: CACHE_SIZE, ttl: Math.max(1, options.ttlMs) });
  // Home records this process has checked and kept already (every delivery carries its senders'):
  // seen again, one costs neither a signature recovery nor a write.
  const kept = new LRUCache<string, true>({ max: CACHE_SIZE });
  const keyOf = (record: { account?: unknown; timestamp?: unknown; signature?: unknown }) => `${String(record.account).toLowerCase()}:${String(record.timestamp)}:${String(record.signature).toLowerCase()}`;
  // What storage says of an account's home, for a few seconds: each send reads its sender's and
  // its recipient's. A record published or learned by this process replaces it at once; by another
  // process (a worker, a replica), within HOME_CACHE_MS. That an account has no record is never
  // remembered: one published a moment ago through another worker counts at once.
  const stored = new LRUCache<string, StoredHomeRecord>({ max: CACHE_SIZE, ttl: HOME_CACHE_MS });
  async function localHome(account: string): Promise<StoredHomeRecord | undefined> {
    const cached = stored.get(account);
    if (cached) return cached;
    const record = await store.getHomeRecord(account);
    if (record) stored.set(account, record);
    return record;
  }
  const inFlight = new Map<string, Promise<Looked>>();

  async function keepHome(record: StoredHomeRecord): Promise<StoredHomeRecord | undefined> {
    const current = await store.putHomeRecord(record);
    stored.set(record.account, current);
    return current.timestamp === record.timestamp && current.signature === record.signature ? current : undefined;
  }

  async function askPeers(account: string): Promise<Looked> {
    if (peers.unresolved) await peers.resolve();
    const targets = peers.list().flatMap((peer) => (peer.address === undefined ? [] : [{ url: peer.url, address: peer.address }]));
    const answers = await Promise.all(
      targets.map(async (peer) => {
        try {
          return { peer, answer: (await client.call(peer, "neutralService_lookup", { accounts: [account], homes: [] }, options.lookupTimeoutMs)) as { homes?: unknown; keys?: unknown } };
        } catch (error) {
          logger.debug({ peer: peer.url, err: error instanceof PeerCallError ? error.message : error }, "a peer's lookup failed");
          return undefined;
        }
      }),
    );
    const found: Looked = { complete: answers.every((reply) => reply !== undefined) };
    for (const reply of answers) {
      if (!reply) continue;
      const homes = Array.isArray(reply.answer?.homes) ? reply.answer.homes : [];
      for (const value of homes.slice(0, 100)) {
        const record = verifiedHomeRecord(curve, value);
        if (record?.account === account) await keepHome(record);
      }
      const keys = Array.isArray(reply.answer?.keys) ? reply.answer.keys : [];
      for (const value of keys.slice(0, 100)) {
        const bundle = verifiedKeyBundle(curve, value);
        if (bundle?.account === account && (found.key === undefined || bundle.timestamp > found.key.timestamp)) {
          found.key = bundle;
          found.keyHolder = reply.peer;
        }
      }
    }
    return found;
  }

  /** What the peers say of `account`: remembered for `ttlMs`, one lookup at a time per account. */
  function lookup(account: string): Promise<Looked> {
    const known = looked.get(account);
    if (known) return Promise.resolve(known);
    let pending = inFlight.get(account);
    if (!pending) {
      pending = askPeers(account)
        .then((found) => {
          if (found.complete) looked.set(account, found);
          return found;
        })
        .finally(() => inFlight.delete(account));
      inFlight.set(account, pending);
    }
    return pending;
  }

  async function home(account: string): Promise<StoredHomeRecord | undefined> {
    const local = await localHome(account);
    if (!federated || local?.node === self) return local;
    if (looked.has(account)) return local; // asked recently: what the peers said is stored already
    await lookup(account);
    return localHome(account);
  }

  return {
    home: (account) => home(account.toLowerCase()),
    localHome: (account) => localHome(account.toLowerCase()),
    forget: (account) => void stored.delete(account.toLowerCase()),

    async key(account) {
      const id = account.toLowerCase();
      const own = await store.getKeyBundle(id);
      if (!federated) return own;
      const record = await home(id);
      if (record?.node === self || (record === undefined && own !== undefined)) return own;
      const found = await lookup(id);
      if (own === undefined) return found.key;
      return found.key !== undefined && found.key.timestamp > own.timestamp ? found.key : own;
    },

    async route(recipient) {
      if (!federated) return { kind: "local" };
      const record = await home(recipient);
      if (record) {
        if (record.node === self) return { kind: "local" };
        const peer = peers.byAddress(record.node);
        return peer ? { kind: "remote", peer } : { kind: "unreachable", node: record.node };
      }
      // No home record anywhere: homed where its key bundle was published (v1), else here, unless
      // a peer that did not answer may be its home.
      if ((await store.getKeyBundle(recipient)) !== undefined) return { kind: "local" };
      const found = await lookup(recipient);
      if (found.keyHolder) return { kind: "remote", peer: found.keyHolder };
      return found.complete ? { kind: "local" } : { kind: "unknown" };
    },

    async learnHomes(records) {
      const learned: StoredHomeRecord[] = [];
      for (const value of records) {
        if (typeof value === "object" && value !== null && kept.has(keyOf(value))) {
          const record = value as { account: string; signature: string };
          const current = await localHome(record.account.toLowerCase());
          if (current?.signature === record.signature.toLowerCase()) learned.push(current);
          continue;
        }
        const record = verifiedHomeRecord(curve, value);
        if (!record) continue;
        const stored = await keepHome(record);
        kept.set(keyOf(record), true);
        if (stored) learned.push(stored);
      }
      return learned;
    },

    announce(record) {
      for (const peer of peers.list()) {
        if (peer.address === undefined) continue;
        void client.call({ url: peer.url, address: peer.address }, "neutralService_lookup", { accounts: [], homes: [record] }, options.lookupTimeoutMs).catch((error: unknown) => {
          logger.warn({ peer: peer.url, account: record.account, err: error instanceof PeerCallError ? error.message : error }, "could not tell a peer of a new home record");
        });
      }
    },

    async localRecords(accounts) {
      const homes: StoredHomeRecord[] = [];
      const keys: StoredKeyBundle[] = [];
      for (const account of new Set(accounts.map((value) => value.toLowerCase()))) {
        const record = await store.getHomeRecord(account);
        if (record) homes.push(record);
        const bundle = await store.getKeyBundle(account);
        if (bundle) keys.push(bundle);
      }
      return { homes, keys };
    },
  };
}
