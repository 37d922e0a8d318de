// The node-to-node methods (openrpc.json "Federation"): deliver (a peer's messages for accounts
// homed here, each checked, filed and counted, and one signature over the answer) and lookup.
import { ErrorCode, RpcError, rawJson, type RawJson } from "@neutral/server";
import type { DeliveryOutcome, DeliveryRefusal, DeliveryResult, DirectoryAnswer, Handlers, HomeRecord, Message, RelayedMessage } from "@neutral/server/neutral-service";
import { deliveryAnswerDigest, errors } from "@neutral/protocol";
import { messageDigest } from "../crypto/eip712.js";
import { relayedSigners, type RelayedFields } from "../federation/records.js";
import type { AcceptedMessage } from "../message.js";
import type { AppendResult, StoredHomeRecord } from "../storage/store.js";
import { folderOf } from "./consent.js";
import { expiryProblem, hex, reserveQuota, type Caller, type RelayContext, type Reservation, type Rpc } from "./context.js";

/** The calling node of a node-to-node method, or -32002 for an account's token. */
export function callingNode(auth: Caller): string {
  if (auth.kind !== "node") {
    throw new RpcError(ErrorCode.Forbidden, "Forbidden: a node-to-node method, for peers signing with Authorization: NeutralNode", { reason: "not a node" });
  }
  return auth.address;
}

/** A delivered message's refusal (openrpc.json `DeliveryRefusal`). */
function refusal(code: number, message: string, permanent: boolean, home?: StoredHomeRecord): { refused: DeliveryRefusal } {
  return { refused: { code, message, permanent, ...(home && { home: home as HomeRecord }) } };
}

/** A refusal for now of a delivered message, from the error that refused it (a quota's, with its `retryAfter`). */
function refusalForNow(error: RpcError): { refused: DeliveryRefusal } {
  const retryAfter = (error.data as { retryAfter?: unknown } | undefined)?.retryAfter;
  return { refused: { code: error.code, message: error.message, permanent: false, ...(typeof retryAfter === "number" && { retryAfter }) } };
}

/** The receiver receipt of the recipient's copy as stored (and its position, when the receipt binds one): a delivery's outcome. */
function receiverReceiptOf(json: string): DeliveryOutcome {
  const { receiver_receipt, receiver_seq } = JSON.parse(json) as Pick<Message, "receiver_receipt" | "receiver_seq">;
  if (receiver_receipt === undefined) throw new Error("a delivered message was stored without its receiver receipt");
  return { receiver_receipt, ...(receiver_seq !== undefined && { receiver_seq }) };
}

/** A delivered message's fields, lowercase, and its EIP-712 digest (the answer's signature covers every message's). */
function relayedFields(relayed: RelayedMessage): { fields: RelayedFields; digest: Uint8Array } {
  const fields: RelayedFields = {
    from: relayed.from.toLowerCase(),
    to: relayed.to.toLowerCase(),
    message: relayed.message.toLowerCase(),
    timestamp: relayed.timestamp,
    ...(relayed.expires !== undefined && { expires: relayed.expires }),
    signature: relayed.signature.toLowerCase(),
    senderReceipt: relayed.sender_receipt.toLowerCase(),
    ...(relayed.sender_seq !== undefined && { senderSeq: relayed.sender_seq }),
  };
  return { fields, digest: messageDigest(fields) };
}

/** A delivered message's checks (openrpc.json `neutralService_deliver`), cheapest first. */
async function checkDelivered(rpc: Rpc, origin: string, fields: RelayedFields, digest: Uint8Array): Promise<{ bytes: number } | { refused: DeliveryRefusal }> {
  const { limits, curve, store, nodeAddress } = rpc;
  const directory = rpc.federation!.directory;
  const bytes = fields.message.length / 2;
  if (bytes > limits.maxMessageBytes) return refusal(ErrorCode.TooLarge, `Message too large: ${bytes} bytes, at most ${limits.maxMessageBytes}`, true);
  const clock = rpc.now();
  const expiry = expiryProblem(fields, clock);
  if (expiry) return refusal(ErrorCode.InvalidParams, `Invalid params: message.expires ${expiry}`, true);
  // Older than any peer retries it: it would come back after this node swept it (openrpc.json "Retention and deletion").
  if (clock - fields.timestamp > rpc.arrivalWindow) {
    return refusal(errors.TimestampOutOfWindow.code, `Timestamp too old: a delivery is accepted up to ${rpc.arrivalWindow} ms (retryPeriodSeconds and clockSkewMs) after its timestamp`, true);
  }
  const { sender, senderNode } = relayedSigners(curve, fields, digest);
  if (sender !== fields.from) return refusal(errors.InvalidSignature.code, "Invalid signature: it does not recover from", true);
  if (senderNode !== origin) return refusal(errors.InvalidSignature.code, "Invalid sender_receipt: it is not the calling node's signature", true);
  const senderHome = await directory.localHome(fields.from);
  if (!senderHome) return refusal(ErrorCode.Forbidden, "Forbidden: no home record of the sender names the calling node (send it in homes)", true);
  if (senderHome.node !== origin) return refusal(ErrorCode.Forbidden, `Forbidden: the sender is homed at ${senderHome.node}, not at the calling node`, true);
  const recipientHome = await directory.localHome(fields.to);
  if (recipientHome && recipientHome.node !== nodeAddress) {
    return refusal(ErrorCode.Forbidden, `Forbidden: the recipient is homed at ${recipientHome.node}`, true, recipientHome);
  }
  if (!recipientHome && (await store.getKeyBundle(fields.to)) === undefined) return refusal(ErrorCode.Forbidden, "Forbidden: the recipient is not homed at this node", true);
  return { bytes };
}

export function federationHandlers(rpc: Rpc): Pick<Handlers<RelayContext>, "neutralService_deliver" | "neutralService_lookup"> {
  const { store, curve, nodeKey, nodeAddress } = rpc;
  return {
    async neutralService_deliver({ messages, homes }, { auth }): Promise<RawJson<DeliveryResult>> {
      const origin = callingNode(auth);
      const { federation } = rpc;
      if (!federation) throw new RpcError(ErrorCode.Forbidden, "Forbidden: this node does not federate", { reason: "not a peer" });
      federation.kick({ peerUp: origin }); // it is up: our own deliveries to it need not wait out a backoff
      federation.directory.heardFrom(origin);
      await federation.directory.learnHomes(homes);
      // First every check, then the appends in the order given (one group commit): the recipient
      // gets one sender's messages in the order its node accepted them. A message refused for now
      // holds back the later ones of the same sender to the same recipient (they must not overtake
      // it), and nothing else: one recipient's quota never stops another's mail (issue 33, finding 3).
      const outcomes: (DeliveryOutcome | undefined)[] = [];
      const accepted: { index: number; message: AcceptedMessage; reservation: Reservation }[] = [];
      /** The refusal for now that holds back each (sender, recipient) pair, by `from>to`. */
      const held = new Map<string, { refused: DeliveryRefusal }>();
      const relayed = messages.map(relayedFields);
      for (const [index, { fields, digest }] of relayed.entries()) {
        const pair = `${fields.from}>${fields.to}`;
        const earlier = held.get(pair);
        if (earlier) {
          const { retryAfter } = earlier.refused;
          outcomes.push({
            refused: {
              ...refusal(ErrorCode.RateLimited, `not stored: an earlier message of this sender to this recipient in this delivery was refused for now (${earlier.refused.message})`, false).refused,
              ...(retryAfter !== undefined && { retryAfter }),
            },
          });
          continue;
        }
        const verdict = await checkDelivered(rpc, origin, fields, digest);
        if ("refused" in verdict) {
          outcomes.push(verdict);
          if (!verdict.refused.permanent) held.set(pair, verdict);
          continue;
        }
        let folder: "requests" | undefined;
        let reservation: Reservation;
        try {
          folder = await folderOf(rpc, fields.from, fields.to);
          reservation = reserveQuota(rpc, fields.from, fields.to, verdict.bytes, folder);
        } catch (error) {
          if (!(error instanceof RpcError)) throw error;
          // Blocked: refused for good. Over the request quota, or a storage quota: for now.
          if (error.code === ErrorCode.Forbidden) outcomes.push(refusal(error.code, error.message, true));
          else {
            const forNow = refusalForNow(error);
            held.set(pair, forNow);
            outcomes.push(forNow);
          }
          continue;
        }
        outcomes.push(undefined);
        // The store signs the receiver receipt, over the position the recipient's copy takes.
        accepted.push({ index, reservation, message: { ...fields, route: { kind: "inbound" }, digest, ...(folder && { folder }) } });
      }
      let results: AppendResult[];
      try {
        results = await Promise.all(accepted.map(({ message }) => store.append(message)));
      } catch (error) {
        for (const { reservation } of accepted) reservation.release();
        throw error; // the calling node retries the whole delivery; what was stored is found again
      }
      accepted.forEach(({ index, reservation }, i) => {
        const { created, stored } = results[i]!;
        if (!created) reservation.release();
        else rpc.onStored?.("inbound");
        outcomes[index] = receiverReceiptOf(stored.json);
      });
      // One signature over the whole answer, bound to the messages it answers: the calling node
      // checks it instead of each receipt.
      const outcomesJson = JSON.stringify(outcomes);
      const answer = deliveryAnswerDigest(nodeAddress, relayed.map(({ digest }) => digest), outcomesJson);
      return rawJson(`{"outcomes":${outcomesJson},"signature":"${hex(curve.sign(answer, nodeKey))}"}`);
    },

    async neutralService_lookup({ accounts, homes }, { auth }): Promise<DirectoryAnswer> {
      const origin = callingNode(auth);
      const { federation } = rpc;
      if (!federation) throw new RpcError(ErrorCode.Forbidden, "Forbidden: this node does not federate", { reason: "not a peer" });
      federation.directory.heardFrom(origin);
      if (homes.length > 0) await federation.directory.learnHomes(homes);
      return (await federation.directory.localRecords(accounts)) as DirectoryAnswer;
    },
  };
}
