import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestContext } from "./context.js";
import { parseErrorResponse, type Dispatcher, type DispatchResult } from "./dispatcher.js";
import { ErrorCode, RpcError, errorResponse, type JsonRpcId, type WireError } from "./errors.js";
import { stringifyDispatchResult } from "./raw-json.js";
import { sendEventStream, type StreamOptions } from "./stream.js";

export interface HttpHandlerOptions<Ctx extends RequestContext> {
  dispatcher: Dispatcher<Ctx>;
  /**
   * Pre-dispatch hooks, per HTTP request (in the fastify `onRequest` sense): each runs, in order,
   * for every request this handler receives (any path or verb, preflights too) before anything
   * else is done with it: before routing, before the body is read, before `authenticate`.
   * A hook may set response headers (a request id), annotate the context (`request.context`: its
   * fields are in the context every handler of the request sees), or refuse the request by throwing
   * an `RpcError`: the answer is that error with its status (-32001 → 401 with `WWW-Authenticate`,
   * -32029 → 429 with `Retry-After` from `data.retryAfter`, -32005 → 413, …) and the CORS headers,
   * and the body is never read. Per-entry hooks are the dispatcher's (`onEntry`).
   */
  onRequest?: RequestHook<Ctx> | readonly RequestHook<Ctx>[];
  /**
   * Establishes the caller from the `Authorization` header. Called only when some entry of the
   * body needs a token. Throw `RpcError` -32001 to refuse (HTTP 401), -32002 (403), -32029 to
   * rate-limit (429). Without it, every method that needs a token is refused. `body` is the request
   * body as received and as parsed: for credentials that sign the body (a node's signature over
   * it, `"x-requires-auth": "node"`).
   */
  authenticate?: (authorization: string | undefined, request: IncomingMessage, body: RequestBody) => Ctx | Promise<Ctx>;
  /** The context of requests that need no token. Default `{}`. */
  anonymousContext?: (request: IncomingMessage) => Ctx;
  /** Largest accepted body in bytes; more is HTTP 413 / -32005. Default 1 MiB. */
  maxBodyBytes?: number;
  /** The `realm` of the `WWW-Authenticate: Bearer` header a 401 carries. Default `api`. */
  realm?: string;
  /** The path JSON-RPC is served on. Default `/`. */
  path?: string;
  /**
   * Answer CORS preflights and allow any origin (safe: credentials are bearer tokens, not cookies),
   * on every answer, errors included; browsers may read `WWW-Authenticate`, `Retry-After` and the
   * headers named in `exposeHeaders`. Default true.
   */
  cors?: boolean | { exposeHeaders?: readonly string[] };
  /** Handles requests not for `path` (e.g. `/health`), and GET/HEAD on it (e.g. a page saying what the server is). Default: 404 / 405. */
  fallback?: (request: IncomingMessage, response: ServerResponse) => void;
  /** Sees errors of the HTTP glue itself (answered as HTTP 500 / -32603). */
  onInternalError?: (error: unknown) => void;
  /** Sees every JSON-RPC exchange once its response is written: for access logs and metrics. */
  onExchange?: (exchange: HttpExchange<Ctx>) => void;
  /**
   * Bounds the memory this process holds for clients: a request's body from its first byte until
   * its answer is sent, the answer until the kernel has taken it all, and an event stream's events
   * its client has not taken yet. A JSON-RPC request that
   * finds its client (`clientKey`) holding `perClient` bytes or more (or more than half of it with
   * an exchange it has left idle `idleMs`: an answer it stopped taking), or the process holding
   * `total`, or whose body or answer would take either past its bound, is refused with -32029 and
   * `Retry-After`: HTTP 429 for the client's bound, 503 for the process's (the rest of its body is
   * not read, and the connection closes after the answer). An exchange always fits when nothing
   * else is held (by its client, for the client's bound; at all, for the total), so a bound smaller
   * than the largest answer delays that answer rather than blocking it forever. At the total,
   * exchanges waiting on a client idle for `idleMs` (a stalled body, an answer not being read) are
   * dropped, least recently active first, to make room; then event streams that are behind their
   * client (they resume from their last event). Defaults: 32 MiB in total, 8 MiB per client,
   * 2,000 ms; a bound of 0 is off.
   */
  heldBytes?: { total?: number; perClient?: number; idleMs?: number };
  /** The client a request counts against in `heldBytes.perClient`. Default: the socket's remote address. */
  clientKey?: (request: IncomingMessage) => string;
  /**
   * Once every byte of an answer has been handed to its socket, the client has this long to take
   * them; past it the connection is destroyed and what it held is freed. Default 30,000 ms; 0: no bound.
   */
  writeTimeoutMs?: number;
  /**
   * Methods answered as event streams (`x-subscription`): keep-alive interval, the bytes a stream lets
   * wait for its client, how long they may wait before the stream ends as a slow consumer, and the
   * event that says so (see `StreamOptions`).
   */
  streams?: StreamOptions;
}

/** A JSON-RPC request's body, for `authenticate`: the text as received, and the JSON it parsed to. */
export interface RequestBody {
  readonly text: string;
  readonly json: unknown;
}

/** An HTTP request as an {@link RequestHook} sees it. */
export interface IncomingRequest<Ctx extends RequestContext> {
  readonly request: IncomingMessage;
  /** Set headers here (e.g. a request id); the answer is not written yet. */
  readonly response: ServerResponse;
  /** Whether it is a JSON-RPC call (POST on `path`), rather than a preflight, a fallback route or a verb answered 405. */
  readonly rpc: boolean;
  /**
   * Fields for the context of this request's handlers (and of the dispatcher's `onEntry` hooks):
   * merged under what `authenticate` or `anonymousContext` return.
   */
  readonly context: Partial<Ctx>;
}

/** A pre-dispatch hook ({@link HttpHandlerOptions.onRequest}): throw an `RpcError` to refuse the request. */
export type RequestHook<Ctx extends RequestContext> = (request: IncomingRequest<Ctx>) => void | Promise<void>;

/** One JSON-RPC request over HTTP and what it was answered. */
export interface HttpExchange<Ctx extends RequestContext> {
  request: IncomingMessage;
  /** The HTTP status sent. */
  status: number;
  /** The parsed body, when it was JSON. */
  body?: unknown;
  /** The context the handlers saw (absent when the request failed before dispatch, e.g. 401). */
  context?: Ctx;
  /** What was sent back; `undefined` for 204 and for errors outside JSON-RPC. */
  response?: DispatchResult;
}

/** HTTP status for an error that fails the whole request (seeds/README.md §4). */
function statusFor(code: number): number {
  switch (code) {
    case ErrorCode.Unauthorized:
      return 401;
    case ErrorCode.TooLarge:
      return 413;
    case ErrorCode.RateLimited:
      return 429;
    case ErrorCode.Forbidden:
      return 403;
    default:
      return 400;
  }
}

/** Which bound of `heldBytes` a request would pass. */
type Refusal = "client" | "total";

/** What one exchange holds: its body from its first byte until its answer is out, then its answer until the kernel has it. */
class Holder {
  bytes = 0;
  lastActive = 0;
  /** Set while the exchange waits on its client (a body arriving, an answer being taken): dropping it destroys this. */
  waitingOn: ServerResponse | undefined = undefined;
  /** An event stream: when it waits on its client (it is behind), it may be dropped to make room even if not idle (its client resumes). */
  stream = false;

  constructor(
    readonly pool: HeldBytes,
    readonly key: string,
  ) {}

  /** Counts `bytes`, unless that passes a bound (then says which); `force` counts them anyway. */
  take(bytes: number, force = false): Refusal | undefined {
    return this.pool.take(this, bytes, force);
  }

  /** Marks the exchange as waiting on its client (or no longer, with undefined). */
  waitOnClient(response: ServerResponse | undefined): void {
    this.pool.wait(this, response);
  }

  /** Counts exactly `bytes` from now on (more or fewer than before), whatever the bounds: a stream's unsent events. */
  resize(bytes: number): void {
    this.pool.resize(this, bytes);
  }

  /** Gives back everything the exchange holds (idempotent). */
  release(): void {
    this.pool.release(this);
  }
}

/**
 * The bytes a process holds for its clients, in total and per client (`HttpHandlerOptions.heldBytes`).
 * When the total is reached, exchanges that wait on their client and have been idle `idleMs` (a
 * stalled body, an answer not being read) are dropped, least recently active first, to make room,
 * then event streams behind their client: stalled clients cannot keep the others out, however many
 * addresses they come from. Exchanges
 * that never wait (a body in one piece, an answer the kernel takes at once) cost no bookkeeping.
 */
class HeldBytes {
  #held = 0;
  readonly #byClient = new Map<string, number>();
  /** Exchanges waiting on their client, least recently active first (a Set keeps insertion order). */
  readonly #waiting = new Set<Holder>();
  /** The same, by client. */
  readonly #waitingByClient = new Map<string, Set<Holder>>();

  constructor(
    readonly total: number,
    readonly perClient: number,
    readonly idleMs: number,
  ) {}

  holder(key: string): Holder {
    return new Holder(this, key);
  }

  /**
   * The bound `key` is already at, if any: a new request from it is refused before its body is read.
   * A client holding more than half its bound with an exchange it has left idle `idleMs` (an answer
   * it stopped taking, a body it stopped sending) is at its bound too: otherwise each request it
   * pipelines behind would be run in full only for its answer to be refused, and an honest client
   * would wait behind that work.
   */
  full(key: string): Refusal | undefined {
    if (this.perClient > 0) {
      const client = this.#byClient.get(key) ?? 0;
      if (client >= this.perClient) return "client";
      if (client * 2 > this.perClient && this.#leftIdle(key, performance.now())) return "client";
    }
    if (this.total > 0 && this.#held >= this.total && !this.#victim(performance.now())) return "total";
    return undefined;
  }

  take(holder: Holder, bytes: number, force: boolean): Refusal | undefined {
    if (holder.waitingOn) {
      holder.lastActive = performance.now();
      this.#waiting.delete(holder); // now the most recently active
      this.#waiting.add(holder);
    }
    // One exchange always fits when nothing else is held (by its client, or at all).
    if (!force) {
      const client = this.#byClient.get(holder.key) ?? 0;
      if (this.perClient > 0 && client > holder.bytes && client + bytes > this.perClient) return "client";
      if (this.total > 0 && this.#held > holder.bytes && this.#held + bytes > this.total && !this.#makeRoom(bytes, holder)) return "total";
    }
    holder.bytes += bytes;
    this.#add(holder.key, bytes);
    return undefined;
  }

  resize(holder: Holder, bytes: number): void {
    if (bytes < holder.bytes && holder.waitingOn) {
      // The client took some: it is active, not idle.
      holder.lastActive = performance.now();
      this.#waiting.delete(holder);
      this.#waiting.add(holder);
    }
    this.#add(holder.key, bytes - holder.bytes);
    holder.bytes = bytes;
  }

  wait(holder: Holder, response: ServerResponse | undefined): void {
    if (holder.waitingOn) this.#unwait(holder);
    holder.waitingOn = response;
    if (!response) return;
    holder.lastActive = performance.now();
    this.#waiting.add(holder);
    const ofClient = this.#waitingByClient.get(holder.key);
    if (ofClient) ofClient.add(holder);
    else this.#waitingByClient.set(holder.key, new Set([holder]));
  }

  release(holder: Holder): void {
    if (holder.waitingOn) {
      this.#unwait(holder);
      holder.waitingOn = undefined;
    }
    if (holder.bytes === 0) return;
    this.#add(holder.key, -holder.bytes);
    holder.bytes = 0;
  }

  #add(key: string, bytes: number): void {
    this.#held += bytes;
    const left = (this.#byClient.get(key) ?? 0) + bytes;
    if (left > 0) this.#byClient.set(key, left);
    else this.#byClient.delete(key);
  }

  #unwait(holder: Holder): void {
    this.#waiting.delete(holder);
    const ofClient = this.#waitingByClient.get(holder.key);
    if (ofClient?.delete(holder) && ofClient.size === 0) this.#waitingByClient.delete(holder.key);
  }

  /** Whether `key` has an exchange (not an event stream) waiting on it, idle `idleMs`. */
  #leftIdle(key: string, now: number): boolean {
    for (const holder of this.#waitingByClient.get(key) ?? []) if (!holder.stream && now - holder.lastActive >= this.idleMs) return true;
    return false;
  }

  #idlest(now: number, except?: Holder): Holder | undefined {
    for (const holder of this.#waiting) {
      if (holder === except) continue;
      return now - holder.lastActive >= this.idleMs ? holder : undefined;
    }
    return undefined;
  }

  /**
   * What to drop to make room: the least recently active exchange waiting on its client, if it has
   * been idle `idleMs`; else the least recently active event stream that is behind its client. A
   * stream resumes from its last event; a request refused instead would be an honest client's loss.
   */
  #victim(now: number, except?: Holder): Holder | undefined {
    const idle = this.#idlest(now, except);
    if (idle) return idle;
    for (const holder of this.#waiting) if (holder.stream && holder !== except) return holder;
    return undefined;
  }

  /** Drops waiting exchanges (`#victim`) until `bytes` more fit beside `self`; false if they cannot be made to. */
  #makeRoom(bytes: number, self: Holder): boolean {
    const now = performance.now();
    while (this.#held > self.bytes && this.#held + bytes > this.total) {
      const victim = this.#victim(now, self);
      if (!victim) return false;
      const response = victim.waitingOn!;
      this.release(victim);
      response.destroy(); // its client is stalled: no answer, the connection goes
    }
    return true;
  }
}

const REFUSAL_STATUS: Record<Refusal, number> = { client: 429, total: 503 };

/** The answer to a request refused for `heldBytes`: -32029 with Retry-After (429 for the client's bound, 503 for the process's). */
function refusalError(refusal: Refusal): RpcError {
  return refusal === "client"
    ? new RpcError(ErrorCode.RateLimited, "Rate limited: this client's requests and unread answers hold too much memory; read your answers, then retry", {
        retryAfter: 1,
        reason: "client memory",
      })
    : new RpcError(ErrorCode.RateLimited, "Server busy: requests and unread answers hold too much memory; retry later", { retryAfter: 1, reason: "server memory" });
}

function writeJson(response: ServerResponse, status: number, text: string, bytes: number, headers: Record<string, string>): void {
  response.writeHead(status, { ...headers, "content-type": "application/json", "content-length": String(bytes) }).end(text);
}

/** Writes the response; a JSON body counts against `holder` (when given) until the exchange ends. */
function send(response: ServerResponse, status: number, body: DispatchResult, headers: Record<string, string> = {}, holder?: Holder): number {
  if (body === undefined) {
    const sent = status === 200 ? 204 : status;
    response.writeHead(sent, headers).end();
    return sent;
  }
  const text = stringifyDispatchResult(body);
  const bytes = Buffer.byteLength(text);
  holder?.take(bytes, true);
  writeJson(response, status, text, bytes, headers);
  return status;
}

/**
 * Sends what the dispatcher answered, unless it does not fit `holder`'s bounds: then the refusal
 * goes instead. The work is done by then, but the bound holds however many requests were let in
 * while there was room.
 */
function sendAnswer(response: ServerResponse, result: DispatchResult, headers: Record<string, string>, holder: Holder): { status: number; sent: DispatchResult } {
  if (result === undefined) return { status: send(response, 200, undefined, headers), sent: undefined };
  const text = stringifyDispatchResult(result);
  const bytes = Buffer.byteLength(text);
  const refusal = holder.take(bytes);
  if (refusal === undefined) {
    writeJson(response, 200, text, bytes, headers);
    return { status: 200, sent: result };
  }
  const refused = errorResponse(null, refusalError(refusal));
  return { status: send(response, REFUSAL_STATUS[refusal], refused, { ...headers, "retry-after": "1" }, holder), sent: refused };
}

/** Whether the kernel has taken all of an ended response (then this process holds none of it). */
const flushed = (response: ServerResponse) => response.socket !== null && response.socket.writableLength === 0 && response.writableLength === 0;

/**
 * Destroys the connection of an answer its client has not taken `ms` after it was all handed to its
 * socket (at once for an answer already there, else once it is: one queued behind another).
 */
function abandonUnread(response: ServerResponse, ms: number, handedOver: boolean): void {
  const start = () => {
    const timer = setTimeout(() => response.destroy(), ms);
    timer.unref();
    response.once("close", () => clearTimeout(timer));
  };
  if (handedOver) start();
  else response.once("prefinish", start);
}

/** Whether an `Accept` header takes `text/event-stream` (or anything: `*\/*` does not count, a stream must be asked for). */
const acceptsEventStream = (accept: string | undefined) =>
  accept !== undefined && accept.split(",").some((type) => type.split(";")[0]!.trim().toLowerCase() === "text/event-stream");

const isJson = (contentType: string | undefined) =>
  contentType !== undefined && contentType.split(";")[0]!.trim().toLowerCase() === "application/json";

/** The id to echo in a request-level error: the single request's own, else null. */
function requestId(body: unknown): JsonRpcId {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

type BodyResult = { ok: true; text: string } | { ok: false; tooLarge: true } | { ok: false; refused: Refusal } | { ok: false; aborted: true };

/**
 * Reads the body up to `limit` bytes, each chunk counted in `holder`. Past the limit, drains the rest
 * without keeping it and reports it too large. Once a chunk does not fit the holder's bounds (or at
 * once when `refused` is given: the client was at a bound before the first byte), stops reading and
 * reports the refusal: the rest of the body is never read, the connection closes after the answer.
 * A body cut off by its client or by the server's request timeout is reported aborted, not thrown.
 */
function readBody(request: IncomingMessage, response: ServerResponse, limit: number, holder: Holder, refused?: Refusal): Promise<BodyResult> {
  return new Promise((resolve) => {
    const declared = Number(request.headers["content-length"]);
    let tooLarge = Number.isFinite(declared) && declared > limit;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyResult) => {
      if (settled) return;
      settled = true;
      holder.waitOnClient(undefined);
      if (!result.ok) holder.release();
      resolve(result);
    };
    const refuse = (refusal: Refusal) => {
      chunks.length = 0;
      request.pause(); // reading what would only be thrown away costs as much as keeping it
      settle({ ok: false, refused: refusal });
    };
    if (refused !== undefined && !tooLarge) return refuse(refused);
    request.on("data", (chunk: Buffer) => {
      if (tooLarge || settled) return;
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        holder.release();
        return;
      }
      const refusal = holder.take(chunk.length);
      if (refusal !== undefined) return refuse(refusal);
      chunks.push(chunk);
      // More to come: until it does, the exchange waits on its client.
      if (!holder.waitingOn && !(size >= declared)) holder.waitOnClient(response);
    });
    request.on("end", () => settle(tooLarge ? { ok: false, tooLarge: true } : { ok: true, text: Buffer.concat(chunks).toString("utf8") }));
    request.on("error", () => settle({ ok: false, aborted: true }));
    request.on("close", () => settle({ ok: false, aborted: true }));
  });
}

/** A `node:http` request listener serving JSON-RPC 2.0 with the given dispatcher. */
export function createHttpHandler<Ctx extends RequestContext>(
  options: HttpHandlerOptions<Ctx>,
): (request: IncomingMessage, response: ServerResponse) => void {
  const { dispatcher } = options;
  const path = options.path ?? "/";
  const realm = (options.realm ?? "api").replace(/["\\]/g, "");
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const cors = options.cors ?? true;
  const anonymous = options.anonymousContext ?? (() => ({}) as Ctx);
  const heldBytes = new HeldBytes(options.heldBytes?.total ?? 32 * 1024 * 1024, options.heldBytes?.perClient ?? 8 * 1024 * 1024, options.heldBytes?.idleMs ?? 2000);
  const clientKey = options.clientKey ?? ((request: IncomingMessage) => request.socket.remoteAddress ?? "");
  const writeTimeoutMs = options.writeTimeoutMs ?? 30_000;
  const exposed = new Set(["www-authenticate", "retry-after", ...(typeof cors === "object" ? (cors.exposeHeaders ?? []) : [])].map((name) => name.toLowerCase()));
  const corsHeaders: Record<string, string> = cors ? { "access-control-allow-origin": "*", "access-control-expose-headers": [...exposed].join(", ") } : {};
  const requestHooks: readonly RequestHook<Ctx>[] = options.onRequest === undefined ? [] : typeof options.onRequest === "function" ? [options.onRequest] : options.onRequest;
  // GET and HEAD on `path` are the fallback's (a page saying what the server is, a redirect to docs).
  const allow = options.fallback ? "GET, HEAD, POST" : "POST";

  /** The headers of an answer that refuses a whole request: CORS, and what the status calls for. */
  function refusalHeaders(status: number, error: Pick<WireError, "data">): Record<string, string> {
    const headers: Record<string, string> = { ...corsHeaders };
    if (status === 401) headers["www-authenticate"] = `Bearer realm="${realm}"`;
    if (status === 429 || status === 503) headers["retry-after"] = String((error.data as { retryAfter?: number } | undefined)?.retryAfter ?? 1);
    return headers;
  }

  /** Runs the `onRequest` hooks; answers the fields they put in the context, or the refusal one of them threw. */
  async function runRequestHooks(request: IncomingMessage, response: ServerResponse, rpc: boolean): Promise<{ context: Partial<Ctx> } | { refused: RpcError }> {
    const incoming: IncomingRequest<Ctx> = { request, response, rpc, context: {} };
    try {
      for (const hook of requestHooks) {
        const pending = hook(incoming);
        if (pending) await pending; // a synchronous hook costs no extra turn
      }
    } catch (error) {
      if (error instanceof RpcError) return { refused: error };
      throw error;
    }
    return { context: incoming.context };
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const held: { holder?: Holder } = {};
    const exchange = await answer(request, response, held);
    if (!exchange) return;
    // An answer the kernel did not take at once waits on its client, within the write timeout.
    if (!flushed(response)) {
      held.holder?.waitOnClient(response);
      if (writeTimeoutMs > 0) abandonUnread(response, writeTimeoutMs, response.socket !== null);
    }
    options.onExchange?.(exchange);
  }

  /** Hands the request to the fallback, whose answer is bound by the write timeout too. */
  function fallback(request: IncomingMessage, response: ServerResponse, route: (request: IncomingMessage, response: ServerResponse) => void): void {
    if (writeTimeoutMs > 0) abandonUnread(response, writeTimeoutMs, false);
    route(request, response);
  }

  /** Answers the request; returns the exchange when it was JSON-RPC (not a fallback, preflight or 405). */
  async function answer(request: IncomingMessage, response: ServerResponse, held: { holder?: Holder }): Promise<HttpExchange<Ctx> | undefined> {
    const url = request.url ?? "/";
    const pathname = url.split("?", 1)[0];
    const rpc = pathname === path && request.method === "POST";
    let annotations: Partial<Ctx> | undefined;
    if (requestHooks.length > 0) {
      const verdict = await runRequestHooks(request, response, rpc);
      if ("refused" in verdict) {
        request.resume(); // its body is not wanted
        const status = statusFor(verdict.refused.code);
        const result = errorResponse(null, verdict.refused);
        const sent = send(response, status, result, refusalHeaders(status, verdict.refused));
        return rpc ? { request, status: sent, response: result } : undefined;
      }
      annotations = verdict.context;
    }
    if (pathname !== path) {
      if (options.fallback) {
        fallback(request, response, options.fallback);
        return undefined;
      }
      response.writeHead(404, { "content-type": "text/plain" }).end("Not Found\n");
      return undefined;
    }
    if (cors && request.method === "OPTIONS") {
      response
        .writeHead(204, {
          ...corsHeaders,
          "access-control-allow-methods": "POST, OPTIONS",
          "access-control-allow-headers": "authorization, content-type",
          "access-control-max-age": "600",
        })
        .end();
      return undefined;
    }
    if (request.method !== "POST") {
      // A browser's GET / may deserve a page (e.g. a redirect to the docs); other verbs are wrong here.
      if (options.fallback && (request.method === "GET" || request.method === "HEAD")) {
        fallback(request, response, options.fallback);
        return undefined;
      }
      response.writeHead(405, { ...corsHeaders, allow, "content-type": "text/plain" }).end("Method Not Allowed: send JSON-RPC with POST\n");
      return undefined;
    }
    if (!isJson(request.headers["content-type"])) {
      request.resume();
      const error = new RpcError(ErrorCode.InvalidRequest, "Invalid Request: Content-Type must be application/json");
      const result = errorResponse(null, error);
      return { request, status: send(response, 415, result, corsHeaders), response: result };
    }
    // What this exchange holds (its body, then its answer) is given back once it is over, however it ends.
    const key = clientKey(request);
    const holder = (held.holder = heldBytes.holder(key));
    // A response emits "close" when it is done, or its connection is: also one queued behind
    // another on a pipelining connection (tested).
    response.once("close", () => holder.release());
    const read = await readBody(request, response, maxBodyBytes, holder, heldBytes.full(key));
    if (!read.ok) {
      if ("aborted" in read) return undefined; // nobody left to answer
      if ("refused" in read) {
        // The rest of its body stays unread: the connection cannot carry another request.
        const result = errorResponse(null, refusalError(read.refused));
        const headers = { ...corsHeaders, "retry-after": "1", connection: "close" };
        return { request, status: send(response, REFUSAL_STATUS[read.refused], result, headers, holder), response: result };
      }
      const error = new RpcError(ErrorCode.TooLarge, `Body too large: at most ${maxBodyBytes} bytes`, { limit: maxBodyBytes });
      const result = errorResponse(null, error);
      return { request, status: send(response, 413, result, corsHeaders, holder), response: result };
    }
    let body: unknown;
    try {
      body = JSON.parse(read.text);
    } catch {
      const result = parseErrorResponse();
      return { request, status: send(response, 200, result, corsHeaders, holder), response: result };
    }

    const stream = dispatcher.isStream(body);
    if (stream && !acceptsEventStream(request.headers.accept)) {
      const method = (body as { method: string }).method;
      const error = new RpcError(ErrorCode.InvalidRequest, `Invalid Request: ${method} answers with an event stream: send Accept: text/event-stream`);
      const result = errorResponse(requestId(body), error);
      return { request, status: send(response, 406, result, corsHeaders, holder), body, response: result };
    }

    let context: Ctx;
    if (dispatcher.needsAuth(body)) {
      try {
        if (!options.authenticate) throw RpcError.unauthorized("this server accepts no tokens");
        context = await options.authenticate(request.headers.authorization, request, { text: read.text, json: body });
      } catch (error) {
        if (!(error instanceof RpcError)) throw error;
        const status = statusFor(error.code);
        const result = errorResponse(requestId(body), error);
        return { request, status: send(response, status, result, refusalHeaders(status, error), holder), body, response: result };
      }
    } else {
      context = anonymous(request);
    }
    if (annotations) context = { ...annotations, ...context };
    if (stream) return answerStream(request, response, body, context, holder);
    const { status, sent } = sendAnswer(response, await dispatcher.dispatch(body, context), corsHeaders, holder);
    return { request, status, body, context, response: sent };
  }

  /** Opens the stream `body` asks for and sends it until it ends; or answers the error that refuses it. */
  async function answerStream(request: IncomingMessage, response: ServerResponse, body: unknown, context: Ctx, holder: Holder): Promise<HttpExchange<Ctx>> {
    const abort = new AbortController();
    response.once("close", () => abort.abort());
    const lastEventId = request.headers["last-event-id"];
    const opened = await dispatcher.openStream(body, context, { signal: abort.signal, ...(typeof lastEventId === "string" && { lastEventId }) });
    if ("error" in opened) {
      const error = opened.error;
      // Refused before it started: answered as the call would be, with 429 and Retry-After for
      // -32029, and the connection closed: a client refused a stream must not keep its place idle.
      const wire = "error" in error ? error.error : undefined;
      const status = wire?.code === ErrorCode.RateLimited ? 429 : 200;
      const headers = { ...(status === 429 ? refusalHeaders(status, wire!) : corsHeaders), connection: "close" };
      return { request, status: send(response, status, error, headers, holder), body, context, response: error };
    }
    // The body is parsed; from now on the stream's unsent events are what it holds (bounded by
    // streams.bufferBytes and one event), counted like answers: a stalled stream may be dropped to make room.
    holder.resize(0);
    holder.stream = true;
    await sendEventStream(response, opened.events, abort, corsHeaders, options.streams ?? {}, (error) => options.onInternalError?.(error), {
      resize: (bytes) => holder.resize(bytes),
      waiting: (on) => holder.waitOnClient(on ? response : undefined),
    });
    return { request, status: 200, body, context };
  }

  return (request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.onInternalError?.(error);
      if (!response.headersSent) {
        send(response, 500, errorResponse(null, new RpcError(ErrorCode.InternalError, "Internal error")), corsHeaders);
      } else {
        response.destroy();
      }
    });
  };
}
