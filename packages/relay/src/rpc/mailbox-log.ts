// The verifiable mailbox's reads (openrpc.json "The verifiable mailbox"): the caller's signed head
// with inclusion and consistency proofs (getProof), and its log (getLog).
import { ErrorCode, RpcError } from "@neutral/server";
import type { Handlers, LogPage, LogPosition, MailboxHead, MailboxProof } from "@neutral/server/neutral-service";
import { toHex } from "@neutral/protocol";
import { MailboxHeads } from "../mailbox-log/heads.js";
import { cursorValue, type LogEntry } from "../storage/store.js";
import type { RelayContext, Rpc } from "./context.js";

const positionOf = (entry: LogEntry): LogPosition => ({ seq: entry.seq, id: String(entry.id), role: entry.role, leafHash: entry.leafHash });

export function mailboxLogHandlers(rpc: Rpc): Pick<Handlers<RelayContext>, "neutralService_getProof" | "neutralService_getLog"> {
  const heads = new MailboxHeads({ store: rpc.store, sign: (digest) => rpc.curve.sign(digest, rpc.nodeKey), now: rpc.now });
  return {
    async neutralService_getProof({ ids, since }, { auth }): Promise<MailboxProof> {
      const account = auth.address;
      const { head, tree } = await heads.current(account);
      if (since !== undefined && since > head.size) {
        throw new RpcError(ErrorCode.InvalidParams, `Invalid params: since (${since}) is past the log's size (${head.size})`, { field: "since", size: head.size });
      }
      // Copies stored after the head was signed are left to the next head.
      const entries = (await rpc.store.positions(account, (ids ?? []).map(cursorValue))).filter((entry) => entry.seq <= head.size);
      const proofs = await Promise.all(entries.map((entry) => tree.inclusionProof(entry.seq - 1, head.size)));
      return {
        head: head as MailboxHead,
        positions: entries.map((entry, i) => ({ ...positionOf(entry), proof: proofs[i]!.map(toHex) })),
        ...(since !== undefined && { consistency: (await tree.consistencyProof(since, head.size)).map(toHex) }),
      };
    },

    async neutralService_getLog({ from, limit }, { auth }): Promise<LogPage> {
      const account = auth.address;
      const { head } = await heads.current(account);
      const count = Math.max(0, Math.min(limit, head.size - from + 1));
      const entries = count === 0 ? [] : await rpc.store.log(account, from, count);
      return { head: head as MailboxHead, entries: entries.map(positionOf), end: from + count > head.size };
    },
  };
}
