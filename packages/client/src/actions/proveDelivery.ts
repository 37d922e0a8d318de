import { logReceiptDigest, toHex } from "@neutral/protocol";
import type { NeutralContext } from "../context.js";
import { recoverAddress } from "../crypto/ecdsa.js";
import { NeutralError, type NeutralErrorWith, type RequestErrorType } from "../errors.js";
import type { Message } from "../generated/types.js";
import { messageDigest } from "../messages.js";
import type { CallOptions } from "../rpc.js";
import { authed } from "../session/authed.js";
import { homeNode } from "../session/homes.js";

/** A message whose copy the recipient's home node promised holds position `seq` of the recipient's log. */
export interface ProvenDelivery {
  id: string;
  seq: number;
  /** Its EIP-712 `LogReceipt` signature: keep it, it holds against every head that node signs of that log. */
  receipt: string;
  /** The node that signed it: the recipient's home node. */
  node: string;
}

export interface ProveDeliveryReturnType {
  proven: ProvenDelivery[];
  /** The messages not proven, with why: the node's word, or the SDK's when the promise does not check out. */
  problems: { id: string; message: string }[];
}
export type ProveDeliveryErrorType = NeutralErrorWith<"INVALID_ARGUMENT"> | RequestErrorType;

/**
 * Asks whether messages this account sent (1 to 100, as `send` and reads return them:
 * `DecryptedMessage.raw`) are in their recipients' mailbox logs (the verifiable mailbox): the
 * recipient's home node signs the position of the recipient's copy (EIP-712 `LogReceipt`), asked by
 * this account's node when it is another. Each promise is checked here, against the message's own
 * fields and the recipient's home node; one that was refused, not answered, or does not check out
 * is a problem on that message. Standalone only (`@neutral/client/actions`), not a method of
 * `createNeutral`'s session: an occasional check, kept out of the SDK's size budget.
 */
export async function proveDelivery(context: NeutralContext, messages: readonly Message[], options?: CallOptions): Promise<ProveDeliveryReturnType> {
  if (!Array.isArray(messages) || messages.length === 0 || messages.length > 100 || messages.some((message) => typeof message?.id !== "string")) {
    throw new NeutralError("INVALID_ARGUMENT", "messages must be 1 to 100 messages as send and reads return them");
  }
  const [self, info] = await Promise.all([context.signer.getAddress(), context.nodeInfo()]);
  const answer = await authed(context, () => context.client.proveDelivery({ ids: messages.map((message) => message.id) }, options));
  const proven: ProvenDelivery[] = [];
  const problems: ProveDeliveryReturnType["problems"] = [];
  for (const [index, message] of messages.entries()) {
    const proof = answer.proofs[index];
    const id = message.id;
    const unproven = (why: string) => problems.push({ id, message: why });
    if (message.from.toLowerCase() !== self) unproven("not a message this account sent");
    else if (!proof || proof.id !== id) unproven("the node answered for another message");
    else if ("problem" in proof) unproven(proof.problem);
    else {
      const home = await homeNode(context, message.to.toLowerCase());
      const node = home.kind === "record" ? home.node : info.address.toLowerCase();
      const digest = messageDigest(message);
      const { seq, receipt } = proof.position;
      let signer: string | undefined;
      try {
        signer = digest && recoverAddress(logReceiptDigest(toHex(digest), seq), receipt);
      } catch {
        signer = undefined;
      }
      if (signer === node) proven.push({ id, seq, receipt, node });
      else unproven(`its position is not signed by the recipient's home node ${node}`);
    }
  }
  return { proven, problems };
}
