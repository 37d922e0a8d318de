// An account's messaging key: a secp256k1 key for NIP-44 encryption, derived from the account's
// signature over a fixed EIP-712 message (so a wallet that can only sign can have one, and the
// same wallet always derives the same key), and published as a KeyBundle the account signs.
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import type { Signer } from "./account.js";
import { DERIVATION_SALT, derivationInfo, derivationValues, hashTypedData, typedData } from "@neutral/protocol";
import { fromHex, recoverAddress, toHex, type Hex } from "./crypto/ecdsa.js";
import type { KeyBundle } from "./generated/types.js";

/** A messaging key pair. `publicKey` is x-only (32 bytes, BIP-340 form), as NIP-44 uses it. */
export interface MessagingKey {
  readonly privateKey: Uint8Array;
  readonly publicKey: Uint8Array;
  /** `publicKey` as 0x hex: the `key` of a KeyBundle. */
  readonly publicKeyHex: Hex;
}

const CURVE_ORDER = secp256k1.Point.CURVE().n;

/** The typed data an account signs to derive its messaging key. */
export const derivationRequest = (account: string) => typedData("DeriveMessagingKey", derivationValues(account));

/**
 * The messaging key from a derivation signature: HKDF-SHA256 over its r‖s (v is dropped, and s is
 * taken in its low form, so wallets that encode either the same way agree).
 */
export function messagingKeyFromSignature(signature: Hex): MessagingKey {
  const bytes = fromHex(signature);
  if (bytes.length !== 65) throw new Error("a derivation signature is 65 bytes");
  const r = bytes.subarray(0, 32);
  let s = BigInt(`0x${bytesToHex(bytes.subarray(32, 64))}`);
  if (s > CURVE_ORDER / 2n) s = CURVE_ORDER - s;
  const ikm = concatBytes(r, fromHex(s.toString(16).padStart(64, "0")));
  for (let counter = 0; ; counter++) {
    const candidate = hkdf(sha256, ikm, utf8ToBytes(DERIVATION_SALT), utf8ToBytes(derivationInfo(counter)), 32);
    const scalar = BigInt(`0x${bytesToHex(candidate)}`);
    if (scalar > 0n && scalar < CURVE_ORDER) {
      const publicKey = secp256k1.getPublicKey(candidate, true).subarray(1);
      return { privateKey: candidate, publicKey, publicKeyHex: toHex(publicKey) };
    }
  }
}

/** Asks the account for its derivation signature and derives the key. */
export async function deriveMessagingKey(signer: Signer): Promise<MessagingKey> {
  return messagingKeyFromSignature(await signer.signTypedData(derivationRequest(await signer.getAddress())));
}

/** A KeyBundle for `key`, signed by the account. */
export async function signKeyBundle(signer: Signer, key: MessagingKey, timestamp = Date.now()): Promise<KeyBundle> {
  const account = (await signer.getAddress()) as Hex;
  const signature = await signer.signTypedData(typedData("KeyBundle", { account, key: key.publicKeyHex, timestamp }));
  return { account, key: key.publicKeyHex, timestamp, signature };
}

/**
 * True when `bundle` is `account`'s and signed by it. Checked on every bundle a node serves: the
 * node is not trusted to vouch for anyone's key.
 */
export function isValidKeyBundle(bundle: KeyBundle, account: string): boolean {
  if (bundle.account.toLowerCase() !== account.toLowerCase()) return false;
  let digest: Uint8Array;
  try {
    digest = hashTypedData({ primaryType: "KeyBundle", message: { account: bundle.account as Hex, key: bundle.key as Hex, timestamp: bundle.timestamp } });
  } catch {
    return false;
  }
  return recoverAddress(digest, bundle.signature) === account.toLowerCase();
}
