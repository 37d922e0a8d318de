import type { NeutralContext } from "../context.js";
import { NeutralError, type NeutralErrorWith, type RequestErrorType } from "../errors.js";
import type { HomeRecord } from "../generated/types.js";
import { isValidHomeRecord, signHomeRecord } from "../home.js";
import { authed } from "../session/authed.js";
import { isMethodNotFound, rememberHome, servedHome } from "../session/homes.js";

/** The account's home record naming this node, as the node now keeps it; undefined when the node does not federate. */
export type PublishHomeReturnType = HomeRecord | undefined;
export type PublishHomeErrorType = NeutralErrorWith<"WALLET_ERROR" | "PROTOCOL_ERROR"> | RequestErrorType;

/**
 * Makes this node the account's home: signs and publishes a home record naming it, unless the
 * newest record already does (no signature then). `ready` does it first of all, so that the node
 * then serves the account's key bundle as its own. A node without `neutralService_publishHome`
 * (-32601) is used as it is.
 */
export async function publishHome(context: NeutralContext): Promise<PublishHomeReturnType> {
  const self = await context.signer.getAddress();
  const node = (await context.nodeInfo()).address.toLowerCase();
  const { record: current } = await servedHome(context, self);
  if (context.cache.homesUnsupported) return undefined;
  if (current?.node.toLowerCase() === node) {
    rememberHome(context, self, current);
    return current;
  }
  // Newer than the current record, so that it wins even against a clock that was ahead.
  const record = await signHomeRecord(context.signer, node, Math.max(context.now(), (current?.timestamp ?? 0) + 1));
  let stored: HomeRecord;
  try {
    stored = await authed(context, () => context.client.publishHome({ record }));
  } catch (error) {
    if (!isMethodNotFound(error)) throw error;
    context.cache.homesUnsupported = true;
    return undefined;
  }
  if (stored.node.toLowerCase() !== node || !isValidHomeRecord(stored, self)) {
    throw new NeutralError("PROTOCOL_ERROR", `The node keeps a newer home record for this account, naming another node (${stored.node.toLowerCase()})`);
  }
  rememberHome(context, self, stored);
  return stored;
}
