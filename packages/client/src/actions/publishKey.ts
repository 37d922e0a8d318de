import type { NeutralContext } from "../context.js";
import { NeutralError, type NeutralErrorWith, type RequestErrorType } from "../errors.js";
import type { KeyBundle } from "../generated/types.js";
import { signKeyBundle, type MessagingKey } from "../messaging-key.js";
import { authed } from "../session/authed.js";
import { verifiedBundle } from "../session/key-bundle.js";

/** The account's key bundle for `key`, as the node now serves it. */
export type PublishKeyReturnType = KeyBundle;
export type PublishKeyErrorType = NeutralErrorWith<"WALLET_ERROR" | "PROTOCOL_ERROR"> | RequestErrorType;

/**
 * Publishes `key`'s bundle (`deriveMessagingKey(context.signer)`), signed by the account, unless the
 * node already serves one for it; a bundle the account did not sign is replaced. `ready` does it once
 * per session.
 */
export async function publishKey(context: NeutralContext, key: MessagingKey): Promise<PublishKeyReturnType> {
  const self = await context.signer.getAddress();
  const published = await verifiedBundle(context, self).catch((error: unknown) => {
    if (error instanceof NeutralError && error.code === "INVALID_KEY_BUNDLE") return undefined; // replace it
    throw error;
  });
  if (published && published.key.toLowerCase() === key.publicKeyHex) return published;
  const bundle = await signKeyBundle(context.signer, key, context.now());
  const stored = await authed(context, () => context.client.publishKey({ bundle }));
  if (stored.key.toLowerCase() !== key.publicKeyHex) {
    throw new NeutralError("PROTOCOL_ERROR", "The node keeps a newer key bundle for this account with a different key");
  }
  return stored;
}
