import { fromHex, hashTypedData, MESSAGE_ID_PATTERN, typedData, verifyMerkleInclusion } from "@neutral/protocol";
import type { NeutralContext } from "../context.js";
import { recoverAddress, toHex, type Hex } from "../crypto/ecdsa.js";
import { NeutralError, type NeutralErrorWith } from "../errors.js";
import type { DeletionReceipt, MailboxProof, Message } from "../generated/types.js";
import { mailboxProblems, refusedSince } from "../mailbox-proof.js";
import type { CallOptions } from "../rpc.js";
import { authed } from "../session/authed.js";
import { messagingKey } from "../session/ready.js";
import type { ReadyErrorType } from "./ready.js";

/** The node's receipt for the deletion, checked to be its signature over this request. */
export type DeleteMessagesReturnType = DeletionReceipt;
/**
 * INVALID_ARGUMENT: not 1 to 100 message ids; PROTOCOL_ERROR: the node's proof of the positions to
 * delete does not hold (then nothing is signed), or the receipt is not its signature over this request.
 */
export type DeleteMessagesErrorType = NeutralErrorWith<"INVALID_ARGUMENT" | "PROTOCOL_ERROR"> | ReadyErrorType;

/** A message to delete: its id, or the message as a read served it (`DecryptedMessage.raw`), whose position is then checked against its fields. */
export type MessageToDelete = string | Message;

/**
 * Deletes this account's copies of messages (1 to 100, by `id` or as reads served them) from its
 * mailbox on the node: what it received, and its own copy of what it sent; the other party's copy
 * stays. The request names the positions it deletes (EIP-712 `PositionedDeletion`: the leaf hashes of
 * the copies, which the node proves in a head that extends the last one this device verified), so
 * that the node can cite it for those positions only (the verifiable mailbox). A message given whole
 * is checked to be what its position holds; for a bare id the SDK signs the position the node proves
 * for that id. Messages still pending delivery cannot be deleted yet (`RpcError` -32602 naming them).
 */
export async function deleteMessages(context: NeutralContext, messages: readonly MessageToDelete[], options?: CallOptions): Promise<DeleteMessagesReturnType> {
  const ids = Array.isArray(messages) ? messages.map((message: MessageToDelete) => (typeof message === "string" ? message : message?.id)) : [];
  if (ids.length === 0 || ids.length > 100 || ids.some((id) => typeof id !== "string" || !MESSAGE_ID_PATTERN.test(id))) {
    throw new NeutralError("INVALID_ARGUMENT", "ids must be 1 to 100 message ids (decimal strings) or messages as reads serve them");
  }
  const { signer } = context;
  const [self, node] = await Promise.all([signer.getAddress(), context.nodeInfo(), messagingKey(context)]);
  const nodeAddress = node.address.toLowerCase() as Hex;
  const proof = await provenPositions(context, self, nodeAddress, ids, messages, options);
  const deletion = { account: self as Hex, ids: ids.map(Number), leaves: proof.positions.map((position) => position.leafHash.toLowerCase() as Hex), timestamp: context.now() };
  const signature = await signer.signTypedData(typedData("PositionedDeletion", deletion));
  const receipt = await authed(context, () =>
    context.client.deleteMessages({ request: { account: self, ids: [...ids], leaves: deletion.leaves, timestamp: deletion.timestamp, signature } }, options),
  );
  const request = toHex(hashTypedData({ primaryType: "PositionedDeletion", message: deletion }));
  const signedBy = receipt.request === request ? recoverAddress(hashTypedData({ primaryType: "DeletionReceipt", message: { node: nodeAddress, request } }), receipt.signature) : undefined;
  if (signedBy !== nodeAddress) throw new NeutralError("PROTOCOL_ERROR", "The node's deletion receipt is not its signature over this request");
  return receipt;
}

/**
 * The positions of the account's copies of `ids`, proven in a head the node signed that extends
 * the last one this device verified (which it then becomes); each message given whole is what its
 * positions hold. Throws PROTOCOL_ERROR, signing nothing, when any of that fails.
 */
async function provenPositions(context: NeutralContext, account: string, node: string, ids: readonly string[], messages: readonly MessageToDelete[], options?: CallOptions): Promise<MailboxProof> {
  const known = await context.heads.get(account, node);
  const since = known !== undefined && known.size > 0 ? known.size : undefined;
  const proof = await authed(context, () => context.client.getProof({ ids: [...ids], ...(since !== undefined && { since }) }, options)).catch((error: unknown) => {
    if (refusedSince(error, "since")) return authed(context, () => context.client.getProof({ ids: [...ids] }, options));
    throw error;
  });
  const whole = messages.filter((message): message is Message => typeof message !== "string");
  const problems = mailboxProblems({ account, node, proof, messages: whole, ...(known && { known }) });
  const asked = new Set(ids);
  for (const position of proof.positions) {
    if (!asked.has(position.id)) problems.push({ kind: "altered", seq: position.seq, id: position.id, message: `Position ${position.seq} is of message ${position.id}, which was not asked for` });
    try {
      verifyMerkleInclusion(position.seq - 1, proof.head.size, fromHex(position.leafHash), (position.proof ?? []).map(fromHex), fromHex(proof.head.root));
    } catch {
      problems.push({ kind: "unproven", seq: position.seq, id: position.id, message: `Position ${position.seq} (message ${position.id}) is not in the head's tree` });
    }
  }
  if (problems.length > 0) {
    throw new NeutralError("PROTOCOL_ERROR", `The node's proof of the positions to delete does not hold, so no request was signed: ${problems.map((problem) => problem.message).join("; ")}`);
  }
  await context.heads.set(account, node, proof.head);
  return proof;
}
