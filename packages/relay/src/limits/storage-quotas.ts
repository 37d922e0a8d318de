import { ErrorCode, RpcError } from "@neutral/server";
import { TokenBuckets, type BucketDimension } from "./token-buckets.js";

/** The storage quotas of a node, as configured (per node); 0 turns one off. */
export interface QuotaFigures {
  periodSeconds: number;
  senderMessages: number;
  senderBytes: number;
  recipientMessages: number;
  recipientBytes: number;
  /** Messages one sender may leave in one recipient's requests folder per period (consent); 0: off. */
  requestMessages?: number;
}

/** The names nodeInfo reports them under, and that a refusal's `data.quota` names. */
export type QuotaName = "senderQuotaMessages" | "senderQuotaBytes" | "recipientQuotaMessages" | "recipientQuotaBytes" | "requestQuotaMessages";

/** Where a message lands in its recipient's mailbox: the inbox (undefined) or the requests folder (consent). */
export type Folder = "requests" | undefined;

export interface StorageQuotas {
  /**
   * Counts one stored message of `bytes` against its sender's and its recipient's quotas, or
   * counts nothing and throws RpcError -32029 with `data: {quota, limit, periodSeconds, retryAfter}`.
   * A recipient's requests folder has quotas of its own, the same size as its inbox's: what
   * strangers send never spends what the senders it allowed may send (issue 33, finding 5).
   */
  take(sender: string, recipient: string, bytes: number, folder?: Folder): void;
  /** Gives back what `take` counted, for a message that was not stored after all (a resend). */
  refund(sender: string, recipient: string, bytes: number, folder?: Folder): void;
  /** Counts one message of `sender` into `recipient`'s requests folder, or throws -32029 naming `requestQuotaMessages`. */
  takeRequest(sender: string, recipient: string): void;
  /** Gives back what `takeRequest` counted. */
  refundRequest(sender: string, recipient: string): void;
  /** The buckets underneath, by name, for sharing consumption between the node's processes. */
  readonly tables: Record<string, TokenBuckets>;
}

export interface StorageQuotaOptions {
  /**
   * How many processes on separate machines enforce these quotas for one node (PostgreSQL replicas
   * behind a balancer): each takes its share. Default 1.
   */
  replicas?: number;
  now?: () => number;
  trackUsage?: boolean;
  maxKeys?: number;
}

interface Side {
  table: TokenBuckets;
  /** Per dimension of `table`: which quota it is, its node-wide limit, and whether it counts bytes. */
  quotas: { name: QuotaName; limit: number; bytes: boolean }[];
}

/**
 * Quotas on what a sender stores and what a recipient's mailbox receives, in messages and in
 * bytes of ciphertext per period: token buckets holding a period's quota and refilling it evenly
 * over the period (so a client may use a whole period's quota at once, then its refill). Undefined
 * when every quota is off.
 */
export function createStorageQuotas(figures: QuotaFigures, options: StorageQuotaOptions = {}): StorageQuotas | undefined {
  const replicas = options.replicas ?? 1;
  const side = (quotas: { name: QuotaName; limit: number; bytes: boolean }[]): Side | undefined => {
    const on = quotas.filter((quota) => quota.limit > 0);
    if (on.length === 0) return undefined;
    const dimensions: BucketDimension[] = on.map(({ limit }) => {
      const capacity = Math.ceil(limit / replicas);
      return { capacity, perSecond: capacity / figures.periodSeconds };
    });
    const table = new TokenBuckets({
      dimensions,
      ...(options.now && { now: options.now }),
      ...(options.trackUsage && { trackUsage: true }),
      ...(options.maxKeys !== undefined && { maxKeys: options.maxKeys }),
    });
    return { table, quotas: on };
  };
  const senders = side([
    { name: "senderQuotaMessages", limit: figures.senderMessages, bytes: false },
    { name: "senderQuotaBytes", limit: figures.senderBytes, bytes: true },
  ]);
  const recipients = side([
    { name: "recipientQuotaMessages", limit: figures.recipientMessages, bytes: false },
    { name: "recipientQuotaBytes", limit: figures.recipientBytes, bytes: true },
  ]);
  const requests = side([{ name: "requestQuotaMessages", limit: figures.requestMessages ?? 0, bytes: false }]);
  if (!senders && !recipients && !requests) return undefined;
  const pair = (sender: string, recipient: string) => `${sender}>${recipient}`;
  /** The recipient quotas' key: the mailbox's inbox, or its requests folder. */
  const mailbox = (recipient: string, folder: Folder) => (folder === "requests" ? `${recipient}/requests` : recipient);

  const costs = ({ quotas }: Side, bytes: number) => quotas.map((quota) => (quota.bytes ? bytes : 1));
  const takeFrom = (side: Side | undefined, key: string, bytes: number) => {
    if (!side) return;
    const verdict = side.table.take(key, costs(side, bytes));
    if (verdict.ok) return;
    const { name, limit } = side.quotas[verdict.dimension]!;
    const unit = name.endsWith("Bytes") ? "bytes" : "messages";
    const who = name.startsWith("sender") ? "sender" : name.startsWith("request") ? "sender into one recipient's requests folder" : "recipient";
    throw new RpcError(ErrorCode.RateLimited, `Storage quota exceeded: at most ${limit} ${unit} per ${figures.periodSeconds} s per ${who} on this node`, {
      quota: name,
      limit,
      periodSeconds: figures.periodSeconds,
      retryAfter: verdict.retryAfterSeconds,
    });
  };

  return {
    tables: { ...(senders && { senders: senders.table }), ...(recipients && { recipients: recipients.table }), ...(requests && { requests: requests.table }) },
    takeRequest(sender, recipient) {
      takeFrom(requests, pair(sender, recipient), 0);
    },
    refundRequest(sender, recipient) {
      requests?.table.refund(pair(sender, recipient), costs(requests, 0));
    },
    take(sender, recipient, bytes, folder) {
      takeFrom(senders, sender, bytes);
      try {
        takeFrom(recipients, mailbox(recipient, folder), bytes);
      } catch (error) {
        senders?.table.refund(sender, costs(senders, bytes));
        throw error;
      }
    },
    refund(sender, recipient, bytes, folder) {
      senders?.table.refund(sender, costs(senders, bytes));
      recipients?.table.refund(mailbox(recipient, folder), costs(recipients, bytes));
    },
  };
}
