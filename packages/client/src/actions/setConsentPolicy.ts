import { typedData } from "@neutral/protocol";
import type { NeutralContext } from "../context.js";
import type { Hex } from "../crypto/ecdsa.js";
import type { ConsentState } from "../generated/types.js";
import type { CallOptions } from "../rpc.js";
import { authed } from "../session/authed.js";
import { messagingKey } from "../session/ready.js";
import type { ReadyErrorType } from "./ready.js";

/** "open" (everyone not blocked reaches the inbox) or "allowed-only" (others land in the requests folder). */
export type ConsentPolicyMode = NonNullable<ConsentState["policy"]>["mode"];
/** The account's consent as its home node now keeps it. */
export type SetConsentPolicyReturnType = ConsentState;
export type SetConsentPolicyErrorType = ReadyErrorType;

/** Who reaches the inbox: "open" or "allowed-only" (others land in `inbox({ folder: "requests" })`), signed (EIP-712 `ConsentPolicy`). */
export async function setConsentPolicy(context: NeutralContext, mode: ConsentPolicyMode, options?: CallOptions): Promise<SetConsentPolicyReturnType> {
  const self = (await context.signer.getAddress()) as Hex;
  await messagingKey(context);
  const fields = { account: self, mode, timestamp: context.now() };
  const signature = await context.signer.signTypedData(typedData("ConsentPolicy", fields));
  return authed(context, () => context.client.setConsent({ records: [], policy: { ...fields, signature } }, options));
}
