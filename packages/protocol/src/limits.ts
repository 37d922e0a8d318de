/**
 * The limits of openrpc.json ("Limits (defaults, each configurable by the operator)"): what a node
 * uses unless its operator says otherwise, and reports in `nodeInfo.limits`. `maxLimit` is fixed by
 * the `Limit` schema; spec.test.ts checks every value against the document's text.
 */
import { MAX_PAGE_LIMIT } from "./generated/spec.js";

export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, MAX_PRIOR_HEADS, MESSAGE_ID_PATTERN, SPEC_VERSION } from "./generated/spec.js";

export const DEFAULT_LIMITS = {
  /** Largest `limit` of a page (not configurable: the `Limit` schema's maximum). */
  maxLimit: MAX_PAGE_LIMIT,
  /** Entries of a batch. */
  maxBatch: 100,
  /** Bytes of a request body. */
  maxBodyBytes: 1024 * 1024,
  /** Bytes of a message's ciphertext. */
  maxMessageBytes: 64 * 1024,
  /** How far a signed timestamp may be from the node's clock, ms. */
  clockSkewMs: 5 * 60 * 1000,
  /** Bytes of message JSON in the answers of one request. */
  maxResponseBytes: 4 * 1024 * 1024,
  /** Messages a `since`/`until` page examines per mailbox part. */
  maxPageScan: 256,
  /** How long a node keeps a message after storing it, seconds (90 days); 0 means until deleted. */
  retentionSeconds: 90 * 86_400,
} as const;

export type SpecLimits = { -readonly [K in keyof typeof DEFAULT_LIMITS]: number };
