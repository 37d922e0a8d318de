import type { RequestContext } from "./context.js";
import type { MethodDescriptor, ServiceDefinition, ServiceHandlers } from "./descriptor.js";
import { ErrorCode, RpcError, errorResponse, type JsonRpcId, type JsonRpcResponse } from "./errors.js";
import { RawJson } from "./raw-json.js";
import type { StreamEvent } from "./stream.js";
import { budgetSpentError, createResponseBudget, type ResponseBudget } from "./response-budget.js";
import { isObject as isSchemaObject, type Schema } from "./schema-context.js";
import type { SchemaProblem } from "./schema-errors.js";
import { compileParamValidator, compileResultValidator, createServiceSchemas, ResultMismatch, type ServiceSchemas } from "./validation.js";

export interface DispatcherOptions<Ctx extends RequestContext, S extends ServiceDefinition = ServiceDefinition> {
  /**
   * The service to serve: what its generated stub exports as `service` (method descriptors and the
   * OpenRPC document, which `rpc.discover` answers).
   */
  service: S;
  /**
   * One function per method of `service.methods`, annotated with the stub's generated
   * `Handlers<Ctx>` type (which gives each its args, context and result types).
   */
  handlers: ServiceHandlers<S>;
  /** Most entries in one batch; more is one -32005 error. Default 100. */
  maxBatch?: number;
  /**
   * The answer budget of one request, bytes (default 4 MiB): handlers see what is left in
   * `context.responseBudget`, and a batch entry that would start with it spent is answered -32005
   * without being run.
   */
  maxResponseBytes?: number;
  /** Sees every error that is not an `RpcError` (answered as a bare -32603); log it here. */
  onInternalError?: (error: unknown, method: string) => void;
  /**
   * Pre-dispatch hooks, per entry: each sees every entry of a request (a single request is one
   * entry), in order and synchronously, before any entry runs. Throw an `RpcError` to refuse the
   * entry: it is answered with that error (a notification: not at all) and its handler never runs.
   * The context is the one the handlers will see: read what an HTTP `onRequest` hook or
   * `authenticate` put there (e.g. the client to charge). Not called for an empty or oversized
   * batch, which is one error. A rate limiter charging per entry is the typical hook.
   */
  onEntry?: EntryHook<Ctx> | readonly EntryHook<Ctx>[];
  /**
   * Check each handler's result against its method's result schema (the document's). A result that
   * does not match is a bug of the server: it is answered -32603 ("Internal error: the result does
   * not match…", with `data.field`, `data.reason`, `data.path`) and passed to `onInternalError`.
   * Default: on when `NODE_ENV` is "development" or "test", off otherwise (it costs a parse of
   * pre-serialized answers and a walk of every result).
   */
  validateResults?: boolean;
}

/** One entry of a request, as an {@link EntryHook} sees it (not yet validated). */
export interface DispatchEntry {
  /** The entry as received: normally a JSON-RPC request object, but anything a batch may hold. */
  readonly raw: unknown;
  /** Its `method`, when it names one (a string). */
  readonly method: string | undefined;
  /** Its position: 0 for a single request. */
  readonly index: number;
  /** Entries in the request: 1 for a single request. */
  readonly count: number;
  /** Whether the request is a batch (an array, possibly of one). */
  readonly batch: boolean;
}

/** A pre-dispatch hook for each entry ({@link DispatcherOptions.onEntry}): throw an `RpcError` to refuse the entry. */
export type EntryHook<Ctx extends RequestContext> = (entry: DispatchEntry, context: Ctx) => void;

export type DispatchResult = JsonRpcResponse | JsonRpcResponse[] | undefined;

export interface Dispatcher<Ctx extends RequestContext> {
  /**
   * Answers a parsed JSON-RPC body (one request or a batch). `undefined` means there is nothing to
   * send back (only notifications). Never throws.
   */
  dispatch(body: unknown, context: Ctx): Promise<DispatchResult>;
  /** Parses `text` first; text that is not JSON answers -32700. */
  dispatchText(text: string, context: Ctx): Promise<DispatchResult>;
  /** Whether some entry of `body` calls a method that needs a token. */
  needsAuth(body: unknown): boolean;
  /** Whether `body` is one request (not a batch) for a method answered as an event stream. */
  isStream(body: unknown): boolean;
  /**
   * Runs a stream method's request (`isStream`): its entry hooks, params and handler. Resolves with
   * the events to send, or with the error to answer instead (as `dispatch` would have).
   */
  openStream(body: unknown, context: Ctx, stream: { signal: AbortSignal; lastEventId?: string }): Promise<{ events: AsyncIterable<StreamEvent> } | { error: JsonRpcResponse }>;
}

interface CompiledMethod {
  descriptor: MethodDescriptor;
  validators: readonly ((value: unknown) => void)[];
  call: (args: Record<string, unknown>, context: RequestContext) => unknown;
}

const DISCOVER = "rpc.discover";
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is JsonRpcId =>
  value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));

type ParamValidators = ReadonlyMap<MethodDescriptor, readonly ((value: unknown) => void)[]>;

/** Each service's schemas: compiled by its first dispatcher, shared by the ones after it in this process. */
const schemasByService = new WeakMap<ServiceDefinition, ServiceSchemas>();

function schemasOf(service: ServiceDefinition): ServiceSchemas {
  let schemas = schemasByService.get(service);
  if (schemas === undefined) schemasByService.set(service, (schemas = createServiceSchemas(service.document)));
  return schemas;
}

/**
 * Each service's compiled param validators, by service object: compiled by its first dispatcher,
 * shared by the ones after it in this process (compiling neutralService's takes ~55 ms when it carries no validators, and a
 * test process builds dozens of nodes). A validator is a pure function of its schema and the
 * document, which a generated stub's `service` never changes.
 */
const validatorsByService = new WeakMap<ServiceDefinition, ParamValidators>();

function paramValidators(service: ServiceDefinition): ParamValidators {
  let compiled = validatorsByService.get(service);
  // A service whose methods were replaced since (not a generated stub's) is compiled again.
  if (compiled === undefined || Object.values(service.methods).some((descriptor) => !compiled!.has(descriptor))) {
    const schemas = schemasOf(service);
    // A stub's validators compiled at generation time, where it carries them (one per param, in order).
    compiled = new Map(
      Object.entries(service.methods).map(([name, descriptor]) => {
        const precompiled = service.validators?.[name];
        const usable = precompiled !== undefined && precompiled.length === descriptor.params.length;
        return [descriptor, descriptor.params.map((param, i) => compileParamValidator(param, schemas, usable ? precompiled[i] : undefined))];
      }),
    );
    validatorsByService.set(service, compiled);
  }
  return compiled;
}

function compile(service: ServiceDefinition, handlers: object): Map<string, CompiledMethod> {
  const validators = paramValidators(service);
  const methods = new Map<string, CompiledMethod>();
  for (const [name, descriptor] of Object.entries(service.methods)) {
    const handler = (handlers as Record<string, unknown>)[name];
    if (typeof handler !== "function") throw new Error(`No handler for ${name}`);
    methods.set(name, {
      descriptor,
      validators: validators.get(descriptor)!,
      call: (args, context) => (handler as (a: unknown, c: unknown) => unknown).call(handlers, args, context),
    });
  }
  return methods;
}

/**
 * The result schema of method `name` in the service's document (a method or its result may be a
 * `$ref`); undefined when it has none (a notification) or it cannot be found.
 */
function resultSchemaOf(service: ServiceDefinition, name: string): Schema | undefined {
  const schemas = schemasOf(service);
  const deref = (value: unknown): unknown => (isSchemaObject(value) && typeof value.$ref === "string" && Object.keys(value).length === 1 ? schemas.context.resolve(value.$ref) : value);
  const methods = (service.document as { methods?: unknown }).methods;
  if (!Array.isArray(methods)) return undefined;
  const method = methods.map(deref).find((candidate) => isSchemaObject(candidate) && candidate.name === name) as Record<string, unknown> | undefined;
  const result = deref(method?.result);
  if (!isSchemaObject(result)) return undefined;
  const schema = result.schema;
  return isSchemaObject(schema) || typeof schema === "boolean" ? schema : undefined;
}

/** Each service's compiled result checks, by method name: compiled when a method first answers. */
const resultChecksByService = new WeakMap<ServiceDefinition, Map<string, ((value: unknown) => void) | null>>();

function resultCheck(service: ServiceDefinition, name: string): ((value: unknown) => void) | null {
  let checks = resultChecksByService.get(service);
  if (checks === undefined) resultChecksByService.set(service, (checks = new Map()));
  let check = checks.get(name);
  if (check === undefined) {
    const schema = resultSchemaOf(service, name);
    check = schema === undefined ? null : compileResultValidator(schema, schemasOf(service));
    checks.set(name, check);
  }
  return check;
}

/**
 * The args a handler of `method` gets for `params` (positional or by name), as the dispatcher
 * hands them: validated against the method's param schemas, defaults filled in (into `params`'
 * values, in place). Throws the `RpcError` the dispatcher would answer (-32602, or -32601 for a
 * method the service does not have). For tools that need a call's args without dispatching it (a
 * mock matching calls to examples).
 */
export function argsOf(service: ServiceDefinition, method: string, params: unknown): Record<string, unknown> {
  const descriptor = service.methods[method];
  if (descriptor === undefined) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method.slice(0, 100)}`);
  return normalizeParams({ descriptor, validators: paramValidators(service).get(descriptor)! }, params);
}

/**
 * The first problem of `answer` (a result as the wire carries it) against method `method`'s result
 * schema in the service's document, or undefined when it matches (or the method has no result
 * schema). For tools that check answers from elsewhere (a conformance runner).
 */
export function resultProblemOf(service: ServiceDefinition, method: string, answer: unknown): SchemaProblem | undefined {
  const check = resultCheck(service, method);
  if (check === null) return undefined;
  try {
    check(answer);
    return undefined;
  } catch (error) {
    if (error instanceof ResultMismatch) return error.problem;
    throw error;
  }
}

/** Positional or by-name params → one object of validated args, defaults filled in. */
function normalizeParams(method: Pick<CompiledMethod, "descriptor" | "validators">, params: unknown): Record<string, unknown> {
  const { descriptor, validators } = method;
  const given: Record<string, unknown> = {};
  if (params === undefined || Array.isArray(params)) {
    const list = params ?? [];
    if (descriptor.paramStructure === "by-name" && params !== undefined) {
      throw RpcError.invalidParams("params", "must be an object (by-name)");
    }
    if (list.length > descriptor.params.length) {
      throw RpcError.invalidParams("params", `takes at most ${descriptor.params.length} positional params, got ${list.length}`);
    }
    descriptor.params.forEach((param, i) => (given[param.name] = list[i]));
  } else {
    if (descriptor.paramStructure === "by-position") throw RpcError.invalidParams("params", "must be an array (by-position)");
    const known = new Set(descriptor.params.map((param) => param.name));
    for (const key of Object.keys(params as object)) {
      if (!known.has(key)) throw RpcError.invalidParams(key, "is not a param of this method", { param: key });
    }
    Object.assign(given, params);
  }
  const args: Record<string, unknown> = {};
  descriptor.params.forEach((param, i) => {
    const value = given[param.name];
    if (value === undefined || value === null) {
      if (param.required) throw RpcError.invalidParams(param.name, "is required", { param: param.name });
      if (!("default" in param)) return;
      // A param's default gets its own members' defaults too, as a value given would.
      const fallback = structuredClone(param.default);
      validators[i]!(fallback);
      args[param.name] = fallback;
      return;
    }
    validators[i]!(value);
    args[param.name] = value;
  });
  return args;
}

/** The default answer budget of one request: 4 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

export const parseErrorResponse = (): JsonRpcResponse =>
  errorResponse(null, new RpcError(ErrorCode.ParseError, "Parse error: the body is not valid JSON"));

/**
 * A JSON-RPC 2.0 dispatcher for one generated service: `createDispatcher({ service, handlers })`.
 * Compiles every param schema at once (throws if a method has no handler).
 */
export function createDispatcher<Ctx extends RequestContext, S extends ServiceDefinition = ServiceDefinition>(options: DispatcherOptions<Ctx, S>): Dispatcher<Ctx> {
  const { service } = options;
  const methods = compile(service, options.handlers);
  const maxBatch = options.maxBatch ?? 100;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const document = service.document;
  const onInternalError = options.onInternalError ?? (() => {});
  const validateResults = options.validateResults ?? (process.env.NODE_ENV === "development" || process.env.NODE_ENV === "test");
  const entryHooks: readonly EntryHook<Ctx>[] = options.onEntry === undefined ? [] : typeof options.onEntry === "function" ? [options.onEntry] : options.onEntry;

  /** Runs the entry hooks over every entry; answers per entry the refusal, if any (undefined: none refused). */
  function screen(entries: readonly unknown[], batch: boolean, context: Ctx): (RpcError | undefined)[] | undefined {
    if (entryHooks.length === 0) return undefined;
    let refusals: (RpcError | undefined)[] | undefined;
    entries.forEach((raw, index) => {
      const method = isObject(raw) && typeof raw.method === "string" ? raw.method : undefined;
      const entry: DispatchEntry = { raw, method, index, count: entries.length, batch };
      for (const hook of entryHooks) {
        try {
          hook(entry, context);
        } catch (error) {
          if (!(error instanceof RpcError)) onInternalError(error, method ?? "");
          (refusals ??= [])[index] = error instanceof RpcError ? error : new RpcError(ErrorCode.InternalError, "Internal error");
          break;
        }
      }
    });
    return refusals;
  }

  async function invoke(name: string, params: unknown, context: Ctx): Promise<unknown> {
    if (name === DISCOVER) {
      if (params !== undefined && !(Array.isArray(params) ? params.length === 0 : Object.keys(params as object).length === 0)) {
        throw RpcError.invalidParams("params", "rpc.discover takes no params");
      }
      return document;
    }
    const method = methods.get(name);
    if (!method) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${name.slice(0, 100)}`);
    if (method.descriptor.stream) {
      throw new RpcError(ErrorCode.InvalidRequest, `Invalid Request: ${name} answers with an event stream: send it alone (not in a batch), with Accept: text/event-stream`);
    }
    const args = normalizeParams(method, params);
    if (method.descriptor.requiresAuth && context.auth === undefined) throw RpcError.unauthorized("missing token");
    const result = await method.call(args, context);
    const answer = !method.descriptor.wrapResult ? result : result instanceof RawJson ? new RawJson(`[${result.json}]`) : [result];
    if (validateResults && !method.descriptor.notification) checkResult(name, answer);
    return answer;
  }

  /** Throws -32603 (and tells `onInternalError`) when the answer of method `name` does not match its result schema. */
  function checkResult(name: string, answer: unknown): void {
    const check = resultCheck(service, name);
    if (check === null) return;
    try {
      check(answer instanceof RawJson ? JSON.parse(answer.json) : answer);
    } catch (error) {
      if (!(error instanceof ResultMismatch)) throw error;
      onInternalError(error, name);
      throw new RpcError(ErrorCode.InternalError, `Internal error: ${error.message}`, { field: error.field, reason: error.problem.reason, path: error.problem.path });
    }
  }

  async function answer(entry: unknown, context: Ctx, budget: ResponseBudget & { readonly spent: number }, refusal?: RpcError): Promise<JsonRpcResponse | undefined> {
    if (!isObject(entry)) return errorResponse(null, new RpcError(ErrorCode.InvalidRequest, "Invalid Request: expected an object"));
    const hasId = "id" in entry;
    if (hasId && !isId(entry.id)) {
      return errorResponse(null, new RpcError(ErrorCode.InvalidRequest, "Invalid Request: id must be a string, a number or null"));
    }
    const id = hasId ? (entry.id as JsonRpcId) : null;
    if (entry.jsonrpc !== "2.0") return errorResponse(id, new RpcError(ErrorCode.InvalidRequest, 'Invalid Request: jsonrpc must be "2.0"'));
    if (typeof entry.method !== "string") return errorResponse(id, new RpcError(ErrorCode.InvalidRequest, "Invalid Request: method must be a string"));
    const params = entry.params;
    if (params !== undefined && typeof params !== "object") {
      return errorResponse(id, new RpcError(ErrorCode.InvalidRequest, "Invalid Request: params must be an array or an object"));
    }
    if (params === null) return errorResponse(id, new RpcError(ErrorCode.InvalidRequest, "Invalid Request: params must be an array or an object"));
    try {
      if (refusal) throw refusal;
      if (budget.remaining <= 0) throw budgetSpentError(budget.limit);
      const result = await invoke(entry.method, params, { ...context, responseBudget: budget });
      // Handlers that size their answer count it themselves, at once; every other answer here.
      if (budget.spent === 0) budget.spend(result instanceof RawJson ? result.json.length : (JSON.stringify(result)?.length ?? 0));
      // A request must be answered with a result: a handler returning nothing (a notification's) answers null.
      return hasId ? { jsonrpc: "2.0", id, result: result === undefined ? null : result } : undefined;
    } catch (error) {
      if (!hasId) return undefined;
      if (error instanceof RpcError) return errorResponse(id, error);
      onInternalError(error, entry.method);
      return errorResponse(id, new RpcError(ErrorCode.InternalError, "Internal error"));
    }
  }

  async function dispatch(body: unknown, context: Ctx): Promise<DispatchResult> {
    const budget = createResponseBudget(maxResponseBytes);
    if (!Array.isArray(body)) return answer(body, context, budget.entry(), screen([body], false, context)?.[0]);
    if (body.length === 0) return errorResponse(null, new RpcError(ErrorCode.InvalidRequest, "Invalid Request: empty batch"));
    if (body.length > maxBatch) {
      return errorResponse(null, new RpcError(ErrorCode.TooLarge, `Batch too large: ${body.length} entries, at most ${maxBatch}`, { limit: maxBatch }));
    }
    const refusals = screen(body, true, context);
    const responses = (await Promise.all(body.map((entry, i) => answer(entry, context, budget.entry(), refusals?.[i])))).filter(
      (response): response is JsonRpcResponse => response !== undefined,
    );
    return responses.length > 0 ? responses : undefined;
  }

  const entryNeedsAuth = (entry: unknown): boolean =>
    isObject(entry) && typeof entry.method === "string" && methods.get(entry.method)?.descriptor.requiresAuth === true;

  const streamMethod = (body: unknown): CompiledMethod | undefined => {
    if (!isObject(body) || typeof body.method !== "string") return undefined;
    const method = methods.get(body.method);
    return method?.descriptor.stream ? method : undefined;
  };

  async function openStream(body: unknown, context: Ctx, stream: { signal: AbortSignal; lastEventId?: string }): Promise<{ events: AsyncIterable<StreamEvent> } | { error: JsonRpcResponse }> {
    const method = streamMethod(body);
    const entry = body as Record<string, unknown>;
    const id = isId(entry.id) ? entry.id : null;
    // The checks `answer` makes of any entry, then the stream's own.
    if (method === undefined || entry.jsonrpc !== "2.0" || ("id" in entry && !isId(entry.id)) || (entry.params !== undefined && (typeof entry.params !== "object" || entry.params === null))) {
      const response = await answer(body, context, createResponseBudget(maxResponseBytes).entry());
      return { error: response ?? errorResponse(id, new RpcError(ErrorCode.InvalidRequest, "Invalid Request")) };
    }
    try {
      const refusal = screen([body], false, context)?.[0];
      if (refusal) throw refusal;
      const args = normalizeParams(method, entry.params);
      if (method.descriptor.requiresAuth && context.auth === undefined) throw RpcError.unauthorized("missing token");
      const streamContext = { ...context, signal: stream.signal, ...(stream.lastEventId !== undefined && { lastEventId: stream.lastEventId }) };
      const events = (await method.call(args, streamContext)) as AsyncIterable<StreamEvent>;
      return { events };
    } catch (error) {
      if (error instanceof RpcError) return { error: errorResponse(id, error) };
      onInternalError(error, entry.method as string);
      return { error: errorResponse(id, new RpcError(ErrorCode.InternalError, "Internal error")) };
    }
  }

  return {
    dispatch,
    openStream,
    isStream: (body) => streamMethod(body) !== undefined,
    async dispatchText(text, context) {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return parseErrorResponse();
      }
      return dispatch(body, context);
    },
    needsAuth(body) {
      return Array.isArray(body) ? body.length <= maxBatch && body.some(entryNeedsAuth) : entryNeedsAuth(body);
    },
  };
}
