import type { NeutralContext } from "../context.js";
import type { MailboxHead, Message } from "../generated/types.js";
import { askProof, mailboxProblems, type MailboxProblem } from "../mailbox-proof.js";
import type { CallOptions } from "../rpc.js";
import { authed } from "../session/authed.js";
import type { RequestErrorType } from "../errors.js";

export interface ProveMessagesReturnType {
  /** The node's head the messages were proven against. */
  head: MailboxHead;
  /** Empty when the head is the node's, extends the last one this device verified, and holds every message. */
  problems: MailboxProblem[];
}
export type ProveMessagesErrorType = RequestErrorType;

/** At most this many messages are proven per request (openrpc.json `neutralService_getProof`). */
const PROOF_BATCH = 100;

/**
 * Proves that the node's log holds `messages` (as a read served them: `DecryptedMessage.raw`), at
 * positions in a head the node signed that extends the last head this device verified for the
 * account (`NeutralOptions.heads`). With no problem the head becomes the verified one; with any,
 * the verified one stays and the problems say what and where (the verifiable mailbox).
 */
export async function proveMessages(context: NeutralContext, messages: readonly Message[], options?: CallOptions): Promise<ProveMessagesReturnType> {
  const [account, info] = await Promise.all([context.signer.getAddress(), context.nodeInfo()]);
  const node = info.address.toLowerCase();
  const problems: MailboxProblem[] = [];
  // What each batch's head must extend: the device's verified head, then the previous batch's.
  let known = await context.heads.get(account, node);
  let head: MailboxHead | undefined;
  for (let at = 0; at === 0 || at < messages.length; at += PROOF_BATCH) {
    const batch = messages.slice(at, at + PROOF_BATCH);
    const since = known?.size;
    const ids = batch.map((message) => message.id);
    const proof = await askProof(context.cache, { compact: ["compact", "params"], since: "since" }, since, ({ compact }, from) =>
      authed(context, () => context.client.getProof({ ids, ...(compact && { compact }), ...(from !== undefined && { since: from }) }, options)),
    );
    problems.push(...mailboxProblems({ account, node, proof, messages: batch, ...(known && { known }) }));
    head = known = proof.head;
  }
  if (problems.length === 0) await context.heads.set(account, node, head!);
  return { head: head!, problems };
}
