import { typedData } from "@neutral/protocol";
import type { NeutralContext } from "../context.js";
import type { Hex } from "../crypto/ecdsa.js";
import { encryptHex, MAX_PLAINTEXT_BYTES, payloadLength } from "../crypto/nip44.js";
import { NeutralError, type NeutralErrorWith } from "../errors.js";
import type { DecryptedMessage } from "../messages.js";
import type { CallOptions } from "../rpc.js";
import { authed } from "../session/authed.js";
import { decodeAll } from "../session/decode.js";
import { peerKey } from "../session/peer-keys.js";
import { messagingKey } from "../session/ready.js";
import { checkAddress } from "../utils/address.js";
import type { ReadyErrorType } from "./ready.js";

/** How to send a message. */
export interface SendOptions extends CallOptions {
  /**
   * Give the message an end, this many ms after its timestamp: signed with it (EIP-712
   * `ExpiringMessage`), so no node can extend it; from then no node serves it, and each deletes it.
   */
  expiresIn?: number;
}

/** The message as the node stored it, decrypted and checked; `status` "pending" while another node has not received it. */
export type SendReturnType = DecryptedMessage;
/**
 * Before anything is sent: INVALID_ARGUMENT (an address, an empty text, `expiresIn`),
 * MESSAGE_TOO_LARGE (NIP-44's limit or the node's), NO_RECIPIENT_KEY, INVALID_KEY_BUNDLE (the
 * recipient's key is not a valid one); after: PROTOCOL_ERROR (the node stored something else).
 */
export type SendErrorType = NeutralErrorWith<"INVALID_ARGUMENT" | "MESSAGE_TOO_LARGE" | "NO_RECIPIENT_KEY" | "INVALID_KEY_BUNDLE" | "PROTOCOL_ERROR"> | ReadyErrorType;

/**
 * Encrypts `text` to `to`'s messaging key (its bundle's signature checked: the node is not trusted
 * to vouch for keys), signs and sends it; resolves with the stored message. To an account homed on
 * another node, the node waits a little for that node's receipt: the message may come back with
 * `status` "pending" (see `waitForDelivery`).
 */
export async function send(context: NeutralContext, to: string, text: string, options: SendOptions = {}): Promise<SendReturnType> {
  const { expiresIn, ...call } = options;
  const recipient = checkAddress(to, "to");
  if (expiresIn !== undefined && (!Number.isSafeInteger(expiresIn) || expiresIn <= 0)) {
    throw new NeutralError("INVALID_ARGUMENT", "expiresIn must be a positive whole number of milliseconds");
  }
  if (typeof text !== "string" || text.length === 0) throw new NeutralError("INVALID_ARGUMENT", "text must be a non-empty string");
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_PLAINTEXT_BYTES) {
    throw new NeutralError("MESSAGE_TOO_LARGE", `The text is ${bytes} bytes; NIP-44 encrypts at most ${MAX_PLAINTEXT_BYTES}`);
  }
  const { signer } = context;
  const [self, node] = await Promise.all([signer.getAddress(), context.nodeInfo(), messagingKey(context)]);
  const size = payloadLength(bytes);
  if (size > node.limits.maxMessageBytes) {
    throw new NeutralError("MESSAGE_TOO_LARGE", `Encrypted, the text is ${size} bytes; this node stores at most ${node.limits.maxMessageBytes}`);
  }
  const peer = await peerKey(context, recipient, true);
  if (!peer) throw new NeutralError("NO_RECIPIENT_KEY", `${recipient} has published no valid messaging key on this node: they must sign in once before they can receive`);
  let body: string;
  try {
    body = encryptHex(text, peer.conversationKey);
  } catch (error) {
    throw new NeutralError("INVALID_ARGUMENT", `The text cannot be encrypted: ${error instanceof Error ? error.message : "unknown reason"}`);
  }
  const timestamp = context.now();
  const fields = { from: self as Hex, to: recipient as Hex, message: `0x${body}` as const, timestamp };
  const expires = expiresIn === undefined ? undefined : timestamp + expiresIn;
  const signature =
    expires === undefined
      ? await signer.signTypedData(typedData("Message", fields))
      : await signer.signTypedData(typedData("ExpiringMessage", { ...fields, expires }));
  const signed = { from: self, to: recipient, message: body, timestamp, ...(expires !== undefined && { expires }), signature };
  const stored = await authed(context, () => context.client.sendMessage({ message: signed }, call));
  if (
    stored.from.toLowerCase() !== self ||
    stored.to.toLowerCase() !== recipient ||
    stored.message.toLowerCase() !== body ||
    stored.timestamp !== timestamp ||
    stored.expires !== expires
  ) {
    throw new NeutralError("PROTOCOL_ERROR", "The node answered with a message other than the one sent");
  }
  const [decoded] = await decodeAll(context, [stored]);
  // A node of spec 3.0.0 binds every receipt it signs: one that bound this session's before and
  // now does not would rather not be held to the position of what it just stored.
  if (stored.sender_seq !== undefined) context.cache.bindsReceipts = true;
  else if (context.cache.bindsReceipts) {
    const problem = "the sender receipt binds no position, though this node bound the receipts of what you sent before: it would rather not be held to where it stored your copy";
    return { ...decoded!, checks: { ...decoded!.checks, senderReceipt: false }, verified: false, problems: [...decoded!.problems, problem] };
  }
  return decoded!;
}
