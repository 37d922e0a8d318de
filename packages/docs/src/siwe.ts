// The bearer token made in the browser (and by build.mjs for the worked example). What the token is
// and which rules it keeps come from @neutral/protocol; this module only adds a throwaway local key
// to sign it with, since the docs site has no wallet.
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import {
  buildSiweMessage,
  checksumAddress,
  DEFAULT_SIWE_STATEMENT,
  describeBearerToken,
  encodeBearerToken,
  newNonce,
  personalMessageDigest,
  toHex,
  tokenExpiry,
  type Hex,
} from "@neutral/protocol";

export interface SignedToken {
  token: string;
  /** The EIP-4361 text that was signed. */
  message: string;
  /** 0x + 130 hex: r ‖ s ‖ v. */
  signature: string;
  /** EIP-55 checksummed address of the key. */
  address: string;
  expiresAt: number;
}

/** A new random secp256k1 private key (32 bytes, from the platform's CSPRNG). */
export const newPrivateKey = (): Uint8Array => secp256k1.utils.randomSecretKey();

/** The checksummed address of a private key: the last 20 bytes of keccak256 of the uncompressed public key. */
export const addressOf = (privateKey: Uint8Array): Hex =>
  checksumAddress(toHex(keccak_256(secp256k1.getPublicKey(privateKey, false).subarray(1)).subarray(12)));

/** EIP-191 `personal_sign`: 0x + r ‖ s ‖ v with v = 27 or 28 (low s, RFC 6979). */
export function personalSign(text: string, privateKey: Uint8Array): string {
  const recovered = secp256k1.sign(personalMessageDigest(text), privateKey, { prehash: false, format: "recovered" });
  return `${toHex(recovered.subarray(1))}${(27 + recovered[0]!).toString(16)}`;
}

export interface TokenOptions {
  domain: string;
  uri: string;
  /** Default 1 h; at most 24 h. */
  lifetimeMs?: number;
  /** Epoch ms; default now. */
  issuedAt?: number;
  /** Default a fresh random one. */
  nonce?: string;
  statement?: string;
}

/** Signs a bearer token with a private key. */
export function bearerToken(privateKey: Uint8Array, options: TokenOptions): SignedToken {
  const issuedAt = options.issuedAt ?? Date.now();
  const expiresAt = tokenExpiry(issuedAt, options.lifetimeMs);
  const address = addressOf(privateKey);
  const message = buildSiweMessage({
    domain: options.domain,
    uri: options.uri,
    address,
    statement: options.statement ?? DEFAULT_SIWE_STATEMENT,
    nonce: options.nonce ?? newNonce(),
    issuedAt,
    expiresAt,
  });
  const signature = personalSign(message, privateKey);
  return { token: encodeBearerToken(message, signature), message, signature, address, expiresAt };
}

/** What a pasted token says about itself (not verified: the node does that), or undefined if it is not one. */
export function describeToken(token: string): { message: string; address: string; domain: string; expiresAt?: number } | undefined {
  const described = describeBearerToken(token);
  if (!described) return undefined;
  const { text, ...rest } = described;
  return { message: text, ...rest };
}
