// The spec of paging, naively: which stored messages a page query selects, in which order, and the ranges the service builds.
import type { MailboxRange, PageQuery, Side } from "@neutral/relay";
import type { TestMessage } from "./data.js";

/** A stored message as the model knows it: its id, its wire JSON, and what was appended. */
export interface ModelMessage {
  id: number;
  json: string;
  message: TestMessage;
}

/** Whether the store keeps this side of a message: an outbound one has no recipient's copy here, an inbound one no sender's. */
export const hasSide = (message: TestMessage, side: Side): boolean => (side === "received" ? message.route?.kind !== "outbound" : message.route?.kind !== "inbound");

function inRange(owner: string, range: MailboxRange, message: TestMessage): boolean {
  if (!hasSide(message, range.side)) return false;
  if (range.side === "received") return message.to === owner && (range.peer === undefined || message.from === range.peer);
  return message.from === owner && (range.peer === undefined || message.to === range.peer);
}

/** Every message the query's filters and bounds select, in walk order (ignores `limit`). */
export function modelMatches(stored: readonly ModelMessage[], query: PageQuery): ModelMessage[] {
  const matches = stored.filter(
    ({ id, message }) =>
      query.ranges.some((range) => inRange(query.owner, range, message)) &&
      (query.since === undefined || message.timestamp >= query.since) &&
      (query.until === undefined || message.timestamp < query.until) &&
      (query.after === undefined || id > query.after) &&
      (query.before === undefined || id < query.before),
  );
  return matches.sort(query.order === "asc" ? (a, b) => a.id - b.id : (a, b) => b.id - a.id);
}

/** The page the model answers: the first `limit` matches, and whether they are all there is. */
export function modelPage(stored: readonly ModelMessage[], query: PageQuery): { ids: number[]; jsons: string[]; end: boolean } {
  const matches = modelMatches(stored, query);
  const page = matches.slice(0, query.limit);
  return { ids: page.map((m) => m.id), jsons: page.map((m) => m.json), end: matches.length <= query.limit };
}

/** The query shape the service builds for `getInbox` (seeds/README.md §5). */
export function inboxRanges(owner: string, direction: "received" | "sent" | "all", from?: string): MailboxRange[] {
  const ranges: MailboxRange[] = [];
  if (direction !== "sent") ranges.push(from === undefined ? { side: "received" } : { side: "received", peer: from });
  if (direction !== "received" && (from === undefined || from === owner)) ranges.push({ side: "sent" });
  return ranges;
}

/** The query shape the service builds for `getChat`. */
export const chatRanges = (peer: string): MailboxRange[] => [
  { side: "received", peer },
  { side: "sent", peer },
];
