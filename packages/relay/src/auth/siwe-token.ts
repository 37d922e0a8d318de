import { keccak_256 } from "@noble/hashes/sha3.js";
import { RpcError } from "@neutral/server";
import type { Secp256k1 } from "../crypto/secp256k1.js";
import { parseSiweMessage, parseSiweTime } from "./siwe-message.js";

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
  /** Longest accepted span from `issued-at` to `expiration-time`. protocol.md §8: 24 h. */
  maxLifetimeMs: number;
  now(): number;
}

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const NONCE = /^[A-Za-z0-9]{8,}$/;
/** How far ahead of the node's clock a token's `issued-at` may be (clocks differ a little). */
const ISSUED_AT_SKEW_MS = 5 * 60 * 1000;

/** keccak256 of the EIP-191 `personal_sign` envelope of `text`. */
function personalMessageDigest(text: string): Uint8Array {
  const body = Buffer.from(text, "utf8");
  return keccak_256(Buffer.concat([Buffer.from(`\x19Ethereum Signed Message:\n${body.length}`, "utf8"), body]));
}

function refuse(reason: string): never {
  throw RpcError.unauthorized(reason);
}

/**
 * Checks a bearer token of protocol.md §8: `base64url(SIWE message) "." 0x-signature`. Throws
 * RpcError -32001 whose `data.reason` names the first failed check. The cheap checks run before
 * the signature recovery so that junk costs little.
 */
export function verifySiweToken(token: string, rules: TokenRules, curve: Secp256k1): VerifiedToken {
  const dot = token.lastIndexOf(".");
  if (dot <= 0) refuse("malformed token: expected base64url(SIWE message).0x-signature");
  const encoded = token.slice(0, dot);
  const signatureHex = token.slice(dot + 1);
  if (!BASE64URL.test(encoded)) refuse("malformed token: the message part is not base64url");
  if (!SIGNATURE.test(signatureHex)) refuse("malformed token: the signature is not 0x + 130 hex digits");

  const text = Buffer.from(encoded, "base64url").toString("utf8");
  const message = parseSiweMessage(text);
  if (!message) refuse("malformed SIWE message (EIP-4361)");
  if (message.version !== "1") refuse("unsupported SIWE version: must be 1");
  if (!rules.acceptsDomain(message.domain)) refuse(`domain ${JSON.stringify(message.domain.slice(0, 100))} is not served by this node`);
  if (!NONCE.test(message.nonce)) refuse("nonce must be at least 8 alphanumeric characters");
  const issuedAt = parseSiweTime(message.issuedAt);
  if (issuedAt === undefined) refuse("issued-at missing or not an RFC 3339 time");
  if (message.expirationTime === undefined) refuse("expiration-time missing");
  const expiresAt = parseSiweTime(message.expirationTime);
  if (expiresAt === undefined) refuse("expiration-time is not an RFC 3339 time");
  const now = rules.now();
  if (expiresAt <= now) refuse("token expired");
  if (expiresAt - issuedAt > rules.maxLifetimeMs) refuse("expiration-time is more than 24 h after issued-at");
  // Otherwise a token issued "in the future" would stretch its life past 24 h from now.
  if (issuedAt > now + ISSUED_AT_SKEW_MS) refuse("issued-at is in the future");
  if (message.notBefore !== undefined) {
    const notBefore = parseSiweTime(message.notBefore);
    if (notBefore === undefined) refuse("not-before is not an RFC 3339 time");
    if (notBefore > now) refuse("token not valid yet (not-before)");
  }

  const signer = curve.recoverAddress(personalMessageDigest(text), Buffer.from(signatureHex.slice(2), "hex"));
  const address = message.address.toLowerCase();
  if (signer !== address) refuse("bad signature: it does not recover the message's address");
  return { address, expiresAt };
}
