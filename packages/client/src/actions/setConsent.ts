import { typedData } from "@neutral/protocol";
import type { NeutralContext } from "../context.js";
import type { Hex } from "../crypto/ecdsa.js";
import type { NeutralErrorWith } from "../errors.js";
import type { ConsentRecord, ConsentState } from "../generated/types.js";
import type { CallOptions } from "../rpc.js";
import { authed } from "../session/authed.js";
import { messagingKey } from "../session/ready.js";
import { checkAddress } from "../utils/address.js";
import type { ReadyErrorType } from "./ready.js";

/** What an account decided about a peer (consent): "none" undoes "allowed" or "blocked". */
export type ConsentChoice = ConsentRecord["state"];
/** The account's consent as its home node now keeps it. */
export type SetConsentReturnType = ConsentState;
export type SetConsentErrorType = NeutralErrorWith<"INVALID_ARGUMENT"> | ReadyErrorType;

/**
 * Consent: what this account decides about `peer`, signed (EIP-712 `Consent`) and kept on its home
 * node. "blocked": the peer's messages are refused; "allowed": they reach the inbox even under an
 * "allowed-only" policy; "none": neither.
 */
export async function setConsent(context: NeutralContext, peer: string, choice: ConsentChoice, options?: CallOptions): Promise<SetConsentReturnType> {
  const other = checkAddress(peer, "peer");
  const self = (await context.signer.getAddress()) as Hex;
  await messagingKey(context);
  const fields = { account: self, peer: other as Hex, state: choice, timestamp: context.now() };
  const signature = await context.signer.signTypedData(typedData("Consent", fields));
  return authed(context, () => context.client.setConsent({ records: [{ ...fields, signature }] }, options));
}
