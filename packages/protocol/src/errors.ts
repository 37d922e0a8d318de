/**
 * Every error code a neutralService node answers: JSON-RPC 2.0's own and the application errors of
 * openrpc.json's `components.errors` (generated). `data.reason` texts are not part of the contract.
 */
import { errors } from "./generated/errors.js";

export { errors, type ErrorName } from "./generated/errors.js";

/** JSON-RPC 2.0's reserved codes. */
export const JSON_RPC_ERRORS = {
  ParseError: { code: -32700, message: "Parse error" },
  InvalidRequest: { code: -32600, message: "Invalid Request" },
  MethodNotFound: { code: -32601, message: "Method not found" },
  InvalidParams: { code: -32602, message: "Invalid params" },
  InternalError: { code: -32603, message: "Internal error" },
} as const;

/** Every code by name. */
export const ERROR_CODES = {
  ParseError: JSON_RPC_ERRORS.ParseError.code,
  InvalidRequest: JSON_RPC_ERRORS.InvalidRequest.code,
  MethodNotFound: JSON_RPC_ERRORS.MethodNotFound.code,
  InvalidParams: errors.InvalidParams.code,
  InternalError: JSON_RPC_ERRORS.InternalError.code,
  Unauthorized: errors.Unauthorized.code,
  Forbidden: errors.Forbidden.code,
  InvalidSignature: errors.InvalidSignature.code,
  TimestampOutOfWindow: errors.TimestampOutOfWindow.code,
  TooLarge: errors.TooLarge.code,
  RateLimited: errors.RateLimited.code,
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
