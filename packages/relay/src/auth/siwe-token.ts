import { checkBearerToken, personalMessageDigest } from "@neutral/protocol";
import { RpcError } from "@neutral/server";
import type { Secp256k1 } from "../crypto/secp256k1.js";

/** Who a verified token speaks for, and until when. */
export interface VerifiedToken {
  /** Lowercase 0x address. */
  address: string;
  /** Epoch ms of the token's `expiration-time`. */
  expiresAt: number;
}

export interface TokenRules {
  /** Whether a SIWE `domain` is one this node accepts. */
  acceptsDomain(domain: string): boolean;
  /** The domains the node serves, in words, for the reason a token for another is refused with. */
  servedDomains?(): string;
  /** Longest accepted span from `issued-at` to `expiration-time` (the protocol's `MAX_TOKEN_LIFETIME_MS`, 24 h). */
  maxLifetimeMs: number;
  now(): number;
}

/**
 * Checks a bearer token (`base64url(SIWE message) "." 0x-signature`, @neutral/protocol). Throws
 * RpcError -32001 whose `data.reason` names the first failed check. The cheap checks run before
 * the signature recovery so that junk costs little.
 */
export function verifySiweToken(token: string, rules: TokenRules, curve: Secp256k1): VerifiedToken {
  const checked = checkBearerToken(token, {
    acceptsDomain: (domain) => rules.acceptsDomain(domain),
    ...(rules.servedDomains && { servedDomains: rules.servedDomains }),
    maxLifetimeMs: rules.maxLifetimeMs,
    now: rules.now(),
  });
  if (!checked.ok) throw RpcError.unauthorized(checked.reason);
  const { text, signature, message, expiresAt } = checked.value;
  const signer = curve.recoverAddress(personalMessageDigest(text), Buffer.from(signature.slice(2), "hex"));
  const address = message.address.toLowerCase();
  if (signer !== address) throw RpcError.unauthorized("bad signature: it does not recover the message's address");
  return { address, expiresAt };
}
