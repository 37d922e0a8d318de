/**
 * NIP-44 version 2 payload encryption (nostr-protocol/nips 44.md; reference: paulmillr/nip44).
 *
 *   conversation_key = HKDF-extract(SHA-256, IKM = ecdh_x(priv, lift_x(pub)), salt = "nip44-v2")
 *   chacha_key | chacha_nonce | hmac_key = HKDF-expand(conversation_key, info = nonce, L = 76)
 *   padded   = u16be(len) || utf8(plaintext) || zeros   (to 2 + calcPaddedLength(len))
 *   payload  = 0x02 || nonce(32) || ChaCha20(padded) || HMAC-SHA256(hmac_key, nonce || ciphertext)
 *
 * Three encodings of the same payload bytes are exposed:
 * - raw bytes: {@link encryptPayload} / {@link decryptPayload}
 * - base64 (the NIP-44 standard text form): {@link encrypt} / {@link decrypt}
 * - lowercase hex (our wire `message` field): {@link encryptHex} / {@link decryptHex}
 *
 * Runs in browsers and Node: no Buffer, no node: imports.
 */
import { chacha20 } from "@noble/ciphers/chacha.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { expand as hkdfExpand, extract as hkdfExtract } from "@noble/hashes/hkdf.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, randomBytes } from "@noble/hashes/utils.js";

/** The payload version byte this module produces and accepts. */
export const NIP44_VERSION = 2;
/** Smallest plaintext, in UTF-8 bytes. */
export const MIN_PLAINTEXT_BYTES = 1;
/** Largest plaintext, in UTF-8 bytes. */
export const MAX_PLAINTEXT_BYTES = 65535;
/** Smallest valid raw payload: version(1) + nonce(32) + u16 prefix(2) + min padded(32) + mac(32). */
export const MIN_PAYLOAD_BYTES = 99;
/** Largest valid raw payload: version(1) + nonce(32) + u16 prefix(2) + 65535 + mac(32). */
export const MAX_PAYLOAD_BYTES = 65603;
/** Base64 text length bounds of a valid payload (ceil(bytes / 3) * 4). */
export const MIN_PAYLOAD_BASE64_LENGTH = 132;
export const MAX_PAYLOAD_BASE64_LENGTH = 87472;

const NONCE_BYTES = 32;
const MAC_BYTES = 32;
const KEY_BYTES = 32;
const HEADER_BYTES = 1 + NONCE_BYTES; // version + nonce
const SALT = new TextEncoder().encode("nip44-v2");
const utf8Encoder = new TextEncoder();
// fatal: invalid UTF-8 is an error, not U+FFFD; ignoreBOM: a leading U+FEFF is plaintext, keep it.
const utf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Every rejection by this module. The message names the reason and never contains key material. */
export class Nip44Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = "Nip44Error";
  }
}

/** Per-message keys derived from a conversation key and a nonce. */
export interface MessageKeys {
  /** 32-byte ChaCha20 key. */
  chachaKey: Uint8Array;
  /** 12-byte ChaCha20 (RFC 8439) nonce. */
  chachaNonce: Uint8Array;
  /** 32-byte HMAC-SHA256 key. */
  hmacKey: Uint8Array;
}

function assertBytes(value: unknown, length: number, what: string): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) throw new Nip44Error(`${what} must be a Uint8Array`);
  if (value.length !== length) throw new Nip44Error(`${what} must be ${length} bytes, got ${value.length}`);
}

/**
 * The conversation key shared by `privateKey`'s owner and `publicKeyX`'s owner (symmetric:
 * getConversationKey(a, B) equals getConversationKey(b, A)). `publicKeyX` is the 32-byte x-only
 * (BIP340 / nostr) public key; it is lifted to the point with even y. Throws Nip44Error for a
 * secret key outside 1..n-1 or an x that is not on the curve.
 */
export function getConversationKey(privateKey: Uint8Array, publicKeyX: Uint8Array): Uint8Array {
  assertBytes(privateKey, KEY_BYTES, "private key");
  assertBytes(publicKeyX, KEY_BYTES, "public key");
  if (!secp256k1.utils.isValidSecretKey(privateKey)) throw new Nip44Error("invalid private key: not in 1..n-1");
  const compressed = new Uint8Array(33);
  compressed[0] = 0x02; // even y
  compressed.set(publicKeyX, 1);
  let shared: Uint8Array;
  try {
    shared = secp256k1.getSharedSecret(privateKey, compressed, true);
  } catch {
    throw new Nip44Error("invalid public key: not a point on secp256k1");
  }
  try {
    return hkdfExtract(sha256, shared.subarray(1, 33), SALT);
  } finally {
    shared.fill(0);
  }
}

/** HKDF-expand(conversationKey, info = nonce, 76) split into the ChaCha20 key and nonce and the HMAC key. */
export function getMessageKeys(conversationKey: Uint8Array, nonce: Uint8Array): MessageKeys {
  assertBytes(conversationKey, KEY_BYTES, "conversation key");
  assertBytes(nonce, NONCE_BYTES, "nonce");
  const keys = hkdfExpand(sha256, conversationKey, nonce, 76);
  return { chachaKey: keys.subarray(0, 32), chachaNonce: keys.subarray(32, 44), hmacKey: keys.subarray(44, 76) };
}

/**
 * NIP-44 `calc_padded_len`: the padded size (excluding the 2-byte length prefix) for a plaintext of
 * `unpaddedLength` bytes. Minimum 32; then power-of-two buckets split in 8 chunks above 256.
 */
export function calcPaddedLength(unpaddedLength: number): number {
  if (!Number.isSafeInteger(unpaddedLength) || unpaddedLength < 1) {
    throw new Nip44Error(`invalid length for padding: ${String(unpaddedLength)}`);
  }
  if (unpaddedLength <= 32) return 32;
  // next_power = 1 << (floor(log2(len - 1)) + 1), computed exactly without floating-point log2.
  let nextPower = 1;
  while (nextPower <= unpaddedLength - 1) nextPower *= 2;
  const chunk = nextPower <= 256 ? 32 : nextPower / 8;
  return chunk * (Math.floor((unpaddedLength - 1) / chunk) + 1);
}

/**
 * Raw payload size in bytes for a plaintext of `plaintextBytes` UTF-8 bytes (1..65535), so a caller
 * can check a size limit before encrypting. The hex form is twice this; base64 is ceil(n/3)*4.
 */
export function payloadLength(plaintextBytes: number): number {
  assertPlaintextLength(plaintextBytes);
  return HEADER_BYTES + 2 + calcPaddedLength(plaintextBytes) + MAC_BYTES;
}

/** UTF-8 byte length of a string, as it will be encrypted (throws Nip44Error on unpaired surrogates). */
export function plaintextByteLength(plaintext: string): number {
  return encodePlaintext(plaintext).length;
}

function assertPlaintextLength(n: number): void {
  if (!Number.isSafeInteger(n) || n < MIN_PLAINTEXT_BYTES || n > MAX_PLAINTEXT_BYTES) {
    throw new Nip44Error(`invalid plaintext length: ${String(n)} bytes, must be ${MIN_PLAINTEXT_BYTES}..${MAX_PLAINTEXT_BYTES}`);
  }
}

// An unpaired UTF-16 surrogate has no UTF-8 encoding; TextEncoder would silently turn it into U+FFFD.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function encodePlaintext(plaintext: string): Uint8Array {
  if (typeof plaintext !== "string") throw new Nip44Error("plaintext must be a string");
  if (LONE_SURROGATE.test(plaintext)) throw new Nip44Error("invalid plaintext: unpaired UTF-16 surrogate");
  return utf8Encoder.encode(plaintext);
}

function pad(unpadded: Uint8Array): Uint8Array {
  const len = unpadded.length;
  assertPlaintextLength(len);
  const padded = new Uint8Array(2 + calcPaddedLength(len)); // zero-filled
  padded[0] = len >>> 8;
  padded[1] = len & 0xff;
  padded.set(unpadded, 2);
  return padded;
}

function unpad(padded: Uint8Array): string {
  if (padded.length < 2) throw new Nip44Error("invalid padding");
  const len = ((padded[0] ?? 0) << 8) | (padded[1] ?? 0);
  // len >= 1, and the padded size must be exactly what the sender's calc_padded_len gives for len
  // (which also guarantees 2 + len <= padded.length).
  if (len < MIN_PLAINTEXT_BYTES || padded.length !== 2 + calcPaddedLength(len)) throw new Nip44Error("invalid padding");
  try {
    return utf8Decoder.decode(padded.subarray(2, 2 + len));
  } catch {
    throw new Nip44Error("invalid plaintext: not valid UTF-8");
  }
}

function macOf(hmacKey: Uint8Array, nonce: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  return hmac.create(sha256, hmacKey).update(nonce).update(ciphertext).digest();
}

/** Constant-time comparison of two equal-length byte arrays (lengths are public). */
function equalConstantTime(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/**
 * Encrypts `plaintext` (1..65535 UTF-8 bytes) to raw payload bytes
 * `0x02 || nonce || ciphertext || mac`. `nonce` defaults to 32 CSPRNG bytes; pass one only for tests.
 */
export function encryptPayload(plaintext: string, conversationKey: Uint8Array, nonce: Uint8Array = randomBytes(NONCE_BYTES)): Uint8Array {
  const unpadded = encodePlaintext(plaintext);
  assertPlaintextLength(unpadded.length);
  const { chachaKey, chachaNonce, hmacKey } = getMessageKeys(conversationKey, nonce);
  const padded = pad(unpadded);
  const out = new Uint8Array(HEADER_BYTES + padded.length + MAC_BYTES);
  out[0] = NIP44_VERSION;
  out.set(nonce, 1);
  const ciphertext = chacha20(chachaKey, chachaNonce, padded); // RFC 8439, counter 0
  out.set(ciphertext, HEADER_BYTES);
  out.set(macOf(hmacKey, nonce, ciphertext), HEADER_BYTES + ciphertext.length);
  padded.fill(0);
  unpadded.fill(0);
  chachaKey.fill(0);
  chachaNonce.fill(0);
  hmacKey.fill(0);
  return out;
}

/**
 * Decrypts raw payload bytes. Checks, in order: version byte is 2, length 99..65603, MAC (constant
 * time, before any decryption), then padding. Throws Nip44Error on any failure.
 */
export function decryptPayload(payload: Uint8Array, conversationKey: Uint8Array): string {
  if (!(payload instanceof Uint8Array)) throw new Nip44Error("payload must be a Uint8Array");
  if (payload.length === 0) throw new Nip44Error("invalid payload length: 0");
  if (payload[0] !== NIP44_VERSION) throw new Nip44Error(`unknown encryption version ${String(payload[0])}`);
  if (payload.length < MIN_PAYLOAD_BYTES || payload.length > MAX_PAYLOAD_BYTES) {
    throw new Nip44Error(`invalid payload length: ${payload.length} bytes`);
  }
  const nonce = payload.subarray(1, HEADER_BYTES);
  const ciphertext = payload.subarray(HEADER_BYTES, payload.length - MAC_BYTES);
  const mac = payload.subarray(payload.length - MAC_BYTES);
  const { chachaKey, chachaNonce, hmacKey } = getMessageKeys(conversationKey, nonce);
  try {
    if (!equalConstantTime(macOf(hmacKey, nonce, ciphertext), mac)) throw new Nip44Error("invalid MAC");
    const padded = chacha20(chachaKey, chachaNonce, ciphertext);
    try {
      return unpad(padded);
    } finally {
      padded.fill(0);
    }
  } finally {
    chachaKey.fill(0);
    chachaNonce.fill(0);
    hmacKey.fill(0);
  }
}

/** NIP-44 standard API: encrypts to the base64 text form. */
export function encrypt(plaintext: string, conversationKey: Uint8Array, nonce?: Uint8Array): string {
  return base64Encode(encryptPayload(plaintext, conversationKey, nonce));
}

/**
 * NIP-44 standard API: decrypts the base64 text form. A leading `#` means a future non-base64
 * version (unsupported); text length must be 132..87472 and the base64 strict (RFC 4648, padded).
 */
export function decrypt(payloadBase64: string, conversationKey: Uint8Array): string {
  if (typeof payloadBase64 !== "string") throw new Nip44Error("payload must be a string");
  if (payloadBase64.startsWith("#")) throw new Nip44Error("unknown encryption version (non-base64 payload, '#' prefix)");
  const n = payloadBase64.length;
  if (n < MIN_PAYLOAD_BASE64_LENGTH || n > MAX_PAYLOAD_BASE64_LENGTH) throw new Nip44Error(`invalid payload length: ${n}`);
  return decryptPayload(base64Decode(payloadBase64), conversationKey);
}

/** Encrypts to lowercase hex of the raw payload (our wire `message` field). */
export function encryptHex(plaintext: string, conversationKey: Uint8Array, nonce?: Uint8Array): string {
  return bytesToHex(encryptPayload(plaintext, conversationKey, nonce));
}

/** Decrypts lowercase hex of the raw payload. Uppercase, odd length or non-hex characters are rejected. */
export function decryptHex(payloadHex: string, conversationKey: Uint8Array): string {
  if (typeof payloadHex !== "string") throw new Nip44Error("payload must be a string");
  const n = payloadHex.length;
  if (n < 2 * MIN_PAYLOAD_BYTES || n > 2 * MAX_PAYLOAD_BYTES || n % 2 !== 0) throw new Nip44Error(`invalid payload length: ${n} hex chars`);
  if (!/^[0-9a-f]*$/.test(payloadHex)) throw new Nip44Error("invalid hex: expected lowercase 0-9a-f");
  return decryptPayload(hexToBytes(payloadHex), conversationKey);
}

// ---- strict base64 (RFC 4648 §4, standard alphabet, '=' padding required) ----

const B64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64_LOOKUP = new Int16Array(128).fill(-1);
for (let i = 0; i < B64_ALPHABET.length; i++) B64_LOOKUP[B64_ALPHABET.charCodeAt(i)] = i;

/** Standard padded base64 of `bytes`. */
export function base64Encode(bytes: Uint8Array): string {
  let out = "";
  const full = bytes.length - (bytes.length % 3);
  for (let i = 0; i < full; i += 3) {
    const v = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += B64_ALPHABET[v >>> 18]! + B64_ALPHABET[(v >>> 12) & 63]! + B64_ALPHABET[(v >>> 6) & 63]! + B64_ALPHABET[v & 63]!;
  }
  const rest = bytes.length - full;
  if (rest === 1) {
    const v = (bytes[full] ?? 0) << 16;
    out += B64_ALPHABET[v >>> 18]! + B64_ALPHABET[(v >>> 12) & 63]! + "==";
  } else if (rest === 2) {
    const v = ((bytes[full] ?? 0) << 16) | ((bytes[full + 1] ?? 0) << 8);
    out += B64_ALPHABET[v >>> 18]! + B64_ALPHABET[(v >>> 12) & 63]! + B64_ALPHABET[(v >>> 6) & 63]! + "=";
  }
  return out;
}

/**
 * Strict decoding of standard padded base64: length a multiple of 4, alphabet only (no whitespace,
 * no URL-safe chars), at most two '=' and only at the end, and zero unused bits (canonical form).
 * Throws Nip44Error("invalid base64: ...").
 */
export function base64Decode(text: string): Uint8Array {
  if (text.length % 4 !== 0) throw new Nip44Error("invalid base64: length is not a multiple of 4");
  let pad = 0;
  if (text.endsWith("==")) pad = 2;
  else if (text.endsWith("=")) pad = 1;
  const out = new Uint8Array((text.length / 4) * 3 - pad);
  const sextet = (i: number): number => {
    const c = text.charCodeAt(i);
    const v = c < 128 ? (B64_LOOKUP[c] ?? -1) : -1;
    if (v < 0) throw new Nip44Error(`invalid base64: bad character at ${i}`);
    return v;
  };
  let o = 0;
  const dataEnd = text.length - (pad === 0 ? 0 : 4);
  for (let i = 0; i < dataEnd; i += 4) {
    const v = (sextet(i) << 18) | (sextet(i + 1) << 12) | (sextet(i + 2) << 6) | sextet(i + 3);
    out[o++] = v >>> 16;
    out[o++] = (v >>> 8) & 0xff;
    out[o++] = v & 0xff;
  }
  if (pad === 2) {
    const v = (sextet(dataEnd) << 18) | (sextet(dataEnd + 1) << 12);
    if ((v & 0xffff) !== 0) throw new Nip44Error("invalid base64: non-zero padding bits");
    out[o++] = v >>> 16;
  } else if (pad === 1) {
    const v = (sextet(dataEnd) << 18) | (sextet(dataEnd + 1) << 12) | (sextet(dataEnd + 2) << 6);
    if ((v & 0xff) !== 0) throw new Nip44Error("invalid base64: non-zero padding bits");
    out[o++] = v >>> 16;
    out[o++] = (v >>> 8) & 0xff;
  }
  return out;
}
