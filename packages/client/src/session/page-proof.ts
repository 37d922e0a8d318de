// A read that proves itself (the verifiable mailbox): the proof a page asks for, and what its answer
// proves about the messages on it, against the last head this device verified.
import type { NeutralContext } from "../context.js";
import type { MailboxHead, MailboxProof, Message, ProofRequest } from "../generated/types.js";
import { askProof, mailboxProblems, type MailboxProblem, type VerifiedHead } from "../mailbox-proof.js";

/** What a page's proof says: the head it was proven against, and the problems found (none: every message proven). */
export interface PageProof {
  head?: MailboxHead;
  problems: MailboxProblem[];
  /** Per message id: proven or not. */
  proven: Map<string, boolean>;
}

/** One walk's proofs: each page's head must extend the last verified one, then the previous page's. */
export interface PageProver {
  /**
   * Fetches a page with `fetch(request)`, its proof compact (one multiproof) without the positions
   * its messages state (`omitBound`), unless the node refused either before; a node whose log is
   * smaller than the head this device verified refuses `since` (it cannot prove a rollback away):
   * it is asked again without it, and the check names the rollback.
   */
  fetch<P extends { data: Message[]; proof?: MailboxProof }>(fetch: (request: ProofRequest) => Promise<P>): Promise<P>;
  /** Checks a page's answer; with no problem its head becomes this device's verified head. */
  check(page: { data: readonly Message[]; proof?: MailboxProof }): Promise<PageProof>;
}

export async function pageProver(context: NeutralContext): Promise<PageProver> {
  const [account, info] = await Promise.all([context.signer.getAddress(), context.nodeInfo()]);
  const node = info.address.toLowerCase();
  let known: VerifiedHead | undefined = await context.heads.get(account, node);
  // Whether the last page was asked with `omitBound`: its proof then lists no position its messages state.
  let omitBound = false;
  return {
    fetch: (fetch) =>
      askProof(context.cache, { compact: ["proof.compact"], omitBound: "proof.omitBound", since: "proof.since" }, known?.size, (form, since) => {
        omitBound = form.omitBound;
        return fetch({ ...(form.compact && { compact: true }), ...(form.omitBound && { omitBound: true }), ...(since !== undefined && { since }) });
      }),
    async check(page) {
      if (page.proof === undefined) {
        const problems: MailboxProblem[] = [{ kind: "unproven", message: "The node answered the page without the proof it was asked for" }];
        return { problems, proven: new Map(page.data.map((message) => [message.id, false])) };
      }
      const problems = mailboxProblems({ account, node, proof: page.proof, messages: page.data, omitBound, ...(known && { known }) });
      // A problem of the head (forged, rollback, fork) leaves no message proven; the others, theirs.
      const headProblem = problems.some((problem) => problem.id === undefined);
      const failed = new Set(problems.map((problem) => problem.id));
      const proven = new Map(page.data.map((message) => [message.id, !headProblem && !failed.has(message.id)]));
      if (problems.length === 0) {
        known = page.proof.head;
        await context.heads.set(account, node, known);
      }
      return { head: page.proof.head, problems, proven };
    },
  };
}
