// The whole runtime of the typed client: JSON-RPC 2.0 over fetch. Generated methods build
// `RpcRequest`s; this module sends them. Kept tiny on purpose (budget: 5 KB min+gzip).
import { readSse } from "@neutral/protocol";

/** A request descriptor. `R` is the result type the caller gets back (after unwrapping). */
export interface RpcRequest<R = unknown> {
  readonly method: string;
  readonly params?: readonly unknown[] | Readonly<Record<string, unknown>>;
  /** The result is an array of exactly one payload; return the payload. */
  readonly unwrap?: boolean;
  /** Type-only marker carrying `R`; never set at run time. */
  readonly __result?: R;
}

export type ResultOf<Q> = Q extends RpcRequest<infer R> ? R : never;

/** One entry of a batch: its value, or the error the server answered for it. */
export type Settled<R> = { readonly ok: true; readonly value: R } | { readonly ok: false; readonly error: RpcError };

type HeadersSource = HeadersInit | (() => HeadersInit | Promise<HeadersInit>);

export interface RpcClientOptions {
  /** The node's JSON-RPC endpoint, e.g. `http://127.0.0.1:8645`. */
  url: string | URL;
  /**
   * The bearer token, or a function returning it (called before every HTTP request, so it can
   * renew). `undefined` sends no Authorization header.
   */
  auth?: string | (() => string | undefined | Promise<string | undefined>);
  /** Extra headers for every request. */
  headers?: HeadersSource;
  /** Defaults to the global `fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Default per-call timeout in ms; 0 disables. Default 30 000. */
  timeoutMs?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's timeout for this call; 0 disables. */
  timeoutMs?: number;
  headers?: HeadersInit;
}

/** One event of a stream (a method with `x-subscription`): a JSON-RPC notification, with its SSE id when it has one (the resume cursor). */
export type StreamEvent<N extends { method: string; params: unknown } = { method: string; params: unknown }> = N & { readonly id?: string };

export interface StreamOptions {
  /** Aborting it closes the stream (the iteration ends without an error). */
  signal?: AbortSignal;
  /** Sent as `Last-Event-ID`: resume after this event id. */
  lastEventId?: string;
  /** How long to wait for the stream to open, ms (not for events); 0 disables. Default: the client's timeout. */
  timeoutMs?: number;
  /**
   * Once open, a stream that sends nothing for this long (no event, no keep-alive comment) counts as
   * cut: the iteration throws `RpcTransportError`. Default: none (a connection that dies silently is
   * only noticed by the OS).
   */
  idleTimeoutMs?: number;
  headers?: HeadersInit;
}

export interface RpcClient {
  request<R>(request: RpcRequest<R>, options?: CallOptions): Promise<R>;
  /**
   * Calls a method answered as an event stream (`text/event-stream`) and yields its notifications as
   * they arrive. Throws `RpcError` when the node refuses to open it, `RpcTransportError` when the
   * connection fails or drops mid-stream; ends when the node ends the stream or `signal` aborts.
   */
  stream<N extends { method: string; params: unknown }>(request: RpcRequest<unknown>, options?: StreamOptions): AsyncIterable<StreamEvent<N>>;
  /** Sends a notification: no `id`, no response expected. */
  notify(request: RpcRequest<unknown>, options?: CallOptions): Promise<void>;
  /** Sends several requests in one HTTP request; each settles on its own. */
  batch<const Q extends readonly RpcRequest<unknown>[]>(
    requests: Q,
    options?: CallOptions,
  ): Promise<{ -readonly [K in keyof Q]: Settled<ResultOf<Q[K]>> }>;
}

/** An error answered by the server (or the HTTP layer), carrying the JSON-RPC `code`, `message` and `data`. */
export class RpcError extends Error {
  override readonly name = "RpcError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    /** HTTP status of the response that carried it. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The request never got a JSON-RPC answer: network failure, timeout, abort, or a response that is not JSON-RPC. */
export class RpcTransportError extends Error {
  override readonly name = "RpcTransportError";
  constructor(
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

interface WireError {
  code: number;
  message: string;
  data?: unknown;
}
interface WireResponse {
  id?: number | string | null;
  result?: unknown;
  error?: WireError;
}

/** Positional params from named ones, in declared order, with trailing absent ones dropped (so `{}` sends `[]`). */
export function positionalParams(params: object, names: readonly string[]): unknown[] {
  const values = names.map((name) => (params as Record<string, unknown>)[name]);
  while (values.length > 0 && values[values.length - 1] === undefined) values.pop();
  return values.map((value) => (value === undefined ? null : value));
}

/** By-name params (a method with `paramStructure: "by-name"`): the declared ones that are present. */
export function namedParams(params: object, names: readonly string[]): Record<string, unknown> {
  const named: Record<string, unknown> = {};
  for (const name of names) {
    const value = (params as Record<string, unknown>)[name];
    if (value !== undefined) named[name] = value;
  }
  return named;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

function toRpcError(error: unknown, status: number): RpcError {
  const e = isObject(error) ? error : {};
  return new RpcError(
    typeof e.code === "number" ? e.code : -32603,
    typeof e.message === "string" ? e.message : "Malformed error",
    e.data,
    status,
  );
}

function settle(request: RpcRequest<unknown>, response: WireResponse, status: number): Settled<unknown> {
  if (response.error !== undefined) return { ok: false, error: toRpcError(response.error, status) };
  if (!("result" in response)) return { ok: false, error: new RpcError(-32603, "Response has neither result nor error", undefined, status) };
  if (!request.unwrap) return { ok: true, value: response.result };
  const result = response.result;
  if (Array.isArray(result) && result.length === 1) return { ok: true, value: result[0] };
  return { ok: false, error: new RpcError(-32603, "Expected a result array holding exactly one payload", undefined, status) };
}

export function createRpcClient(options: RpcClientOptions): RpcClient {
  const url = String(options.url);
  let nextId = 1;

  /** POSTs `body`; `signal` (when given) is the only abort: the caller handles the timeout. */
  async function fetchRpc(body: unknown, call: CallOptions, accept: string, signal: AbortSignal | undefined, timeoutMs: number): Promise<Response> {
    const fetchFn = options.fetch ?? globalThis.fetch;
    const headers = new Headers(typeof options.headers === "function" ? await options.headers() : options.headers);
    new Headers(call.headers).forEach((value, key) => headers.set(key, value));
    headers.set("content-type", "application/json");
    headers.set("accept", accept);
    const token = typeof options.auth === "function" ? await options.auth() : options.auth;
    if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
    try {
      return await fetchFn(url, { method: "POST", headers, body: JSON.stringify(body), signal });
    } catch (cause) {
      const reason = isObject(cause) && cause.name === "TimeoutError" ? `timed out after ${timeoutMs} ms` : isObject(cause) && cause.name === "AbortError" ? "aborted" : "network error";
      throw new RpcTransportError(`Request to ${url} failed: ${reason}`, undefined, { cause });
    }
  }

  async function post(body: unknown, call: CallOptions = {}): Promise<{ status: number; json: unknown }> {
    const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? 30_000;
    const signals: AbortSignal[] = [];
    if (call.signal) signals.push(call.signal);
    if (timeoutMs > 0) signals.push(AbortSignal.timeout(timeoutMs));
    const response = await fetchRpc(body, call, "application/json", signals.length > 1 ? AbortSignal.any(signals) : signals[0], timeoutMs);
    if (response.status === 204) return { status: 204, json: undefined };
    const text = await response.text();
    try {
      return { status: response.status, json: JSON.parse(text) };
    } catch {
      throw new RpcTransportError(`Expected a JSON-RPC response from ${url}, got HTTP ${response.status}`, response.status);
    }
  }

  const envelope = (request: RpcRequest<unknown>, id?: number) => ({
    jsonrpc: "2.0",
    method: request.method,
    ...(request.params !== undefined && { params: request.params }),
    ...(id !== undefined && { id }),
  });

  return {
    async request<R>(request: RpcRequest<R>, call?: CallOptions): Promise<R> {
      const { status, json } = await post(envelope(request, nextId++), call);
      if (!isObject(json)) throw new RpcTransportError(`Expected a JSON-RPC response object, got HTTP ${status}`, status);
      const settled = settle(request, json, status);
      if (!settled.ok) throw settled.error;
      return settled.value as R;
    },

    async *stream<N extends { method: string; params: unknown }>(request: RpcRequest<unknown>, call: StreamOptions = {}): AsyncGenerator<StreamEvent<N>> {
      const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? 30_000;
      // Aborted by the caller, by the open timeout, or when the iteration stops (break, return).
      const stop = new AbortController();
      const onAbort = () => stop.abort(call.signal?.reason);
      call.signal?.addEventListener("abort", onAbort, { once: true });
      const openTimer = timeoutMs > 0 ? setTimeout(() => stop.abort(new DOMException("timed out", "TimeoutError")), timeoutMs) : undefined;
      let idleTimer: ReturnType<typeof setTimeout> | undefined;
      try {
        const headers = new Headers(call.headers);
        if (call.lastEventId !== undefined) headers.set("last-event-id", call.lastEventId);
        let response: Response;
        try {
          response = await fetchRpc(envelope(request, nextId++), { headers }, "text/event-stream", stop.signal, timeoutMs);
        } catch (error) {
          if (call.signal?.aborted) return;
          throw error;
        } finally {
          clearTimeout(openTimer);
        }
        if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream") || response.body === null) {
          const text = await response.text();
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            throw new RpcTransportError(`Expected an event stream from ${url}, got HTTP ${response.status}`, response.status);
          }
          if (isObject(json) && json.error !== undefined) throw toRpcError(json.error, response.status);
          throw new RpcTransportError(`Expected an event stream from ${url}, got HTTP ${response.status}`, response.status);
        }
        const idleMs = call.idleTimeoutMs ?? 0;
        const idle = () => {
          clearTimeout(idleTimer);
          if (idleMs > 0) idleTimer = setTimeout(() => stop.abort(new DOMException("idle", "TimeoutError")), idleMs);
        };
        idle();
        try {
          for await (const event of readSse(response.body, { onChunk: idle })) {
            const json = JSON.parse(event.data) as { method?: unknown; params?: unknown };
            if (!isObject(json) || typeof json.method !== "string") continue;
            clearTimeout(idleTimer); // while the caller holds an event, the node is not silent: it is not being read
            yield { method: json.method, params: json.params, ...(event.id !== undefined && { id: event.id }) } as StreamEvent<N>;
            // Aborted while the caller held the event: reading a body that was already complete would wait forever (undici).
            if (stop.signal.aborted) return;
            idle();
          }
        } catch (cause) {
          if (call.signal?.aborted) return;
          const silent = stop.signal.aborted ? ` (nothing received for ${idleMs} ms)` : "";
          throw new RpcTransportError(`The event stream from ${url} was cut off${silent}`, undefined, { cause });
        }
      } finally {
        clearTimeout(idleTimer);
        call.signal?.removeEventListener("abort", onAbort);
        stop.abort();
      }
    },

    async notify(request, call) {
      await post(envelope(request), call);
    },

    async batch(requests, call) {
      const ids = requests.map(() => nextId++);
      const { status, json } = await post(
        requests.map((request, i) => envelope(request, ids[i])),
        call,
      );
      // A request-level failure (401, batch too large, …) answers one error for the whole batch.
      if (isObject(json) && json.error !== undefined) throw toRpcError(json.error, status);
      if (!Array.isArray(json)) throw new RpcTransportError(`Expected a JSON-RPC batch response, got HTTP ${status}`, status);
      const byId = new Map<unknown, WireResponse>();
      for (const entry of json) if (isObject(entry)) byId.set(entry.id, entry);
      return requests.map((request, i) => {
        const response = byId.get(ids[i]);
        return response
          ? settle(request, response, status)
          : { ok: false, error: new RpcError(-32603, "No response for this batch entry", undefined, status) };
      }) as never;
    },
  };
}
