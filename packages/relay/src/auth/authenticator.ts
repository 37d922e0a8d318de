import { createHash } from "node:crypto";
import { RpcError } from "@neutral/server";
import { MAX_TOKEN_LIFETIME_MS } from "@neutral/protocol";
import { LRUCache } from "lru-cache";
import type { Secp256k1 } from "../crypto/secp256k1.js";
import { verifySiweToken, type TokenRules, type VerifiedToken } from "./siwe-token.js";

export interface AuthenticatorOptions extends Partial<Pick<TokenRules, "maxLifetimeMs" | "now" | "servedDomains">> {
  acceptsDomain: TokenRules["acceptsDomain"];
  curve: Secp256k1;
  /** Most verified tokens kept. Default 10,000. */
  cacheSize?: number;
  /** Most refused tokens remembered (by hash). Default 10,000. */
  refusedCacheSize?: number;
}

/**
 * `beforeRecovery` runs just before a token's signature is recovered, the one expensive check,
 * which only a token in neither cache gets: throw from it (e.g. -32029) to refuse the work.
 */
export type Authenticate = (authorization: string | undefined, beforeRecovery?: () => void) => VerifiedToken;

/**
 * Turns an `Authorization` header into the caller. Verified tokens are cached until they expire
 * (bounded, least recently used out first): one signature recovery per token, not per request.
 * A token refused at its signature (checked last, after every cheap check passed: so the refusal
 * can never change) is remembered by its SHA-256, and refused again with the same reason without
 * a recovery. Tokens refused by a cheaper check are not remembered: some of those checks depend on
 * the time (not-before) or on the node's domains, and repeating them costs little anyway.
 */
export function createAuthenticator(options: AuthenticatorOptions): Authenticate {
  const rules: TokenRules = {
    acceptsDomain: options.acceptsDomain,
    ...(options.servedDomains && { servedDomains: options.servedDomains }),
    maxLifetimeMs: options.maxLifetimeMs ?? MAX_TOKEN_LIFETIME_MS,
    now: options.now ?? Date.now,
  };
  const cache = new LRUCache<string, VerifiedToken>({ max: options.cacheSize ?? 10_000 });
  // The refusal itself is kept and thrown again: building an Error (its stack) is most of what a repeat would cost.
  const refused = new LRUCache<string, RpcError>({ max: options.refusedCacheSize ?? 10_000 });

  return (authorization, beforeRecovery) => {
    if (authorization === undefined || authorization === "") throw RpcError.unauthorized("missing token");
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!match) throw RpcError.unauthorized("Authorization is not a Bearer token");
    const token = match[1]!;
    const cached = cache.get(token);
    if (cached) {
      if (cached.expiresAt > rules.now()) return cached;
      cache.delete(token);
      throw RpcError.unauthorized("token expired");
    }
    const digest = createHash("sha256").update(token).digest("base64");
    const refusal = refused.get(digest);
    if (refusal !== undefined) throw refusal;
    let recovered = false;
    const base = options.curve;
    const curve: Secp256k1 = {
      implementation: base.implementation,
      sign: (messageDigest, privateKey) => base.sign(messageDigest, privateKey),
      addressOf: (privateKey) => base.addressOf(privateKey),
      recoverAddress(messageDigest, signature) {
        beforeRecovery?.();
        recovered = true;
        return base.recoverAddress(messageDigest, signature);
      },
    };
    let verified: VerifiedToken;
    try {
      verified = verifySiweToken(token, rules, curve);
    } catch (error) {
      if (recovered && error instanceof RpcError) refused.set(digest, error);
      throw error;
    }
    cache.set(token, verified);
    return verified;
  };
}
