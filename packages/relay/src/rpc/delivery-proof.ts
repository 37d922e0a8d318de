// Proving delivery (openrpc.json "The verifiable mailbox"): a sender asks whether what it sent is in
// its recipients' logs (neutralService_proveDelivery), and the recipient's node answers the position
// of the recipient's copy with its signed promise, EIP-712 `LogReceipt`: this node for a recipient
// homed here, the recipient's home node for one homed on a peer (neutralService_provePositions, node
// to node). What is not proven says why: a problem for the sender to see, never an error of the call.
import { ErrorCode, RpcError } from "@neutral/server";
import type { DeliveryProof, DeliveryProofs, Handlers, PositionAnswers, PositionReceipt } from "@neutral/server/neutral-service";
import { isUndeliveredMessageJson } from "@neutral/protocol";
import { logReceiptDigest } from "../crypto/keccak.js";
import type { PeerTarget } from "../federation/node-client.js";
import type { MessageRecord } from "../storage/store.js";
import { cursorValue } from "../storage/store.js";
import { hex, type RelayContext, type Rpc } from "./context.js";
import { callingNode } from "./federation.js";

/** How long a sender's node waits for the recipient's node's positions. */
const PEER_WAIT_MS = 5_000;

/** The position of `record`'s recipient's copy here, with this node's promise of it; undefined when the recipient's mailbox holds none. */
async function localPosition(rpc: Rpc, record: MessageRecord): Promise<PositionReceipt | undefined> {
  const copy = (await rpc.store.positions(record.to, [record.id])).find((position) => position.role === "received");
  if (copy === undefined) return undefined;
  return { seq: copy.seq, receipt: hex(rpc.curve.sign(logReceiptDigest(record.digest, copy.seq), rpc.nodeKey)) };
}

export function deliveryProofHandlers(rpc: Rpc): Pick<Handlers<RelayContext>, "neutralService_proveDelivery" | "neutralService_provePositions"> {
  const { store, federation } = rpc;
  return {
    async neutralService_proveDelivery({ ids }, { auth }): Promise<DeliveryProofs> {
      const sender = auth.address;
      const proofs: DeliveryProof[] = ids.map((id) => ({ id, problem: "not a message you sent on this node" }));
      /** The messages whose recipients are homed on a peer, by peer. */
      const remote = new Map<string, { peer: PeerTarget; asked: { index: number; record: MessageRecord }[] }>();
      for (const [index, id] of ids.entries()) {
        const record = await store.messageRecord(cursorValue(id));
        if (record === undefined || record.from !== sender) continue;
        const route = federation?.enabled ? await federation.directory.route(record.to) : { kind: "local" as const };
        if (route.kind === "local") {
          const position = await localPosition(rpc, record);
          proofs[index] = position ? { id, position } : { id, problem: "the recipient's mailbox here holds no copy of it (never stored, or deleted since)" };
        } else if (route.kind === "remote") {
          const json = await store.sentMessage(sender, record.id);
          if (json === undefined || isUndeliveredMessageJson(json)) {
            proofs[index] = { id, problem: "not delivered: it is pending or failed" };
            continue;
          }
          const key = route.peer.address.toLowerCase();
          const group = remote.get(key) ?? { peer: route.peer, asked: [] };
          group.asked.push({ index, record });
          remote.set(key, group);
        } else {
          proofs[index] = { id, problem: `the recipient's home node cannot be asked (${route.kind === "unreachable" ? `${route.node} is not a peer` : route.kind === "unhomed" ? "the recipient has no home record" : "no peer answered"})` };
        }
      }
      await Promise.all(
        [...remote.values()].map(async ({ peer, asked }) => {
          const node = peer.address.toLowerCase();
          let answer: PositionAnswers;
          try {
            const messages = asked.map(({ record }) => ({ digest: record.digest, timestamp: record.timestamp, to: record.to }));
            answer = (await federation!.client.call(peer, "neutralService_provePositions", { messages }, PEER_WAIT_MS)) as PositionAnswers;
          } catch (error) {
            const why = error instanceof Error ? error.message : String(error);
            for (const { index } of asked) proofs[index] = { id: ids[index]!, problem: `the recipient's home node ${node} did not prove it: ${why.slice(0, 300)}` };
            return;
          }
          for (const [i, { index, record }] of asked.entries()) {
            const position = Array.isArray(answer?.positions) ? answer.positions[i] : undefined;
            const id = ids[index]!;
            if (position === null || position === undefined) {
              proofs[index] = { id, problem: `the recipient's home node ${node} holds no copy of it (never stored, or deleted since)` };
              continue;
            }
            const signer =
              Number.isSafeInteger(position.seq) && position.seq >= 1 && typeof position.receipt === "string"
                ? rpc.curve.recoverAddress(logReceiptDigest(record.digest, position.seq), Buffer.from(position.receipt.slice(2), "hex"))
                : undefined;
            proofs[index] = signer === node ? { id, position: { seq: position.seq, receipt: position.receipt } } : { id, problem: `the recipient's home node ${node} answered a position it did not sign` };
          }
        }),
      );
      return { proofs };
    },

    async neutralService_provePositions({ messages }, { auth }): Promise<PositionAnswers> {
      callingNode(auth);
      if (!federation) throw new RpcError(ErrorCode.Forbidden, "Forbidden: this node does not federate", { reason: "not a peer" });
      const positions: (PositionReceipt | null)[] = [];
      for (const { digest, timestamp, to } of messages) {
        const id = await store.messageIdOf(timestamp, digest.toLowerCase());
        const record = id === undefined ? undefined : await store.messageRecord(id);
        positions.push(record !== undefined && record.to === to.toLowerCase() ? ((await localPosition(rpc, record)) ?? null) : null);
      }
      return { positions };
    },
  };
}
