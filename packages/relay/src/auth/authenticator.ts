import { RpcError } from "@neutral/server";
import { LRUCache } from "lru-cache";
import type { Secp256k1 } from "../crypto/secp256k1.js";
import { verifySiweToken, type TokenRules, type VerifiedToken } from "./siwe-token.js";

export interface AuthenticatorOptions extends Partial<Pick<TokenRules, "maxLifetimeMs" | "now">> {
  acceptsDomain: TokenRules["acceptsDomain"];
  curve: Secp256k1;
  /** Most verified tokens kept. Default 10,000. */
  cacheSize?: number;
}

export type Authenticate = (authorization: string | undefined) => VerifiedToken;

/**
 * Turns an `Authorization` header into the caller. Verified tokens are cached until they expire
 * (bounded, least recently used out first): one signature recovery per token, not per request.
 * Only successes are cached, so a refused token is checked again in full next time.
 */
export function createAuthenticator(options: AuthenticatorOptions): Authenticate {
  const rules: TokenRules = {
    acceptsDomain: options.acceptsDomain,
    maxLifetimeMs: options.maxLifetimeMs ?? 24 * 60 * 60 * 1000,
    now: options.now ?? Date.now,
  };
  const cache = new LRUCache<string, VerifiedToken>({ max: options.cacheSize ?? 10_000 });

  return (authorization) => {
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
    const verified = verifySiweToken(token, rules, options.curve);
    cache.set(token, verified);
    return verified;
  };
}
