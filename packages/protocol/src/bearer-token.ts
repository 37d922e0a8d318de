/**
 * The bearer token of neutralService (openrpc.json, "Authentication"):
 * `base64url(UTF-8 text of an EIP-4361 message) "." 0x-signature`, the signature being the
 * account's EIP-191 `personal_sign` of that text. No login round trip: a node checks the token on
 * every request with `checkBearerToken` and then recovers the signer of `personalMessageDigest`.
 */
import { keccak_256 } from "@noble/hashes/sha3.js";
import { concatBytes, randomBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { parseSiweMessage, parseSiweTime, type SiweMessage } from "./siwe.js";

/** The longest span from `issued-at` to `expiration-time` a node accepts: 24 h. */
export const MAX_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** What the SDK and the docs site sign when no lifetime is asked for: 1 h. */
export const DEFAULT_TOKEN_LIFETIME_MS = 60 * 60 * 1000;
/** How far ahead of a node's clock a token's `issued-at` may be (clocks differ a little). */
export const ISSUED_AT_SKEW_MS = 5 * 60 * 1000;
/** The statement the SDK and the docs site put in their sign-in messages. */
export const DEFAULT_SIWE_STATEMENT = "Sign in to neutralService.";
/** A nonce of at least 8 alphanumerics (EIP-4361). */
export const NONCE_PATTERN = /^[A-Za-z0-9]{8,}$/;

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** 17 random alphanumerics from the platform's CSPRNG. */
export function newNonce(): string {
  return Array.from(randomBytes(17), (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join("");
}

/** The expiry of a token issued at `issuedAt` for `lifetimeMs` (default 1 h), capped at 24 h. */
export const tokenExpiry = (issuedAt: number, lifetimeMs = DEFAULT_TOKEN_LIFETIME_MS): number =>
  issuedAt + Math.min(lifetimeMs, MAX_TOKEN_LIFETIME_MS);

/** keccak256 of the EIP-191 `personal_sign` envelope of `text`: what the token's signature signs. */
export function personalMessageDigest(text: string): Uint8Array {
  const body = utf8ToBytes(text);
  return keccak_256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${body.length}`), body));
}

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The token of a signed SIWE text. */
export const encodeBearerToken = (text: string, signature: string): string => `${base64url(utf8ToBytes(text))}.${signature}`;

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

export type Decoded<T> = { ok: true; value: T } | { ok: false; reason: string };

/** The SIWE text and the signature of a token, or why it is not one (the reasons a node answers). */
export function decodeBearerToken(token: string): Decoded<{ text: string; signature: string }> {
  const dot = token.lastIndexOf(".");
  if (dot <= 0) return { ok: false, reason: "malformed token: expected base64url(SIWE message).0x-signature" };
  const encoded = token.slice(0, dot);
  const signature = token.slice(dot + 1);
  if (!BASE64URL.test(encoded)) return { ok: false, reason: "malformed token: the message part is not base64url" };
  if (!SIGNATURE.test(signature)) return { ok: false, reason: "malformed token: the signature is not 0x + 130 hex digits" };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(fromBase64url(encoded));
  } catch {
    return { ok: false, reason: "malformed SIWE message (EIP-4361)" };
  }
  return { ok: true, value: { text, signature } };
}

export interface TokenRules {
  /** Whether a SIWE `domain` is one this node accepts. */
  acceptsDomain(domain: string): boolean;
  /** The domains the node serves, in words, for the reason a token for another is refused with. */
  servedDomains?(): string;
  /** Longest accepted span from `issued-at` to `expiration-time` (default `MAX_TOKEN_LIFETIME_MS`). */
  maxLifetimeMs?: number;
  /** Epoch ms now. */
  now: number;
}

export interface CheckedToken {
  message: SiweMessage;
  /** The signed text: recover the signer of `personalMessageDigest(text)` and compare with `message.address`. */
  text: string;
  signature: string;
  issuedAt: number;
  expiresAt: number;
}

/**
 * Every check of a token but the signature's, cheapest first, so junk costs little: the reason of
 * the first that fails (the `data.reason` a node answers with -32001), or the token's parts.
 */
export function checkBearerToken(token: string, rules: TokenRules): Decoded<CheckedToken> {
  const decoded = decodeBearerToken(token);
  if (!decoded.ok) return decoded;
  const { text, signature } = decoded.value;
  const refuse = (reason: string) => ({ ok: false, reason }) as const;
  const message = parseSiweMessage(text);
  if (!message) return refuse("malformed SIWE message (EIP-4361)");
  if (message.version !== "1") return refuse("unsupported SIWE version: must be 1");
  if (!rules.acceptsDomain(message.domain)) {
    const served = rules.servedDomains?.();
    return refuse(`domain ${JSON.stringify(message.domain.slice(0, 100))} is not served by this node${served ? ` (it serves ${served}: sign in to one of those)` : ""}`);
  }
  if (!NONCE_PATTERN.test(message.nonce)) return refuse("nonce must be at least 8 alphanumeric characters");
  const issuedAt = parseSiweTime(message.issuedAt);
  if (issuedAt === undefined) return refuse("issued-at missing or not an RFC 3339 time");
  if (message.expirationTime === undefined) return refuse("expiration-time missing");
  const expiresAt = parseSiweTime(message.expirationTime);
  if (expiresAt === undefined) return refuse("expiration-time is not an RFC 3339 time");
  if (expiresAt <= rules.now) return refuse("token expired");
  const maxLifetimeMs = rules.maxLifetimeMs ?? MAX_TOKEN_LIFETIME_MS;
  if (expiresAt - issuedAt > maxLifetimeMs) return refuse(`expiration-time is more than ${maxLifetimeMs / 3_600_000} h after issued-at`);
  // Otherwise a token issued "in the future" would stretch its life past the maximum from now.
  if (issuedAt > rules.now + ISSUED_AT_SKEW_MS) return refuse("issued-at is in the future");
  if (message.notBefore !== undefined) {
    const notBefore = parseSiweTime(message.notBefore);
    if (notBefore === undefined) return refuse("not-before is not an RFC 3339 time");
    if (notBefore > rules.now) return refuse("token not valid yet (not-before)");
  }
  return { ok: true, value: { message, text, signature, issuedAt, expiresAt } };
}

/** What a token says about itself, not verified (a UI shows it before sending), or undefined. */
export function describeBearerToken(token: string): { text: string; address: string; domain: string; expiresAt?: number } | undefined {
  const decoded = decodeBearerToken(token);
  if (!decoded.ok) return undefined;
  const message = parseSiweMessage(decoded.value.text);
  if (!message) return undefined;
  const expiresAt = parseSiweTime(message.expirationTime);
  return { text: decoded.value.text, address: message.address, domain: message.domain, ...(expiresAt === undefined ? {} : { expiresAt }) };
}
