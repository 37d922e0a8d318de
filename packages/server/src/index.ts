// The runtime: serves any generated stub (`createDispatcher({ service, handlers })`). neutralService's
// stub is the subpath `@neutral/server/neutral-service`.
export { argsOf, resultProblemOf, createDispatcher, DEFAULT_MAX_RESPONSE_BYTES, type Dispatcher, type DispatcherOptions, type DispatchResult, type DispatchEntry, type EntryHook } from "./dispatcher.js";
export { budgetSpentError, type ResponseBudget } from "./response-budget.js";
export { createHttpHandler, type HttpExchange, type HttpHandlerOptions, type IncomingRequest, type RequestBody, type RequestHook } from "./http.js";
export { ErrorCode, RpcError, errorResponse, type JsonRpcId, type JsonRpcResponse, type WireError } from "./errors.js";
export type { Authenticated, RequestContext } from "./context.js";
export type { MethodDescriptor, ParamDescriptor, PrecompiledValidator, ServiceDefinition, ServiceHandlers } from "./descriptor.js";
export { RawJson, rawJson, stringifyDispatchResult, type Reply } from "./raw-json.js";
export { eventText, type EventStream, type NotificationShape, type StreamContext, type StreamEndReason, type StreamEvent, type StreamOptions } from "./stream.js";
export { AJV_OPTIONS, ResultMismatch, dialectOf, type SchemaDialect } from "./validation.js";
export type { SchemaProblem } from "./schema-errors.js";
export * as validationRuntime from "./validation-runtime.js";
