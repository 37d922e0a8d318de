// Label values from what clients can influence (an error's data) must stay few: each new value is
// a new series in the node's memory and in Prometheus's. These keep the words that say what
// happened and drop what varies (a domain, a number), and past a cap call the rest "other".

/** Distinct values one label takes at most; later ones count as "other". */
const MAX_VALUES = 32;

function bounded(seen: Set<string>, value: string): string {
  if (seen.has(value)) return value;
  if (seen.size >= MAX_VALUES) return "other";
  seen.add(value);
  return value;
}

const reasons = new Set<string>();
/** Labels of the reasons seen, by their text: the same refusal again costs a lookup, not four regular expressions. */
const reasonLabels = new Map<string, string>();
const MAX_CACHED = 256;

/**
 * The `reason` label of an auth failure, from a -32001's `data.reason`: quoted and parenthesised
 * text dropped, then its words before any colon, digits dropped, at most 48 characters ("token expired", "malformed token",
 * "domain is not served", "bad signature").
 */
export function reasonLabel(data: unknown): string {
  const reason = typeof data === "object" && data !== null ? (data as { reason?: unknown }).reason : undefined;
  if (typeof reason !== "string") return "unknown";
  const cached = reasonLabels.get(reason);
  if (cached !== undefined) return cached;
  const words = reason
    .replace(/"[^"]*"|\([^)]*\)/g, " ")
    .split(":", 1)[0]!
    .replace(/[^A-Za-z -]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase()
    .slice(0, 48)
    .trim();
  const label = words === "" ? "unknown" : bounded(reasons, words);
  if (reasonLabels.size < MAX_CACHED) reasonLabels.set(reason, label);
  return label;
}

const limits = new Set<string>();

/**
 * The `limit` label of a -32029 refusal: the storage quota its data names (`data.quota`, e.g.
 * senderQuotaMessages), else its `data.reason` (subscriptions, client-memory, server-memory,
 * shutdown), else the per-client rate limit: "rate".
 */
export function limitOf(data: unknown): string {
  if (typeof data !== "object" || data === null) return "rate";
  const { quota, reason } = data as { quota?: unknown; reason?: unknown };
  const named = typeof quota === "string" ? quota : typeof reason === "string" ? reason : undefined;
  if (named === undefined) return "rate";
  const label = named.replace(/[^A-Za-z]+/g, "-").slice(0, 48);
  return label === "" ? "rate" : bounded(limits, label);
}
