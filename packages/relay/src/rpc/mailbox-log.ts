// The verifiable mailbox's reads (openrpc.json "The verifiable mailbox"): the caller's signed head
// with inclusion and consistency proofs (getProof, and getInbox/getChat asked with `proof`), and its
// log (getLog).
import { ErrorCode, RpcError } from "@neutral/server";
import type { DeletionRequest, Handlers, LogPage, LogPosition, MailboxHead, MailboxProof } from "@neutral/server/neutral-service";
import { toHex } from "@neutral/protocol";
import { cursorValue, type LogEntry } from "../storage/store.js";
import type { RelayContext, Rpc } from "./context.js";

const positionOf = (entry: LogEntry): LogPosition => ({ seq: entry.seq, id: String(entry.id), role: entry.role, leafHash: entry.leafHash });

/** A position as getLog answers it: a copy its account deleted with the account's signed request (LogRemoval). */
const logPositionOf = (entry: LogEntry): LogPosition =>
  entry.deletion === undefined ? positionOf(entry) : { ...positionOf(entry), removed: { reason: "deleted", request: JSON.parse(entry.deletion) as DeletionRequest } };

/**
 * The caller's current head, with the position and inclusion proof of each of its copies of the
 * messages `ids` (copies stored after the head are left to the next one) and, with `since`, the
 * consistency proof from that size. A `since` past the log is refused, naming `sinceField`.
 */
export async function proveCopies(rpc: Rpc, account: string, ids: readonly number[], since: number | undefined, sinceField: string): Promise<MailboxProof> {
  const { head, tree } = await rpc.heads.current(account);
  if (since !== undefined && since > head.size) {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${sinceField} (${since}) is past the log's size (${head.size})`, { field: sinceField, size: head.size });
  }
  const entries = ids.length === 0 ? [] : (await rpc.store.positions(account, ids)).filter((entry) => entry.seq <= head.size);
  const proofs = await Promise.all(entries.map((entry) => tree.inclusionProof(entry.seq - 1, head.size)));
  return {
    head: head as MailboxHead,
    positions: entries.map((entry, i) => ({ ...positionOf(entry), proof: proofs[i]!.map(toHex) })),
    ...(since !== undefined && { consistency: (await tree.consistencyProof(since, head.size)).map(toHex) }),
  };
}

export function mailboxLogHandlers(rpc: Rpc): Pick<Handlers<RelayContext>, "neutralService_getProof" | "neutralService_getLog"> {
  return {
    neutralService_getProof: ({ ids, since }, { auth }) => proveCopies(rpc, auth.address, (ids ?? []).map(cursorValue), since, "since"),

    async neutralService_getLog({ from, limit }, { auth }): Promise<LogPage> {
      const account = auth.address;
      const { head } = await rpc.heads.current(account);
      const count = Math.max(0, Math.min(limit, head.size - from + 1));
      const entries = count === 0 ? [] : await rpc.store.log(account, from, count);
      return { head: head as MailboxHead, entries: entries.map(logPositionOf), end: from + count > head.size };
    },
  };
}
