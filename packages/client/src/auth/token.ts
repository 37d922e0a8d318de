// The bearer token (openrpc.json, "Authentication"): base64url(EIP-4361 text) + "." + personal_sign
// signature, its text and rules from @neutral/protocol, signed by whatever account the app has.
import { buildSiweMessage, DEFAULT_SIWE_STATEMENT, encodeBearerToken, newNonce, tokenExpiry } from "@neutral/protocol";
import type { Signer } from "../account.js";

export interface SignInOptions {
  /** The node's SIWE domain: `HOST:PORT` of its URL unless the node is configured otherwise (see `nodeInfo().domains`). */
  domain: string;
  /** The URI the token is for; the node's URL. */
  uri: string;
  /** Token lifetime in ms (at most 24 h; the node refuses longer). Default 1 h. */
  lifetimeMs?: number;
  /** Default `Date.now`. */
  now?: () => number;
  statement?: string;
}

export interface BearerToken {
  readonly token: string;
  /** Epoch ms after which the node refuses it. */
  readonly expiresAt: number;
}

/** Signs a fresh token with the account. */
export async function createBearerToken(signer: Signer, options: SignInOptions): Promise<BearerToken> {
  const issuedAt = (options.now ?? Date.now)();
  const expiresAt = tokenExpiry(issuedAt, options.lifetimeMs);
  const text = buildSiweMessage({
    domain: options.domain,
    address: await signer.getAddress(),
    uri: options.uri,
    statement: options.statement ?? DEFAULT_SIWE_STATEMENT,
    nonce: newNonce(),
    issuedAt,
    expiresAt,
  });
  const signature = await signer.signMessage(text);
  return { token: encodeBearerToken(text, signature), expiresAt };
}
