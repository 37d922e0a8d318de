// Where accounts are homed (federation), as the session's node serves their home records: each
// record checked against its account's signature, and cached.
import { JSON_RPC_ERRORS } from "@neutral/protocol";
import type { NeutralContext } from "../context.js";
import type { HomeRecord } from "../generated/types.js";
import { isValidHomeRecord } from "../home.js";
import type { HomeNode } from "../messages.js";
import { RpcError, type CallOptions } from "../rpc.js";

/** How long a home record (or that an account has none) is believed before the node is asked again. */
const HOME_TTL_MS = 5 * 60_000;
const MISSING_HOME_TTL_MS = 10_000;
/** A receipt that does not match a cached home record has the record asked for again, at most this often per account. */
const HOME_REFRESH_MS = 1_000;

export const isMethodNotFound = (error: unknown) => error instanceof RpcError && error.code === JSON_RPC_ERRORS.MethodNotFound.code;

/** `account`'s home record as the node serves it; `forged` when the account did not sign it. */
export async function servedHome(context: NeutralContext, account: string, call?: CallOptions): Promise<{ record?: HomeRecord; forged?: true }> {
  const { cache } = context;
  if (cache.homesUnsupported) return {};
  let record: HomeRecord | null;
  try {
    record = await context.publicClient.getHome({ account }, call);
  } catch (error) {
    if (!isMethodNotFound(error)) throw error;
    cache.homesUnsupported = true;
    return {};
  }
  if (record === null) return {};
  return isValidHomeRecord(record, account) ? { record } : { forged: true };
}

/** Caches `record` (checked) as `account`'s home. */
export function rememberHome(context: NeutralContext, account: string, record: HomeRecord): void {
  const now = context.now();
  context.cache.homes.set(account, { value: Promise.resolve({ kind: "record", node: record.node.toLowerCase() }), expires: now + HOME_TTL_MS, fetchedAt: now });
}

/**
 * The home node receipts of `account` are checked against: from its home record, fetched through
 * the session's node and checked against the account's signature (a record it did not sign is
 * ignored, as if there were none), cached. A failed lookup is not cached. `refresh`: asks again
 * unless the cached answer is under a second old.
 */
export function homeNode(context: NeutralContext, account: string, refresh = false): Promise<HomeNode> {
  const { now, cache } = context;
  const cached = cache.homes.get(account);
  if (cached && cached.expires > now() && !(refresh && now() - cached.fetchedAt >= HOME_REFRESH_MS)) return cached.value;
  const value = servedHome(context, account).then(
    ({ record }): HomeNode => (record ? { kind: "record", node: record.node.toLowerCase() } : { kind: "none" }),
    (error: unknown): HomeNode => ({ kind: "unknown", reason: error instanceof Error ? error.message : "unknown error" }),
  );
  const entry = { value, expires: now() + MISSING_HOME_TTL_MS, fetchedAt: now() };
  cache.homes.set(account, entry);
  void value.then((home) => {
    if (home.kind === "record") entry.expires = now() + HOME_TTL_MS;
    else if (home.kind === "unknown" && cache.homes.get(account) === entry) cache.homes.delete(account);
  });
  return value;
}
