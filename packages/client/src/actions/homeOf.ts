import type { NeutralContext } from "../context.js";
import { NeutralError, type NeutralErrorWith, type RequestErrorType } from "../errors.js";
import type { HomeRecord } from "../generated/types.js";
import type { CallOptions } from "../rpc.js";
import { servedHome } from "../session/homes.js";
import { checkAddress } from "../utils/address.js";

export type HomeOfReturnType = HomeRecord | undefined;
/** INVALID_ARGUMENT: not an address; INVALID_HOME_RECORD: the node served a record the account did not sign. */
export type HomeOfErrorType = NeutralErrorWith<"INVALID_ARGUMENT" | "INVALID_HOME_RECORD"> | RequestErrorType;

/**
 * `account`'s newest home record in the federation, as the session's node serves it, after checking
 * the account signed it; undefined when there is none (or the node does not federate).
 */
export async function homeOf(context: NeutralContext, account: string, options?: CallOptions): Promise<HomeOfReturnType> {
  const id = checkAddress(account, "account");
  const { record, forged } = await servedHome(context, id, options);
  if (forged) throw new NeutralError("INVALID_HOME_RECORD", `The node served a home record for ${id} that ${id} did not sign`);
  return record;
}
