// Consent (openrpc.json `ConsentRecord`, `ConsentPolicy`): setConsent and getConsent, and where a
// message to an account homed here goes by that account's consent (sendMessage, deliver).
import { ErrorCode, RpcError } from "@neutral/server";
import type { ConsentPolicy, ConsentRecord, ConsentState, Handlers } from "@neutral/server/neutral-service";
import { errors, hashTypedData } from "@neutral/protocol";
import type { StoredConsentPolicy, StoredConsentRecord } from "../storage/store.js";
import { callersOwn, recovers, refuseFuture, type RelayContext, type Rpc } from "./context.js";

/** A message refused for consent: no more than "not accepted" (openrpc.json `ConsentRecord`). */
export const notAccepted = () => new RpcError(ErrorCode.Forbidden, "Forbidden: not accepted by the recipient", { reason: "not accepted" });

/**
 * Where a message to a recipient homed here goes, by the recipient's consent: refused (blocked),
 * its requests folder (an "allowed-only" recipient that neither allowed the sender nor wrote to
 * it: counted against the request quota, which `reserveQuota` gives back if nothing is stored), or
 * the inbox.
 */
export async function folderOf(rpc: Rpc, from: string, to: string): Promise<"requests" | undefined> {
  if (from === to) return undefined;
  const verdict = await rpc.store.consentFor(to, from);
  if (verdict.state === "blocked") throw notAccepted();
  if (verdict.state === "allowed" || verdict.mode === "open" || verdict.replied) return undefined;
  rpc.quotas?.takeRequest(from, to);
  return "requests";
}

/** Consent records and a policy of `account`: each its own, not from the future, signed by it (the order of the signed-record check). */
function checkConsent(rpc: Rpc, account: string, records: readonly ConsentRecord[], policy: ConsentPolicy | undefined): { records: StoredConsentRecord[]; policy?: StoredConsentPolicy } {
  const peers = new Set<string>();
  for (const [i, record] of records.entries()) {
    const peer = record.peer.toLowerCase();
    if (peers.has(peer)) throw RpcError.invalidParams(`records[${i}].peer`, "names a peer already given in this call", { param: "records", path: `/${i}/peer` });
    peers.add(peer);
  }
  const signed = [...records.map((record, i) => ({ value: record, field: `records[${i}]` })), ...(policy ? [{ value: policy, field: "policy" }] : [])];
  for (const { value, field } of signed) callersOwn({ address: account }, value.account, `${field}.account`);
  for (const { value, field } of signed) refuseFuture(rpc, `${field}.timestamp`, value.timestamp);
  const checked = records.map((record, i) => {
    const fields = { account: account as `0x${string}`, peer: record.peer.toLowerCase() as `0x${string}`, state: record.state, timestamp: record.timestamp };
    if (!recovers(rpc, hashTypedData({ primaryType: "Consent", message: fields }), record.signature, account)) {
      throw new RpcError(errors.InvalidSignature.code, `Invalid signature: records[${i}].signature does not recover its account`, { field: `records[${i}].signature` });
    }
    return { ...fields, signature: record.signature.toLowerCase() };
  });
  if (!policy) return { records: checked };
  const fields = { account: account as `0x${string}`, mode: policy.mode, timestamp: policy.timestamp };
  if (!recovers(rpc, hashTypedData({ primaryType: "ConsentPolicy", message: fields }), policy.signature, account)) {
    throw new RpcError(errors.InvalidSignature.code, "Invalid signature: policy.signature does not recover its account", { field: "policy.signature" });
  }
  return { records: checked, policy: { ...fields, signature: policy.signature.toLowerCase() } };
}

export function consentHandlers(rpc: Rpc): Pick<Handlers<RelayContext>, "neutralService_setConsent" | "neutralService_getConsent"> {
  return {
    async neutralService_setConsent({ records, policy }, { auth }): Promise<ConsentState> {
      const account = auth.address;
      const checked = checkConsent(rpc, account, records, policy);
      const current = await rpc.store.putConsent(account, checked.records, checked.policy);
      return { account, policy: (current.policy ?? null) as ConsentPolicy | null, records: current.records as ConsentRecord[] };
    },

    async neutralService_getConsent({ after, limit }, { auth }): Promise<ConsentState> {
      const account = auth.address;
      const page = await rpc.store.consentList(account, after?.toLowerCase(), limit);
      return { account, policy: (page.policy ?? null) as ConsentPolicy | null, records: page.records as ConsentRecord[], end: page.end };
    },
  };
}
