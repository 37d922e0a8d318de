// Reading a mailbox: getInbox, getChat (seeds/README.md §5), and the live stream of the same
// selections (neutralService_subscribe).
import { budgetSpentError, ErrorCode, RpcError, rawJson, type ResponseBudget } from "@neutral/server";
import type { Handlers, InboxFilter, ProofRequest } from "@neutral/server/neutral-service";
import { MESSAGE_ID_PATTERN, statesPosition } from "@neutral/protocol";
import type { StreamSelection } from "../live/subscriptions.js";
import { cursorValue, fitPageBytes, type LogEntry, type MailboxRange, type Page, type PageQuery } from "../storage/store.js";
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

/** A read's request as a key (`KeptProofs`): the method and what its params ask, the proof's form and `since` included. */
const queryOf = (method: string, filter: object, walk: Walk, proof: ProofRequest): string =>
  `${method} ${JSON.stringify([filter, walk.after, walk.before, walk.limit, proof.compact === true, proof.omitBound === true, proof.since])}`;

/** Cursor params → the keyset bounds and order of seeds/README.md §5. */
function walkOf({ after, before, limit }: Walk): Pick<PageQuery, "after" | "before" | "order" | "limit"> {
  return {
    ...(after !== undefined && { after: cursorValue(after) }),
    ...(before !== undefined && { before: cursorValue(before) }),
    order: after !== undefined ? "asc" : "desc",
    limit,
  };
}

/** `page` cut to what is left of the request's answer budget (refused when nothing is left). */
function withinBudget(page: Page, budget: ResponseBudget | undefined): Page {
  if (!budget) return page;
  if (budget.remaining <= 0) throw budgetSpentError(budget.limit);
  return fitPageBytes(page, budget.remaining);
}

/** A page's members as the answer gives them, counted against the budget. */
function members(page: Page, messages: readonly string[], proofMember: string, budget: ResponseBudget | undefined): string {
  const data = messages.join(",");
  budget?.spend(data.length + proofMember.length);
  return `"data":[${data}],"end":${page.end}${page.resumeAt !== undefined ? `,"cursor":"${page.resumeAt}"` : ""}${proofMember}`;
}

/**
 * A page's `data`, `end` and `cursor` members, and its `proof` when the request asked for one,
 * within what is left of the request's answer budget (seeds/README.md §5, openrpc.json
 * `maxResponseBytes`). Another entry of the batch may have spent some of it while this page was
 * being read: it is cut again to what is left now, and counted. The proof counts too: its head and
 * consistency proof are the same whatever the page holds, and each message brings its positions
 * with at most their inclusion proofs' hashes, so a page that does not fit with its proof loses
 * messages from its end (at least one stays). The proof is made for the messages that stay.
 *
 * `read(withPositions)` reads the page. When this process kept a proof for the account
 * (`KeptProofs`) made for the same request (`query`: the method and its params), the page is read
 * without its positions and, when its messages are those the proof was made for, answered with it;
 * else (or with nothing kept for that request: a walk's next page) it is read with them, and proven.
 */
async function pageMembers(rpc: Rpc, owner: string, query: string, read: (withPositions: boolean) => Promise<Page>, budget: ResponseBudget | undefined, proof: ProofRequest | undefined): Promise<string> {
  if (proof === undefined) {
    const page = withinBudget(await read(false), budget);
    return members(page, page.messages.map((message) => message.json), "", budget);
  }
  if (proof.omitBound === true && proof.compact !== true) throw omitBoundAlone();
  const keptProofs = rpc.keptProofs;
  const keptEntry = keptProofs?.forRequest(owner, query);
  if (keptEntry !== undefined) {
    const page = withinBudget(await read(false), budget);
    const messages = page.messages.map((message) => message.json);
    const kept = keptProofs!.proofOf(keptEntry, idsOf(page));
    if (kept !== undefined && fitsWhole(messages, kept.budgetBytes, budget)) return members(page, messages, `,"proof":${kept.json}`, budget);
  }
  let page = withinBudget(await read(true), budget);
  let messages = page.messages.map((message) => message.json);
  const ticket = keptProofs?.begin(owner);
  try {
    const copies = await copiesOfPage(rpc, owner, page.messages, proof.since, "proof.since");
    const compact = proof.compact === true;
    const stated = proof.omitBound === true ? statedBy(page) : undefined;
    const positionBytes = new Map<number, number>();
    for (const entry of copies.entries) positionBytes.set(entry.id, (positionBytes.get(entry.id) ?? 0) + positionBytesBound(entry, copies.head.size, stated?.(entry) !== true));
    const bytesOf = messages.map((json, i) => json.length + 1 + (positionBytes.get(page.messages[i]!.id) ?? 0));
    const fixed = `,"proof":`.length + proofFrameBytes(copies, compact);
    const { count } = fitToBudget(bytesOf, fixed, budget);
    const whole = count === messages.length;
    if (!whole) {
      messages = messages.slice(0, count);
      page = { messages: page.messages.slice(0, count), end: false };
      const stay = new Set(page.messages.map((message) => message.id));
      copies.entries = copies.entries.filter((entry) => stay.has(entry.id));
    }
    const json = (await proofJson(copies, compact, stated)).json;
    // Kept only for a page proven whole (one cut to the budget is another page than its key names)
    // with one position per message: a message to oneself has two, and a message without one
    // (stored after the head) is proven by the next head.
    if (ticket !== undefined && whole && onePositionEach(page.messages, copies.entries)) {
      keptProofs!.keep(ticket, query, idsOf(page), { json, budgetBytes: page.messages.reduce((sum, message) => sum + (positionBytes.get(message.id) ?? 0), fixed) });
    }
    return members(page, messages, `,"proof":${json}`, budget);
  } finally {
    if (ticket !== undefined) keptProofs!.release(ticket);
  }
}

/** Whether a position is one its message on `page` states itself (`statesPosition`), which a proof asked with `omitBound` leaves out. */
function statedBy(page: Page): (entry: LogEntry) => boolean {
  const jsonOf = new Map(page.messages.map((message) => [message.id, message.json]));
  return (entry) => {
    const json = jsonOf.get(entry.id);
    return json !== undefined && statesPosition(json, entry.role, entry.seq);
  };
}

/** A proof asked with `omitBound` but not `compact`: a position left out would have no inclusion proof (-32602). */
const omitBoundAlone = (): RpcError =>
  RpcError.invalidParams("proof.omitBound", "needs proof.compact: a position left out of `positions` is proven by the multiproof only", { param: "proof" });

/**
 * A page's ids, which a proof made for its request is kept with (`KeptProofs`): while the log does
 * not grow (as long as a proof is kept), each message's copy keeps its position, so the ids name the
 * positions, and the positions the leaves.
 */
const idsOf = (page: Page): number[] => page.messages.map((message) => message.id);

/** Whether `entries` hold exactly one position of each of `messages`. */
function onePositionEach(messages: Page["messages"], entries: readonly { id: number }[]): boolean {
  if (entries.length !== messages.length) return false;
  const ids = new Set(entries.map((entry) => entry.id));
  return ids.size === messages.length && messages.every((message) => ids.has(message.id));
}

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
      const read = (withPositions: boolean) => store.page({ owner, ranges, since: inboxFilter.since, until: inboxFilter.until, ...walkOf(walk), ...pageBounds(rpc, responseBudget), withPositions });
      const query = proof === undefined ? "" : queryOf("getInbox", inboxFilter, walk, proof);
      return rawJson(`{"address":"${owner}",${await pageMembers(rpc, owner, query, read, responseBudget, proof)}}`);
    },

    async neutralService_getChat({ inboxFilter, proof, ...walk }, { auth, responseBudget }) {
      const owner = auth.address;
      const peer = inboxFilter.chat?.toLowerCase() ?? (await store.latestPeer(owner));
      if (peer === undefined) {
        throw RpcError.invalidParams("inboxFilter.chat", "is required: this user has no chat yet", { param: "inboxFilter" });
      }
      const ranges = chatRanges(peer, inboxFilter.folder);
      const read = (withPositions: boolean) => store.page({ owner, ranges, since: inboxFilter.since, until: inboxFilter.until, ...walkOf(walk), ...pageBounds(rpc, responseBudget), withPositions });
      const query = proof === undefined ? "" : queryOf(`getChat ${peer}`, inboxFilter, walk, proof);
      return rawJson(`{"id":"${peer}",${await pageMembers(rpc, owner, query, read, responseBudget, proof)}}`);
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
