// The verifiable mailbox's log (protocol.md §13, openrpc.json "The verifiable mailbox"): each copy
// stored in an account's mailbox takes the next position `seq`, and its leaf commits to the account,
// the position, the copy's role, the other party and the sender's EIP-712 digest (not the
// ciphertext, so a deleted body leaves the log verifiable). The leaves form an RFC 9162 tree
// (merkle.ts) whose root the node signs as a `MailboxHead`.
import { keccak_256 } from "@noble/hashes/sha3.js";
import { DOMAIN_SEPARATOR, EIP712_PREFIX, hashTypedData, hashTypedDataWithHashedBytes, typeHash } from "./eip712.js";
import type { TypedValues } from "./generated/eip712.js";
import { fromHex } from "./hex.js";
import { merkleLeafHash } from "./merkle.js";
import type { Sha256 } from "./sha256.js";

/** The first byte of every leaf: the encoding's version. */
export const MAILBOX_LEAF_VERSION = 0x01;

/** Bytes of a leaf: version, account, seq, role, peer, digest. */
export const MAILBOX_LEAF_BYTES = 1 + 20 + 8 + 1 + 20 + 32;

/** Which copy a position holds: one its account received (inbox or requests folder), or one it sent. */
export type MailboxRole = "received" | "sent";

/**
 * The member of a message (openrpc.json `Message`) that states the position of its copy of `role` in
 * that copy's account's log, bound by that side's receipt (spec 3.0.0): `receiver_seq` for the
 * recipient's received copy, `sender_seq` for the sender's sent copy. A proof asked with `omitBound`
 * (spec 3.3.0) leaves out the positions messages state this way.
 */
export const POSITION_MEMBER = { received: "receiver_seq", sent: "sender_seq" } as const satisfies Record<MailboxRole, string>;

/** The position `message` states for its copy of `role` (`POSITION_MEMBER`), when it states one. */
export function statedPosition(message: Partial<Record<(typeof POSITION_MEMBER)[MailboxRole], unknown>>, role: MailboxRole): number | undefined {
  const seq = message[POSITION_MEMBER[role]];
  return typeof seq === "number" && Number.isSafeInteger(seq) && seq >= 1 ? seq : undefined;
}

/** The role's byte in a leaf. */
export const MAILBOX_ROLE_BYTE: Readonly<Record<MailboxRole, number>> = { received: 0x01, sent: 0x02 };

/** What a position commits to. Addresses and the digest as bytes or as hex (0x optional). */
export interface MailboxLeafFields {
  /** The mailbox's account. */
  account: Uint8Array | string;
  /** The position, from 1. */
  seq: number;
  role: MailboxRole;
  /** The other party: the sender of a received copy, the recipient of a sent one. */
  peer: Uint8Array | string;
  /** The EIP-712 digest of the sender's `Message` (or `ExpiringMessage`). */
  digest: Uint8Array | string;
}

function bytesOf(value: Uint8Array | string, length: number, field: string): Uint8Array {
  const bytes = typeof value === "string" ? fromHex(value) : value;
  if (bytes.length !== length) throw new RangeError(`a mailbox leaf's ${field} is ${length} bytes, not ${bytes.length}`);
  return bytes;
}

/** The leaf of one position: `0x01 ‖ account ‖ seq (uint64 big-endian) ‖ role ‖ peer ‖ digest`, 82 bytes. */
export function mailboxLeaf(fields: MailboxLeafFields): Uint8Array {
  if (!Number.isSafeInteger(fields.seq) || fields.seq < 1) throw new RangeError(`a mailbox position is a whole number from 1, not ${fields.seq}`);
  const role = MAILBOX_ROLE_BYTE[fields.role];
  if (role === undefined) throw new RangeError(`a mailbox leaf's role is "received" or "sent", not ${String(fields.role)}`);
  const leaf = new Uint8Array(MAILBOX_LEAF_BYTES);
  leaf[0] = MAILBOX_LEAF_VERSION;
  leaf.set(bytesOf(fields.account, 20, "account"), 1);
  new DataView(leaf.buffer).setBigUint64(21, BigInt(fields.seq));
  leaf[29] = role;
  leaf.set(bytesOf(fields.peer, 20, "peer"), 30);
  leaf.set(bytesOf(fields.digest, 32, "digest"), 50);
  return leaf;
}

/** The position's leaf hash in its account's tree: SHA-256(0x00 ‖ leaf), with `hash` (a node's native SHA-256). */
export const mailboxLeafHash = (fields: MailboxLeafFields, hash?: Sha256): Uint8Array => merkleLeafHash(mailboxLeaf(fields), hash);

/** A node's statement about an account's log: `size` positions, tree root `root`, signed at `timestamp`. */
export type MailboxHeadFields = TypedValues["MailboxHead"];

/** The EIP-712 digest a node signs for a head. */
export const mailboxHeadDigest = (head: MailboxHeadFields): Uint8Array => hashTypedData({ primaryType: "MailboxHead", message: head });

/** Which receipt of a message: its sender's node's, over the sender's copy, or its recipient's node's, over the recipient's. */
export type ReceiptRole = "sender" | "receiver";

/**
 * The EIP-712 digest a node signs as its promise that a copy of a message (`digest`, the sender's
 * EIP-712 digest, hex) holds position `seq` of its account's log: `LogReceipt`, `role` "receiver"
 * for the recipient's copy, "sender" for the sender's. A message stored from spec 3.0.0 on carries
 * its receipts in this form, with their positions (`sender_seq`, `receiver_seq`); the recipient's
 * node also signs it on request (`neutralService_proveDelivery`).
 */
export function logReceiptDigest(digest: string, seq: number, role: ReceiptRole = "receiver", keccak256: Keccak256 = keccak_256): Uint8Array {
  // Written out (not `hashTypedData`): a node signs one per stored copy, on its write path, and
  // gives its own keccak-256 there (the relay's runs on WebAssembly). The same digest, checked
  // against viem's in mailbox-log.test.ts.
  const roleHash = LOG_RECEIPT_ROLES[role];
  if (roleHash === undefined) throw new RangeError(`a receipt's role is "sender" or "receiver", not ${String(role)}`);
  if (!Number.isSafeInteger(seq) || seq < 0) throw new RangeError(`a receipt's position is a whole number, not ${seq}`);
  const message = fromHex(digest);
  if (message.length !== 32) throw new RangeError(`a receipt's message digest is 32 bytes, not ${message.length}`);
  const struct = new Uint8Array(128);
  struct.set(LOG_RECEIPT_TYPEHASH, 0);
  struct.set(message, 32);
  struct.set(roleHash, 64);
  new DataView(struct.buffer).setBigUint64(120, BigInt(seq));
  const typed = new Uint8Array(66);
  typed.set(EIP712_PREFIX, 0);
  typed.set(DOMAIN_SEPARATOR, 2);
  typed.set(keccak256(struct), 34);
  return keccak256(typed);
}

/** keccak-256 of bytes, as a caller may give it where a digest is made often (`logReceiptDigest`); @noble/hashes' by default. */
export type Keccak256 = (data: Uint8Array) => Uint8Array;

const LOG_RECEIPT_TYPEHASH = typeHash("LogReceipt");
const LOG_RECEIPT_ROLES: Readonly<Record<ReceiptRole, Uint8Array>> = {
  sender: keccak_256(new TextEncoder().encode("sender")),
  receiver: keccak_256(new TextEncoder().encode("receiver")),
};

/**
 * What remains of a message its sender's `expires` ended, once its body is gone (openrpc.json
 * `ExpiredMessage`, with the two parties the position gives): enough to recompute its digest, and so
 * its position's leaf. Addresses and the hash as hex (0x optional).
 */
export interface ExpiredMessageFields {
  from: string;
  to: string;
  /** keccak-256 of the ciphertext's bytes: the `bytes message` member as EIP-712 encodes it. */
  messageHash: string;
  timestamp: number;
  expires: number;
}

/** The EIP-712 digest of the sender's `ExpiringMessage` whose body hashes to `messageHash`: its digest, without the body. */
export const expiredMessageDigest = (fields: ExpiredMessageFields): Uint8Array => hashedMessageDigest(fields);

/**
 * The EIP-712 digest of the sender's `Message` (or, with `expires`, `ExpiringMessage`) whose body
 * hashes to `messageHash`: what a position's leaf and a receipt commit to, without the body.
 */
export function hashedMessageDigest(fields: Omit<ExpiredMessageFields, "expires"> & { expires?: number | undefined }): Uint8Array {
  const common = { from: fields.from, to: fields.to, message: fields.messageHash, timestamp: fields.timestamp };
  return fields.expires === undefined
    ? hashTypedDataWithHashedBytes("Message", common, ["message"])
    : hashTypedDataWithHashedBytes("ExpiringMessage", { ...common, expires: fields.expires }, ["message"]);
}
