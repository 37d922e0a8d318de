// The walk behind `inbox()` and `chat()`: page after page from a cursor, each decoded.
import type { NeutralContext } from "../context.js";
import type { MailboxHead, MailboxProof, Message, ProofRequest } from "../generated/types.js";
import type { MailboxProblem } from "../mailbox-proof.js";
import type { DecryptedMessage } from "../messages.js";
import type { CallOptions } from "../rpc.js";
import { authed } from "./authed.js";
import { decodeAll } from "./decode.js";
import { pageProver } from "./page-proof.js";
import { messagingKey } from "./ready.js";

export interface PageOptions extends CallOptions {
  /** Messages per page, 1..100 (default 20). */
  limit?: number;
  /** Start after this id and walk forwards (oldest first). */
  after?: string;
  /** Start before this id and walk backwards (newest first); the default walk starts at the newest message. */
  before?: string;
}

export interface MessagePage {
  /** Decrypted and checked, in walk order. */
  messages: DecryptedMessage[];
  /** No further message in the walk's direction. */
  end: boolean;
  /** The node's signed head the page was proven against (with `verify`, the default). */
  head?: MailboxHead;
  /** What the page's proof failed to show, each naming its kind and position; empty when every message is proven or nothing was checked. */
  mailboxProblems: MailboxProblem[];
}

/** Pages, for `for await`; `messages()` iterates the messages of every page instead. */
export interface MessagePages extends AsyncIterable<MessagePage> {
  messages(): AsyncIterable<DecryptedMessage>;
}

export type PageCursor = { after?: string; before?: string };
/** Fetches one page; `proof` is the page's `proof` param, absent when the reads do not prove themselves. */
export type FetchPage = (cursor: PageCursor, call: CallOptions, proof: ProofRequest | undefined) => Promise<{ data: Message[]; end: boolean; cursor?: string; proof?: MailboxProof }>;

/** The page size of a walk, as the methods' params. */
export const walkParams = (walk: PageOptions) => ({ ...(walk.limit !== undefined && { limit: walk.limit }) });

/** The walk `fetchPage` answers, from `walk`'s cursor; nothing is fetched until it is iterated. */
export function pages(context: NeutralContext, fetchPage: FetchPage, walk: PageOptions): MessagePages {
  const call: CallOptions = { ...(walk.signal && { signal: walk.signal }), ...(walk.timeoutMs !== undefined && { timeoutMs: walk.timeoutMs }) };
  async function* iterate(): AsyncGenerator<MessagePage> {
    await messagingKey(context);
    const prover = context.verify ? await pageProver(context) : undefined;
    const forwards = walk.after !== undefined;
    let cursor: PageCursor = { ...(walk.after !== undefined && { after: walk.after }), ...(walk.before !== undefined && { before: walk.before }) };
    for (;;) {
      const page = await authed(context, () => (prover ? prover.fetch((proof) => fetchPage(cursor, call, proof)) : fetchPage(cursor, call, undefined)));
      const messages = await decodeAll(context, page.data);
      if (!prover) {
        yield { messages, end: page.end, mailboxProblems: [] };
      } else {
        const { head, problems, proven } = await prover.check(page);
        for (const message of messages) message.proven = proven.get(message.id) ?? false;
        yield { messages, end: page.end, ...(head && { head }), mailboxProblems: problems };
      }
      // A page that stopped early (a sparse time filter, the node's answer budget) may be short or
      // empty; `cursor`, when given, is where the walk goes on.
      const next = page.cursor ?? page.data.at(-1)?.id;
      if (page.end || next === undefined) return;
      cursor = forwards ? { ...cursor, after: next } : { ...cursor, before: next };
    }
  }
  return {
    [Symbol.asyncIterator]: iterate,
    async *messages() {
      for await (const page of iterate()) yield* page.messages;
    },
  };
}
