// generated — do not edit. Source: openrpc.json via neutral-openrpc (regenerate instead).
//
// Facts of neutralService that the generated types cannot carry as types.

/** `info.version` of the OpenRPC document. */
export const SPEC_VERSION = "3.3.0";

/** The largest page a method's `limit` may ask for (the `Limit` schema's `maximum`). */
export const MAX_PAGE_LIMIT = 100;

/** The page size when `limit` is left out (the `Limit` schema's `default`). */
export const DEFAULT_PAGE_LIMIT = 20;

/** A well-formed message id (the `MessageId` schema's `pattern`): for ids that arrive outside params, e.g. the `Last-Event-ID` header. */
export const MESSAGE_ID_PATTERN = new RegExp("^(?:0|[1-9][0-9]{0,18})$");


/** The most former homes' heads a node keeps for one account (the `LogPage` schema's `prior.maxItems`). */
export const MAX_PRIOR_HEADS = 16;

