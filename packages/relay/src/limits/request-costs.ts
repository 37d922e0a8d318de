import { ErrorCode, RpcError, errorResponse, type Dispatcher, type DispatchResult, type JsonRpcResponse, type RequestContext } from "@neutral/server";
import type { RateLimiter } from "../http/rate-limit.js";

// What a client's rate limit counts (README, "Running a relay"): the HTTP request itself is
// admitted for one unit before its body is read (relay.ts); then every JSON-RPC entry costs one
// unit, and one more when it checks a signature (a secp256k1 recovery, ~100 times the work of a
// cached read's dispatch). A bearer token verified afresh costs one more (relay.ts, authenticate).

/** Methods whose handler recovers a signature. */
const SIGNATURE_METHODS: ReadonlySet<string> = new Set(["neutralService_sendMessage", "neutralService_publishKey"]);

/** Units one batch entry (or a single request) costs. */
export function entryCost(entry: unknown): number {
  const method = typeof entry === "object" && entry !== null ? (entry as { method?: unknown }).method : undefined;
  return typeof method === "string" && SIGNATURE_METHODS.has(method) ? 2 : 1;
}

const clients = new WeakMap<object, string>();

/** Marks a request's context with the client (rate-limit key) it came from. */
export function withClient<Ctx extends object>(context: Ctx, client: string): Ctx {
  clients.set(context, client);
  return context;
}

export function rateLimitedError(retryAfterSeconds: number, message = "Rate limited: slow down"): RpcError {
  return new RpcError(ErrorCode.RateLimited, message, { retryAfter: retryAfterSeconds });
}

/** The answer an entry refused for the rate limit gets: none for a notification, as the dispatcher would. */
function refusedEntry(entry: unknown, error: RpcError): JsonRpcResponse[] {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return [errorResponse(null, error)];
  if (!("id" in entry)) return [];
  const { id } = entry as { id?: unknown };
  return [errorResponse(typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null, error)];
}

const asList = (result: DispatchResult): JsonRpcResponse[] => (result === undefined ? [] : Array.isArray(result) ? result : [result]);

/**
 * Charges every entry of a request to its client's bucket before dispatching it.
 *
 * The request was admitted for one unit (HTTP 429 otherwise), which pays the first entry's first
 * unit; the rest of the first entry's cost is charged even into debt (at most one unit), so a
 * request that is admitted is served. Each further entry of a batch runs only if the bucket holds
 * its cost; from the first that does not, the remaining entries are answered -32029 with
 * `data.retryAfter` (in the HTTP 200 batch response: the entries before it did run), and cost
 * nothing. A batch over `maxBatch` or an empty one is the dispatcher's one error, for one unit.
 */
export function chargeEntries<Ctx extends RequestContext>(dispatcher: Dispatcher<Ctx>, limiter: RateLimiter, maxBatch: number): Dispatcher<Ctx> {
  async function dispatch(body: unknown, context: Ctx): Promise<DispatchResult> {
    const client = clients.get(context);
    if (client === undefined) return dispatcher.dispatch(body, context);
    if (!Array.isArray(body)) {
      limiter.charge(client, entryCost(body) - 1);
      return dispatcher.dispatch(body, context);
    }
    if (body.length === 0 || body.length > maxBatch) return dispatcher.dispatch(body, context);
    limiter.charge(client, entryCost(body[0]) - 1);
    let admitted = 1;
    let retryAfterSeconds = 0;
    for (; admitted < body.length; admitted++) {
      const verdict = limiter.take(client, entryCost(body[admitted]));
      if (!verdict.ok) {
        retryAfterSeconds = verdict.retryAfterSeconds;
        break;
      }
    }
    if (admitted === body.length) return dispatcher.dispatch(body, context);
    const error = rateLimitedError(retryAfterSeconds, "Rate limited: this batch entry and the ones after it were not run");
    const responses = [...asList(await dispatcher.dispatch(body.slice(0, admitted), context)), ...body.slice(admitted).flatMap((entry) => refusedEntry(entry, error))];
    return responses.length > 0 ? responses : undefined;
  }

  return {
    ...dispatcher,
    dispatch,
    async dispatchText(text, context) {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return dispatcher.dispatchText(text, context);
      }
      return dispatch(body, context);
    },
  };
}
