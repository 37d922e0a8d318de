// Errors the SDK raises itself (the node's own answers are `RpcError`, transport failures
// `RpcTransportError`, both from rpc.ts). No error text ever contains a key, a token or a plaintext.
import type { RpcError, RpcTransportError } from "./rpc.js";

export type NeutralErrorCode =
  /** `account` is not a usable private key, local account or provider. */
  | "INVALID_ACCOUNT"
  /** The wallet refused, failed, or answered something that is not a signature. */
  | "WALLET_ERROR"
  /** The recipient has published no messaging key on this node. */
  | "NO_RECIPIENT_KEY"
  /** The node served a key bundle whose signature does not belong to the account. */
  | "INVALID_KEY_BUNDLE"
  /** The node served a home record whose signature does not belong to the account. */
  | "INVALID_HOME_RECORD"
  /** The encrypted message would exceed the node's (or NIP-44's) size limit. */
  | "MESSAGE_TOO_LARGE"
  /** An argument is malformed (an address, a text, a cursor). */
  | "INVALID_ARGUMENT"
  /** The node answered something the protocol does not allow (e.g. a stored message that differs from the one sent). */
  | "PROTOCOL_ERROR";

export class NeutralError extends Error {
  override readonly name = "NeutralError";
  constructor(
    readonly code: NeutralErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A `NeutralError` whose `code` is one of `C`: the SDK actions' `…ErrorType`s name theirs with it. */
export type NeutralErrorWith<C extends NeutralErrorCode> = NeutralError & { readonly code: C };

/** What the node, or the way to it, answers instead of a result (see rpc.ts). */
export type RequestErrorType = RpcError | RpcTransportError;
