// Where an account is homed, and its messaging key, anywhere in the federation (openrpc.json
// "Federation"). Home records are kept in the database, learned ones too (each names its node and
// carries the account's signature, so keeping a newer one is always right); key bundles learned
// from peers are kept in memory only, because a bundle in this node's table means "published
// here", which homes an account that has no record (v1) for this node's own senders. Across nodes
// only a home record makes a home: a bundle is public and anyone can copy it to any node, so a
// peer holding one says nothing about where its account lives (issue 33, finding 2).
//
// Peers are asked when this node has no record naming itself, at most once per `ttlMs` per
// account, within `lookupTimeoutMs`; an account with a bundle here and no record is this node's
// and waits for no peer. A peer that did not answer a lookup is left out of lookups for `ttlMs`
// (or until it calls this node): a dead peer costs one timeout per TTL, not one per request.
import { supersedes } from "@neutral/protocol";
import { LRUCache } from "lru-cache";
import type { Secp256k1 } from "../crypto/secp256k1.js";
import type { Logger } from "../log.js";
import type { MessageStore, StoredHomeRecord, StoredKeyBundle } from "../storage/store.js";
import { PeerCallError, type NodeClient, type PeerTarget } from "./node-client.js";
import type { PeerRegistry } from "./peers.js";
import { verifiedHomeRecord, verifiedKeyBundle } from "./records.js";

/**
 * Where a message to an account goes: stored here, delivered to a peer, nowhere this node can reach
 * (homed on a node that is not a peer), to no node because the account has no home record while
 * other nodes hold its bundle (only its home record could say which of them is its home), or not
 * known now (no record anywhere, and some peer did not answer: it may be homed there).
 */
export type Route =
  | { kind: "local" }
  | { kind: "remote"; peer: PeerTarget }
  | { kind: "unreachable"; node: string }
  | { kind: "unhomed" }
  | { kind: "unknown" };

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
  /** Keeps the records that are signed by their account and newer than the stored ones (in one write); returns those of them now current. */
  learnHomes(records: readonly unknown[]): Promise<StoredHomeRecord[]>;
  /** How many of `records` `learnHomes` would have to check (not seen by this process before): what learning them costs. */
  unseenHomes(records: readonly unknown[]): number;
  /** Tells every peer of a record just published here (best effort, in the background). */
  announce(record: StoredHomeRecord): void;
  /** Answers a peer's lookup: this node's own records of `accounts` (it asks no one). */
  localRecords(accounts: readonly string[]): Promise<{ homes: StoredHomeRecord[]; keys: StoredKeyBundle[] }>;
  /** A peer just called this node: it is up, and lookups ask it again. */
  heardFrom(node: string): void;
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
  now?: () => number;
}

/** Most accounts whose lookups, checked records and stored homes each cache remembers. */
const CACHE_SIZE = 100_000;

/**
 * A cache made at its first use: an LRU allocates its `max` slots when made (~30 ms for
 * CACHE_SIZE), which a node that never federates or sends, like most built in tests, never needs.
 */
function lazy<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/** What the peers said of one account. */
interface Looked {
  /** Every peer answered: the result is remembered for `ttlMs` (otherwise the next call asks again). */
  complete: boolean;
  /** The newest key bundle any peer holds (by the order of `supersedes`). */
  key?: StoredKeyBundle;
}

export function createDirectory(options: DirectoryOptions): Directory {
  const { self, store, curve, peers, client, logger } = options;
  const now = options.now ?? Date.now;
  const federated = peers.list().length > 0;
  const looked = lazy(() => new LRUCache<string, Looked>({ max: CACHE_SIZE, ttl: Math.max(1, options.ttlMs) }));
  // Home records this process has checked and kept already (every delivery carries its senders'):
  // seen again, one costs neither a signature recovery nor a write.
  const kept = lazy(() => new LRUCache<string, true>({ max: CACHE_SIZE }));
  const keyOf = (record: { account?: unknown; timestamp?: unknown; signature?: unknown }) => `${String(record.account).toLowerCase()}:${String(record.timestamp)}:${String(record.signature).toLowerCase()}`;
  // What storage says of an account's home, for a few seconds: each send reads its sender's and
  // its recipient's. A record published or learned by this process replaces it at once; by another
  // process (a worker, a replica), within HOME_CACHE_MS. That an account has no record is never
  // remembered: one published a moment ago through another worker counts at once.
  const stored = lazy(() => new LRUCache<string, StoredHomeRecord>({ max: CACHE_SIZE, ttl: HOME_CACHE_MS }));
  async function localHome(account: string): Promise<StoredHomeRecord | undefined> {
    const cached = stored().get(account);
    if (cached) return cached;
    const record = await store.getHomeRecord(account);
    if (record) stored().set(account, record);
    return record;
  }
  const inFlight = new Map<string, Promise<Looked>>();
  /** Peers (by URL) that did not answer a lookup, and until when they are left out of lookups. */
  const silentUntil = new Map<string, number>();

  async function keepHomes(records: readonly StoredHomeRecord[]): Promise<StoredHomeRecord[]> {
    if (records.length === 0) return [];
    const current = await store.putHomeRecords(records);
    const learned: StoredHomeRecord[] = [];
    records.forEach((record, i) => {
      const now = current[i]!;
      stored().set(now.account, now);
      kept().set(keyOf(record), true);
      if (now.timestamp === record.timestamp && now.signature === record.signature) learned.push(now);
    });
    return learned;
  }

  type Answer = { homes?: unknown; keys?: unknown };
  /** Silent peers' one lookup in flight each: it waits on no request, and its answer ends the silence. */
  const probing = new Set<string>();

  /** Asks `peer`; undefined when it did not answer (it is then silent for a TTL). */
  async function ask(peer: PeerTarget, account: string): Promise<Answer | undefined> {
    try {
      const answer = (await client.call(peer, "neutralService_lookup", { accounts: [account], homes: [] }, options.lookupTimeoutMs)) as Answer;
      silentUntil.delete(peer.url);
      return answer;
    } catch (error) {
      silentUntil.set(peer.url, now() + options.ttlMs);
      logger.debug({ peer: peer.url, err: error instanceof PeerCallError ? error.message : error }, "a peer's lookup failed: no request waits for it for a while");
      return undefined;
    }
  }

  /** The home records of `account` in a peer's answer that its signature checks out for. */
  function homesIn(answer: Answer, account: string): StoredHomeRecord[] {
    const values = Array.isArray(answer.homes) ? answer.homes : [];
    return values.slice(0, 100).flatMap((value) => {
      const record = verifiedHomeRecord(curve, value);
      return record?.account === account ? [record] : [];
    });
  }

  async function askPeers(account: string): Promise<Looked> {
    if (peers.unresolved) await peers.resolve();
    const clock = now();
    const all = peers.list().flatMap((peer) => (peer.address === undefined ? [] : [{ url: peer.url, address: peer.address }]));
    const waitedFor = all.filter((peer) => (silentUntil.get(peer.url) ?? 0) <= clock);
    // A peer that did not answer lately is still asked, once at a time, but no request waits for it:
    // a dead peer must not tax every request about an account this node does not know.
    for (const peer of all) {
      if (waitedFor.includes(peer) || probing.has(peer.url)) continue;
      probing.add(peer.url);
      void ask(peer, account)
        .then((answer) => (answer ? keepHomes(homesIn(answer, account)) : undefined))
        .catch((error: unknown) => logger.warn({ err: error, peer: peer.url }, "keeping a silent peer's answer failed"))
        .finally(() => probing.delete(peer.url));
    }
    const answers = await Promise.all(waitedFor.map((peer) => ask(peer, account)));
    const found: Looked = { complete: waitedFor.length === all.length && answers.every((answer) => answer !== undefined) };
    const homes: StoredHomeRecord[] = [];
    for (const answer of answers) {
      if (!answer) continue;
      homes.push(...homesIn(answer, account));
      const keys = Array.isArray(answer.keys) ? answer.keys : [];
      for (const value of keys.slice(0, 100)) {
        const bundle = verifiedKeyBundle(curve, value);
        // The newest by the protocol's order: which peer answered first decides nothing.
        if (bundle?.account === account && supersedes(bundle, found.key)) found.key = bundle;
      }
    }
    await keepHomes(homes);
    return found;
  }

  /** What the peers say of `account`: remembered for `ttlMs`, one lookup at a time per account. */
  function lookup(account: string): Promise<Looked> {
    const known = looked().get(account);
    if (known) return Promise.resolve(known);
    let pending = inFlight.get(account);
    if (!pending) {
      pending = askPeers(account)
        .then((found) => {
          if (found.complete) looked().set(account, found);
          return found;
        })
        .finally(() => inFlight.delete(account));
      inFlight.set(account, pending);
    }
    return pending;
  }

  /**
   * Asks the peers about an account in the background, at most once per TTL: an account this node
   * serves without asking (its bundle is here) still hears of a record published elsewhere.
   */
  function refreshLater(account: string): void {
    if (!federated || looked().has(account) || inFlight.has(account)) return;
    lookup(account).catch((error: unknown) => logger.warn({ err: error, account }, "a background lookup failed"));
  }

  async function home(account: string): Promise<StoredHomeRecord | undefined> {
    const local = await localHome(account);
    if (!federated || local?.node === self) return local;
    if (looked().has(account)) return local; // asked recently: what the peers said is stored already
    await lookup(account);
    return localHome(account);
  }

  return {
    home: (account) => home(account.toLowerCase()),
    localHome: (account) => localHome(account.toLowerCase()),
    forget: (account) => void stored().delete(account.toLowerCase()),

    async key(account) {
      const id = account.toLowerCase();
      const own = await store.getKeyBundle(id);
      if (!federated) return own;
      const local = await localHome(id);
      if (local?.node === self) return own;
      if (local === undefined && own !== undefined) {
        refreshLater(id);
        return own; // published here, no record elsewhere known: this node's account
      }
      const found = await lookup(id);
      return found.key !== undefined && supersedes(found.key, own) ? found.key : own;
    },

    async route(recipient) {
      if (!federated) return { kind: "local" };
      const local = await localHome(recipient);
      // A bundle here and no record anywhere this node knows of: homed here (v1), without asking anyone.
      if (local === undefined && (await store.getKeyBundle(recipient)) !== undefined) {
        refreshLater(recipient);
        return { kind: "local" };
      }
      const record = local?.node === self ? local : await home(recipient);
      if (record) {
        if (record.node === self) return { kind: "local" };
        const peer = peers.byAddress(record.node);
        return peer ? { kind: "remote", peer } : { kind: "unreachable", node: record.node };
      }
      const found = await lookup(recipient);
      // Its bundle is on other nodes but no record names its home: a copy of a bundle proves
      // nothing, so no node is its home for this one.
      if (found.key) return { kind: "unhomed" };
      return found.complete ? { kind: "local" } : { kind: "unknown" };
    },

    async learnHomes(records) {
      const learned: StoredHomeRecord[] = [];
      const fresh = new Map<string, StoredHomeRecord>();
      for (const value of records) {
        if (typeof value === "object" && value !== null && kept().has(keyOf(value))) {
          const record = value as { account: string; signature: string };
          const current = await localHome(record.account.toLowerCase());
          if (current?.signature === record.signature.toLowerCase()) learned.push(current);
          continue;
        }
        const record = verifiedHomeRecord(curve, value);
        // One write for all of them; of one account's, only the newest can win.
        if (record && supersedes(record, fresh.get(record.account))) fresh.set(record.account, record);
      }
      learned.push(...(await keepHomes([...fresh.values()])));
      return learned;
    },

    unseenHomes(records) {
      let unseen = 0;
      for (const value of records) if (!(typeof value === "object" && value !== null && kept().has(keyOf(value)))) unseen++;
      return unseen;
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

    heardFrom(node) {
      const url = peers.byAddress(node.toLowerCase())?.url;
      if (url !== undefined) silentUntil.delete(url);
    },
  };
}
