// The signed records federation passes between nodes, checked with the node's secp256k1: an
// account's home record and key bundle (anyone may relay them: only the account's signature
// counts), and a delivered message's two signatures.
import { createHash } from "node:crypto";
import { hashTypedData, nodeRequestDigestOf, type Hex, type NodeRequestFields } from "@neutral/protocol";
import { keyBundleDigest, messageDigest, receiptDigest } from "../crypto/eip712.js";
import { isXOnlyPublicKey, type Secp256k1 } from "../crypto/secp256k1.js";
import type { StoredHomeRecord, StoredKeyBundle } from "../storage/store.js";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
const KEY = /^0x[0-9a-fA-F]{64}$/;

const signatureBytes = (signature: string) => Buffer.from(signature.slice(2), "hex");

/** `nodeRequestDigest` of @neutral/protocol with Node's native SHA-256 of the body (a delivery's body is large). */
export const nodeRequestDigest = (fields: NodeRequestFields, body: string): Uint8Array =>
  nodeRequestDigestOf(fields, `0x${createHash("sha256").update(body, "utf8").digest("hex")}`);

/** The EIP-712 digest an account signs to name its home node: primary type `Home`. */
export function homeDigest(record: Pick<StoredHomeRecord, "account" | "node" | "timestamp">): Uint8Array {
  return hashTypedData({ primaryType: "Home", message: { account: record.account as Hex, node: record.node as Hex, timestamp: record.timestamp } });
}

/** `value` as a home record in stored form (lowercase) if it is well formed and signed by its account; else undefined. */
export function verifiedHomeRecord(curve: Secp256k1, value: unknown): StoredHomeRecord | undefined {
  const record = value as Partial<Record<keyof StoredHomeRecord, unknown>> | null;
  if (typeof record !== "object" || record === null) return undefined;
  const { account, node, timestamp, signature } = record;
  if (typeof account !== "string" || !ADDRESS.test(account) || typeof node !== "string" || !ADDRESS.test(node)) return undefined;
  if (typeof timestamp !== "number" || !Number.isSafeInteger(timestamp) || timestamp < 0 || typeof signature !== "string" || !SIGNATURE.test(signature)) return undefined;
  const stored = { account: account.toLowerCase(), node: node.toLowerCase(), timestamp, signature: signature.toLowerCase() };
  return curve.recoverAddress(homeDigest(stored), signatureBytes(stored.signature)) === stored.account ? stored : undefined;
}

/** `value` as a key bundle in stored form if it is well formed, its key on the curve, and signed by its account; else undefined. */
export function verifiedKeyBundle(curve: Secp256k1, value: unknown): StoredKeyBundle | undefined {
  const bundle = value as Partial<Record<keyof StoredKeyBundle, unknown>> | null;
  if (typeof bundle !== "object" || bundle === null) return undefined;
  const { account, key, timestamp, signature } = bundle;
  if (typeof account !== "string" || !ADDRESS.test(account) || typeof key !== "string" || !KEY.test(key) || !isXOnlyPublicKey(key.toLowerCase())) return undefined;
  if (typeof timestamp !== "number" || !Number.isSafeInteger(timestamp) || timestamp < 0 || typeof signature !== "string" || !SIGNATURE.test(signature)) return undefined;
  const stored = { account: account.toLowerCase(), key: key.toLowerCase(), timestamp, signature: signature.toLowerCase() };
  return curve.recoverAddress(keyBundleDigest(stored), signatureBytes(stored.signature)) === stored.account ? stored : undefined;
}

/** The fields a node delivers of a message (`RelayedMessage`), lowercase. */
export interface RelayedFields {
  from: string;
  to: string;
  message: string;
  timestamp: number;
  /** The sender's end for the message (`ExpiringMessage`). */
  expires?: number | undefined;
  signature: string;
  senderReceipt: string;
  /** The sender's copy's position on the sending node, which `senderReceipt` binds (a `LogReceipt`, spec 3.0.0). */
  senderSeq?: number | undefined;
}

/** What a delivered message's signatures say: who signed the message and the sender receipt (`digest`: the message's, when known already). */
export function relayedSigners(curve: Secp256k1, fields: RelayedFields, digest = messageDigest(fields)): { digest: Uint8Array; sender: string | undefined; senderNode: string | undefined } {
  return {
    digest,
    sender: curve.recoverAddress(digest, signatureBytes(fields.signature)),
    senderNode: curve.recoverAddress(receiptDigest(digest, "sender", fields.senderSeq), signatureBytes(fields.senderReceipt)),
  };
}
