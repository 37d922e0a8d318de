/** A message as the node accepts it, before it has an id: every hex field lowercase. */
export interface AcceptedMessage {
  from: string;
  to: string;
  /** Ciphertext as hex, no 0x. */
  message: string;
  timestamp: number;
  signature: string;
  senderReceipt: string;
  receiverReceipt: string;
  /** The EIP-712 digest of the sender's `Message`: the idempotency key (protocol.md §6). */
  digest: Uint8Array;
}

/**
 * The wire form of a stored message (protocol.md §4), in the interface document's field order.
 * Every field is digits or lowercase hex, so nothing needs escaping; the text is kept in storage
 * and spliced into responses as is.
 */
export function messageJson(id: number, message: AcceptedMessage): string {
  return (
    `{"id":"${id}","message":"${message.message}","from":"${message.from}","to":"${message.to}",` +
    `"signature":"${message.signature}","sender_receipt":"${message.senderReceipt}",` +
    `"receiver_receipt":"${message.receiverReceipt}","timestamp":${message.timestamp}}`
  );
}

const ID_HEAD = '{"id":"';
const ID_PROBE = `${ID_HEAD}0"`;

/**
 * The wire JSON of `message` after its id, for a store that learns the id inside its write
 * transaction: `messageJson(id, message)` is `messageJsonWithId(id, messageJsonTail(message))`.
 */
export function messageJsonTail(message: AcceptedMessage): string {
  const probe = messageJson(0, message);
  if (!probe.startsWith(ID_PROBE)) throw new Error("messageJson must begin with the id");
  return probe.slice(ID_PROBE.length);
}

/** `messageJson(id, message)`, given `messageJsonTail(message)`. */
export const messageJsonWithId = (id: number, tail: string): string => `${ID_HEAD}${id}"${tail}`;

/** The id of a message from its wire JSON (`messageJson`'s fixed `{"id":"<digits>"` prefix). */
export const messageIdOf = (json: string): number => Number(json.slice(ID_HEAD.length, json.indexOf('"', ID_HEAD.length)));
