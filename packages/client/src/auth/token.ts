// The bearer token of protocol.md §8: base64url(EIP-4361 text) + "." + personal_sign signature.
import { randomBytes } from "@noble/hashes/utils.js";
import type { Signer } from "../account.js";
import { checksumAddress } from "../crypto/ecdsa.js";

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

export const MAX_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;
const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** 17 random alphanumerics (EIP-4361 wants at least 8). */
function nonce(): string {
  return Array.from(randomBytes(17), (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join("");
}

/** The EIP-4361 text the account signs. */
export function siweText(fields: { domain: string; address: string; uri: string; statement?: string; nonce: string; issuedAt: number; expiresAt: number }): string {
  return [
    `${fields.domain} wants you to sign in with your Ethereum account:`,
    checksumAddress(fields.address),
    "",
    ...(fields.statement === undefined ? [] : [fields.statement]),
    "",
    `URI: ${fields.uri}`,
    "Version: 1",
    "Chain ID: 1",
    `Nonce: ${fields.nonce}`,
    `Issued At: ${new Date(fields.issuedAt).toISOString()}`,
    `Expiration Time: ${new Date(fields.expiresAt).toISOString()}`,
  ].join("\n");
}

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Signs a fresh token with the account. */
export async function createBearerToken(signer: Signer, options: SignInOptions): Promise<BearerToken> {
  const lifetime = Math.min(options.lifetimeMs ?? 60 * 60 * 1000, MAX_TOKEN_LIFETIME_MS);
  const issuedAt = (options.now ?? Date.now)();
  const expiresAt = issuedAt + lifetime;
  const text = siweText({
    domain: options.domain,
    address: await signer.getAddress(),
    uri: options.uri,
    statement: options.statement ?? "Sign in to neutralService.",
    nonce: nonce(),
    issuedAt,
    expiresAt,
  });
  const signature = await signer.signMessage(text);
  return { token: `${base64url(new TextEncoder().encode(text))}.${signature}`, expiresAt };
}
