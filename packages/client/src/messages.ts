// Turning a stored Message into what an app shows: its plaintext and the result of every check.
import { fromHex, recoverAddress, toHex, type Hex } from "./crypto/ecdsa.js";
import { hashTypedData } from "@neutral/protocol";
import { decryptPayload } from "./crypto/nip44.js";
import type { Message } from "./generated/types.js";

/** What was checked on a message, each independently. */
export interface MessageChecks {
  /** The body decrypted and authenticated (NIP-44 MAC) with the conversation key. */
  decrypted: boolean;
  /** The EIP-712 signature recovers `from`. */
  signature: boolean;
  /** `sender_receipt` is signed by the sender's node (here: the node `nodeInfo` names). */
  senderReceipt: boolean;
  /** `receiver_receipt` is signed by the receiver's node. */
  receiverReceipt: boolean;
}

export interface DecryptedMessage {
  id: string;
  /** Lowercase addresses. */
  from: string;
  to: string;
  /** "sent" when the account is `from` (a message to oneself is "sent"). */
  direction: "received" | "sent";
  /** Sender's timestamp, ms since the epoch (covered by its signature). */
  timestamp: number;
  /** The plaintext, or undefined when it could not be decrypted. */
  text: string | undefined;
  checks: MessageChecks;
  /** Every check passed. */
  verified: boolean;
  /** Why a check failed, in words; empty when verified. */
  problems: string[];
  /** The message as the node served it. */
  raw: Message;
}

export interface DecodeContext {
  /** The reading account (lowercase). */
  self: string;
  /** The nodes whose receipts are accepted (lowercase). */
  senderNodes: readonly string[];
  receiverNodes: readonly string[];
  /** The NIP-44 conversation key with `peer`, or undefined when the peer has no valid key. */
  conversationKey: (peer: string) => Promise<Uint8Array | undefined>;
}

/** The EIP-712 digest of a message, or undefined when its fields cannot even be encoded. */
export function messageDigest(message: Pick<Message, "from" | "to" | "message" | "timestamp">): Uint8Array | undefined {
  try {
    return hashTypedData({
      primaryType: "Message",
      message: { from: message.from as Hex, to: message.to as Hex, message: `0x${message.message}`, timestamp: message.timestamp },
    });
  } catch {
    return undefined;
  }
}

function receiptDigest(digest: Uint8Array, role: "sender" | "receiver"): Uint8Array {
  return hashTypedData({ primaryType: "Receipt", message: { message: toHex(digest), role } });
}

export async function decodeMessage(raw: Message, context: DecodeContext): Promise<DecryptedMessage> {
  const from = raw.from.toLowerCase();
  const to = raw.to.toLowerCase();
  const direction = from === context.self ? "sent" : "received";
  const problems: string[] = [];
  const digest = messageDigest(raw);

  const signature = digest !== undefined && recoverAddress(digest, raw.signature) === from;
  if (!signature) problems.push("the sender's signature does not match the message");
  const senderNode = digest === undefined ? undefined : recoverAddress(receiptDigest(digest, "sender"), raw.sender_receipt);
  const senderReceipt = senderNode !== undefined && context.senderNodes.includes(senderNode);
  if (!senderReceipt) problems.push("the sender receipt is not signed by the sender's node");
  const receiverNode = digest === undefined || raw.receiver_receipt === undefined ? undefined : recoverAddress(receiptDigest(digest, "receiver"), raw.receiver_receipt);
  const receiverReceipt = receiverNode !== undefined && context.receiverNodes.includes(receiverNode);
  if (!receiverReceipt) problems.push("the receiver receipt is not signed by the receiver's node");

  let text: string | undefined;
  const peer = direction === "sent" ? to : from;
  const conversationKey = await context.conversationKey(peer);
  if (conversationKey === undefined) {
    problems.push(`no valid messaging key is published for ${peer}`);
  } else {
    try {
      text = decryptPayload(fromHex(raw.message), conversationKey);
    } catch {
      problems.push("the body does not decrypt: tampered, or encrypted to another key");
    }
  }
  const checks: MessageChecks = { decrypted: text !== undefined, signature, senderReceipt, receiverReceipt };
  return {
    id: raw.id,
    from,
    to,
    direction,
    timestamp: raw.timestamp,
    text,
    checks,
    verified: checks.decrypted && signature && senderReceipt && receiverReceipt,
    problems,
    raw,
  };
}
