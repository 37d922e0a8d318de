import type { WireMessageFields } from "@neutral/protocol";

// The wire JSON codec is the protocol's; stores use it through here.
export { messageIdOf, messageJson, messageJsonTail, messageJsonWithId } from "@neutral/protocol";

/** A message as the node accepts it, before it has an id: every hex field lowercase. */
export interface AcceptedMessage extends WireMessageFields {
  /** The EIP-712 digest of the sender's `Message`: the idempotency key. */
  digest: Uint8Array;
}
