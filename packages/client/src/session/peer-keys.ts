import { fromHex } from "../crypto/ecdsa.js";
import { getConversationKey } from "../crypto/nip44.js";
import type { NeutralContext, PeerKey } from "../context.js";
import { NeutralError } from "../errors.js";
import { verifiedBundle } from "./key-bundle.js";
import { messagingKey } from "./ready.js";

const PEER_KEY_TTL_MS = 5 * 60_000;
const MISSING_KEY_TTL_MS = 10_000;

/**
 * `peer`'s verified key and the conversation key with it, cached (5 minutes; 10 s for a peer
 * without one; a failed lookup not at all); `fresh` asks the node again.
 */
export async function peerKey(context: NeutralContext, peer: string, fresh: boolean): Promise<PeerKey | undefined> {
  const { now, cache } = context;
  const cached = cache.peerKeys.get(peer);
  if (cached && cached.expires > now() && !fresh) return cached.value;
  const value = (async () => {
    const key = await messagingKey(context);
    const bundle = await verifiedBundle(context, peer);
    if (!bundle) return undefined;
    try {
      return { bundle, conversationKey: getConversationKey(key.privateKey, fromHex(bundle.key)) };
    } catch {
      throw new NeutralError("INVALID_KEY_BUNDLE", `The key ${peer} published is not a valid secp256k1 public key`);
    }
  })();
  const entry = { value, expires: now() + MISSING_KEY_TTL_MS };
  cache.peerKeys.set(peer, entry);
  value.then(
    (result) => {
      if (result) entry.expires = now() + PEER_KEY_TTL_MS;
    },
    () => cache.peerKeys.get(peer) === entry && cache.peerKeys.delete(peer),
  );
  return value;
}
