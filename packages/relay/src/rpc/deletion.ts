// neutralService_deleteMessages: an owner deletes messages from its own mailbox, and the node signs
// a receipt of the request.
import { RpcError } from "@neutral/server";
import type { DeletionReceipt, Handlers } from "@neutral/server/neutral-service";
import { hashTypedData } from "@neutral/protocol";
import { cursorValue } from "../storage/store.js";
import { checkSignedRecord, hex, type RelayContext, type Rpc } from "./context.js";

export function deletionHandlers(rpc: Rpc): Pick<Handlers<RelayContext>, "neutralService_deleteMessages"> {
  const { store, curve, nodeKey, nodeAddress } = rpc;
  return {
    async neutralService_deleteMessages({ request }, { auth }): Promise<DeletionReceipt> {
      // Only the future is bounded: a request may be sent again later, and deleting what is gone changes nothing.
      let ids: number[] = [];
      let digest: Uint8Array = new Uint8Array();
      const digestOf = (account: string) => {
        ids = request.ids.map(cursorValue);
        digest = hashTypedData({ primaryType: "Deletion", message: { account: account as `0x${string}`, ids, timestamp: request.timestamp } });
        return digest;
      };
      const account = checkSignedRecord(rpc, auth, "request", request, digestOf);
      // The account's signed request, kept at each position it empties: the log's reason (LogRemoval).
      const kept = JSON.stringify({ account, ids: request.ids, timestamp: request.timestamp, signature: request.signature });
      const { pending } = await store.deleteMessages(account, ids, kept);
      if (pending.length > 0) {
        throw RpcError.invalidParams("request.ids", `names messages still pending delivery to another node (${pending.join(", ")}): delete them once delivered or failed`, {
          param: "request",
          path: "/ids",
          pending: pending.map(String),
        });
      }
      const receipt = hashTypedData({ primaryType: "DeletionReceipt", message: { node: nodeAddress as `0x${string}`, request: hex(digest) as `0x${string}` } });
      return { node: nodeAddress, account, ids: request.ids, request: hex(digest), signature: hex(curve.sign(receipt, nodeKey)) };
    },
  };
}
