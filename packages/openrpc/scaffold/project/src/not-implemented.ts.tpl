// What a handler that is not written yet throws: `throw notImplemented("method_name")`.
//
// The code is JSON-RPC's -32601 "Method not found", which the JSON-RPC 2.0 specification defines as
// "the method does not exist / is not available": a method this server does not implement yet is
// not available, and every JSON-RPC client already knows what -32601 means. `data.method` (and the
// message) tell it apart from a method that does not exist at all. Not a code of the
// implementation-defined range -32000..-32099: OpenRPC documents give those codes meanings of
// their own (components.errors: e.g. -32004 is "Method not supported" in Ethereum's EIP-1474 but
// "timestamp outside the window" elsewhere), so any pick there could contradict the spec served.
import { ErrorCode, RpcError } from "@neutral/server";

export class NotImplementedError extends RpcError {
  static readonly code = ErrorCode.MethodNotFound;

  constructor(readonly method: string) {
    super(NotImplementedError.code, `Method not implemented: ${method} (its handler in src/handlers/ is not written yet)`, { method });
  }
}

/** The error a handler throws until it is written. */
export function notImplemented(method: string): NotImplementedError {
  return new NotImplementedError(method);
}
