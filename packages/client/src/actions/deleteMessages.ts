import { hashTypedData, MESSAGE_ID_PATTERN, typedData } from "@neutral/protocol";
import type { NeutralContext } from "../context.js";
import { recoverAddress, toHex, type Hex } from "../crypto/ecdsa.js";
import { NeutralError, type NeutralErrorWith } from "../errors.js";
import type { DeletionReceipt } from "../generated/types.js";
import type { CallOptions } from "../rpc.js";
import { authed } from "../session/authed.js";
import { messagingKey } from "../session/ready.js";
import type { ReadyErrorType } from "./ready.js";

/** The node's receipt for the deletion, checked to be its signature over this request. */
export type DeleteMessagesReturnType = DeletionReceipt;
/** INVALID_ARGUMENT: not 1 to 100 message ids; PROTOCOL_ERROR: the receipt is not the node's signature over this request. */
export type DeleteMessagesErrorType = NeutralErrorWith<"INVALID_ARGUMENT" | "PROTOCOL_ERROR"> | ReadyErrorType;

/**
 * Deletes this account's copies of messages (by their `id`s, 1 to 100) from its mailbox on the
 * node: what it received, and its own copy of what it sent; the other party's copy stays. Signs the
 * request (EIP-712 `Deletion`). Messages still pending delivery cannot be deleted yet (`RpcError`
 * -32602 naming them).
 */
export async function deleteMessages(context: NeutralContext, ids: readonly string[], options?: CallOptions): Promise<DeleteMessagesReturnType> {
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > 100 || ids.some((id) => typeof id !== "string" || !MESSAGE_ID_PATTERN.test(id))) {
    throw new NeutralError("INVALID_ARGUMENT", "ids must be 1 to 100 message ids (decimal strings)");
  }
  const { signer } = context;
  const [self, node] = await Promise.all([signer.getAddress(), context.nodeInfo(), messagingKey(context)]);
  const deletion = { account: self as Hex, ids: ids.map(Number), timestamp: context.now() };
  const signature = await signer.signTypedData(typedData("Deletion", deletion));
  const receipt = await authed(context, () => context.client.deleteMessages({ request: { account: self, ids: [...ids], timestamp: deletion.timestamp, signature } }, options));
  const request = toHex(hashTypedData({ primaryType: "Deletion", message: deletion }));
  const nodeAddress = node.address.toLowerCase() as Hex;
  const signedBy = receipt.request === request ? recoverAddress(hashTypedData({ primaryType: "DeletionReceipt", message: { node: nodeAddress, request } }), receipt.signature) : undefined;
  if (signedBy !== nodeAddress) throw new NeutralError("PROTOCOL_ERROR", "The node's deletion receipt is not its signature over this request");
  return receipt;
}
