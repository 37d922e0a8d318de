import { budgetSpentError, ErrorCode, RpcError, rawJson, type Handlers, type InboxFilter, type KeyBundle, type NodeInfo, type RequestContext, type ResponseBudget } from "@neutral/server";
import { keyBundleDigest, messageDigest, receiptDigest } from "./crypto/eip712.js";
import { isXOnlyPublicKey, type Secp256k1 } from "./crypto/secp256k1.js";
import type { Limits } from "./config.js";
import type { StorageQuotas } from "./limits/storage-quotas.js";
import type { AcceptedMessage } from "./message.js";
import { cursorValue, fitPageBytes, type MailboxRange, type MessageStore, type Page, type PageQuery, type StoredMessage } from "./storage/store.js";

/** The caller a verified token names. */
export interface Caller {
  /** Lowercase 0x address. */
  address: string;
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
}

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`;

/** The ranges of a mailbox that `getInbox`'s filter selects (seeds/README.md §5). */
function inboxRanges(owner: string, filter: InboxFilter): MailboxRange[] {
  const direction = filter.direction ?? "received";
  const from = filter.from?.toLowerCase();
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
      const ranges: MailboxRange[] = [
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
        throw new RpcError(ErrorCode.TimestampOutOfWindow, `Timestamp outside the accepted window of ±${limits.clockSkewMs} ms`, {
          field: "message.timestamp",
          now: clock,
          clockSkewMs: limits.clockSkewMs,
        });
      }
      const fields = { from, to: signed.to.toLowerCase(), message: signed.message.toLowerCase(), timestamp: signed.timestamp };
      const digest = messageDigest(fields);
      const signature = Buffer.from(signed.signature.slice(2), "hex");
      if (curve.recoverAddress(digest, signature) !== from) {
        throw new RpcError(ErrorCode.InvalidSignature, "Invalid signature: it does not recover message.from", { field: "message.signature" });
      }
      // Counted before it is stored, given back if it was not (a resend): concurrent sends cannot overshoot.
      quotas?.take(from, fields.to, bytes);
      let stored: StoredMessage;
      try {
        const accepted: AcceptedMessage = {
          ...fields,
          signature: signed.signature.toLowerCase(),
          senderReceipt: hex(curve.sign(receiptDigest(digest, "sender"), nodeKey)),
          receiverReceipt: hex(curve.sign(receiptDigest(digest, "receiver"), nodeKey)),
          digest,
        };
        const result = await store.append(accepted);
        if (!result.created) quotas?.refund(from, fields.to, bytes);
        stored = result.stored;
      } catch (error) {
        quotas?.refund(from, fields.to, bytes);
        throw error;
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
      const clock = now();
      // A bundle may be old (it is portable: re-published elsewhere, or later); only the future is bounded.
      if (bundle.timestamp - clock > limits.clockSkewMs) {
        throw new RpcError(ErrorCode.TimestampOutOfWindow, `Timestamp more than ${limits.clockSkewMs} ms in the future`, {
          field: "bundle.timestamp",
          now: clock,
          clockSkewMs: limits.clockSkewMs,
        });
      }
      const fields = { account, key, timestamp: bundle.timestamp };
      const signature = Buffer.from(bundle.signature.slice(2), "hex");
      if (curve.recoverAddress(keyBundleDigest(fields), signature) !== account) {
        throw new RpcError(ErrorCode.InvalidSignature, "Invalid signature: it does not recover bundle.account", { field: "bundle.signature" });
      }
      return store.putKeyBundle({ ...fields, signature: bundle.signature.toLowerCase() });
    },

    async neutralService_getKey({ account }): Promise<KeyBundle | null> {
      return (await store.getKeyBundle(account.toLowerCase())) ?? null;
    },

    neutralService_nodeInfo(): NodeInfo {
      return {
        address: nodeAddress,
        software: options.software.name,
        version: options.software.version,
        domains: [...options.domains()],
        limits: { ...limits },
      };
    },
  };
}
