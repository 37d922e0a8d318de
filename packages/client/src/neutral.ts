// The SDK's entry point: one object per (node, account) that signs in, keeps its messaging key
// published, encrypts and signs what it sends, and decrypts and verifies what it reads.
import { toSigner, type AccountSource, type Signer } from "./account.js";
import { createBearerToken, type BearerToken } from "./auth/token.js";
import { fromHex, isAddress, recoverAddress, toHex, type Hex } from "./crypto/ecdsa.js";
import { JSON_RPC_ERRORS, MESSAGE_ID_PATTERN, hashTypedData, typedData } from "@neutral/protocol";
import { encryptHex, getConversationKey, MAX_PLAINTEXT_BYTES, payloadLength } from "./crypto/nip44.js";
import { NeutralError } from "./errors.js";
import { errors } from "./generated/errors.js";
import { createNeutralServiceClient, type NeutralServiceClient } from "./generated/methods.js";
import type { ConsentRecord, ConsentState, DeletionReceipt, Direction, Folder, HomeRecord, KeyBundle, Message, NodeInfo, SubscribeFilter } from "./generated/types.js";
import { isValidHomeRecord, signHomeRecord } from "./home.js";
import { liveMessages, type LiveOptions } from "./live.js";
import { decodeMessage, type DecodeContext, type DecryptedMessage, type HomeNode } from "./messages.js";
import { deriveMessagingKey, isValidKeyBundle, signKeyBundle, type MessagingKey } from "./messaging-key.js";
import { RpcError, type CallOptions } from "./rpc.js";

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
}

export interface PageOptions extends CallOptions {
  /** Messages per page, 1..100 (default 20). */
  limit?: number;
  /** Start after this id and walk forwards (oldest first). */
  after?: string;
  /** Start before this id and walk backwards (newest first); the default walk starts at the newest message. */
  before?: string;
}

export interface InboxOptions extends PageOptions {
  /** Only messages from this sender. */
  from?: string;
  /** "received" (default), "sent", or "all" (the whole mailbox). */
  direction?: Direction;
  since?: number;
  until?: number;
  /** "requests": the requests folder (first contact under an "allowed-only" consent policy); default the inbox. */
  folder?: Folder;
}

export interface ChatOptions extends PageOptions {
  since?: number;
  until?: number;
  /** "requests": what the peer left in the requests folder; default the inbox. */
  folder?: Folder;
}

/** What an account decided about a peer (consent): "none" undoes "allowed" or "blocked". */
/** How to send a message. */
export interface SendOptions extends CallOptions {
  /**
   * Give the message an end, this many ms after its timestamp: signed with it (EIP-712
   * `ExpiringMessage`), so no node can extend it; from then no node serves it, and each deletes it.
   */
  expiresIn?: number;
}

export type ConsentChoice = ConsentRecord["state"];

export interface DeliveryWaitOptions {
  /**
   * Give up after this many ms and resolve with the message as it is then (still "pending").
   * Default: no limit (the sender's node retries for `nodeInfo().limits.retryPeriodSeconds`, then fails it). 0 checks once.
   */
  timeoutMs?: number;
  /** Stops the wait: it rejects with `signal.reason` (an "AbortError" DOMException unless the signal was given another). */
  signal?: AbortSignal;
  /** The longest pause between two looks at the node, ms (default 2000); the first ones come sooner. */
  intervalMs?: number;
}

export interface MessagePage {
  /** Decrypted and checked, in walk order. */
  messages: DecryptedMessage[];
  /** No further message in the walk's direction. */
  end: boolean;
}

/** Pages, for `for await`; `messages()` iterates the messages of every page instead. */
export interface MessagePages extends AsyncIterable<MessagePage> {
  messages(): AsyncIterable<DecryptedMessage>;
}

export interface Neutral {
  readonly url: string;
  /** The generated typed client for this node, its token handled (for calls the SDK does not wrap). */
  readonly client: NeutralServiceClient;
  /** The account's lowercase address. */
  getAddress(): Promise<string>;
  /** A valid bearer token for this node (renewed when close to expiry), for callers that want one. */
  token(): Promise<string>;
  /** The node's address, domains and limits (fetched once per session). */
  nodeInfo(): Promise<NodeInfo>;
  /**
   * Signs in, makes this node the account's home (publishes a signed home record naming it, unless
   * the newest record already does), derives the messaging key and publishes its bundle if the node
   * lacks it. Every other call does this first. A node without federation (no
   * `neutralService_publishHome`) is used as it is.
   */
  ready(): Promise<void>;
  /** `account`'s key bundle as this node serves it, after checking its signature; undefined when it has none. */
  keyOf(account: string, options?: CallOptions): Promise<KeyBundle | undefined>;
  /**
   * `account`'s newest home record in the federation, as this node serves it, after checking the
   * account signed it; undefined when there is none (or the node does not federate).
   */
  homeOf(account: string, options?: CallOptions): Promise<HomeRecord | undefined>;
  /**
   * Encrypts `text` to `to`'s messaging key, signs and sends it; resolves with the stored message.
   * To an account homed on another node, the node waits a little for that node's receipt: the
   * message may come back with `status` "pending" (see `waitForDelivery`).
   */
  send(to: string, text: string, options?: SendOptions): Promise<DecryptedMessage>;
  /**
   * Resolves once a message this account sent is no longer pending: with the message as the node
   * now serves it, "delivered" (both receipts, checked) or "failed" (with `reason`). A message that
   * is not pending resolves at once. Polls the sender's copy; see `DeliveryWaitOptions`.
   */
  waitForDelivery(message: DecryptedMessage, options?: DeliveryWaitOptions): Promise<DecryptedMessage>;
  /** The inbox, page by page (newest first unless `after` is given). */
  inbox(options?: InboxOptions): MessagePages;
  /** The chat with `peer`, both directions, page by page. */
  chat(peer: string, options?: ChatOptions): MessagePages;
  /**
   * Live delivery: the messages the filter selects (default: received), decrypted and checked like
   * the inbox's, oldest first, each once, as the node stores them, until `signal` aborts. By default
   * only messages newer than the newest one at start; `after: id` first catches up on everything
   * since that id (an app starting up passes the last id it saw), `after: "0"` on the whole mailbox.
   * Reconnects by itself after a network error, a cut stream, a node restart or an end the node
   * announces (with a fresh token when it expired), resuming after the last id yielded, with
   * backoff (`onState` follows it). Throws what retrying cannot fix: a refused token (after one
   * fresh one), invalid params (-32602), a node without live delivery (-32601, or HTTP 406).
   */
  live(options?: LiveOptions): AsyncIterable<DecryptedMessage>;
  /**
   * Deletes this account's copies of messages (by their `id`s, 1 to 100) from its mailbox on the
   * node: what it received, and its own copy of what it sent; the other party's copy stays. Signs
   * the request (EIP-712 `Deletion`) and resolves with the node's receipt, checked to be the
   * node's signature over this request. Messages still pending delivery cannot be deleted yet
   * (`RpcError` -32602 naming them).
   */
  deleteMessages(ids: readonly string[], options?: CallOptions): Promise<DeletionReceipt>;
  /**
   * Consent: what this account decides about `peer`, kept (signed) on its home node. "blocked":
   * the peer's messages are refused; "allowed": they reach the inbox even under an "allowed-only"
   * policy; "none": neither. Resolves with the account's consent as the node now keeps it.
   */
  setConsent(peer: string, choice: ConsentChoice, options?: CallOptions): Promise<ConsentState>;
  /** Who reaches the inbox: "open" (everyone not blocked) or "allowed-only" (others land in `inbox({ folder: "requests" })`). */
  setConsentPolicy(mode: NonNullable<ConsentState["policy"]>["mode"], options?: CallOptions): Promise<ConsentState>;
  /** The account's policy and every allowed or blocked peer, as its home node keeps them. */
  consent(options?: CallOptions): Promise<ConsentState>;
}

const PEER_KEY_TTL_MS = 5 * 60_000;
const MISSING_KEY_TTL_MS = 10_000;
/** How long a home record (or that an account has none) is believed before the node is asked again. */
const HOME_TTL_MS = 5 * 60_000;
const MISSING_HOME_TTL_MS = 10_000;
/** A receipt that does not match a cached home record has the record asked for again, at most this often per account. */
const HOME_REFRESH_MS = 1_000;
const DEFAULT_DELIVERY_POLL_MS = 2_000;

const isMethodNotFound = (error: unknown) => error instanceof RpcError && error.code === JSON_RPC_ERRORS.MethodNotFound.code;

/** Resolves after `ms`, or rejects with the signal's reason once it is aborted. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", abort, { once: true });
  });
}

interface PeerKey {
  bundle: KeyBundle;
  conversationKey: Uint8Array;
}

/** Retries once with a fresh token when the node refuses the current one (expired, clock skew). */
async function withFreshTokenOnce<T>(run: () => Promise<T>, renew: () => void): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof RpcError) || error.code !== errors.Unauthorized.code) throw error;
    renew();
    return run();
  }
}

/** Caches a promise; forgets it if it rejects, so the next call tries again. */
function once<T>(make: () => Promise<T>): { get(): Promise<T>; reset(): void } {
  let value: Promise<T> | undefined;
  return {
    get: () =>
      (value ??= make().catch((error: unknown) => {
        value = undefined;
        throw error;
      })),
    reset: () => {
      value = undefined;
    },
  };
}

function checkAddress(value: string, name: string): string {
  if (!isAddress(value)) throw new NeutralError("INVALID_ARGUMENT", `${name} must be 0x followed by 40 hex digits`);
  return value.toLowerCase();
}

export function createNeutral(options: NeutralOptions): Neutral {
  const url = String(options.url);
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url);
  } catch {
    throw new NeutralError("INVALID_ARGUMENT", `Not a URL: ${url.slice(0, 200)}`);
  }
  const signer: Signer = toSigner(options.account, options.address);
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
  const renewToken = () => {
    current = undefined;
  };

  const open = createNeutralServiceClient(transport);
  const client = createNeutralServiceClient({ ...transport, auth: token });
  const authed = <T>(run: () => Promise<T>) => withFreshTokenOnce(run, renewToken);

  const info = once(() => open.nodeInfo());
  const peerKeys = new Map<string, { value: Promise<PeerKey | undefined>; expires: number }>();
  const homes = new Map<string, { value: Promise<HomeNode>; expires: number; fetchedAt: number }>();
  /** The node answered -32601 to getHome: it does not federate, no account has a record there. */
  let homesUnsupported = false;

  /** `account`'s home record as the node serves it; `forged` when the account did not sign it. */
  async function servedHome(account: string, call?: CallOptions): Promise<{ record?: HomeRecord; forged?: true }> {
    if (homesUnsupported) return {};
    let record: HomeRecord | null;
    try {
      record = await open.getHome({ account }, call);
    } catch (error) {
      if (!isMethodNotFound(error)) throw error;
      homesUnsupported = true;
      return {};
    }
    if (record === null) return {};
    return isValidHomeRecord(record, account) ? { record } : { forged: true };
  }

  const rememberHome = (account: string, record: HomeRecord) =>
    homes.set(account, { value: Promise.resolve({ kind: "record", node: record.node.toLowerCase() }), expires: now() + HOME_TTL_MS, fetchedAt: now() });

  /**
   * The home node receipts of `account` are checked against: from its home record, fetched through
   * this node and checked against the account's signature (a record it did not sign is ignored, as
   * if there were none), cached like peer keys. A failed lookup is not cached. `refresh`: asks
   * again unless the cached answer is under a second old.
   */
  function homeNode(account: string, refresh = false): Promise<HomeNode> {
    const cached = homes.get(account);
    if (cached && cached.expires > now() && !(refresh && now() - cached.fetchedAt >= HOME_REFRESH_MS)) return cached.value;
    const value = servedHome(account).then(
      ({ record }): HomeNode => (record ? { kind: "record", node: record.node.toLowerCase() } : { kind: "none" }),
      (error: unknown): HomeNode => ({ kind: "unknown", reason: error instanceof Error ? error.message : "unknown error" }),
    );
    const entry = { value, expires: now() + MISSING_HOME_TTL_MS, fetchedAt: now() };
    homes.set(account, entry);
    void value.then((home) => {
      if (home.kind === "record") entry.expires = now() + HOME_TTL_MS;
      else if (home.kind === "unknown" && homes.get(account) === entry) homes.delete(account);
    });
    return value;
  }

  /**
   * Makes this node the account's home: publishes a record naming it unless the newest record
   * already does. First of all, so that the node then serves the account's key bundle as its own.
   */
  async function publishHomeHere(self: string): Promise<void> {
    const node = (await info.get()).address.toLowerCase();
    const { record: current } = await servedHome(self);
    if (homesUnsupported) return;
    if (current?.node.toLowerCase() === node) {
      rememberHome(self, current);
      return;
    }
    // Newer than the current record, so that it wins even against a clock that was ahead.
    const record = await signHomeRecord(signer, node, Math.max(now(), (current?.timestamp ?? 0) + 1));
    let stored: HomeRecord;
    try {
      stored = await authed(() => client.publishHome({ record }));
    } catch (error) {
      if (!isMethodNotFound(error)) throw error;
      homesUnsupported = true;
      return;
    }
    if (stored.node.toLowerCase() !== node || !isValidHomeRecord(stored, self)) {
      throw new NeutralError("PROTOCOL_ERROR", `The node keeps a newer home record for this account, naming another node (${stored.node.toLowerCase()})`);
    }
    rememberHome(self, stored);
  }

  async function verifiedBundle(account: string, call?: CallOptions): Promise<KeyBundle | undefined> {
    const bundle = await open.getKey({ account }, call);
    if (bundle === null) return undefined;
    if (!isValidKeyBundle(bundle, account)) {
      throw new NeutralError("INVALID_KEY_BUNDLE", `The node served a key bundle for ${account} that ${account} did not sign`);
    }
    return bundle;
  }

  const session = once(async (): Promise<MessagingKey> => {
    const self = await signer.getAddress();
    await publishHomeHere(self);
    const key = await deriveMessagingKey(signer);
    const published = await verifiedBundle(self).catch((error: unknown) => {
      if (error instanceof NeutralError && error.code === "INVALID_KEY_BUNDLE") return undefined; // replace it
      throw error;
    });
    if (published?.key.toLowerCase() !== key.publicKeyHex) {
      const bundle = await signKeyBundle(signer, key, now());
      const stored = await authed(() => client.publishKey({ bundle }));
      if (stored.key.toLowerCase() !== key.publicKeyHex) {
        throw new NeutralError("PROTOCOL_ERROR", "The node keeps a newer key bundle for this account with a different key");
      }
    }
    return key;
  });

  async function peerKey(peer: string, fresh: boolean): Promise<PeerKey | undefined> {
    const cached = peerKeys.get(peer);
    if (cached && cached.expires > now() && !fresh) return cached.value;
    const value = (async () => {
      const key = await session.get();
      const bundle = await verifiedBundle(peer);
      if (!bundle) return undefined;
      try {
        return { bundle, conversationKey: getConversationKey(key.privateKey, fromHex(bundle.key)) };
      } catch {
        throw new NeutralError("INVALID_KEY_BUNDLE", `The key ${peer} published is not a valid secp256k1 public key`);
      }
    })();
    const entry = { value, expires: now() + MISSING_KEY_TTL_MS };
    peerKeys.set(peer, entry);
    value.then(
      (result) => {
        if (result) entry.expires = now() + PEER_KEY_TTL_MS;
      },
      () => peerKeys.get(peer) === entry && peerKeys.delete(peer),
    );
    return value;
  }

  async function decodeAll(messages: readonly Message[]): Promise<DecryptedMessage[]> {
    const [self, node] = await Promise.all([signer.getAddress(), info.get()]);
    const context: DecodeContext = {
      self,
      sessionNode: node.address.toLowerCase(),
      trustedNodes,
      homeOf: homeNode,
      // A peer whose bundle is invalid reads as one without a key: the message says so in `problems`.
      conversationKey: async (peer: string) => (await peerKey(peer, false).catch(() => undefined))?.conversationKey,
    };
    return Promise.all(messages.map((message) => decodeMessage(message, context)));
  }

  function pages(fetchPage: (cursor: { after?: string; before?: string }, call: CallOptions) => Promise<{ data: Message[]; end: boolean; cursor?: string }>, walk: PageOptions): MessagePages {
    const call: CallOptions = { ...(walk.signal && { signal: walk.signal }), ...(walk.timeoutMs !== undefined && { timeoutMs: walk.timeoutMs }) };
    async function* iterate(): AsyncGenerator<MessagePage> {
      await session.get();
      const forwards = walk.after !== undefined;
      let cursor = { ...(walk.after !== undefined && { after: walk.after }), ...(walk.before !== undefined && { before: walk.before }) };
      for (;;) {
        const page = await authed(() => fetchPage(cursor, call));
        const messages = await decodeAll(page.data);
        yield { messages, end: page.end };
        // A page that stopped early (a sparse time filter, the node's answer budget) may be short or
        // empty; `cursor`, when given, is where the walk goes on.
        const next = page.cursor ?? page.data.at(-1)?.id;
        if (page.end || next === undefined) return;
        cursor = forwards ? { ...cursor, after: next } : { ...cursor, before: next };
      }
    }
    return {
      [Symbol.asyncIterator]: iterate,
      async *messages() {
        for await (const page of iterate()) yield* page.messages;
      },
    };
  }

  const walkParams = (walk: PageOptions) => ({ ...(walk.limit !== undefined && { limit: walk.limit }) });

  return {
    url,
    client,
    getAddress: () => signer.getAddress(),
    token,
    nodeInfo: () => info.get(),
    async ready() {
      await session.get();
    },
    async keyOf(account, call) {
      return verifiedBundle(checkAddress(account, "account"), call);
    },
    async homeOf(account, call) {
      const id = checkAddress(account, "account");
      const { record, forged } = await servedHome(id, call);
      if (forged) throw new NeutralError("INVALID_HOME_RECORD", `The node served a home record for ${id} that ${id} did not sign`);
      return record;
    },

    async send(to, text, options = {}) {
      const { expiresIn, ...call } = options;
      const recipient = checkAddress(to, "to");
      if (expiresIn !== undefined && (!Number.isSafeInteger(expiresIn) || expiresIn <= 0)) {
        throw new NeutralError("INVALID_ARGUMENT", "expiresIn must be a positive whole number of milliseconds");
      }
      if (typeof text !== "string" || text.length === 0) throw new NeutralError("INVALID_ARGUMENT", "text must be a non-empty string");
      const bytes = new TextEncoder().encode(text).length;
      if (bytes > MAX_PLAINTEXT_BYTES) {
        throw new NeutralError("MESSAGE_TOO_LARGE", `The text is ${bytes} bytes; NIP-44 encrypts at most ${MAX_PLAINTEXT_BYTES}`);
      }
      const [self, node] = await Promise.all([signer.getAddress(), info.get(), session.get()]);
      const size = payloadLength(bytes);
      if (size > node.limits.maxMessageBytes) {
        throw new NeutralError("MESSAGE_TOO_LARGE", `Encrypted, the text is ${size} bytes; this node stores at most ${node.limits.maxMessageBytes}`);
      }
      const peer = await peerKey(recipient, true);
      if (!peer) throw new NeutralError("NO_RECIPIENT_KEY", `${recipient} has published no valid messaging key on this node: they must sign in once before they can receive`);
      let body: string;
      try {
        body = encryptHex(text, peer.conversationKey);
      } catch (error) {
        throw new NeutralError("INVALID_ARGUMENT", `The text cannot be encrypted: ${error instanceof Error ? error.message : "unknown reason"}`);
      }
      const timestamp = now();
      const fields = { from: self as Hex, to: recipient as Hex, message: `0x${body}` as const, timestamp };
      const expires = expiresIn === undefined ? undefined : timestamp + expiresIn;
      const signature =
        expires === undefined
          ? await signer.signTypedData(typedData("Message", fields))
          : await signer.signTypedData(typedData("ExpiringMessage", { ...fields, expires }));
      const signed = { from: self, to: recipient, message: body, timestamp, ...(expires !== undefined && { expires }), signature };
      const stored = await authed(() => client.sendMessage({ message: signed }, call));
      if (
        stored.from.toLowerCase() !== self ||
        stored.to.toLowerCase() !== recipient ||
        stored.message.toLowerCase() !== body ||
        stored.timestamp !== timestamp ||
        stored.expires !== expires
      ) {
        throw new NeutralError("PROTOCOL_ERROR", "The node answered with a message other than the one sent");
      }
      const [decoded] = await decodeAll([stored]);
      return decoded!;
    },

    async deleteMessages(ids, call) {
      if (!Array.isArray(ids) || ids.length === 0 || ids.length > 100 || ids.some((id) => typeof id !== "string" || !MESSAGE_ID_PATTERN.test(id))) {
        throw new NeutralError("INVALID_ARGUMENT", "ids must be 1 to 100 message ids (decimal strings)");
      }
      const [self, node] = await Promise.all([signer.getAddress(), info.get(), session.get()]);
      const deletion = { account: self as Hex, ids: ids.map(Number), timestamp: now() };
      const signature = await signer.signTypedData(typedData("Deletion", deletion));
      const receipt = await authed(() => client.deleteMessages({ request: { account: self, ids: [...ids], timestamp: deletion.timestamp, signature } }, call));
      const request = toHex(hashTypedData({ primaryType: "Deletion", message: deletion }));
      const nodeAddress = node.address.toLowerCase() as Hex;
      const signedBy = receipt.request === request ? recoverAddress(hashTypedData({ primaryType: "DeletionReceipt", message: { node: nodeAddress, request } }), receipt.signature) : undefined;
      if (signedBy !== nodeAddress) throw new NeutralError("PROTOCOL_ERROR", "The node's deletion receipt is not its signature over this request");
      return receipt;
    },

    async setConsent(peer, choice, call) {
      const other = checkAddress(peer, "peer");
      const self = (await signer.getAddress()) as Hex;
      await session.get();
      const fields = { account: self, peer: other as Hex, state: choice, timestamp: now() };
      const signature = await signer.signTypedData(typedData("Consent", fields));
      return authed(() => client.setConsent({ records: [{ ...fields, signature }] }, call));
    },

    async setConsentPolicy(mode, call) {
      const self = (await signer.getAddress()) as Hex;
      await session.get();
      const fields = { account: self, mode, timestamp: now() };
      const signature = await signer.signTypedData(typedData("ConsentPolicy", fields));
      return authed(() => client.setConsent({ records: [], policy: { ...fields, signature } }, call));
    },

    async consent(call) {
      await session.get();
      let state = await authed(() => client.getConsent({ limit: 100 }, call));
      const records = [...state.records];
      while (state.end === false && state.records.length > 0) {
        const after = state.records.at(-1)!.peer;
        state = await authed(() => client.getConsent({ after, limit: 100 }, call));
        records.push(...state.records);
      }
      return { account: state.account, policy: state.policy, records, end: true };
    },

    async waitForDelivery(message, wait = {}) {
      if (message.status !== "pending") return message;
      const { signal } = wait;
      const self = await signer.getAddress();
      if (message.from !== self) throw new NeutralError("INVALID_ARGUMENT", "Only a message this account sent can be waited for");
      if (!/^[1-9][0-9]{0,18}$/.test(message.id)) throw new NeutralError("INVALID_ARGUMENT", "The message has no valid id");
      await session.get();
      const deadline = wait.timeoutMs === undefined ? Infinity : Date.now() + wait.timeoutMs;
      const longest = Math.max(1, wait.intervalMs ?? DEFAULT_DELIVERY_POLL_MS);
      // The sender's copy is the first sent message after id − 1.
      const after = (BigInt(message.id) - 1n).toString();
      const sent = message.raw;
      let latest = message;
      for (let delay = Math.min(250, longest); ; delay = Math.min(longest, delay * 2)) {
        const page = await authed(() => client.getInbox({ inboxFilter: { direction: "sent" }, after, limit: 1 }, { ...(signal && { signal }) })).catch((error: unknown) => {
          throw signal?.aborted ? signal.reason : error; // an abort rejects with the signal's reason, as a pause does
        });
        const stored = page.data[0];
        if (stored?.id !== message.id || stored.message.toLowerCase() !== sent.message.toLowerCase() || stored.to.toLowerCase() !== message.to || stored.timestamp !== message.timestamp) {
          throw new NeutralError("PROTOCOL_ERROR", `The node no longer serves sent message ${message.id} as it was sent`);
        }
        [latest] = (await decodeAll([stored])) as [DecryptedMessage];
        if (latest.status !== "pending") return latest;
        const left = deadline - Date.now();
        if (left <= 0) return latest;
        await pause(Math.min(delay, left), signal);
      }
    },

    inbox(walk = {}) {
      const inboxFilter = {
        ...(walk.from !== undefined && { from: checkAddress(walk.from, "from") }),
        ...(walk.direction !== undefined && { direction: walk.direction }),
        ...(walk.since !== undefined && { since: walk.since }),
        ...(walk.until !== undefined && { until: walk.until }),
        ...(walk.folder !== undefined && { folder: walk.folder }),
      };
      return pages((cursor, call) => client.getInbox({ inboxFilter, ...walkParams(walk), ...cursor }, call), walk);
    },

    chat(peer, walk = {}) {
      const inboxFilter = {
        chat: checkAddress(peer, "peer"),
        ...(walk.since !== undefined && { since: walk.since }),
        ...(walk.until !== undefined && { until: walk.until }),
        ...(walk.folder !== undefined && { folder: walk.folder }),
      };
      return pages((cursor, call) => client.getChat({ inboxFilter, ...walkParams(walk), ...cursor }, call), walk);
    },

    live(live = {}) {
      if (live.chat !== undefined && (live.from !== undefined || live.direction !== undefined)) {
        throw new NeutralError("INVALID_ARGUMENT", "chat selects both directions of one chat: it cannot be combined with from or direction");
      }
      const window = { ...(live.since !== undefined && { since: live.since }), ...(live.until !== undefined && { until: live.until }) };
      const filter: SubscribeFilter =
        live.chat !== undefined
          ? { chat: checkAddress(live.chat, "chat"), ...window }
          : { ...(live.from !== undefined && { from: checkAddress(live.from, "from") }), ...(live.direction !== undefined && { direction: live.direction }), ...window };
      const decode = async (message: Message) => (await decodeAll([message]))[0]!;
      return { [Symbol.asyncIterator]: () => liveMessages({ client, ready: () => session.get().then(() => {}), renewToken, decode, nodeInfo: () => info.get() }, filter, live) };
    },
  };
}

