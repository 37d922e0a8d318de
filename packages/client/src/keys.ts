import { secp256k1 } from "@noble/curves/secp256k1.js";
import { addressOfPrivateKey, fromHex, isPrivateKeyHex, toHex, type Hex } from "./crypto/ecdsa.js";
import { NeutralError } from "./errors.js";

/** A new random account key (0x + 64 hex), from the platform's CSPRNG. */
export const generatePrivateKey = (): Hex => toHex(secp256k1.utils.randomSecretKey());

/** The lowercase address of a private key. */
export function addressOfKey(privateKey: string): string {
  if (!isPrivateKeyHex(privateKey)) throw new NeutralError("INVALID_ACCOUNT", "A private key must be 0x followed by 64 hex digits");
  return addressOfPrivateKey(fromHex(privateKey));
}
