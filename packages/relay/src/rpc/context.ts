// What every group of handlers works with (the store, the node's key, the limits, the quotas, the
// federation, the clock), built once per relay, and the checks they share: the one check of a
// record an account signed, and the one reservation of storage quota.
import { ErrorCode, RpcError, type RequestContext, type ResponseBudget } from "@neutral/server";
import { errors } from "@neutral/protocol";
import { arrivalWindowMs, type FederationConfig, type Limits, type LiveConfig } from "../config.js";
import type { Secp256k1 } from "../crypto/secp256k1.js";
import type { Federation } from "../federation/index.js";
import type { StorageQuotas } from "../limits/storage-quotas.js";
import type { Subscriptions } from "../live/subscriptions.js";
import { MailboxHeads } from "../mailbox-log/heads.js";
import type { KeptProofs } from "../mailbox-log/kept-proofs.js";
import type { MessageStore, PageQuery } from "../storage/store.js";

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
export type { Limits } from "../config.js";

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
  /**
   * The last proof written per recently read account, kept while its log does not grow (a process
   * that hears of every commit: `KeptProofs.committed`). Absent: every proof is made anew.
   */
  keptProofs?: KeptProofs;
  /** Told of every message newly stored (not a resend), with its route: the metrics' sends. */
  onStored?: (route: "local" | "outbound" | "inbound") => void;
}

/** The options, with what the handlers work out of them once. */
export interface Rpc extends ServiceOptions {
  now: () => number;
  /** This node's address (its key's). */
  nodeAddress: string;
  /** How long after its timestamp a message may still arrive (config.ts `arrivalWindowMs`). */
  arrivalWindow: number;
  /** The mailbox heads this process signs (the verifiable mailbox), shared by every read that proves itself. */
  heads: MailboxHeads;
}

export function rpcOf(options: ServiceOptions): Rpc {
  const now = options.now ?? Date.now;
  return {
    ...options,
    now,
    nodeAddress: options.curve.addressOf(options.nodeKey),
    arrivalWindow: arrivalWindowMs({ federation: options.delivery, limits: options.limits }),
    heads: new MailboxHeads({ store: options.store, sign: (digest) => options.curve.sign(digest, options.nodeKey), now }),
  };
}

/** 0x + lowercase hex, natively and without copying the bytes. */
export const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`;

/** What bounds one page's work and size: the scan bound of time filters, the answer budget left. */
/**
 * How many of an answer's items (each `itemBytes[i]` long, after `fixedBytes` that come anyway) fit
 * in what is left of the request's answer budget: items go from the end while it is passed, at
 * least one stays (a page is never empty for being large). Answers the count and the bytes then.
 */
export function fitToBudget(itemBytes: readonly number[], fixedBytes: number, budget: ResponseBudget | undefined): { count: number; bytes: number } {
  let bytes = fixedBytes + itemBytes.reduce((sum, n) => sum + n, 0);
  let count = itemBytes.length;
  for (; budget && count > 1 && bytes > budget.remaining; count--) bytes -= itemBytes[count - 1]!;
  return { count, bytes };
}

export const pageBounds = (rpc: Rpc, budget: ResponseBudget | undefined): Pick<PageQuery, "maxScan" | "maxBytes"> => ({
  maxScan: rpc.limits.maxPageScan,
  ...(budget && { maxBytes: Math.max(1, budget.remaining) }),
});

/** `value` lowercased, which must be the caller's address: else -32002 naming `field`. */
export function callersOwn(caller: Caller, value: string, field: string): string {
  const address = value.toLowerCase();
  if (address !== caller.address) throw new RpcError(ErrorCode.Forbidden, `Forbidden: ${field} must be the authenticated address`, { field });
  return address;
}

/** A signed record (key bundle, home record) may be old, but not further in the future than the clock skew. */
export function refuseFuture(rpc: Rpc, field: string, timestamp: number): void {
  const clock = rpc.now();
  if (timestamp - clock > rpc.limits.clockSkewMs) {
    throw new RpcError(errors.TimestampOutOfWindow.code, `Timestamp more than ${rpc.limits.clockSkewMs} ms in the future`, { field, now: clock, clockSkewMs: rpc.limits.clockSkewMs });
  }
}

/** Whether `signature` (0x hex) over `digest` recovers `account`. */
export const recovers = (rpc: Rpc, digest: Uint8Array, signature: string, account: string): boolean =>
  rpc.curve.recoverAddress(digest, Buffer.from(signature.slice(2), "hex")) === account;

/**
 * The one check of a record an account signs and publishes (a key bundle, a home record, a
 * deletion request: `param`): its `account` is the caller's, its `timestamp` not in the future
 * past the clock skew (it may be old: records are portable, and sent again), and its `signature`
 * over `digestOf(account)` recovers the account. In that order: the recovery, the dearest, last.
 * Returns the account, lowercase.
 */
export function checkSignedRecord(
  rpc: Rpc,
  caller: Caller,
  param: string,
  record: { account: string; timestamp: number; signature: string },
  digestOf: (account: string) => Uint8Array,
): string {
  const account = callersOwn(caller, record.account, `${param}.account`);
  refuseFuture(rpc, `${param}.timestamp`, record.timestamp);
  if (!recovers(rpc, digestOf(account), record.signature, account)) {
    throw new RpcError(errors.InvalidSignature.code, `Invalid signature: it does not recover ${param}.account`, { field: `${param}.signature` });
  }
  return account;
}

/** Storage quota held for one message while it is stored: given back if it was not (a resend, a failure). */
export interface Reservation {
  release(): void;
}

/**
 * The one reservation of storage quota: a message from `from` to `to` of `bytes` is counted
 * before it is stored, so that concurrent sends cannot overshoot (-32029 when a quota is spent).
 * For the requests folder, the request quota the consent check took (consent.ts `folderOf`) is
 * part of it: given back if this fails, and with the rest on `release()`.
 */
export function reserveQuota(rpc: Rpc, from: string, to: string, bytes: number, folder?: "requests"): Reservation {
  const { quotas } = rpc;
  try {
    quotas?.take(from, to, bytes, folder);
  } catch (error) {
    if (folder) quotas?.refundRequest(from, to);
    throw error;
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      quotas?.refund(from, to, bytes, folder);
      if (folder) quotas?.refundRequest(from, to);
    },
  };
}

/** Why a message's `expires` is refused (not after its timestamp, or already past), or undefined when it has none or it is fine. */
export function expiryProblem(fields: { timestamp: number; expires?: number | undefined }, now: number): string | undefined {
  if (fields.expires === undefined) return undefined;
  if (fields.expires <= fields.timestamp) return "must be later than message.timestamp";
  if (fields.expires <= now) return "has passed: the message has expired";
  return undefined;
}
