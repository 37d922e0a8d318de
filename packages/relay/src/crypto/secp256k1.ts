import { createRequire } from "node:module";
import { secp256k1 as noble, schnorr } from "@noble/curves/secp256k1.js";
import { keccak256 } from "./keccak.js";

/**
 * The two secp256k1 operations the node needs, on 32-byte digests. Signatures are Ethereum's
 * 65 bytes `r ‖ s ‖ v` with v = 27 or 28.
 */
export interface Secp256k1 {
  /** Which implementation is active, for the start-up log. */
  readonly implementation: "native libsecp256k1" | "pure JS (@noble/curves)";
  /** The lowercase 0x address that signed `digest`, or undefined if the signature is not valid. */
  recoverAddress(digest: Uint8Array, signature: Uint8Array): string | undefined;
  sign(digest: Uint8Array, privateKey: Uint8Array): Uint8Array;
  /** The lowercase 0x address of a private key; throws if the key is not valid. */
  addressOf(privateKey: Uint8Array): string;
}

/** keccak256 of the 64-byte public key, last 20 bytes. */
function addressOfPublicKey(uncompressed: Uint8Array): string {
  return `0x${Buffer.from(keccak256(uncompressed.subarray(1))).subarray(12).toString("hex")}`;
}

/** v of 27/28 or 0/1 → 0/1; anything else → undefined. */
function recoveryId(v: number): number | undefined {
  if (v === 27 || v === 28) return v - 27;
  if (v === 0 || v === 1) return v;
  return undefined;
}

interface NativeBindings {
  ecdsaRecover(signature: Uint8Array, recid: number, message: Uint8Array, compressed: boolean): Uint8Array;
  ecdsaSign(message: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
  publicKeyCreate(privateKey: Uint8Array, compressed: boolean): Uint8Array;
}

function loadNativeBindings(): NativeBindings | undefined {
  try {
    // `secp256k1/bindings` is libsecp256k1 through N-API; it throws if the addon is not built.
    return createRequire(import.meta.url)("secp256k1/bindings") as NativeBindings;
  } catch {
    return undefined;
  }
}

function nativeSecp256k1(native: NativeBindings): Secp256k1 {
  return {
    implementation: "native libsecp256k1",
    recoverAddress(digest, signature) {
      const recid = signature.length === 65 ? recoveryId(signature[64]!) : undefined;
      if (recid === undefined) return undefined;
      try {
        return addressOfPublicKey(native.ecdsaRecover(signature.subarray(0, 64), recid, digest, false));
      } catch {
        return undefined;
      }
    },
    sign(digest, privateKey) {
      const { signature, recid } = native.ecdsaSign(digest, privateKey);
      const out = new Uint8Array(65);
      out.set(signature, 0);
      out[64] = 27 + recid;
      return out;
    },
    addressOf(privateKey) {
      return addressOfPublicKey(native.publicKeyCreate(privateKey, false));
    },
  };
}

function pureSecp256k1(): Secp256k1 {
  return {
    implementation: "pure JS (@noble/curves)",
    recoverAddress(digest, signature) {
      const recid = signature.length === 65 ? recoveryId(signature[64]!) : undefined;
      if (recid === undefined) return undefined;
      try {
        // noble's "recovered" format puts the recovery byte first.
        const recovered = new Uint8Array(65);
        recovered[0] = recid;
        recovered.set(signature.subarray(0, 64), 1);
        const publicKey = noble.recoverPublicKey(recovered, digest, { prehash: false });
        return addressOfPublicKey(noble.Point.fromBytes(publicKey).toBytes(false));
      } catch {
        return undefined;
      }
    },
    sign(digest, privateKey) {
      const recovered = noble.sign(digest, privateKey, { prehash: false, format: "recovered" });
      const out = new Uint8Array(65);
      out.set(recovered.subarray(1), 0);
      out[64] = 27 + recovered[0]!;
      return out;
    },
    addressOf(privateKey) {
      return addressOfPublicKey(noble.getPublicKey(privateKey, false));
    },
  };
}

/** libsecp256k1 when its addon loads (about 25× faster), else @noble/curves. `NEUTRAL_SECP256K1=js` forces the latter. */
export function loadSecp256k1(prefer: "native" | "js" = process.env.NEUTRAL_SECP256K1 === "js" ? "js" : "native"): Secp256k1 {
  const native = prefer === "native" ? loadNativeBindings() : undefined;
  return native ? nativeSecp256k1(native) : pureSecp256k1();
}

export const pureJsSecp256k1 = pureSecp256k1;

/**
 * Whether `key` (0x + 64 hex, any case) is an x-only secp256k1 public key, the BIP-340 form NIP-44
 * uses: the x coordinate of a point on the curve, below the field size. Rare (key publishes), so
 * the pure-JS square root (~0.1 ms) is fine.
 */
export function isXOnlyPublicKey(key: string): boolean {
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) return false;
  try {
    schnorr.utils.lift_x(BigInt(key));
    return true;
  } catch {
    return false;
  }
}
