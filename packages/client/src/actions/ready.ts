import type { NeutralContext } from "../context.js";
import type { NeutralErrorWith, RequestErrorType } from "../errors.js";
import { messagingKey } from "../session/ready.js";

export type ReadyReturnType = void;
/** A wallet that refused or failed to sign, a node that keeps another home or key for the account, or the node's refusal. */
export type ReadyErrorType = NeutralErrorWith<"WALLET_ERROR" | "PROTOCOL_ERROR"> | RequestErrorType;

/**
 * Signs in, makes this node the account's home (`publishHome`), derives the messaging key and
 * publishes its bundle if the node lacks it (`publishKey`). Once per session (again after a
 * failure); every other action does it first.
 */
export async function ready(context: NeutralContext): Promise<ReadyReturnType> {
  await messagingKey(context);
}
