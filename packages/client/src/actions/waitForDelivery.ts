import type { NeutralContext } from "../context.js";
import { NeutralError, type NeutralErrorWith } from "../errors.js";
import type { DecryptedMessage } from "../messages.js";
import { authed } from "../session/authed.js";
import { decodeAll } from "../session/decode.js";
import { messagingKey } from "../session/ready.js";
import { pause } from "../utils/pause.js";
import type { ReadyErrorType } from "./ready.js";

export interface DeliveryWaitOptions {
  /**
   * Give up after this many ms and resolve with the message as it is then (still "pending").
   * Default: no limit (the sender's node retries for `nodeInfo().limits.retryPeriodSeconds`, then fails it). 0 checks once.
   */
  timeoutMs?: number;
  /** Stops the wait: it rejects with `signal.reason` (an "AbortError" DOMException unless the signal was given another). */
  signal?: AbortSignal;
  /** The longest pause between two looks at the node, ms (default 2000); the first ones come sooner. */
  intervalMs?: number;
}

/** The message as the node now serves it: "delivered", "failed", or still "pending" when `timeoutMs` ran out. */
export type WaitForDeliveryReturnType = DecryptedMessage;
/** INVALID_ARGUMENT: not a message this account sent; PROTOCOL_ERROR: the node no longer serves it as sent. An abort rejects with `signal.reason`. */
export type WaitForDeliveryErrorType = NeutralErrorWith<"INVALID_ARGUMENT" | "PROTOCOL_ERROR"> | ReadyErrorType;

const DEFAULT_DELIVERY_POLL_MS = 2_000;

/**
 * Resolves once a message this account sent is no longer pending: with the message as the node
 * now serves it, "delivered" (both receipts, checked) or "failed" (with `reason`). A message that
 * is not pending resolves at once. Polls the sender's copy.
 */
export async function waitForDelivery(context: NeutralContext, message: DecryptedMessage, options: DeliveryWaitOptions = {}): Promise<WaitForDeliveryReturnType> {
  if (message.status !== "pending") return message;
  const { signal } = options;
  const self = await context.signer.getAddress();
  if (message.from !== self) throw new NeutralError("INVALID_ARGUMENT", "Only a message this account sent can be waited for");
  if (!/^[1-9][0-9]{0,18}$/.test(message.id)) throw new NeutralError("INVALID_ARGUMENT", "The message has no valid id");
  await messagingKey(context);
  const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
  const longest = Math.max(1, options.intervalMs ?? DEFAULT_DELIVERY_POLL_MS);
  // The sender's copy is the first sent message after id − 1.
  const after = (BigInt(message.id) - 1n).toString();
  const sent = message.raw;
  let latest = message;
  for (let delay = Math.min(250, longest); ; delay = Math.min(longest, delay * 2)) {
    const page = await authed(context, () => context.client.getInbox({ inboxFilter: { direction: "sent" }, after, limit: 1 }, { ...(signal && { signal }) })).catch((error: unknown) => {
      throw signal?.aborted ? signal.reason : error; // an abort rejects with the signal's reason, as a pause does
    });
    const stored = page.data[0];
    if (stored?.id !== message.id || stored.message.toLowerCase() !== sent.message.toLowerCase() || stored.to.toLowerCase() !== message.to || stored.timestamp !== message.timestamp) {
      throw new NeutralError("PROTOCOL_ERROR", `The node no longer serves sent message ${message.id} as it was sent`);
    }
    [latest] = (await decodeAll(context, [stored])) as [DecryptedMessage];
    if (latest.status !== "pending") return latest;
    const left = deadline - Date.now();
    if (left <= 0) return latest;
    await pause(Math.min(delay, left), signal);
  }
}
