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

/** The lowercase address whose key made `signature` over `digest`, or undefined if it recovers none. */
export function recoverAddress(digest: Uint8Array, signature: string): string | undefined {
  const normalized = normalizeSignature(signature);
  if (normalized === undefined) return undefined;
  const bytes = fromHex(normalized);
  const recovered = new Uint8Array(65);
  recovered[0] = bytes[64]! - 27;
  recovered.set(bytes.subarray(0, 64), 1);
  try {
    return addressOfPublicKey(secp256k1.recoverPublicKey(recovered, digest, { prehash: false }));
  } catch {
    return undefined;
  }
}
