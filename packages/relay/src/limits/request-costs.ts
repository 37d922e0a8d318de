import type { IncomingMessage } from "node:http";
import { ErrorCode, RpcError, type EntryHook, type RequestContext, type RequestHook } from "@neutral/server";
import type { RateLimiter } from "../http/rate-limit.js";

// What a client's rate limit counts (README, "Running a relay"): the HTTP request itself is
// admitted for one unit before its body is read (`admitRequest`, the HTTP stub's `onRequest`
// hook); then every JSON-RPC entry costs one unit, and one more when it checks a signature (a
// secp256k1 recovery, ~100 times the work of a cached read's dispatch): `chargeEntry`, the
// dispatcher's `onEntry` hook. A bearer token verified afresh costs one more (node-limits.ts).

/** Methods whose handler recovers a signature. */
const SIGNATURE_METHODS: ReadonlySet<string> = new Set(["neutralService_sendMessage", "neutralService_publishKey", "neutralService_publishHome", "neutralService_deleteMessages"]);

/** The most messages one `importMessages` takes (openrpc.json): what its cost counts at most. */
const MAX_IMPORT = 100;
/** The most messages one `getProof` proves (openrpc.json). */
const MAX_PROVEN = 100;

/** How many messages an `importMessages` entry carries (by position or by name), at most {@link MAX_IMPORT}; 0 when malformed. */
const importedCount = (params: unknown): number => Math.min(arrayParam(params, 0, "messages").length, MAX_IMPORT);

/**
 * Units one batch entry (or a single request) costs. An import costs one more per message: it
 * checks three signatures of each (the sender's and both receipts), and one more for a former
 * home's head (its signature). A read of the mailbox log
 * (getProof, getLog) costs 2, as a signature does (the node may sign a head), getProof one more for
 * each ten messages it proves, getLog with its messages one more for each hundred positions it asks
 * for (a hundred copies read, as a page of getInbox).
 */
export function entryCost(entry: unknown): number {
  const { method, params } = typeof entry === "object" && entry !== null ? (entry as { method?: unknown; params?: unknown }) : {};
  if (method === "neutralService_importMessages") return 1 + importedCount(params) + (scalarParam(params, 1, "head") === undefined ? 0 : 1);
  // A head may have to be signed, and each ten proofs read about as much as a page.
  if (method === "neutralService_getProof") return 2 + Math.ceil(Math.min(MAX_PROVEN, arrayParam(params, 0, "ids").length) / 10);
  if (method === "neutralService_getLog") return 2 + (scalarParam(params, 2, "messages") === true ? Math.ceil(logLimit(params) / 100) : 0);
  // A signature per message (this node's, or a peer's it asks for), as getProof's proofs.
  if (method === "neutralService_proveDelivery") return 2 + Math.ceil(Math.min(MAX_PROVEN, arrayParam(params, 0, "ids").length) / 10);
  return typeof method === "string" && SIGNATURE_METHODS.has(method) ? 2 : 1;
}

/** The param `name` (position `index`) of an entry's params, by position or by name. */
function scalarParam(params: unknown, index: number, name: string): unknown {
  return Array.isArray(params) ? params[index] : typeof params === "object" && params !== null ? (params as Record<string, unknown>)[name] : undefined;
}

/** The positions a getLog entry asks for: its `limit` (default 100), counted up to the 1,000 it takes. */
function logLimit(params: unknown): number {
  const limit = scalarParam(params, 1, "limit");
  return typeof limit === "number" && Number.isFinite(limit) ? Math.max(1, Math.min(1000, Math.trunc(limit))) : 100;
}

/** The most entries of a node-to-node array param counted (openrpc.json: 100 messages, 100 home records, 100 accounts). */
const MAX_NODE_ITEMS = 100;

/** The array param `name` (position `index`) of an entry's params, by position or by name; [] when absent or malformed. */
function arrayParam(params: unknown, index: number, name: string): unknown[] {
  const value = scalarParam(params, index, name);
  return Array.isArray(value) ? value : [];
}

/**
 * Units a peer's node-to-node call costs its peer budget (`--peer-rate-limit`), by the work it asks
 * for: a delivery checks two signatures per message (the sender's, the sender receipt) and one per
 * home record it carries; a lookup reads two rows per account and checks one signature per home
 * record; a proof of positions signs one per message. One unit for the call itself. (Issue 33, finding 7: a delivery of 100 messages and 100
 * new records cost as much as a nodeInfo.)
 */
export function peerEntryCost(entry: unknown): number {
  const { method, params } = typeof entry === "object" && entry !== null ? (entry as { method?: unknown; params?: unknown }) : {};
  const count = (index: number, name: string) => Math.min(MAX_NODE_ITEMS, arrayParam(params, index, name).length);
  if (method === "neutralService_deliver") return 1 + 2 * count(0, "messages") + count(1, "homes");
  if (method === "neutralService_lookup") return 1 + Math.ceil(count(0, "accounts") / 10) + count(1, "homes");
  // A signature per message found.
  if (method === "neutralService_provePositions") return 1 + count(0, "messages");
  return 1;
}

/** The context field the rate limit charges: the client (rate-limit key) a request came from. */
export interface ClientContext extends RequestContext {
  /** Set by {@link admitRequest} on every JSON-RPC request it admits. */
  client?: string;
}

export function rateLimitedError(retryAfterSeconds: number, message = "Rate limited: slow down"): RpcError {
  return new RpcError(ErrorCode.RateLimited, message, { retryAfter: retryAfterSeconds });
}

/**
 * The `onRequest` hook: admits a JSON-RPC request for one unit of its client's bucket before its
 * body is read, and notes the client in the context; with none left, the request is refused whole
 * (HTTP 429, `Retry-After`, -32029 `data.retryAfter`). Other requests (the docs, /health) are free.
 */
export function admitRequest<Ctx extends ClientContext>(limiter: RateLimiter, clientOf: (request: IncomingMessage) => string): RequestHook<Ctx> {
  return ({ request, rpc, context }) => {
    if (!rpc) return;
    const client = clientOf(request);
    const verdict = limiter.take(client);
    if (!verdict.ok) throw rateLimitedError(verdict.retryAfterSeconds);
    context.client = client;
  };
}

/**
 * The `onEntry` hook: charges every entry of a request to its client's bucket before any runs.
 *
 * The request was admitted for one unit ({@link admitRequest}), which pays the first entry's first
 * unit; the rest of the first entry's cost is charged even into debt (at most one unit, or one per message of an import), so a
 * request that is admitted is served. Each further entry of a batch runs only if the bucket holds
 * its cost; from the first that does not, the remaining entries are answered -32029 with
 * `data.retryAfter` (in the HTTP 200 batch response: the entries before it did run), and cost
 * nothing. A batch over `maxBatch` or an empty one is the dispatcher's one error, for one unit
 * (the dispatcher calls no entry hook for it). A context without a client is not charged.
 */
export function chargeEntry<Ctx extends ClientContext>(limiter: RateLimiter): EntryHook<Ctx> {
  // The dispatcher calls the hooks for all entries of one request in a row, synchronously, with
  // that request's context: what was refused so far belongs to the request of `current`.
  let current: object | undefined;
  let refusal: RpcError | undefined;
  return (entry, context) => {
    const { client } = context;
    if (client === undefined) return;
    if (context !== current || entry.index === 0) {
      current = context;
      refusal = undefined;
    }
    if (entry.index === 0) {
      limiter.charge(client, entryCost(entry.raw) - 1);
      return;
    }
    if (refusal) throw refusal;
    const verdict = limiter.take(client, entryCost(entry.raw));
    if (verdict.ok) return;
    refusal = rateLimitedError(verdict.retryAfterSeconds, "Rate limited: this batch entry and the ones after it were not run");
    throw refusal;
  };
}
