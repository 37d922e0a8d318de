// What every SDK action takes first, as a viem action takes its client: one session of one account
// with one node (its token, its typed clients, what it has learnt). `createNeutral` makes one and
// binds the actions (actions/) to it.
import { toSigner, type AccountSource, type Signer } from "./account.js";
import { createBearerToken, type BearerToken } from "./auth/token.js";
import { NeutralError } from "./errors.js";
import { createNeutralServiceClient, type NeutralServiceClient } from "./generated/methods.js";
import type { KeyBundle, NodeInfo } from "./generated/types.js";
import type { HomeNode } from "./messages.js";
import type { VerifiedHead } from "./mailbox-proof.js";
import type { MessagingKey } from "./messaging-key.js";
import { checkAddress } from "./utils/address.js";
import { lazy, type Lazy } from "./utils/lazy.js";

export interface NeutralOptions {
  /** The node's URL, e.g. `http://127.0.0.1:8645`. */
  url: string | URL;
  /** A private key (0x + 64 hex), a viem `LocalAccount`, or an EIP-1193 wallet provider. */
  account: AccountSource;
  /** For a provider: which of its accounts to use (default: the first it reports). */
  address?: string;
  /** The SIWE domain tokens are made for. Default: the URL's `host`, which is what a node accepts unless configured otherwise. */
  domain?: string;
  /** Lifetime of each sign-in token, ms (default 1 h, at most 24 h). Tokens are renewed before they expire. */
  tokenLifetimeMs?: number;
  /** Per-request timeout, ms (default 30 000; 0 disables). */
  timeoutMs?: number;
  /**
   * Receipts signed by these nodes are accepted too, for any account, besides the account's home
   * node (the node its home record names, or for an account without one the node this session talks to).
   */
  trustedNodes?: readonly string[];
  fetch?: typeof globalThis.fetch;
  /** Default `Date.now`. */
  now?: () => number;
  /**
   * Where this device keeps the last mailbox head it verified per account and node (the verifiable
   * mailbox: a later head must extend it). Default: in memory, for the session's life; give a
   * storage that outlives it (the CLI keeps a file per account and node) to catch a node that
   * rolls back or forks between runs.
   */
  heads?: HeadStore;
  /**
   * Where `audit` keeps how far it has accounted for each account's log at each node (`AuditState`),
   * so that the next audit reads only what came since. Default: in memory, for the session's life
   * (the CLI keeps a file per account and node, beside the heads).
   */
  audits?: AuditStore;
  /**
   * Whether reads prove themselves (the verifiable mailbox; default true): each inbox and chat page
   * is asked with its proof, checked against the node's signed head and the last one this device
   * verified, and each message marked `proven`. `false` reads as a node before v3 answers.
   */
  verify?: boolean;
}

/** Keeps the last verified mailbox head per account and node (see `NeutralOptions.heads`). */
export interface HeadStore {
  get(account: string, node: string): VerifiedHead | undefined | Promise<VerifiedHead | undefined>;
  set(account: string, node: string, head: VerifiedHead): void | Promise<void>;
}

/** Values per account and node, in memory. */
function memoryStore<T>(): { get(account: string, node: string): T | undefined; set(account: string, node: string, value: T): void } {
  const values = new Map<string, T>();
  return {
    get: (account, node) => values.get(`${node}/${account}`),
    set: (account, node, value) => void values.set(`${node}/${account}`, value),
  };
}

/** A HeadStore in memory. */
export const memoryHeadStore = (): HeadStore => memoryStore<VerifiedHead>();

/**
 * How far `audit` has accounted for an account's log: its first `size` positions, kept as the roots
 * of their tree's whole subtrees (@neutral/protocol `MerkleFrontier`, 0x hex, largest first), and
 * the head the audit ended at.
 */
export interface AuditState {
  size: number;
  roots: string[];
  head: VerifiedHead;
}

/** Keeps the last `AuditState` per account and node (see `NeutralOptions.audits`). */
export interface AuditStore {
  get(account: string, node: string): AuditState | undefined | Promise<AuditState | undefined>;
  set(account: string, node: string, state: AuditState): void | Promise<void>;
}

/** An AuditStore in memory. */
export const memoryAuditStore = (): AuditStore => memoryStore<AuditState>();

/** A peer's key bundle (its signature checked) and the NIP-44 conversation key with it. */
export interface PeerKey {
  bundle: KeyBundle;
  conversationKey: Uint8Array;
}

/** What a session has learnt, shared by the actions. */
export interface SessionCache {
  /** The account's messaging key, once signed in with the home record and key bundle published (see `ready`). */
  readonly ready: Lazy<MessagingKey>;
  /** Peers' keys by lowercase address (undefined: none published). */
  readonly peerKeys: Map<string, { value: Promise<PeerKey | undefined>; expires: number }>;
  /** Accounts' home nodes by lowercase address. */
  readonly homes: Map<string, { value: Promise<HomeNode>; expires: number; fetchedAt: number }>;
  /** The node answered -32601 to getHome: it does not federate, no account has a record there. */
  homesUnsupported: boolean;
  /** The node bound the receipt of something this session sent to its position (spec 3.0.0): it binds every one since. */
  bindsReceipts: boolean;
  /** The node refused a `compact` proof (a node before spec 3.1.0): proofs are asked one per position. */
  compactRefused: boolean;
  /** The node refused `omitBound` in a read's proof (a node before spec 3.3.0): reads' proofs list every position. */
  omitBoundRefused: boolean;
}

export interface NeutralContext {
  readonly url: string;
  readonly signer: Signer;
  readonly now: () => number;
  /** Nodes whose receipts are accepted for any account (lowercase). */
  readonly trustedNodes: readonly string[];
  /** The typed client with the session's token. */
  readonly client: NeutralServiceClient;
  /** The typed client without a token, for the methods that need none. */
  readonly publicClient: NeutralServiceClient;
  /** A valid bearer token for this node (signed anew when close to expiry). */
  token(): Promise<string>;
  /** Forgets the current token: the next request signs a new one. */
  renewToken(): void;
  /** The node's address, domains and limits (fetched once). */
  nodeInfo(): Promise<NodeInfo>;
  readonly cache: SessionCache;
  /** The last mailbox heads this device verified. */
  readonly heads: HeadStore;
  /** How far `audit` has accounted for each log. */
  readonly audits: AuditStore;
  /** Reads prove themselves (`NeutralOptions.verify`). */
  readonly verify: boolean;
}

/** A session for `options.account` with the node at `options.url`. Nothing is sent until an action needs it. */
export function createNeutralContext(options: NeutralOptions): NeutralContext {
  const url = String(options.url);
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url);
  } catch {
    throw new NeutralError("INVALID_ARGUMENT", `Not a URL: ${url.slice(0, 200)}`);
  }
  const signer = toSigner(options.account, options.address);
  const now = options.now ?? Date.now;
  const domain = options.domain ?? parsedUrl.host;
  const trustedNodes = (options.trustedNodes ?? []).map((node) => checkAddress(node, "trustedNodes[]"));
  const transport = { url, ...(options.fetch && { fetch: options.fetch }), ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }) };

  let current: BearerToken | undefined;
  let signing: Promise<BearerToken> | undefined;
  const lifetimeMs = options.tokenLifetimeMs ?? 60 * 60_000;
  const renewMarginMs = Math.min(5 * 60_000, lifetimeMs / 10);
  function token(): Promise<string> {
    if (current && current.expiresAt - now() > renewMarginMs) return Promise.resolve(current.token);
    signing ??= createBearerToken(signer, { domain, uri: url, lifetimeMs, now }).finally(() => {
      signing = undefined;
    });
    return signing.then((fresh) => {
      current = fresh;
      return fresh.token;
    });
  }

  const publicClient = createNeutralServiceClient(transport);
  const info = lazy<NodeInfo>();
  return {
    url,
    signer,
    now,
    trustedNodes,
    client: createNeutralServiceClient({ ...transport, auth: token }),
    publicClient,
    token,
    renewToken: () => {
      current = undefined;
    },
    nodeInfo: () => info.get(() => publicClient.nodeInfo()),
    cache: { ready: lazy(), peerKeys: new Map(), homes: new Map(), homesUnsupported: false, bindsReceipts: false, compactRefused: false, omitBoundRefused: false },
    heads: options.heads ?? memoryHeadStore(),
    audits: options.audits ?? memoryAuditStore(),
    verify: options.verify ?? true,
  };
}
