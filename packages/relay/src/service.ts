import {
  budgetSpentError,
  ErrorCode,
  RpcError,
  rawJson,
  type RawJson,
  type RequestContext,
  type ResponseBudget,
} from "@neutral/server";
import type {
  DeliveryOutcome,
  ConsentPolicy,
  ConsentRecord,
  ConsentState,
  DeletionReceipt,
  DeliveryRefusal,
  DeliveryResult,
  DirectoryAnswer,
  Handlers,
  HomeRecord,
  ImportResult,
  InboxFilter,
  KeyBundle,
  NodeInfo,
  Peer,
  RelayedMessage,
} from "@neutral/server/neutral-service";
import { keyBundleDigest, messageDigest, receiptDigest } from "./crypto/eip712.js";
import { isXOnlyPublicKey, type Secp256k1 } from "./crypto/secp256k1.js";
import { arrivalWindowMs, type FederationConfig, type Limits, type LiveConfig } from "./config.js";
import type { Federation, Route } from "./federation/index.js";
import { homeDigest, relayedSigners, type RelayedFields } from "./federation/records.js";
import { deliveryAnswerDigest, errors, hashTypedData, isPendingMessageJson, MESSAGE_ID_PATTERN } from "@neutral/protocol";
import type { StorageQuotas } from "./limits/storage-quotas.js";
import type { AcceptedMessage } from "./message.js";
import type { StreamSelection, Subscriptions } from "./live/subscriptions.js";
import { cursorValue, fitPageBytes, type ImportedMessage, type StoredConsentPolicy, type StoredConsentRecord, type AppendResult, type MailboxRange, type MessageStore, type Page, type PageQuery, type StoredHomeRecord, type StoredMessage } from "./storage/store.js";

const LOCAL: Route = { kind: "local" };


/** Who made a request: the account a verified token names, or for a node-to-node method the calling peer. */
export interface Caller {
  /** Lowercase 0x address: the account, or the calling node. */
  address: string;
  /** "node": a peer's signed request (node-to-node methods only); absent: an account's bearer token. */
  kind?: "node";
  /** When the bearer token expires, ms since the epoch (a stream ends then). */
  expiresAt?: number;
}

/** What every handler gets besides its params. */
export interface RelayContext extends RequestContext<Caller> {
  /** The client (IPv4 address or IPv6 /64) the request is charged to; set while the rate limit is on (limits/request-costs.ts). */
  client?: string;
}

/** The node's limits, as configured (config.ts) and reported by nodeInfo. */
export type { Limits } from "./config.js";

export interface ServiceOptions {
  store: MessageStore;
  curve: Secp256k1;
  nodeKey: Uint8Array;
  limits: Limits;
  /** The SIWE domains this node accepts (may change once the port is known). */
  domains: () => readonly string[];
  software: { name: string; version: string };
  now?: () => number;
  /** Storage quotas per sender and per recipient (limits/storage-quotas.ts); absent: none. */
  quotas?: StorageQuotas;
  /** This node's peers, directory and deliverer (federation/); absent: a node on its own, exactly as v1. */
  federation?: Federation;
  /** How long a send to another node waits for its receipt, and how long it is retried (nodeInfo). */
  delivery: Pick<FederationConfig, "deliveryWaitMs" | "retryPeriodSeconds">;
  /** The node's public base URL (known once it listens). */
  publicUrl: () => string;
  /** Live delivery (live/subscriptions.ts) and its limits (nodeInfo); absent: `subscribe` is refused. */
  live?: { subscriptions: Subscriptions; limits: LiveConfig };
  /** Told of every message newly stored (not a resend), with its route: the metrics' sends. */
  onStored?: (route: "local" | "outbound" | "inbound") => void;
}

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`;

/** The calling node of a node-to-node method, or -32002 for an account's token. */
function callingNode(auth: Caller): string {
  if (auth.kind !== "node") {
    throw new RpcError(ErrorCode.Forbidden, "Forbidden: a node-to-node method, for peers signing with Authorization: NeutralNode", { reason: "not a node" });
  }
  return auth.address;
}

/** A delivered message's refusal (openrpc.json `DeliveryRefusal`). */
/** Why a message's `expires` is refused (not after its timestamp, or already past), or undefined when it has none or it is fine. */
export function expiryProblem(fields: { timestamp: number; expires?: number | undefined }, now: number): string | undefined {
  if (fields.expires === undefined) return undefined;
  if (fields.expires <= fields.timestamp) return "must be later than message.timestamp";
  if (fields.expires <= now) return "has passed: the message has expired";
  return undefined;
}

function refusal(code: number, message: string, permanent: boolean, home?: StoredHomeRecord): { refused: DeliveryRefusal } {
  return { refused: { code, message, permanent, ...(home && { home: home as HomeRecord }) } };
}

/** A refusal for now of a delivered message, from the error that refused it (a quota's, with its `retryAfter`). */
function refusalForNow(error: RpcError): { refused: DeliveryRefusal } {
  const retryAfter = (error.data as { retryAfter?: unknown } | undefined)?.retryAfter;
  return { refused: { code: error.code, message: error.message, permanent: false, ...(typeof retryAfter === "number" && { retryAfter }) } };
}

/** A message refused for consent: no more than "not accepted" (openrpc.json `ConsentRecord`). */
const notAccepted = () => new RpcError(ErrorCode.Forbidden, "Forbidden: not accepted by the recipient", { reason: "not accepted" });

/** The ranges of a mailbox that `getInbox`'s filter selects (seeds/README.md §5). */
function inboxRanges(owner: string, filter: InboxFilter): MailboxRange[] {
  const direction = filter.direction ?? "received";
  const from = filter.from?.toLowerCase();
  if (filter.folder === "requests") {
    if (direction !== "received") {
      throw RpcError.invalidParams("inboxFilter.direction", 'must be absent or "received" with folder "requests" (the requests folder holds received messages)', { param: "inboxFilter" });
    }
    return [from === undefined ? { side: "requests" } : { side: "requests", peer: from }];
  }
  const ranges: MailboxRange[] = [];
  if (direction !== "sent") ranges.push(from === undefined ? { side: "received" } : { side: "received", peer: from });
  // Every sent message is from the owner: a `from` naming someone else leaves nothing to send-side.
  if (direction !== "received" && (from === undefined || from === owner)) ranges.push({ side: "sent" });
  return ranges;
}

interface Walk {
  after?: string;
  before?: string;
  limit: number;
}

/** Cursor params → the keyset bounds and order of seeds/README.md §5. */
function walkOf({ after, before, limit }: Walk): Pick<PageQuery, "after" | "before" | "order" | "limit"> {
  return {
    ...(after !== undefined && { after: cursorValue(after) }),
    ...(before !== undefined && { before: cursorValue(before) }),
    order: after !== undefined ? "asc" : "desc",
    limit,
  };
}

/**
 * A page's `data`, `end` and `cursor` members, within what is left of the request's answer budget
 * (seeds/README.md §5, openrpc.json `maxResponseBytes`). Another entry of the batch may have spent some
 * of it while this page was being read: it is cut again to what is left now, and counted.
 */
function pageMembers(page: Page, budget: ResponseBudget | undefined): string {
  let fitted = page;
  if (budget) {
    if (budget.remaining <= 0) throw budgetSpentError(budget.limit);
    fitted = fitPageBytes(page, budget.remaining);
  }
  const data = fitted.messages.map((message) => message.json).join(",");
  budget?.spend(data.length);
  return `"data":[${data}],"end":${fitted.end}${fitted.resumeAt !== undefined ? `,"cursor":"${fitted.resumeAt}"` : ""}`;
}

/** The neutralService methods, over a message store. */
export function createHandlers(options: ServiceOptions): Handlers<RelayContext> {
  const { store, curve, nodeKey, limits, quotas } = options;
  const now = options.now ?? Date.now;
  const nodeAddress = curve.addressOf(nodeKey);
  /** What bounds one page's work and size: the scan bound of time filters, the answer budget left. */
  const bounds = (budget: ResponseBudget | undefined): Pick<PageQuery, "maxScan" | "maxBytes"> => ({
    maxScan: limits.maxPageScan,
    ...(budget && { maxBytes: Math.max(1, budget.remaining) }),
  });
  const { federation } = options;
  const arrivalWindow = arrivalWindowMs({ federation: options.delivery, limits });

  /**
   * Where a message from `from` to `to` goes, with federation's refusals: a sender homed elsewhere
   * sends through its home node, a sender writing to another node needs a home record naming this
   * one (the recipient's node checks it), and a recipient homed on a node that is not a peer is out
   * of reach.
   */
  async function routeOf(from: string, to: string): Promise<Route> {
    const own = await federation!.directory.localHome(from);
    if (own && own.node !== nodeAddress) {
      throw new RpcError(ErrorCode.Forbidden, `Forbidden: message.from is homed at ${own.node}; send through your home node`, { field: "message.from", home: own });
    }
    const route = await federation!.directory.route(to);
    if (route.kind === "unreachable") {
      throw new RpcError(ErrorCode.Forbidden, `Forbidden: the recipient's home node ${route.node} is not a peer of this node`, { field: "message.to", node: route.node });
    }
    if (route.kind === "unhomed") {
      // Anyone can copy a key bundle to any node: only the account's own home record may say where it lives.
      throw new RpcError(
        ErrorCode.Forbidden,
        "Forbidden: the recipient has no home record, and its key bundle is held by other nodes: only a home record it signed says which node is its home; it must publish one (neutralService_publishHome) to receive messages from other nodes",
        { field: "message.to", reason: "recipient has no home record" },
      );
    }
    if (route.kind === "unknown") {
      // Stored here, it could be lost to its recipient: refuse, and let the client send again.
      throw new RpcError(ErrorCode.InternalError, "The recipient's home node is not known: a peer did not answer; try again later", { field: "message.to", reason: "peers unreachable" });
    }
    if (route.kind === "remote" && !own) {
      throw new RpcError(
        ErrorCode.Forbidden,
        "Forbidden: the recipient is homed on another node, which accepts messages only from senders with a home record: publish yours here first (neutralService_publishHome)",
        { field: "message.from", reason: "no home record" },
      );
    }
    return route;
  }

  /** A delivered message's fields, lowercase, and its EIP-712 digest (the answer's signature covers every message's). */
  function relayedFields(relayed: RelayedMessage): { fields: RelayedFields; digest: Uint8Array } {
    const fields: RelayedFields = {
      from: relayed.from.toLowerCase(),
      to: relayed.to.toLowerCase(),
      message: relayed.message.toLowerCase(),
      timestamp: relayed.timestamp,
      ...(relayed.expires !== undefined && { expires: relayed.expires }),
      signature: relayed.signature.toLowerCase(),
      senderReceipt: relayed.sender_receipt.toLowerCase(),
    };
    return { fields, digest: messageDigest(fields) };
  }

  /**
   * Where a message to a recipient homed here goes, by the recipient's consent: refused (blocked),
   * its requests folder (an "allowed-only" recipient that neither allowed the sender nor wrote to
   * it: counted against the request quota, which the caller gives back if nothing is stored), or
   * the inbox.
   */
  async function folderOf(from: string, to: string): Promise<"requests" | undefined> {
    if (from === to) return undefined;
    const verdict = await store.consentFor(to, from);
    if (verdict.state === "blocked") throw notAccepted();
    if (verdict.state === "allowed" || verdict.mode === "open" || verdict.replied) return undefined;
    quotas?.takeRequest(from, to);
    return "requests";
  }

  /** Consent records and a policy of `account`: each its own, not from the future, signed by it (publishKey's order). */
  function checkConsent(account: string, records: readonly ConsentRecord[], policy: ConsentPolicy | undefined): { records: StoredConsentRecord[]; policy?: StoredConsentPolicy } {
    const peers = new Set<string>();
    for (const [i, record] of records.entries()) {
      const peer = record.peer.toLowerCase();
      if (peers.has(peer)) throw RpcError.invalidParams(`records[${i}].peer`, "names a peer already given in this call", { param: "records", path: `/${i}/peer` });
      peers.add(peer);
    }
    const signed = [...records.map((record, i) => ({ value: record, field: `records[${i}]` })), ...(policy ? [{ value: policy, field: "policy" }] : [])];
    for (const { value, field } of signed) {
      if (value.account.toLowerCase() !== account) throw new RpcError(ErrorCode.Forbidden, `Forbidden: ${field}.account must be the authenticated address`, { field: `${field}.account` });
    }
    for (const { value, field } of signed) refuseFuture(`${field}.timestamp`, value.timestamp);
    const checked = records.map((record, i) => {
      const fields = { account: account as `0x${string}`, peer: record.peer.toLowerCase() as `0x${string}`, state: record.state, timestamp: record.timestamp };
      if (curve.recoverAddress(hashTypedData({ primaryType: "Consent", message: fields }), Buffer.from(record.signature.slice(2), "hex")) !== account) {
        throw new RpcError(errors.InvalidSignature.code, `Invalid signature: records[${i}].signature does not recover its account`, { field: `records[${i}].signature` });
      }
      return { ...fields, signature: record.signature.toLowerCase() };
    });
    if (!policy) return { records: checked };
    const fields = { account: account as `0x${string}`, mode: policy.mode, timestamp: policy.timestamp };
    if (curve.recoverAddress(hashTypedData({ primaryType: "ConsentPolicy", message: fields }), Buffer.from(policy.signature.slice(2), "hex")) !== account) {
      throw new RpcError(errors.InvalidSignature.code, "Invalid signature: policy.signature does not recover its account", { field: "policy.signature" });
    }
    return { records: checked, policy: { ...fields, signature: policy.signature.toLowerCase() } };
  }

  /** A signed record (key bundle, home record) may be old, but not further in the future than the clock skew. */
  function refuseFuture(field: string, timestamp: number): void {
    const clock = now();
    if (timestamp - clock > limits.clockSkewMs) {
      throw new RpcError(errors.TimestampOutOfWindow.code, `Timestamp more than ${limits.clockSkewMs} ms in the future`, { field, now: clock, clockSkewMs: limits.clockSkewMs });
    }
  }

  /** A delivered message's checks (openrpc.json `neutralService_deliver`), cheapest first. */
  async function checkDelivered(origin: string, fields: RelayedFields, digest: Uint8Array): Promise<{ bytes: number } | { refused: DeliveryRefusal }> {
    const bytes = fields.message.length / 2;
    if (bytes > limits.maxMessageBytes) return refusal(ErrorCode.TooLarge, `Message too large: ${bytes} bytes, at most ${limits.maxMessageBytes}`, true);
    const clock = now();
    const expiry = expiryProblem(fields, clock);
    if (expiry) return refusal(ErrorCode.InvalidParams, `Invalid params: message.expires ${expiry}`, true);
    // Older than any peer retries it: it would come back after this node swept it (openrpc.json "Retention and deletion").
    if (clock - fields.timestamp > arrivalWindow) {
      return refusal(errors.TimestampOutOfWindow.code, `Timestamp too old: a delivery is accepted up to ${arrivalWindow} ms (retryPeriodSeconds and clockSkewMs) after its timestamp`, true);
    }
    const { sender, senderNode } = relayedSigners(curve, fields, digest);
    if (sender !== fields.from) return refusal(errors.InvalidSignature.code, "Invalid signature: it does not recover from", true);
    if (senderNode !== origin) return refusal(errors.InvalidSignature.code, "Invalid sender_receipt: it is not the calling node's signature", true);
    const senderHome = await federation!.directory.localHome(fields.from);
    if (!senderHome) return refusal(ErrorCode.Forbidden, "Forbidden: no home record of the sender names the calling node (send it in homes)", true);
    if (senderHome.node !== origin) return refusal(ErrorCode.Forbidden, `Forbidden: the sender is homed at ${senderHome.node}, not at the calling node`, true);
    const recipientHome = await federation!.directory.localHome(fields.to);
    if (recipientHome && recipientHome.node !== nodeAddress) {
      return refusal(ErrorCode.Forbidden, `Forbidden: the recipient is homed at ${recipientHome.node}`, true, recipientHome);
    }
    if (!recipientHome && (await store.getKeyBundle(fields.to)) === undefined) return refusal(ErrorCode.Forbidden, "Forbidden: the recipient is not homed at this node", true);
    return { bytes };
  }

  return {
    async neutralService_getInbox({ inboxFilter, ...walk }, { auth, responseBudget }) {
      const owner = auth.address;
      const ranges = inboxRanges(owner, inboxFilter);
      const page = await store.page({ owner, ranges, since: inboxFilter.since, until: inboxFilter.until, ...walkOf(walk), ...bounds(responseBudget) });
      return rawJson(`{"address":"${owner}",${pageMembers(page, responseBudget)}}`);
    },

    async neutralService_getChat({ inboxFilter, ...walk }, { auth, responseBudget }) {
      const owner = auth.address;
      const peer = inboxFilter.chat?.toLowerCase() ?? (await store.latestPeer(owner));
      if (peer === undefined) {
        throw RpcError.invalidParams("inboxFilter.chat", "is required: this user has no chat yet", { param: "inboxFilter" });
      }
      const ranges: MailboxRange[] =
        inboxFilter.folder === "requests"
          ? [{ side: "requests", peer }]
          : [
              { side: "received", peer },
              { side: "sent", peer },
            ];
      const page = await store.page({ owner, ranges, since: inboxFilter.since, until: inboxFilter.until, ...walkOf(walk), ...bounds(responseBudget) });
      return rawJson(`{"id":"${peer}",${pageMembers(page, responseBudget)}}`);
    },

    async neutralService_sendMessage({ message: signed }, { auth }) {
      // Cheap checks first; the signature recovery is the expensive one.
      const bytes = signed.message.length / 2;
      if (bytes > limits.maxMessageBytes) {
        throw new RpcError(ErrorCode.TooLarge, `Message too large: ${bytes} bytes, at most ${limits.maxMessageBytes}`, {
          field: "message.message",
          limit: limits.maxMessageBytes,
        });
      }
      const from = signed.from.toLowerCase();
      if (from !== auth.address) {
        throw new RpcError(ErrorCode.Forbidden, "Forbidden: message.from must be the authenticated address", { field: "message.from" });
      }
      const clock = now();
      if (Math.abs(signed.timestamp - clock) > limits.clockSkewMs) {
        throw new RpcError(errors.TimestampOutOfWindow.code, `Timestamp outside the accepted window of ±${limits.clockSkewMs} ms`, {
          field: "message.timestamp",
          now: clock,
          clockSkewMs: limits.clockSkewMs,
        });
      }
      const fields = { from, to: signed.to.toLowerCase(), message: signed.message.toLowerCase(), timestamp: signed.timestamp, ...(signed.expires !== undefined && { expires: signed.expires }) };
      const expiry = expiryProblem(fields, clock);
      if (expiry) throw RpcError.invalidParams("message.expires", expiry, { param: "message", path: "/expires" });
      const digest = messageDigest(fields);
      const signature = Buffer.from(signed.signature.slice(2), "hex");
      if (curve.recoverAddress(digest, signature) !== from) {
        throw new RpcError(errors.InvalidSignature.code, "Invalid signature: it does not recover message.from", { field: "message.signature" });
      }
      const route = federation?.enabled ? await routeOf(from, fields.to) : LOCAL;
      // The recipient's node decides by its consent: this one, for a recipient homed here.
      const folder = route.kind === "remote" ? undefined : await folderOf(from, fields.to);
      // Counted before it is stored, given back if it was not (a resend): concurrent sends cannot overshoot.
      try {
        quotas?.take(from, fields.to, bytes, folder);
      } catch (error) {
        if (folder) quotas?.refundRequest(from, fields.to);
        throw error;
      }
      let stored: StoredMessage;
      const refund = () => {
        quotas?.refund(from, fields.to, bytes, folder);
        if (folder) quotas?.refundRequest(from, fields.to);
      };
      try {
        const senderReceipt = hex(curve.sign(receiptDigest(digest, "sender"), nodeKey));
        const accepted: AcceptedMessage =
          route.kind === "remote"
            ? { ...fields, signature: signed.signature.toLowerCase(), senderReceipt, status: "pending", route: { kind: "outbound", destination: route.peer.address }, digest }
            : { ...fields, signature: signed.signature.toLowerCase(), senderReceipt, receiverReceipt: hex(curve.sign(receiptDigest(digest, "receiver"), nodeKey)), digest, ...(folder && { folder }) };
        const result = await store.append(accepted);
        if (!result.created) refund();
        else options.onStored?.(route.kind === "remote" ? "outbound" : "local");
        stored = result.stored;
      } catch (error) {
        refund();
        throw error;
      }
      if (route.kind === "remote" && federation && isPendingMessageJson(stored.json)) {
        // Durable already: hand it to the deliverer, and wait a little for the other node's receipt.
        federation.kick({ destination: route.peer.address });
        return rawJson((await federation.settled(from, stored.id, options.delivery.deliveryWaitMs)) ?? stored.json);
      }
      return rawJson(stored.json);
    },

    async neutralService_publishKey({ bundle }, { auth }): Promise<KeyBundle> {
      // Same order as sendMessage: the params (the schema checked the shape; the key must also be a
      // point), the caller, the clock, and the signature recovery last.
      const key = bundle.key.toLowerCase();
      if (!isXOnlyPublicKey(key)) {
        throw RpcError.invalidParams("bundle.key", "is not an x-only secp256k1 public key (the x coordinate of a point on the curve)", {
          param: "bundle",
          path: "/key",
        });
      }
      const account = bundle.account.toLowerCase();
      if (account !== auth.address) {
        throw new RpcError(ErrorCode.Forbidden, "Forbidden: bundle.account must be the authenticated address", { field: "bundle.account" });
      }
      // A bundle may be old (it is portable: re-published elsewhere, or later); only the future is bounded.
      refuseFuture("bundle.timestamp", bundle.timestamp);
      const fields = { account, key, timestamp: bundle.timestamp };
      const signature = Buffer.from(bundle.signature.slice(2), "hex");
      if (curve.recoverAddress(keyBundleDigest(fields), signature) !== account) {
        throw new RpcError(errors.InvalidSignature.code, "Invalid signature: it does not recover bundle.account", { field: "bundle.signature" });
      }
      return store.putKeyBundle({ ...fields, signature: bundle.signature.toLowerCase() });
    },

    async neutralService_getKey({ account }): Promise<KeyBundle | null> {
      const id = account.toLowerCase();
      return ((federation ? await federation.directory.key(id) : await store.getKeyBundle(id)) ?? null) as KeyBundle | null;
    },

    async neutralService_publishHome({ record }, { auth }): Promise<HomeRecord> {
      // As publishKey: the params (this node must be the one named), the caller, the clock, the signature.
      const node = record.node.toLowerCase();
      if (node !== nodeAddress) {
        throw RpcError.invalidParams("record.node", `names ${node}; this node is ${nodeAddress}: publish a home record at the node it names`, { param: "record", path: "/node" });
      }
      const account = record.account.toLowerCase();
      if (account !== auth.address) {
        throw new RpcError(ErrorCode.Forbidden, "Forbidden: record.account must be the authenticated address", { field: "record.account" });
      }
      refuseFuture("record.timestamp", record.timestamp);
      const fields = { account, node, timestamp: record.timestamp };
      if (curve.recoverAddress(homeDigest(fields), Buffer.from(record.signature.slice(2), "hex")) !== account) {
        throw new RpcError(errors.InvalidSignature.code, "Invalid signature: it does not recover record.account", { field: "record.signature" });
      }
      const signed = { ...fields, signature: record.signature.toLowerCase() };
      const current = await store.putHomeRecord(signed);
      federation?.directory.forget(account);
      // A node that was this account's home stops taking its messages once it hears of this one.
      if (current.signature === signed.signature && federation?.enabled) federation.directory.announce(current);
      return current as HomeRecord;
    },

    async neutralService_getHome({ account }): Promise<HomeRecord | null> {
      const id = account.toLowerCase();
      return ((federation ? await federation.directory.home(id) : await store.getHomeRecord(id)) ?? null) as HomeRecord | null;
    },

    async neutralService_deliver({ messages, homes }, { auth }): Promise<RawJson<DeliveryResult>> {
      const origin = callingNode(auth);
      if (!federation) throw new RpcError(ErrorCode.Forbidden, "Forbidden: this node does not federate", { reason: "not a peer" });
      federation.kick({ peerUp: origin }); // it is up: our own deliveries to it need not wait out a backoff
      federation.directory.heardFrom(origin);
      await federation.directory.learnHomes(homes);
      // First every check, then the appends in the order given (one group commit): the recipient
      // gets one sender's messages in the order its node accepted them. A message refused for now
      // holds back the later ones of the same sender to the same recipient (they must not overtake
      // it), and nothing else: one recipient's quota never stops another's mail (issue 33, finding 3).
      const outcomes: (DeliveryOutcome | undefined)[] = [];
      const accepted: { index: number; message: AcceptedMessage; bytes: number }[] = [];
      /** The refusal for now that holds back each (sender, recipient) pair, by `from>to`. */
      const held = new Map<string, { refused: DeliveryRefusal }>();
      const relayed = messages.map(relayedFields);
      for (const [index, { fields, digest }] of relayed.entries()) {
        const pair = `${fields.from}>${fields.to}`;
        const earlier = held.get(pair);
        if (earlier) {
          const { retryAfter } = earlier.refused;
          outcomes.push({
            refused: {
              ...refusal(ErrorCode.RateLimited, `not stored: an earlier message of this sender to this recipient in this delivery was refused for now (${earlier.refused.message})`, false).refused,
              ...(retryAfter !== undefined && { retryAfter }),
            },
          });
          continue;
        }
        const verdict = await checkDelivered(origin, fields, digest);
        if ("refused" in verdict) {
          outcomes.push(verdict);
          if (!verdict.refused.permanent) held.set(pair, verdict);
          continue;
        }
        const { bytes } = verdict;
        let folder: "requests" | undefined;
        try {
          folder = await folderOf(fields.from, fields.to);
        } catch (error) {
          if (!(error instanceof RpcError)) throw error;
          // Blocked: refused for good. Over the request quota: for now.
          if (error.code === ErrorCode.Forbidden) outcomes.push(refusal(error.code, error.message, true));
          else {
            const forNow = refusalForNow(error);
            held.set(pair, forNow);
            outcomes.push(forNow);
          }
          continue;
        }
        try {
          quotas?.take(fields.from, fields.to, bytes, folder);
        } catch (error) {
          if (folder) quotas?.refundRequest(fields.from, fields.to);
          if (!(error instanceof RpcError)) throw error;
          const forNow = refusalForNow(error);
          held.set(pair, forNow);
          outcomes.push(forNow);
          continue;
        }
        outcomes.push(undefined);
        const receiverReceipt = hex(curve.sign(receiptDigest(digest, "receiver"), nodeKey));
        accepted.push({ index, bytes, message: { ...fields, receiverReceipt, route: { kind: "inbound" }, digest, ...(folder && { folder }) } });
      }
      let results: AppendResult[];
      try {
        results = await Promise.all(accepted.map(({ message }) => store.append(message)));
      } catch (error) {
        for (const { message, bytes } of accepted) {
          quotas?.refund(message.from, message.to, bytes, message.folder);
          if (message.folder) quotas?.refundRequest(message.from, message.to);
        }
        throw error; // the calling node retries the whole delivery; what was stored is found again
      }
      accepted.forEach(({ index, message, bytes }, i) => {
        if (!results[i]!.created) {
          quotas?.refund(message.from, message.to, bytes, message.folder);
          if (message.folder) quotas?.refundRequest(message.from, message.to);
        } else options.onStored?.("inbound");
        outcomes[index] = { receiver_receipt: message.receiverReceipt! };
      });
      // One signature over the whole answer, bound to the messages it answers: the calling node
      // checks it instead of each receipt.
      const outcomesJson = JSON.stringify(outcomes);
      const answer = deliveryAnswerDigest(nodeAddress, relayed.map(({ digest }) => digest), outcomesJson);
      return rawJson(`{"outcomes":${outcomesJson},"signature":"${hex(curve.sign(answer, nodeKey))}"}`);
    },

    async neutralService_lookup({ accounts, homes }, { auth }): Promise<DirectoryAnswer> {
      const origin = callingNode(auth);
      if (!federation) throw new RpcError(ErrorCode.Forbidden, "Forbidden: this node does not federate", { reason: "not a peer" });
      federation.directory.heardFrom(origin);
      if (homes.length > 0) await federation.directory.learnHomes(homes);
      return (await federation.directory.localRecords(accounts)) as DirectoryAnswer;
    },

    neutralService_subscribe({ filter, after }, context) {
      const { auth, signal, lastEventId } = context;
      const subscriptions = options.live?.subscriptions;
      if (!subscriptions) throw new RpcError(ErrorCode.MethodNotFound, "Method not found: this node does not stream (neutralService_subscribe)");
      if (auth.kind === "node") throw new RpcError(ErrorCode.Forbidden, "Forbidden: streams are for accounts, not nodes", { reason: "not an account" });
      if (lastEventId !== undefined && !MESSAGE_ID_PATTERN.test(lastEventId)) {
        throw RpcError.invalidParams("Last-Event-ID", "must be a message id (decimal digits, no leading zeros): the id of the last event received", { param: "Last-Event-ID" });
      }
      const owner = auth.address;
      const chat = "chat" in filter ? filter.chat?.toLowerCase() : undefined;
      const selection: StreamSelection = {
        owner,
        ranges:
          chat === undefined
            ? inboxRanges(owner, filter as InboxFilter)
            : filter.folder === "requests"
              ? [{ side: "requests", peer: chat }]
              : [
                  { side: "received", peer: chat },
                  { side: "sent", peer: chat },
                ],
        ...(filter.since !== undefined && { since: filter.since }),
        ...(filter.until !== undefined && { until: filter.until }),
      };
      const start = lastEventId ?? after;
      return subscriptions.open({
        selection,
        client: context.client ?? auth.address,
        after: start === undefined ? 0 : cursorValue(start),
        ...(auth.expiresAt !== undefined && { expiresAt: auth.expiresAt }),
        signal,
      });
    },

    async neutralService_deleteMessages({ request }, { auth }): Promise<DeletionReceipt> {
      // As publishKey: the caller, the clock (only the future: a request may be sent again later,
      // and deleting what is gone changes nothing), then the signature recovery.
      const account = request.account.toLowerCase();
      if (account !== auth.address) {
        throw new RpcError(ErrorCode.Forbidden, "Forbidden: request.account must be the authenticated address", { field: "request.account" });
      }
      refuseFuture("request.timestamp", request.timestamp);
      const ids = request.ids.map(cursorValue);
      const digest = hashTypedData({ primaryType: "Deletion", message: { account: account as `0x${string}`, ids, timestamp: request.timestamp } });
      if (curve.recoverAddress(digest, Buffer.from(request.signature.slice(2), "hex")) !== account) {
        throw new RpcError(errors.InvalidSignature.code, "Invalid signature: it does not recover request.account", { field: "request.signature" });
      }
      const { pending } = await store.deleteMessages(account, ids);
      if (pending.length > 0) {
        throw RpcError.invalidParams("request.ids", `names messages still pending delivery to another node (${pending.join(", ")}): delete them once delivered or failed`, {
          param: "request",
          path: "/ids",
          pending: pending.map(String),
        });
      }
      const receipt = hashTypedData({ primaryType: "DeletionReceipt", message: { node: nodeAddress as `0x${string}`, request: hex(digest) as `0x${string}` } });
      return { node: nodeAddress, account, ids: request.ids, request: hex(digest), signature: hex(curve.sign(receipt, nodeKey)) };
    },

    async neutralService_importMessages({ messages }, { auth }): Promise<ImportResult> {
      const account = auth.address;
      if (federation?.enabled) {
        const own = await federation.directory.localHome(account);
        if (own && own.node !== nodeAddress) {
          throw new RpcError(ErrorCode.Forbidden, `Forbidden: the account is homed at ${own.node}; import at your home node`, { field: "messages", home: own });
        }
      }
      // Every message is checked before any is stored (nothing is stored unless all are fine): the
      // cheap checks first, the signature recoveries last, as for sendMessage.
      const clock = now();
      const imported: ImportedMessage[] = [];
      for (const [index, message] of messages.entries()) {
        const at = (field: string) => `messages[${index}].${field}`;
        const fields = {
          from: message.from.toLowerCase(),
          to: message.to.toLowerCase(),
          message: message.message.toLowerCase(),
          timestamp: message.timestamp,
          ...(message.expires !== undefined && { expires: message.expires }),
          signature: message.signature.toLowerCase(),
          senderReceipt: message.sender_receipt.toLowerCase(),
        };
        if (fields.from !== account && fields.to !== account) {
          throw new RpcError(ErrorCode.Forbidden, `Forbidden: ${at("from")} and ${at("to")}: the authenticated account is neither; import only your own messages`, { field: at("from"), index });
        }
        if ((message.status !== undefined && message.status !== "delivered") || message.receiver_receipt === undefined) {
          throw RpcError.invalidParams(at("status"), "is not delivered (pending or failed, or no receiver_receipt): only delivered messages are history to import", { param: "messages", path: `/${index}/status`, index });
        }
        const bytes = fields.message.length / 2;
        if (bytes > limits.maxMessageBytes) {
          throw new RpcError(ErrorCode.TooLarge, `Message too large: ${at("message")} is ${bytes} bytes, at most ${limits.maxMessageBytes}`, { field: at("message"), limit: limits.maxMessageBytes, index });
        }
        const expiry = expiryProblem(fields, clock);
        if (expiry) throw RpcError.invalidParams(at("expires"), expiry, { param: "messages", path: `/${index}/expires`, index });
        imported.push({ fields: { ...fields, receiverReceipt: message.receiver_receipt.toLowerCase() }, digest: messageDigest(fields) });
      }
      for (const [index, { fields, digest }] of imported.entries()) {
        const at = (field: string) => `messages[${index}].${field}`;
        if (curve.recoverAddress(digest, Buffer.from(fields.signature.slice(2), "hex")) !== fields.from) {
          throw new RpcError(errors.InvalidSignature.code, `Invalid signature: ${at("signature")} does not recover ${at("from")}`, { field: at("signature"), index });
        }
        for (const role of ["sender", "receiver"] as const) {
          const receipt = role === "sender" ? fields.senderReceipt : fields.receiverReceipt;
          if (curve.recoverAddress(receiptDigest(digest, role), Buffer.from(receipt.slice(2), "hex")) === undefined) {
            throw new RpcError(errors.InvalidSignature.code, `Invalid signature: ${at(`${role}_receipt`)} is not a signature of this message`, { field: at(`${role}_receipt`), index });
          }
        }
      }
      // The account's own quotas, as a sender and as a recipient: an import cannot store more than
      // sends could. Counted before, given back for what was not stored (here already, or a failure).
      const sizes = imported.map(({ fields }) => fields.message.length / 2);
      const taken: number[] = [];
      let stored: Awaited<ReturnType<MessageStore["importMessages"]>>;
      try {
        for (const bytes of sizes) {
          quotas?.take(account, account, bytes);
          taken.push(bytes);
        }
        stored = await store.importMessages(account, imported);
      } catch (error) {
        for (const bytes of taken) quotas?.refund(account, account, bytes);
        throw error;
      }
      stored.forEach(({ created }, i) => created || quotas?.refund(account, account, sizes[i]!));
      return { ids: stored.map(({ id }) => String(id)) };
    },

    async neutralService_setConsent({ records, policy }, { auth }): Promise<ConsentState> {
      const account = auth.address;
      const checked = checkConsent(account, records, policy);
      const current = await store.putConsent(account, checked.records, checked.policy);
      return { account, policy: (current.policy ?? null) as ConsentPolicy | null, records: current.records as ConsentRecord[] };
    },

    async neutralService_getConsent({ after, limit }, { auth }): Promise<ConsentState> {
      const account = auth.address;
      const page = await store.consentList(account, after?.toLowerCase(), limit);
      return { account, policy: (page.policy ?? null) as ConsentPolicy | null, records: page.records as ConsentRecord[], end: page.end };
    },

    neutralService_nodeInfo(): NodeInfo {
      return {
        address: nodeAddress,
        software: options.software.name,
        version: options.software.version,
        domains: [...options.domains()],
        limits: { ...limits, deliveryWaitMs: options.delivery.deliveryWaitMs, retryPeriodSeconds: options.delivery.retryPeriodSeconds, ...options.live?.limits },
        url: options.publicUrl(),
        peers: (federation?.peers.list() ?? []) as Peer[],
      };
    },
  };
}
