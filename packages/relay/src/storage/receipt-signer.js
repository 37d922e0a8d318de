// The node's receipts bound to positions (openrpc.json "Signatures and receipts", spec 3.0.0): a
// copy's position is taken inside the transaction that stores it, so the receipt over it is signed
// there too, by whatever commits the append (the SQLite writer thread, a PostgreSQL store's append).
// Plain JavaScript, like sqlite-append-batch.js, so that a writer thread runs it from the sources.
import { createRequire } from "node:module";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { messageJsonTail } from "@neutral/protocol";
import { logReceiptDigest } from "../crypto/keccak.js";

/**
 * Signs 32-byte digests with the node's key: libsecp256k1 when its addon loads (as
 * crypto/secp256k1.ts), else @noble/curves; `NEUTRAL_SECP256K1=js` forces the latter. Answers
 * Ethereum's 65-byte `r ‖ s ‖ v` (v 27 or 28) as 0x hex.
 * @param {Uint8Array} privateKey
 * @returns {(digest: Uint8Array) => string}
 */
export function digestSigner(privateKey) {
  const key = Uint8Array.from(privateKey);
  let native;
  if (process.env.NEUTRAL_SECP256K1 !== "js") {
    try {
      native = createRequire(import.meta.url)("secp256k1/bindings");
    } catch {
      native = undefined;
    }
  }
  const out = Buffer.alloc(65);
  if (native) {
    return (digest) => {
      const { signature, recid } = native.ecdsaSign(digest, key);
      out.set(signature, 0);
      out[64] = 27 + recid;
      return "0x" + out.toString("hex");
    };
  }
  return (digest) => {
    const recovered = secp256k1.sign(digest, key, { prehash: false, format: "recovered" });
    out.set(recovered.subarray(1), 0);
    out[64] = 27 + recovered[0];
    return "0x" + out.toString("hex");
  };
}

/**
 * The wire JSON tail (@neutral/protocol `messageJsonTail`) of a message whose copies were just given
 * positions: each receipt `fields` lacks is signed as a `LogReceipt` over its copy's position and
 * carried with it (`sender_seq`, `receiver_seq`); a receipt `fields` has (a delivery's sender
 * receipt, signed by the sender's node) is kept as it is.
 *
 * @param {import("@neutral/protocol").WireMessageFields} fields without the receipts this node signs
 * @param {string} digest the message's EIP-712 digest, hex (0x optional)
 * @param {{ sender?: number, receiver?: number }} seqs the positions of the copies stored here
 * @param {((digest: Uint8Array) => string) | undefined} sign
 */
export function boundMessageTail(fields, digest, seqs, sign) {
  return messageJsonTail({ ...fields, ...signReceipts(fields, digest, seqs, sign) });
}

/**
 * The receipts `fields` lacks, signed over the positions `seqs` with them: what
 * {@link boundMessageTail} adds to `fields`. `messageJsonTail({ ...fields, ...added })` is that tail,
 * so whoever holds `fields` can make the JSON from these few bytes (a cluster worker does).
 *
 * @param {import("@neutral/protocol").WireMessageFields} fields
 * @param {string} digest
 * @param {{ sender?: number, receiver?: number }} seqs
 * @param {((digest: Uint8Array) => string) | undefined} sign
 * @returns {SignedReceipts}
 */
export function signReceipts(fields, digest, seqs, sign) {
  /** @type {SignedReceipts} */
  const added = {};
  if (fields.senderReceipt === undefined && seqs.sender !== undefined) {
    added.senderReceipt = signed(sign, logReceiptDigest(digest, seqs.sender, "sender"));
    added.senderSeq = seqs.sender;
  }
  if (fields.receiverReceipt === undefined && seqs.receiver !== undefined) {
    added.receiverReceipt = signed(sign, logReceiptDigest(digest, seqs.receiver, "receiver"));
    added.receiverSeq = seqs.receiver;
  }
  if (fields.senderReceipt === undefined && added.senderReceipt === undefined) throw new Error("a message's sender receipt is neither given nor signed here");
  return added;
}

/** @typedef {{ senderReceipt?: string, senderSeq?: number, receiverReceipt?: string, receiverSeq?: number }} SignedReceipts */

/** @param {((digest: Uint8Array) => string) | undefined} sign @param {Uint8Array} digest */
function signed(sign, digest) {
  if (sign === undefined) throw new Error("this store signs no receipts: it was opened without the node's key (receiptKey)");
  return sign(digest);
}
