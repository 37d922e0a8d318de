// neutralService_deleteMessages: an owner deletes messages from its own mailbox, and the node signs
// a receipt of the request. A request that names its positions (`leaves`, spec 2.10.0) deletes
// exactly those copies, so that the log's reason for each (`LogDeletion`) names the position itself.
import { RpcError } from "@neutral/server";
import type { DeletionReceipt, Handlers } from "@neutral/server/neutral-service";
import { errors, hashTypedData } from "@neutral/protocol";
import { cursorValue } from "../storage/store.js";
import { checkSignedRecord, hex, type RelayContext, type Rpc } from "./context.js";

export function deletionHandlers(rpc: Rpc): Pick<Handlers<RelayContext>, "neutralService_deleteMessages"> {
  const { store, curve, nodeKey, nodeAddress } = rpc;
  return {
    async neutralService_deleteMessages({ request }, { auth }): Promise<DeletionReceipt> {
      const receiptOf = (account: string, digest: Uint8Array): DeletionReceipt => {
        const receipt = hashTypedData({ primaryType: "DeletionReceipt", message: { node: nodeAddress as `0x${string}`, request: hex(digest) as `0x${string}` } });
        return { node: nodeAddress, account, ids: request.ids, request: hex(digest), signature: hex(curve.sign(receipt, nodeKey)) };
      };
      let ids: number[] = [];
      let digest: Uint8Array = new Uint8Array();
      const digestOf = (account: string) => {
        ids = request.ids.map(cursorValue);
        const signer = account as `0x${string}`;
        digest =
          request.leaves === undefined
            ? hashTypedData({ primaryType: "Deletion", message: { account: signer, ids, timestamp: request.timestamp } })
            : hashTypedData({ primaryType: "PositionedDeletion", message: { account: signer, ids, leaves: request.leaves as `0x${string}`[], timestamp: request.timestamp } });
        return digest;
      };
      const account = checkSignedRecord(rpc, auth, "request", request, digestOf);
      const clock = rpc.now();
      if (request.leaves === undefined && request.timestamp < clock - rpc.limits.clockSkewMs) {
        // A request that names ids only (signed before spec 2.10.0) and is older than the clock window
        // deletes nothing: sent again, it answers its receipt while none of its messages is here, and is
        // refused once one is (imported again since). So a position stored after a head the node signed
        // later than the window is never such a request's, which the audit checks (openrpc.json "The
        // verifiable mailbox"). A request with `leaves` deletes only the positions it names: any time.
        const held = await store.positions(account, ids);
        if (held.length > 0) {
          throw new RpcError(errors.TimestampOutOfWindow.code, `Timestamp more than ${rpc.limits.clockSkewMs} ms in the past, and message ${held[0]!.id} is here: sign a new request`, {
            field: "request.timestamp",
            now: clock,
            clockSkewMs: rpc.limits.clockSkewMs,
          });
        }
        return receiptOf(account, digest);
      }
      let seqs: number[] | undefined;
      if (request.leaves !== undefined) {
        // Every copy of the ids still here must be named; a named one already gone is fine (the
        // request sent again). The store then deletes only the positions named: a copy imported
        // meanwhile stays.
        const named = new Set(request.leaves.map((leaf) => leaf.toLowerCase()));
        const held = await store.positions(account, ids);
        const unnamed = held.filter((position) => !named.has(position.leafHash));
        if (unnamed.length > 0) {
          throw RpcError.invalidParams("request.leaves", `does not name the position of message ${unnamed[0]!.id} (seq ${unnamed[0]!.seq}): name the leaves of every copy of ids, and sign again`, {
            param: "request",
            path: "/leaves",
            positions: held.map(({ seq, id, role, leafHash }) => ({ seq, id: String(id), role, leafHash })),
          });
        }
        seqs = held.map((position) => position.seq);
      }
      // The account's signed request, kept at each position it empties: the log's reason (LogRemoval).
      const kept = JSON.stringify({ account, ids: request.ids, ...(request.leaves !== undefined && { leaves: request.leaves }), timestamp: request.timestamp, signature: request.signature });
      const { pending } = await store.deleteMessages(account, ids, kept, seqs);
      if (pending.length > 0) {
        throw RpcError.invalidParams("request.ids", `names messages still pending delivery to another node (${pending.join(", ")}): delete them once delivered or failed`, {
          param: "request",
          path: "/ids",
          pending: pending.map(String),
        });
      }
      return receiptOf(account, digest);
    },
  };
}
