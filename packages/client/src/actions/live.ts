import type { NeutralContext } from "../context.js";
import { NeutralError, type NeutralErrorWith } from "../errors.js";
import type { Message, SubscribeFilter } from "../generated/types.js";
import { liveMessages, type LiveOptions } from "../live.js";
import type { DecryptedMessage } from "../messages.js";
import { decodeAll } from "../session/decode.js";
import { proveMessages } from "./proveMessages.js";
import { messagingKey } from "../session/ready.js";
import { checkAddress } from "../utils/address.js";
import type { ReadyErrorType } from "./ready.js";

export type LiveReturnType = AsyncIterable<DecryptedMessage>;
/**
 * INVALID_ARGUMENT (an address, `chat` with `from` or `direction`) is thrown at once; what
 * retrying cannot fix ends the iteration: -32602, a token refused even fresh (-32001), a node
 * without live delivery (-32601, or HTTP 406 as `RpcTransportError`).
 */
export type LiveErrorType = NeutralErrorWith<"INVALID_ARGUMENT"> | ReadyErrorType;

/**
 * Live delivery: the messages the filter selects (default: received), decrypted and checked like
 * the inbox's, and proven like its pages (`verify`, the default: each message `proven`, and what
 * failed given to `onMailboxProblems`), oldest first, each once, as the node stores them, until
 * `signal` aborts. See `LiveOptions` for where it starts, and live.ts for how it reconnects.
 */
export function live(context: NeutralContext, options: LiveOptions = {}): LiveReturnType {
  if (options.chat !== undefined && (options.from !== undefined || options.direction !== undefined)) {
    throw new NeutralError("INVALID_ARGUMENT", "chat selects both directions of one chat: it cannot be combined with from or direction");
  }
  const window = { ...(options.since !== undefined && { since: options.since }), ...(options.until !== undefined && { until: options.until }) };
  const filter: SubscribeFilter =
    options.chat !== undefined
      ? { chat: checkAddress(options.chat, "chat"), ...window }
      : { ...(options.from !== undefined && { from: checkAddress(options.from, "from") }), ...(options.direction !== undefined && { direction: options.direction }), ...window };
  const session = {
    client: context.client,
    ready: () => messagingKey(context).then(() => {}),
    renewToken: context.renewToken,
    decode: async (message: Message) => (await decodeAll(context, [message]))[0]!,
    nodeInfo: context.nodeInfo,
    ...(context.verify && { prove: (messages: readonly Message[]) => proveMessages(context, messages, { ...(options.signal && { signal: options.signal }) }) }),
  };
  return { [Symbol.asyncIterator]: () => liveMessages(session, filter, options) };
}
