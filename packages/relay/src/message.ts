import type { WireMessageFields } from "@neutral/protocol";

// The wire JSON codec is the protocol's; stores use it through here.
export { messageIdOf, messageJson, messageJsonTail, messageJsonWithId } from "@neutral/protocol";

/**
 * Where a message is stored (federation): `local`, sender and recipient both homed here (both
 * mailboxes); `outbound`, to a recipient homed on the node `destination` (the sender's mailbox and
 * the outbox); `inbound`, delivered by the sender's home node (the recipient's mailbox).
 */
export type Route = { kind: "local" } | { kind: "outbound"; destination: string } | { kind: "inbound" };

/**
 * A message as the node accepts it, before it has an id: every hex field lowercase. The receipts this
 * node owes (the sender's for a message it sends, the recipient's for one it stores for a recipient
 * homed here) are left out: the store signs them over the positions the copies take, in the
 * transaction that stores them (`LogReceipt`, spec 3.0.0). A receipt given is stored as it is: a
 * delivery's sender receipt (with `senderSeq` when the sender's node bound it), or a test's.
 */
export interface AcceptedMessage extends Omit<WireMessageFields, "senderReceipt"> {
  senderReceipt?: string | undefined;
  /** The EIP-712 digest of the sender's `Message`: the idempotency key. */
  digest: Uint8Array;
  /** Default local. */
  route?: Route;
  /** "requests": the recipient's copy goes into its requests folder (consent), not its inbox. */
  folder?: "requests";
}

/** Whether a store signs any receipt of `message` itself: it lacks one this node owes (see `AcceptedMessage`). */
export const signsReceipts = (message: AcceptedMessage): boolean =>
  message.senderReceipt === undefined || (message.receiverReceipt === undefined && message.route?.kind !== "outbound");
