// Reading a mailbox: getInbox, getChat (seeds/README.md §5), and the live stream of the same
// selections (neutralService_subscribe).
import { budgetSpentError, ErrorCode, RpcError, rawJson, type ResponseBudget } from "@neutral/server";
import type { Handlers, InboxFilter, ProofRequest } from "@neutral/server/neutral-service";
import { MESSAGE_ID_PATTERN } from "@neutral/protocol";
import type { StreamSelection } from "../live/subscriptions.js";
import { cursorValue, fitPageBytes, type MailboxRange, type Page, type PageQuery } from "../storage/store.js";
import { fitToBudget, pageBounds, type RelayContext, type Rpc } from "./context.js";
import { copiesOfPage, positionBytesBound, proofFrameBytes, proofJson } from "./mailbox-log.js";

/** The ranges of a mailbox that `getInbox`'s filter selects (seeds/README.md §5). */
export function inboxRanges(owner: string, filter: InboxFilter): MailboxRange[] {
  const direction = filter.direction ?? "received";
  const from = filter.from?.toLowerCase();
  if (filter.folder === "requests") {
    if (direction !== "received") {
      throw RpcError.invalidParams("inboxFilter.direction", 'must be absent or "received" with folder "requests" (the requests folder holds received messages)', { param: "inboxFilter" });
    }
    return [from === undefined ? { side: "requests" } : { side: "requests", peer: from }];
  }
  const ranges: MailboxRange[] = [];
  if (direction !== "sent") ranges.push(from === undefined ? { side: "received" } : { side: "received", peer: from });
  // Every sent message is from the owner: a `from` naming someone else leaves nothing to send-side.
  if (direction !== "received" && (from === undefined || from === owner)) ranges.push({ side: "sent" });
  return ranges;
}

/** The ranges of one chat: both sides with `peer`, or its requests. */
const chatRanges = (peer: string, folder: InboxFilter["folder"]): MailboxRange[] =>
  folder === "requests"
    ? [{ side: "requests", peer }]
    : [
        { side: "received", peer },
        { side: "sent", peer },
      ];

interface Walk {
  after?: string;
  before?: string;
  limit: number;
}

/** Cursor params → the keyset bounds and order of seeds/README.md §5. */
function walkOf({ after, before, limit }: Walk): Pick<PageQuery, "after" | "before" | "order" | "limit"> {
  return {
    ...(after !== undefined && { after: cursorValue(after) }),
    ...(before !== undefined && { before: cursorValue(before) }),
    order: after !== undefined ? "asc" : "desc",
    limit,
  };
}

/**
 * A page's `data`, `end` and `cursor` members, and its `proof` when the request asked for one,
 * within what is left of the request's answer budget (seeds/README.md §5, openrpc.json
 * `maxResponseBytes`). Another entry of the batch may have spent some of it while this page was
 * being read: it is cut again to what is left now, and counted. The proof counts too: its head and
 * consistency proof are the same whatever the page holds, and each message brings its positions
 * with at most their inclusion proofs' hashes, so a page that does not fit with its proof loses
 * messages from its end (at least one stays). The proof is made for the messages that stay.
 */
async function pageMembers(rpc: Rpc, owner: string, page: Page, budget: ResponseBudget | undefined, proof: ProofRequest | undefined): Promise<string> {
  let fitted = page;
  if (budget) {
    if (budget.remaining <= 0) throw budgetSpentError(budget.limit);
    fitted = fitPageBytes(page, budget.remaining);
  }
  let messages = fitted.messages.map((message) => message.json);
  let proofMember = "";
  if (proof !== undefined) {
    const keptProofs = rpc.keptProofs;
    const key = keptProofs && proofKey(fitted.messages, proof);
    const kept = key === undefined ? undefined : keptProofs!.get(owner, key);
    if (kept !== undefined && fitsWhole(messages, kept.budgetBytes, budget)) proofMember = `,"proof":${kept.json}`;
    else {
      const ticket = key === undefined ? undefined : keptProofs!.begin(owner);
      try {
        const copies = await copiesOfPage(rpc, owner, fitted.messages, proof.since, "proof.since");
        const compact = proof.compact === true;
        const positionBytes = new Map<number, number>();
        for (const entry of copies.entries) positionBytes.set(entry.id, (positionBytes.get(entry.id) ?? 0) + positionBytesBound(entry, copies.head.size));
        const bytesOf = messages.map((json, i) => json.length + 1 + (positionBytes.get(fitted.messages[i]!.id) ?? 0));
        const fixed = `,"proof":`.length + proofFrameBytes(copies, compact);
        const { count } = fitToBudget(bytesOf, fixed, budget);
        const whole = count === messages.length;
        if (!whole) {
          messages = messages.slice(0, count);
          fitted = { messages: fitted.messages.slice(0, count), end: false };
          const stay = new Set(fitted.messages.map((message) => message.id));
          copies.entries = copies.entries.filter((entry) => stay.has(entry.id));
        }
        const json = (await proofJson(copies, compact)).json;
        proofMember = `,"proof":${json}`;
        // A page cut to the budget is another page than the one the key names, and one with a copy
        // the head does not hold yet is proven in full by the next head: neither is kept.
        if (ticket !== undefined && whole && copies.entries.length === copiesOn(fitted.messages)) {
          keptProofs!.keep(ticket, key!, { json, budgetBytes: fitted.messages.reduce((sum, message) => sum + (positionBytes.get(message.id) ?? 0), fixed) });
        }
      } finally {
        if (ticket !== undefined) keptProofs!.release(ticket);
      }
    }
  }
  const data = messages.join(",");
  budget?.spend(data.length + proofMember.length);
  return `"data":[${data}],"end":${fitted.end}${fitted.resumeAt !== undefined ? `,"cursor":"${fitted.resumeAt}"` : ""}${proofMember}`;
}

/**
 * The key a page's proof is kept under (`KeptProofs`), what the proof is made of: the positions of
 * the page's copies in order (a position holds one copy of one message for good, so they name the
 * leaves), the form and `since`. Undefined when a message came without its positions (the proof
 * then looks them up).
 */
function proofKey(messages: Page["messages"], proof: ProofRequest): string | undefined {
  if (messages.length === 0) return undefined;
  let key = `${proof.compact === true ? "c" : "p"}${proof.since ?? ""}`;
  for (const message of messages) {
    if (message.copies === undefined || message.copies.length === 0) return undefined;
    key += message.copies.length === 1 ? `,${message.copies[0]!.seq}` : `,${message.copies.map((copy) => `${copy.role[0]}${copy.seq}`).join("+")}`;
  }
  return key;
}

/** How many of the owner's copies a page's rows came with. */
const copiesOn = (messages: Page["messages"]): number => messages.reduce((sum, message) => sum + (message.copies?.length ?? 0), 0);

/**
 * Whether `messages` with a proof the answer budget counts as `proofBudgetBytes` fit whole in what
 * is left of it: what `fitToBudget` decides for a page and its proof, so a kept proof serves a page
 * exactly when a new one would.
 */
function fitsWhole(messages: readonly string[], proofBudgetBytes: number, budget: ResponseBudget | undefined): boolean {
  if (budget === undefined) return true;
  const itemBytes = messages.map((json) => json.length + 1);
  return fitToBudget(itemBytes, proofBudgetBytes, budget).count === messages.length;
}

export function mailboxHandlers(rpc: Rpc): Pick<Handlers<RelayContext>, "neutralService_getInbox" | "neutralService_getChat" | "neutralService_subscribe"> {
  const { store } = rpc;
  return {
    async neutralService_getInbox({ inboxFilter, proof, ...walk }, { auth, responseBudget }) {
      const owner = auth.address;
      const ranges = inboxRanges(owner, inboxFilter);
      const page = await store.page({ owner, ranges, since: inboxFilter.since, until: inboxFilter.until, ...walkOf(walk), ...pageBounds(rpc, responseBudget), withPositions: proof !== undefined });
      return rawJson(`{"address":"${owner}",${await pageMembers(rpc, owner, page, responseBudget, proof)}}`);
    },

    async neutralService_getChat({ inboxFilter, proof, ...walk }, { auth, responseBudget }) {
      const owner = auth.address;
      const peer = inboxFilter.chat?.toLowerCase() ?? (await store.latestPeer(owner));
      if (peer === undefined) {
        throw RpcError.invalidParams("inboxFilter.chat", "is required: this user has no chat yet", { param: "inboxFilter" });
      }
      const ranges = chatRanges(peer, inboxFilter.folder);
      const page = await store.page({ owner, ranges, since: inboxFilter.since, until: inboxFilter.until, ...walkOf(walk), ...pageBounds(rpc, responseBudget), withPositions: proof !== undefined });
      return rawJson(`{"id":"${peer}",${await pageMembers(rpc, owner, page, responseBudget, proof)}}`);
    },

    neutralService_subscribe({ filter, after }, context) {
      const { auth, signal, lastEventId } = context;
      const subscriptions = rpc.live?.subscriptions;
      if (!subscriptions) throw new RpcError(ErrorCode.MethodNotFound, "Method not found: this node does not stream (neutralService_subscribe)");
      if (auth.kind === "node") throw new RpcError(ErrorCode.Forbidden, "Forbidden: streams are for accounts, not nodes", { reason: "not an account" });
      if (lastEventId !== undefined && !MESSAGE_ID_PATTERN.test(lastEventId)) {
        throw RpcError.invalidParams("Last-Event-ID", "must be a message id (decimal digits, no leading zeros): the id of the last event received", { param: "Last-Event-ID" });
      }
      const owner = auth.address;
      const chat = "chat" in filter ? filter.chat?.toLowerCase() : undefined;
      const selection: StreamSelection = {
        owner,
        ranges: chat === undefined ? inboxRanges(owner, filter as InboxFilter) : chatRanges(chat, filter.folder),
        ...(filter.since !== undefined && { since: filter.since }),
        ...(filter.until !== undefined && { until: filter.until }),
      };
      const start = lastEventId ?? after;
      return subscriptions.open({
        selection,
        client: context.client ?? auth.address,
        after: start === undefined ? 0 : cursorValue(start),
        ...(auth.expiresAt !== undefined && { expiresAt: auth.expiresAt }),
        signal,
      });
    },
  };
}
