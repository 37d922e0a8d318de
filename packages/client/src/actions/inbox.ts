import type { NeutralContext } from "../context.js";
import type { NeutralErrorWith } from "../errors.js";
import type { Direction, Folder } from "../generated/types.js";
import { pages, walkParams, type MessagePages, type PageOptions } from "../session/pages.js";
import { checkAddress } from "../utils/address.js";
import type { ReadyErrorType } from "./ready.js";

export interface InboxOptions extends PageOptions {
  /** Only messages from this sender. */
  from?: string;
  /** "received" (default), "sent", or "all" (the whole mailbox). */
  direction?: Direction;
  since?: number;
  until?: number;
  /** "requests": the requests folder (first contact under an "allowed-only" consent policy); default the inbox. */
  folder?: Folder;
}

export type InboxReturnType = MessagePages;
/** INVALID_ARGUMENT (`from` is not an address) is thrown at once; the rest while iterating. */
export type InboxErrorType = NeutralErrorWith<"INVALID_ARGUMENT"> | ReadyErrorType;

/** The inbox, page by page (newest first unless `after` is given), each message decrypted and checked. */
export function inbox(context: NeutralContext, options: InboxOptions = {}): InboxReturnType {
  const inboxFilter = {
    ...(options.from !== undefined && { from: checkAddress(options.from, "from") }),
    ...(options.direction !== undefined && { direction: options.direction }),
    ...(options.since !== undefined && { since: options.since }),
    ...(options.until !== undefined && { until: options.until }),
    ...(options.folder !== undefined && { folder: options.folder }),
  };
  return pages(context, (cursor, call, proof) => context.client.getInbox({ inboxFilter, ...walkParams(options), ...cursor, ...(proof && { proof }) }, call), options);
}
