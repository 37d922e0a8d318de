import type { NeutralContext } from "../context.js";
import type { Message } from "../generated/types.js";
import { decodeMessage, type DecodeContext, type DecryptedMessage } from "../messages.js";
import { homeNode } from "./homes.js";
import { peerKey } from "./peer-keys.js";

/** Stored messages decrypted and checked (signature, receipts against their accounts' home nodes). */
export async function decodeAll(context: NeutralContext, messages: readonly Message[]): Promise<DecryptedMessage[]> {
  const [self, node] = await Promise.all([context.signer.getAddress(), context.nodeInfo()]);
  const decode: DecodeContext = {
    self,
    sessionNode: node.address.toLowerCase(),
    trustedNodes: context.trustedNodes,
    homeOf: (account, refresh) => homeNode(context, account, refresh),
    // A peer whose bundle is invalid reads as one without a key: the message says so in `problems`.
    conversationKey: async (peer: string) => (await peerKey(context, peer, false).catch(() => undefined))?.conversationKey,
  };
  return Promise.all(messages.map((message) => decodeMessage(message, decode)));
}
