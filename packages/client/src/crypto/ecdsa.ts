// secp256k1 the way Ethereum uses it, with keys the SDK holds: 65-byte r‖s‖v signatures over
// 32-byte digests, addresses as the last 20 bytes of keccak256 of the public key. What the protocol
// fixes (hex, EIP-55, the EIP-191 digest) comes from @neutral/protocol.
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { fromHex, toHex, type Hex } from "@neutral/protocol";

export { checksumAddress, fromHex, isAddress, personalMessageDigest, toHex, type Hex } from "@neutral/protocol";

const HEX_32 = /^0x[0-9a-fA-F]{64}$/;
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

export const isPrivateKeyHex = (value: unknown): value is Hex => typeof value === "string" && HEX_32.test(value);

/** Lowercase 0x address of an uncompressed (65-byte) or compressed public key. */
export function addressOfPublicKey(publicKey: Uint8Array): string {
  const uncompressed = publicKey.length === 65 ? publicKey : secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return toHex(keccak_256(uncompressed.subarray(1)).subarray(12));
}

export const addressOfPrivateKey = (privateKey: Uint8Array): string => addressOfPublicKey(secp256k1.getPublicKey(privateKey, false));

/** Signs a 32-byte digest: r‖s‖v with v = 27 or 28, low-s, RFC 6979 deterministic. */
export function signDigest(digest: Uint8Array, privateKey: Uint8Array): Hex {
  const recovered = secp256k1.sign(digest, privateKey, { prehash: false, format: "recovered" });
  const signature = new Uint8Array(65);
  signature.set(recovered.subarray(1), 0);
  signature[64] = 27 + recovered[0]!;
  return toHex(signature);
}

/**
 * Normalises a wallet's signature: `v` as 27/28 (some wallets answer 0/1). Returns undefined for
 * anything that is not 65 bytes of hex.
 */
export function normalizeSignature(signature: string): Hex | undefined {
  if (!SIGNATURE.test(signature)) return undefined;
  const v = parseInt(signature.slice(130), 16);
  const normalized = v === 0 || v === 1 ? v + 27 : v;
  if (normalized !== 27 && normalized !== 28) return undefined;
  return `0x${signature.slice(2, 130).toLowerCase()}${normalized.toString(16)}`;
}

type CurvePoint = ReturnType<typeof secp256k1.Point.fromBytes>;

/**
 * Public keys met lately, by address (least recently used first out). A signature its caller
 * expects from one of them is verified against the key (with precomputed multiples from its second
 * use) instead of recovered: 2–2.7× faster here, which a node's receipts and a correspondent's
 * messages repeat on every page. Public keys only; at most ~80 KB each.
 */
const KEY_CACHE_SIZE = 32;
const keys = new Map<string, { point: CurvePoint; uses: number }>();
const { Point } = secp256k1;

const bigintOf = (bytes: Uint8Array): bigint => BigInt(toHex(bytes));

/**
 * Whether `address`'s cached key made `bytes` (r‖s‖v) over `digest`, exactly as recovering it would
 * say: ECDSA's check (R = (e·G + r·Q)/s has x = r), and R's parity is v's, so recovering gives Q.
 */
function madeBy(address: string, digest: Uint8Array, bytes: Uint8Array): boolean {
  const entry = keys.get(address);
  if (entry === undefined) return false;
  keys.delete(address);
  keys.set(address, entry);
  if (++entry.uses === 2) entry.point.precompute(4);
  const { Fn } = Point;
  const r = bigintOf(bytes.subarray(0, 32));
  const s = bigintOf(bytes.subarray(32, 64));
  if (r <= 0n || r >= Fn.ORDER || s <= 0n || s >= Fn.ORDER) return false;
  const w = Fn.inv(s);
  const R = Point.BASE.multiplyUnsafe(Fn.mul(Fn.create(bigintOf(digest)), w)).add(entry.point.multiplyUnsafe(Fn.mul(r, w)));
  if (R.is0()) return false;
  const { x, y } = R.toAffine();
  return x === r && Number(y & 1n) === bytes[64]! - 27;
}

/**
 * The lowercase address whose key made `signature` over `digest`, or undefined if it recovers none.
 * `expected`: who should have signed it (a message's sender, a receipt's node), checked first
 * against its cached key; the answer is the same either way.
 */
export function recoverAddress(digest: Uint8Array, signature: string, expected?: string): string | undefined {
  const normalized = normalizeSignature(signature);
  if (normalized === undefined) return undefined;
  const bytes = fromHex(normalized);
  if (expected !== undefined && digest.length === 32) {
    const address = expected.toLowerCase();
    if (madeBy(address, digest, bytes)) return address;
  }
  const recovered = new Uint8Array(65);
  recovered[0] = bytes[64]! - 27;
  recovered.set(bytes.subarray(0, 64), 1);
  try {
    const publicKey = secp256k1.recoverPublicKey(recovered, digest, { prehash: false });
    const address = addressOfPublicKey(publicKey);
    if (!keys.has(address)) {
      if (keys.size >= KEY_CACHE_SIZE) keys.delete(keys.keys().next().value!);
      keys.set(address, { point: Point.fromBytes(publicKey), uses: 0 });
    }
    return address;
  } catch {
    return undefined;
  }
}

/** Who signed `digest` (lowercase), or undefined: for any value found in a proof (not a signature, malformed, recovering none). */
export function signerOf(digest: Uint8Array, signature: unknown): string | undefined {
  try {
    return typeof signature === "string" ? recoverAddress(digest, signature) : undefined;
  } catch {
    return undefined;
  }
}
