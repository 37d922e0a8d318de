import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestContext } from "./context.js";
import { parseErrorResponse, type Dispatcher, type DispatchResult } from "./dispatcher.js";
import { ErrorCode, RpcError, errorResponse, type JsonRpcId } from "./errors.js";
import { stringifyDispatchResult } from "./raw-json.js";

export interface HttpHandlerOptions<Ctx extends RequestContext> {
  dispatcher: Dispatcher<Ctx>;
  /**
   * Establishes the caller from the `Authorization` header. Called only when some entry of the
   * body needs a token. Throw `RpcError` -32001 to refuse (HTTP 401), -32029 to rate-limit (429).
   * Without it, every method that needs a token is refused.
   */
  authenticate?: (authorization: string | undefined, request: IncomingMessage) => Ctx | Promise<Ctx>;
  /** The context of requests that need no token. Default `{}`. */
  anonymousContext?: (request: IncomingMessage) => Ctx;
  /** Largest accepted body in bytes; more is HTTP 413 / -32005. Default 1 MiB. */
  maxBodyBytes?: number;
  /** The path JSON-RPC is served on. Default `/`. */
  path?: string;
  /** Answer CORS preflights and allow any origin (safe: credentials are bearer tokens, not cookies). Default true. */
  cors?: boolean;
  /** Handles requests not for `path` (e.g. `/health`), and GET/HEAD on it. Default: 404 / 405. */
  fallback?: (request: IncomingMessage, response: ServerResponse) => void;
  /** Sees errors of the HTTP glue itself (answered as HTTP 500 / -32603). */
  onInternalError?: (error: unknown) => void;
  /** Sees every JSON-RPC exchange once its response is written: for access logs and metrics. */
  onExchange?: (exchange: HttpExchange<Ctx>) => void;
}

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

/** HTTP status for an error that fails the whole request (protocol.md §1). */
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

function send(response: ServerResponse, status: number, body: DispatchResult, headers: Record<string, string> = {}): number {
  if (body === undefined) {
    const sent = status === 200 ? 204 : status;
    response.writeHead(sent, headers).end();
    return sent;
  }
  const text = stringifyDispatchResult(body);
  response
    .writeHead(status, { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) })
    .end(text);
  return status;
}

const isJson = (contentType: string | undefined) =>
  contentType !== undefined && contentType.split(";")[0]!.trim().toLowerCase() === "application/json";

/** The id to echo in a request-level error: the single request's own, else null. */
function requestId(body: unknown): JsonRpcId {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

type BodyResult = { ok: true; text: string } | { ok: false; tooLarge: true };

/** Reads the body up to `limit` bytes; past it, drains the rest without buffering and reports it too large. */
function readBody(request: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers["content-length"]);
    let tooLarge = Number.isFinite(declared) && declared > limit;
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
      } else chunks.push(chunk);
    });
    request.on("end", () => resolve(tooLarge ? { ok: false, tooLarge: true } : { ok: true, text: Buffer.concat(chunks).toString("utf8") }));
    request.on("error", reject);
  });
}

/** A `node:http` request listener serving JSON-RPC 2.0 with the given dispatcher. */
export function createHttpHandler<Ctx extends RequestContext>(
  options: HttpHandlerOptions<Ctx>,
): (request: IncomingMessage, response: ServerResponse) => void {
  const { dispatcher } = options;
  const path = options.path ?? "/";
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const cors = options.cors ?? true;
  const anonymous = options.anonymousContext ?? (() => ({}) as Ctx);
  const corsHeaders: Record<string, string> = cors
    ? { "access-control-allow-origin": "*", "access-control-expose-headers": "www-authenticate, retry-after" }
    : {};

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const exchange = await answer(request, response);
    if (exchange) options.onExchange?.(exchange);
  }

  /** Answers the request; returns the exchange when it was JSON-RPC (not a fallback, preflight or 405). */
  async function answer(request: IncomingMessage, response: ServerResponse): Promise<HttpExchange<Ctx> | undefined> {
    const url = request.url ?? "/";
    const pathname = url.split("?", 1)[0];
    if (pathname !== path) {
      if (options.fallback) {
        options.fallback(request, response);
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
        options.fallback(request, response);
        return undefined;
      }
      response.writeHead(405, { ...corsHeaders, allow: "POST", "content-type": "text/plain" }).end("Method Not Allowed: send JSON-RPC with POST\n");
      return undefined;
    }
    if (!isJson(request.headers["content-type"])) {
      request.resume();
      const error = new RpcError(ErrorCode.InvalidRequest, "Invalid Request: Content-Type must be application/json");
      const result = errorResponse(null, error);
      return { request, status: send(response, 415, result, corsHeaders), response: result };
    }
    const read = await readBody(request, maxBodyBytes);
    if (!read.ok) {
      const error = new RpcError(ErrorCode.TooLarge, `Body too large: at most ${maxBodyBytes} bytes`, { limit: maxBodyBytes });
      const result = errorResponse(null, error);
      return { request, status: send(response, 413, result, corsHeaders), response: result };
    }
    let body: unknown;
    try {
      body = JSON.parse(read.text);
    } catch {
      const result = parseErrorResponse();
      return { request, status: send(response, 200, result, corsHeaders), response: result };
    }

    let context: Ctx;
    if (dispatcher.needsAuth(body)) {
      try {
        if (!options.authenticate) throw RpcError.unauthorized("this server accepts no tokens");
        context = await options.authenticate(request.headers.authorization, request);
      } catch (error) {
        if (!(error instanceof RpcError)) throw error;
        const status = statusFor(error.code);
        const headers: Record<string, string> = { ...corsHeaders };
        if (status === 401) headers["www-authenticate"] = 'Bearer realm="neutralService"';
        if (status === 429) headers["retry-after"] = String((error.data as { retryAfter?: number } | undefined)?.retryAfter ?? 1);
        const result = errorResponse(requestId(body), error);
        return { request, status: send(response, status, result, headers), body, response: result };
      }
    } else {
      context = anonymous(request);
    }
    const result = await dispatcher.dispatch(body, context);
    return { request, status: send(response, 200, result, corsHeaders), body, context, response: result };
  }

  return (request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.onInternalError?.(error);
      if (!response.headersSent) {
        send(response, 500, errorResponse(null, new RpcError(ErrorCode.InternalError, "Internal error")));
      } else {
        response.destroy();
      }
    });
  };
}
