import { errors } from "./generated/errors.js";

/** The JSON-RPC 2.0 codes, and the service's own from the spec (components.errors). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: errors.InvalidParams.code,
  InternalError: -32603,
  Unauthorized: errors.Unauthorized.code,
  Forbidden: errors.Forbidden.code,
  InvalidSignature: errors.InvalidSignature.code,
  TimestampOutOfWindow: errors.TimestampOutOfWindow.code,
  TooLarge: errors.TooLarge.code,
  RateLimited: errors.RateLimited.code,
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
