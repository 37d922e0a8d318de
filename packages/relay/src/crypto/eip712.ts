import { DOMAIN_SEPARATOR, EIP712_PREFIX, typeHash } from "@neutral/protocol";
import { keccak256, logReceiptDigest } from "./keccak.js";

/*
 * The EIP-712 digests of Message, Receipt and KeyBundle (@neutral/protocol), specialised to their
 * fixed field lists: a generic encoder gives the same bytes (eip712.test.ts checks these against
 * @neutral/protocol's and viem's hashTypedData) but spends most of a send's non-signature time on
 * walking the type. The type hashes and the domain separator come from the protocol package, so a
 * spec edit that changes a type changes them; the field order below must follow (the tests fail
 * otherwise).
 */

const utf8 = (text: string) => new TextEncoder().encode(text);

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** A 20-byte address left-padded to a 32-byte word. */
function addressWord(address: string): Uint8Array {
  const word = new Uint8Array(32);
  word.set(Buffer.from(address.slice(2), "hex"), 12);
  return word;
}

/** A non-negative integer (≤ 2^53 - 1) as a big-endian 32-byte word. */
function uintWord(value: number): Uint8Array {
  const word = new Uint8Array(32);
  const view = new DataView(word.buffer);
  view.setUint32(24, Math.floor(value / 2 ** 32));
  view.setUint32(28, value >>> 0);
  return word;
}

const MESSAGE_TYPEHASH = typeHash("Message");
const EXPIRING_MESSAGE_TYPEHASH = typeHash("ExpiringMessage");
const RECEIPT_TYPEHASH = typeHash("Receipt");
const KEY_BUNDLE_TYPEHASH = typeHash("KeyBundle");

const typedDataDigest = (structHash: Uint8Array) => keccak256(concat(EIP712_PREFIX, DOMAIN_SEPARATOR, structHash));

export interface MessageFields {
  /** 0x + 40 hex, any case. */
  from: string;
  to: string;
  /** The ciphertext as hex without 0x. */
  message: string;
  timestamp: number;
  /** When the sender gave the message an end: then the type is `ExpiringMessage`. */
  expires?: number | undefined;
}

/** The EIP-712 digest the sender signs: primary type `Message`, or `ExpiringMessage` with `expires`. */
export function messageDigest(fields: MessageFields): Uint8Array {
  const common = [addressWord(fields.from), addressWord(fields.to), keccak256(Buffer.from(fields.message, "hex")), uintWord(fields.timestamp)];
  const structHash =
    fields.expires === undefined
      ? keccak256(concat(MESSAGE_TYPEHASH, ...common))
      : keccak256(concat(EXPIRING_MESSAGE_TYPEHASH, ...common, uintWord(fields.expires)));
  return typedDataDigest(structHash);
}

export type ReceiptRole = "sender" | "receiver";

const ROLE_HASHES: Record<ReceiptRole, Uint8Array> = {
  sender: keccak256(utf8("sender")),
  receiver: keccak256(utf8("receiver")),
};

/**
 * The EIP-712 digest a node signs as a receipt over the message's digest: primary type `Receipt`, or,
 * with `seq` (the position of the copy it stored: spec 3.0.0), `LogReceipt`.
 */
export function receiptDigest(messageDigest: Uint8Array, role: ReceiptRole, seq?: number): Uint8Array {
  if (seq !== undefined) return logReceiptDigest(Buffer.from(messageDigest).toString("hex"), seq, role);
  return typedDataDigest(keccak256(concat(RECEIPT_TYPEHASH, messageDigest, ROLE_HASHES[role])));
}

export interface KeyBundleFields {
  /** 0x + 40 hex, any case. */
  account: string;
  /** The x-only messaging public key: 0x + 64 hex, any case. */
  key: string;
  timestamp: number;
}

/** The EIP-712 digest an account signs to publish its messaging key: primary type `KeyBundle`. */
export function keyBundleDigest(fields: KeyBundleFields): Uint8Array {
  const key = Buffer.from(fields.key.slice(2), "hex");
  if (key.length !== 32) throw new Error("a key bundle's key is 32 bytes");
  return typedDataDigest(keccak256(concat(KEY_BUNDLE_TYPEHASH, addressWord(fields.account), key, uintWord(fields.timestamp))));
}
