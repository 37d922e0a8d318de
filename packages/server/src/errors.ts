/**
 * The JSON-RPC 2.0 codes, and the runtime's own: the codes the runtime itself answers or maps to
 * HTTP statuses (-32001 → 401, -32002 → 403, -32005 → 413, -32029 → 429). A spec that uses them
 * declares them in its components.errors with these same codes, as neutralService's does.
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  Unauthorized: -32001,
  Forbidden: -32002,
  TooLarge: -32005,
  RateLimited: -32029,
} as const;

/**
 * Throw this from a handler (or the `authenticate` hook) to answer a JSON-RPC error. Anything
 * else a handler throws becomes -32603 "Internal error" with no details.
 */
export class RpcError extends Error {
  override readonly name = "RpcError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  static invalidParams(field: string, reason: string, data?: Record<string, unknown>): RpcError {
    return new RpcError(ErrorCode.InvalidParams, `Invalid params: ${field} ${reason}`, { field, reason, ...data });
  }

  static unauthorized(reason: string): RpcError {
    return new RpcError(ErrorCode.Unauthorized, `Unauthorized: ${reason}`, { reason });
  }
}

export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

export type JsonRpcId = string | number | null;

export type JsonRpcResponse =
  | { jsonrpc: "2.0"; id: JsonRpcId; result: unknown }
  | { jsonrpc: "2.0"; id: JsonRpcId; error: WireError };

export function errorResponse(id: JsonRpcId, error: RpcError): JsonRpcResponse {
  const wire: WireError = { code: error.code, message: error.message };
  if (error.data !== undefined) wire.data = error.data;
  return { jsonrpc: "2.0", id, error: wire };
}
