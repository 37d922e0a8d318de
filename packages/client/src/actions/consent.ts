import type { NeutralContext } from "../context.js";
import type { ConsentState } from "../generated/types.js";
import type { CallOptions } from "../rpc.js";
import { authed } from "../session/authed.js";
import { messagingKey } from "../session/ready.js";
import type { ReadyErrorType } from "./ready.js";

/** The policy and every allowed or blocked peer, all pages read (`end` true). */
export type ConsentReturnType = ConsentState;
export type ConsentErrorType = ReadyErrorType;

/** The account's consent policy and every allowed or blocked peer, as its home node keeps them. */
export async function consent(context: NeutralContext, options?: CallOptions): Promise<ConsentReturnType> {
  await messagingKey(context);
  let state = await authed(context, () => context.client.getConsent({ limit: 100 }, options));
  const records = [...state.records];
  while (state.end === false && state.records.length > 0) {
    const after = state.records.at(-1)!.peer;
    state = await authed(context, () => context.client.getConsent({ after, limit: 100 }, options));
    records.push(...state.records);
  }
  return { account: state.account, policy: state.policy, records, end: true };
}
