import type { NeutralContext } from "../context.js";
import type { NeutralErrorWith, RequestErrorType } from "../errors.js";
import type { KeyBundle } from "../generated/types.js";
import type { CallOptions } from "../rpc.js";
import { verifiedBundle } from "../session/key-bundle.js";
import { checkAddress } from "../utils/address.js";

export type KeyOfReturnType = KeyBundle | undefined;
/** INVALID_ARGUMENT: not an address; INVALID_KEY_BUNDLE: the node served a bundle the account did not sign. */
export type KeyOfErrorType = NeutralErrorWith<"INVALID_ARGUMENT" | "INVALID_KEY_BUNDLE"> | RequestErrorType;

/** `account`'s key bundle as the session's node serves it, after checking its signature; undefined when it has none. */
export async function keyOf(context: NeutralContext, account: string, options?: CallOptions): Promise<KeyOfReturnType> {
  return verifiedBundle(context, checkAddress(account, "account"), options);
}
