import type { NeutralContext } from "../context.js";
import type { NeutralErrorWith } from "../errors.js";
import type { Folder } from "../generated/types.js";
import { pages, walkParams, type MessagePages, type PageOptions } from "../session/pages.js";
import { checkAddress } from "../utils/address.js";
import type { ReadyErrorType } from "./ready.js";

export interface ChatOptions extends PageOptions {
  since?: number;
  until?: number;
  /** "requests": what the peer left in the requests folder; default the inbox. */
  folder?: Folder;
}

export type ChatReturnType = MessagePages;
/** INVALID_ARGUMENT (`peer` is not an address) is thrown at once; the rest while iterating. */
export type ChatErrorType = NeutralErrorWith<"INVALID_ARGUMENT"> | ReadyErrorType;

/** The chat with `peer`, both directions, page by page, each message decrypted and checked. */
export function chat(context: NeutralContext, peer: string, options: ChatOptions = {}): ChatReturnType {
  const inboxFilter = {
    chat: checkAddress(peer, "peer"),
    ...(options.since !== undefined && { since: options.since }),
    ...(options.until !== undefined && { until: options.until }),
    ...(options.folder !== undefined && { folder: options.folder }),
  };
  return pages(context, (cursor, call, proof) => context.client.getChat({ inboxFilter, ...walkParams(options), ...cursor, ...(proof && { proof }) }, call), options);
}
