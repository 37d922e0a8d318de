import type { WireMessageFields } from "@neutral/protocol";

// The wire JSON codec is the protocol's; stores use it through here.
export { messageIdOf, messageJson, messageJsonTail, messageJsonWithId } from "@neutral/protocol";

/**
 * Where a message is stored (federation): `local`, sender and recipient both homed here (both
 * mailboxes); `outbound`, to a recipient homed on the node `destination` (the sender's mailbox and
 * the outbox); `inbound`, delivered by the sender's home node (the recipient's mailbox).
 */
export type Route = { kind: "local" } | { kind: "outbound"; destination: string } | { kind: "inbound" };

/** A message as the node accepts it, before it has an id: every hex field lowercase. */
export interface AcceptedMessage extends WireMessageFields {
  /** The EIP-712 digest of the sender's `Message`: the idempotency key. */
  digest: Uint8Array;
  /** Default local. */
  route?: Route;
  /** "requests": the recipient's copy goes into its requests folder (consent), not its inbox. */
  folder?: "requests";
}
