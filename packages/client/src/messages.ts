// Turning a stored Message into what an app shows: its plaintext and the result of every check.
import { fromHex, recoverAddress, toHex, type Hex } from "./crypto/ecdsa.js";
import { hashTypedData, logReceiptDigest } from "@neutral/protocol";
import { decryptPayload } from "./crypto/nip44.js";
import type { Message } from "./generated/types.js";

/** What was checked on a message, each independently. */
export interface MessageChecks {
  /** The body decrypted and authenticated (NIP-44 MAC) with the conversation key. */
  decrypted: boolean;
  /** The EIP-712 signature recovers `from`. */
  signature: boolean;
  /**
   * `sender_receipt` is signed by the sender's home node: the node the sender's home record names
   * or, for a sender without one, the node the session talks to (a `trustedNodes` node is accepted too).
   */
  senderReceipt: boolean;
  /**
   * `receiver_receipt` is signed by the recipient's home node, by the same rule. False while the
   * message is not delivered (`status` "pending" or "failed"): it has no receiver receipt yet.
   */
  receiverReceipt: boolean;
}

/**
 * Where a message is, as the sender's node reports it on the sender's copy: "pending" while the
 * recipient's node (another node of the federation) has not stored it, "failed" when it gave up
 * (`reason` says why). Every other message, received ones included, is "delivered".
 */
export type DeliveryStatus = "delivered" | "pending" | "failed";

export interface DecryptedMessage {
  id: string;
  /** Lowercase addresses. */
  from: string;
  to: string;
  /** "sent" when the account is `from` (a message to oneself is "sent"). */
  direction: "received" | "sent";
  /** Sender's timestamp, ms since the epoch (covered by its signature). */
  timestamp: number;
  /** The sender's end for the message, ms since the epoch (covered by its signature): no node serves it after. */
  expires?: number;
  /** The plaintext, or undefined when it could not be decrypted. */
  text: string | undefined;
  /** "pending" or "failed" only on a sent message to an account homed on another node; see `waitForDelivery`. */
  status: DeliveryStatus;
  /** With status "failed": why, in the sender's node's words. */
  reason?: string;
  checks: MessageChecks;
  /** Every check passed (so never while pending or failed). */
  verified: boolean;
  /** Why a check failed, in words; empty when verified. */
  problems: string[];
  /**
   * The verifiable mailbox: true when the page that served it proved it (its node's signed head,
   * consistent with the last one this device verified, holds it at the position the node claims);
   * false when that proof failed or was missing (the page's `mailboxProblems`, or live delivery's
   * `onMailboxProblems`, say why). Undefined where nothing was proven: `verify: false`, a message
   * just sent.
   */
  proven?: boolean;
  /** The message as the node served it. */
  raw: Message;
}

/** What the session knows of an account's home node. */
export type HomeNode =
  /** Its home record (signed by the account, checked) names `node` (lowercase). */
  | { kind: "record"; node: string }
  /** No node of the federation holds a record: it is homed where its key bundle is, for a reader the session's node. */
  | { kind: "none" }
  /** The lookup failed: its receipts cannot be checked now. */
  | { kind: "unknown"; reason: string };

export interface DecodeContext {
  /** The reading account (lowercase). */
  self: string;
  /** The node the session talks to (lowercase): the home node of an account without a home record. */
  sessionNode: string;
  /** Nodes whose receipts are accepted for any account, besides its home node (lowercase). */
  trustedNodes: readonly string[];
  /**
   * `account`'s home node, from its verified home record (cached); `refresh` asks the node again
   * (unless it was just asked), for a receipt that does not match what was cached: the account may have moved.
   */
  homeOf: (account: string, refresh?: boolean) => Promise<HomeNode>;
  /** The NIP-44 conversation key with `peer`, or undefined when the peer has no valid key. */
  conversationKey: (peer: string) => Promise<Uint8Array | undefined>;
}

/** The EIP-712 digest of a message, or undefined when its fields cannot even be encoded. */
export function messageDigest(message: Pick<Message, "from" | "to" | "message" | "timestamp" | "expires">): Uint8Array | undefined {
  try {
    const fields = { from: message.from as Hex, to: message.to as Hex, message: `0x${message.message}` as const, timestamp: message.timestamp };
    return message.expires === undefined
      ? hashTypedData({ primaryType: "Message", message: fields })
      : hashTypedData({ primaryType: "ExpiringMessage", message: { ...fields, expires: message.expires } });
  } catch {
    return undefined;
  }
}

/** A position a receipt binds (`sender_seq`, `receiver_seq`): a whole number from 1. */
export const isPosition = (seq: unknown): seq is number => typeof seq === "number" && Number.isSafeInteger(seq) && seq >= 1;

/**
 * The EIP-712 digest a node signs as its receipt of a message (`digest`, the sender's), in `role`: a
 * `Receipt`, or, with the position of the copy it stored (spec 3.0.0), a `LogReceipt` over it.
 */
export function receiptDigest(digest: Uint8Array, role: "sender" | "receiver", seq?: number): Uint8Array {
  if (seq !== undefined) return logReceiptDigest(toHex(digest), seq, role);
  return hashTypedData({ primaryType: "Receipt", message: { message: toHex(digest), role } });
}

const ROLE = { sender: "sender", receiver: "recipient" } as const;

/** Checks one receipt against the home node of `account`; a problem in words when it fails. */
function checkReceipt(
  role: "sender" | "receiver",
  digest: Uint8Array | undefined,
  receipt: string,
  seq: unknown,
  account: string,
  home: HomeNode,
  context: CheckContext,
): string | undefined {
  const what = `the ${role} receipt`;
  if (digest === undefined) return `${what} cannot be checked: the message's fields are malformed`;
  if (seq !== undefined && !isPosition(seq)) return `${what}'s position (${role}_seq) is not a position`;
  if (home.kind === "unknown") return `${what} cannot be checked: the home node of ${account} could not be looked up (${home.reason})`;
  const expected = home.kind === "record" ? home.node : context.sessionNode;
  const signer = recoverAddress(receiptDigest(digest, role, isPosition(seq) ? seq : undefined), receipt, expected);
  if (signer === undefined) return `${what} is not a valid signature`;
  if (signer === expected || context.trustedNodes.includes(signer)) return undefined;
  const trusted = context.trustedNodes.length > 0 ? " or a trusted node" : "";
  return home.kind === "record"
    ? `${what} is signed by ${signer}, not by the ${ROLE[role]}'s home node ${expected}${trusted} (named in ${account}'s home record)`
    : `${what} is signed by ${signer}, not by this session's node ${expected}${trusted} (${account} has no home record)`;
}

/** `checkReceipt`, asking for the account's home record afresh once when the cached one does not match. */
async function receiptProblem(role: "sender" | "receiver", digest: Uint8Array | undefined, receipt: string, seq: unknown, account: string, cached: HomeNode, context: CheckContext) {
  const problem = checkReceipt(role, digest, receipt, seq, account, cached, context);
  if (problem === undefined || digest === undefined) return problem;
  const fresh = await context.homeOf(account, true);
  return fresh === cached ? problem : checkReceipt(role, digest, receipt, seq, account, fresh, context);
}

/** What `checkMessage` needs: where each account is homed, and which nodes are trusted anyway. */
export type CheckContext = Pick<DecodeContext, "sessionNode" | "trustedNodes" | "homeOf">;

/** The signature and receipt checks of one message, without decrypting it. */
export interface SignatureChecks {
  status: DeliveryStatus;
  signature: boolean;
  senderReceipt: boolean;
  receiverReceipt: boolean;
  /** Why a check failed, in words, in the order signature, sender receipt, receiver receipt. */
  problems: string[];
}

/**
 * Checks a message's sender signature and both receipts against the home nodes `context` names:
 * everything a reader can check without the conversation key. Used for live reading (decodeMessage)
 * and for an exported mailbox verified offline (export.ts).
 */
export async function checkMessage(raw: Message, context: CheckContext): Promise<SignatureChecks> {
  const from = raw.from.toLowerCase();
  const to = raw.to.toLowerCase();
  const status: DeliveryStatus = raw.status === "pending" || raw.status === "failed" ? raw.status : "delivered";
  const problems: string[] = [];
  const digest = messageDigest(raw);

  const hasSignature = typeof raw.signature === "string";
  const signature = hasSignature && digest !== undefined && recoverAddress(digest, raw.signature, from) === from;
  if (!signature) problems.push(hasSignature ? "the sender's signature does not match the message" : "the sender's signature is missing");
  const [senderHome, receiverHome] = await Promise.all([context.homeOf(from), context.homeOf(to)]);
  const senderProblem =
    typeof raw.sender_receipt === "string" ? await receiptProblem("sender", digest, raw.sender_receipt, raw.sender_seq, from, senderHome, context) : "the sender receipt is missing";
  if (senderProblem) problems.push(senderProblem);
  let receiverProblem: string | undefined;
  if (typeof raw.receiver_receipt === "string") {
    receiverProblem = await receiptProblem("receiver", digest, raw.receiver_receipt, raw.receiver_seq, to, receiverHome, context);
  } else if (status === "pending") {
    const node = receiverHome.kind === "record" ? ` ${receiverHome.node}` : "";
    receiverProblem = `not delivered yet: the recipient's home node${node} has not stored it (no receiver receipt so far)`;
  } else if (status === "failed") {
    receiverProblem = raw.reason ? `delivery failed: ${raw.reason}` : "delivery failed (the sender's node gave no reason)";
  } else {
    receiverProblem = "the receiver receipt is missing";
  }
  if (receiverProblem) problems.push(receiverProblem);
  return { status, signature, senderReceipt: senderProblem === undefined, receiverReceipt: receiverProblem === undefined, problems };
}

export async function decodeMessage(raw: Message, context: DecodeContext): Promise<DecryptedMessage> {
  const from = raw.from.toLowerCase();
  const to = raw.to.toLowerCase();
  const direction = from === context.self ? "sent" : "received";
  const { status, signature, senderReceipt, receiverReceipt, problems } = await checkMessage(raw, context);

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
    ...(raw.expires !== undefined && { expires: raw.expires }),
    text,
    status,
    ...(status === "failed" && raw.reason !== undefined && { reason: raw.reason }),
    checks,
    verified: checks.decrypted && signature && senderReceipt && receiverReceipt,
    problems,
    raw,
  };
}
