// neutralService_importMessages: an account brings its history (delivered messages, with both
// receipts) to its home node, and with it the former home's signed head of its log, kept as the
// account's prior history (openrpc.json `LogPage.prior`).
import { ErrorCode, RpcError } from "@neutral/server";
import type { Handlers, ImportResult, MailboxHead } from "@neutral/server/neutral-service";
import { errors, MAX_PRIOR_HEADS, mailboxHeadDigest, type Hex } from "@neutral/protocol";
import { messageDigest, receiptDigest } from "../crypto/eip712.js";
import type { ImportedMessage, MessageStore } from "../storage/store.js";
import { expiryProblem, recovers, reserveQuota, type RelayContext, type Reservation, type Rpc } from "./context.js";

export function importHandlers(rpc: Rpc): Pick<Handlers<RelayContext>, "neutralService_importMessages"> {
  const { store, curve, federation, nodeAddress, limits } = rpc;
  return {
    async neutralService_importMessages({ messages, head }, { auth }): Promise<ImportResult> {
      const account = auth.address;
      if (federation?.enabled) {
        const own = await federation.directory.localHome(account);
        if (own && own.node !== nodeAddress) {
          throw new RpcError(ErrorCode.Forbidden, `Forbidden: the account is homed at ${own.node}; import at your home node`, { field: "messages", home: own });
        }
      }
      // Every message is checked before any is stored (nothing is stored unless all are fine): the
      // cheap checks first, the signature recoveries last, as for sendMessage.
      const clock = rpc.now();
      const imported: ImportedMessage[] = [];
      for (const [index, message] of messages.entries()) {
        const at = (field: string) => `messages[${index}].${field}`;
        const fields = {
          from: message.from.toLowerCase(),
          to: message.to.toLowerCase(),
          message: message.message.toLowerCase(),
          timestamp: message.timestamp,
          ...(message.expires !== undefined && { expires: message.expires }),
          signature: message.signature.toLowerCase(),
          senderReceipt: message.sender_receipt.toLowerCase(),
          ...(message.sender_seq !== undefined && { senderSeq: message.sender_seq }),
        };
        if (fields.from !== account && fields.to !== account) {
          throw new RpcError(ErrorCode.Forbidden, `Forbidden: ${at("from")} and ${at("to")}: the authenticated account is neither; import only your own messages`, { field: at("from"), index });
        }
        if ((message.status !== undefined && message.status !== "delivered") || message.receiver_receipt === undefined) {
          throw RpcError.invalidParams(at("status"), "is not delivered (pending or failed, or no receiver_receipt): only delivered messages are history to import", { param: "messages", path: `/${index}/status`, index });
        }
        const bytes = fields.message.length / 2;
        if (bytes > limits.maxMessageBytes) {
          throw new RpcError(ErrorCode.TooLarge, `Message too large: ${at("message")} is ${bytes} bytes, at most ${limits.maxMessageBytes}`, { field: at("message"), limit: limits.maxMessageBytes, index });
        }
        const expiry = expiryProblem(fields, clock);
        if (expiry) throw RpcError.invalidParams(at("expires"), expiry, { param: "messages", path: `/${index}/expires`, index });
        // Receipts bound to positions keep them: positions of the logs at the node that signed them.
        imported.push({
          fields: { ...fields, receiverReceipt: message.receiver_receipt.toLowerCase(), ...(message.receiver_seq !== undefined && { receiverSeq: message.receiver_seq }) },
          digest: messageDigest(fields),
        });
      }
      for (const [index, { fields, digest }] of imported.entries()) {
        const at = (field: string) => `messages[${index}].${field}`;
        if (!recovers(rpc, digest, fields.signature, fields.from)) {
          throw new RpcError(errors.InvalidSignature.code, `Invalid signature: ${at("signature")} does not recover ${at("from")}`, { field: at("signature"), index });
        }
        for (const role of ["sender", "receiver"] as const) {
          const [receipt, seq] = role === "sender" ? [fields.senderReceipt, fields.senderSeq] : [fields.receiverReceipt, fields.receiverSeq];
          if (curve.recoverAddress(receiptDigest(digest, role, seq), Buffer.from(receipt.slice(2), "hex")) === undefined) {
            throw new RpcError(errors.InvalidSignature.code, `Invalid signature: ${at(`${role}_receipt`)} is not a signature of this message`, { field: at(`${role}_receipt`), index });
          }
        }
      }
      if (head !== undefined) await keepPriorHead(rpc, account, head);
      // The account's own quotas, as a sender and as a recipient: an import cannot store more than
      // sends could. Reserved before, given back for what was not stored (here already, or a failure).
      const reserved: Reservation[] = [];
      let stored: Awaited<ReturnType<MessageStore["importMessages"]>>;
      try {
        for (const { fields } of imported) reserved.push(reserveQuota(rpc, account, account, fields.message.length / 2));
        stored = await store.importMessages(account, imported);
      } catch (error) {
        for (const reservation of reserved) reservation.release();
        throw error;
      }
      stored.forEach(({ created }, i) => created || reserved[i]!.release());
      return { ids: stored.map(({ id }) => String(id)) };
    },
  };
}

/**
 * Keeps the former home's head of the account's log (checked: the account's, and a signature that
 * recovers an address, the former node's), or refuses the import when the account has heads of
 * MAX_PRIOR_HEADS other nodes already. Which node it is, and whether to trust it, is for readers.
 */
async function keepPriorHead(rpc: Rpc, account: string, head: MailboxHead): Promise<void> {
  if (head.account.toLowerCase() !== account) {
    throw RpcError.invalidParams("head.account", `is ${head.account.toLowerCase()}, not the authenticated account`, { param: "head", path: "/account" });
  }
  const digest = mailboxHeadDigest({ account: account as Hex, size: head.size, root: head.root as Hex, timestamp: head.timestamp });
  const node = rpc.curve.recoverAddress(digest, Buffer.from(head.signature.slice(2), "hex"));
  if (node === undefined) throw new RpcError(errors.InvalidSignature.code, "Invalid signature: head.signature is not a signature of this head", { field: "head.signature" });
  const kept = JSON.stringify({ account, size: head.size, root: head.root.toLowerCase(), timestamp: head.timestamp, signature: head.signature.toLowerCase() });
  if ((await rpc.store.putPriorHead(account, node, head.size, kept, MAX_PRIOR_HEADS)) === "full") {
    throw RpcError.invalidParams("head", `is from a node other than the ${MAX_PRIOR_HEADS} former homes whose heads this node keeps for the account already`, { param: "head", path: "", limit: MAX_PRIOR_HEADS });
  }
}
