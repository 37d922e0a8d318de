import { publishHome } from "../actions/publishHome.js";
import { publishKey } from "../actions/publishKey.js";
import type { NeutralContext } from "../context.js";
import { deriveMessagingKey, type MessagingKey } from "../messaging-key.js";

/**
 * The account's messaging key, once the session is ready: signed in, this node made the account's
 * home, the key derived and its bundle published. Done once per session (again after a failure).
 */
export function messagingKey(context: NeutralContext): Promise<MessagingKey> {
  return context.cache.ready.get(async () => {
    await publishHome(context);
    const key = await deriveMessagingKey(context.signer);
    await publishKey(context, key);
    return key;
  });
}
