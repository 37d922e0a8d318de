// The bearer token of protocol.md §8, made in the browser (and by build.mjs for the worked example):
// token = base64url(UTF-8 text of an EIP-4361 message) + "." + the EIP-191 personal_sign signature.
// It builds the same text as the client SDK (packages/client/src/auth/token.ts) and satisfies what the
// relay checks (packages/relay/src/auth/siwe-token.ts): version 1, a domain the node serves, a nonce of
// at least 8 alphanumerics, an expiration-time at most 24 h after issued-at.
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";

export const MAX_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_STATEMENT = "Sign in to neutralService.";
const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export interface SiweFields {
  /** `host:port` the node serves (in a browser: `location.host`). */
  domain: string;
  /** The node's URL (in a browser: `location.origin`). */
  uri: string;
  address: string;
  statement?: string;
  nonce: string;
  /** Epoch ms. */
  issuedAt: number;
  /** Epoch ms. */
  expiresAt: number;
}

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

/** EIP-55 mixed-case form of an address (EIP-4361 requires it). */
export function checksumAddress(address: string): string {
  const lower = address.toLowerCase().replace(/^0x/, "");
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = "0x";
  for (let i = 0; i < 40; i++) out += parseInt(hash[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  return out;
}

/** The checksummed address of a private key: the last 20 bytes of keccak256 of the uncompressed public key. */
export function addressOf(privateKey: Uint8Array): string {
  const publicKey = secp256k1.getPublicKey(privateKey, false);
  return checksumAddress(bytesToHex(keccak_256(publicKey.subarray(1)).subarray(12)));
}

/** 17 random alphanumerics. */
export function newNonce(): string {
  const bytes = new Uint8Array(17);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join("");
}

/** The EIP-4361 text. */
export function siweMessage(fields: SiweFields): string {
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

/** keccak256 of the EIP-191 `personal_sign` envelope of a text. */
export function personalMessageDigest(text: string): Uint8Array {
  const body = utf8ToBytes(text);
  return keccak_256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${body.length}`), body));
}

/** EIP-191 `personal_sign`: 0x + r ‖ s ‖ v with v = 27 or 28 (low s, RFC 6979). */
export function personalSign(text: string, privateKey: Uint8Array): string {
  const recovered = secp256k1.sign(personalMessageDigest(text), privateKey, { prehash: false, format: "recovered" });
  return `0x${bytesToHex(recovered.subarray(1))}${(27 + recovered[0]!).toString(16)}`;
}

/** The address that signed `text` (personal_sign), lowercase, or undefined. */
export function recoverSigner(text: string, signature: string): string | undefined {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return undefined;
  const bytes = hexToBytes(signature.slice(2));
  const recovered = new Uint8Array(65);
  recovered[0] = (bytes[64]! >= 27 ? bytes[64]! - 27 : bytes[64]!) & 1;
  recovered.set(bytes.subarray(0, 64), 1);
  try {
    const publicKey = secp256k1.recoverPublicKey(recovered, personalMessageDigest(text), { prehash: false });
    const point = secp256k1.Point.fromBytes(publicKey).toBytes(false);
    return `0x${bytesToHex(keccak_256(point.subarray(1)).subarray(12))}`;
  } catch {
    return undefined;
  }
}

export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
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
  const expiresAt = issuedAt + Math.min(options.lifetimeMs ?? 60 * 60 * 1000, MAX_TOKEN_LIFETIME_MS);
  const address = addressOf(privateKey);
  const message = siweMessage({
    domain: options.domain,
    uri: options.uri,
    address,
    statement: options.statement ?? DEFAULT_STATEMENT,
    nonce: options.nonce ?? newNonce(),
    issuedAt,
    expiresAt,
  });
  const signature = personalSign(message, privateKey);
  return { token: `${base64url(utf8ToBytes(message))}.${signature}`, message, signature, address, expiresAt };
}

/** What a pasted token says about itself (not verified: the node does that), or undefined if it is not one. */
export function describeToken(token: string): { message: string; address: string; domain: string; expiresAt?: number } | undefined {
  const dot = token.lastIndexOf(".");
  if (dot <= 0 || !/^[A-Za-z0-9_-]+={0,2}$/.test(token.slice(0, dot))) return undefined;
  let message: string;
  try {
    message = new TextDecoder("utf-8", { fatal: true }).decode(fromBase64url(token.slice(0, dot)));
  } catch {
    return undefined;
  }
  const lines = message.split("\n");
  const header = /^(?:[a-zA-Z][a-zA-Z0-9+\-.]*:\/\/)?(\S+) wants you to sign in with your Ethereum account:$/.exec(lines[0] ?? "");
  const address = lines[1] ?? "";
  if (!header || !/^0x[0-9a-fA-F]{40}$/.test(address)) return undefined;
  const expiry = lines.find((line) => line.startsWith("Expiration Time: "));
  const expiresAt = expiry === undefined ? NaN : Date.parse(expiry.slice("Expiration Time: ".length));
  return { message, address, domain: header[1]!, ...(Number.isNaN(expiresAt) ? {} : { expiresAt }) };
}
