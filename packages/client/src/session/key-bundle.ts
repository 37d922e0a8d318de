import type { NeutralContext } from "../context.js";
import { NeutralError } from "../errors.js";
import type { KeyBundle } from "../generated/types.js";
import { isValidKeyBundle } from "../messaging-key.js";
import type { CallOptions } from "../rpc.js";

/** `account`'s key bundle as the node serves it, its signature checked (`INVALID_KEY_BUNDLE` if the account did not sign it); undefined when it has none. */
export async function verifiedBundle(context: NeutralContext, account: string, call?: CallOptions): Promise<KeyBundle | undefined> {
  const bundle = await context.publicClient.getKey({ account }, call);
  if (bundle === null) return undefined;
  if (!isValidKeyBundle(bundle, account)) {
    throw new NeutralError("INVALID_KEY_BUNDLE", `The node served a key bundle for ${account} that ${account} did not sign`);
  }
  return bundle;
}
