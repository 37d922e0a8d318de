// neutralService_sendMessage: a message signed by its sender, checked, routed (here, or to the
// recipient's home node), filed by the recipient's consent, counted against the quotas, and stored
// with this node's receipt.
import { ErrorCode, RpcError, rawJson } from "@neutral/server";
import type { Handlers } from "@neutral/server/neutral-service";
import { errors, isPendingMessageJson } from "@neutral/protocol";
import { messageDigest } from "../crypto/eip712.js";
import type { Route } from "../federation/index.js";
import type { AcceptedMessage } from "../message.js";
import type { StoredMessage } from "../storage/store.js";
import { folderOf } from "./consent.js";
import { callersOwn, expiryProblem, hex, recovers, reserveQuota, type RelayContext, type Rpc } from "./context.js";

const LOCAL: Route = { kind: "local" };

/**
 * Where a message from `from` to `to` goes, with federation's refusals: a sender homed elsewhere
 * sends through its home node, a sender writing to another node needs a home record naming this
 * one (the recipient's node checks it), and a recipient homed on a node that is not a peer is out
 * of reach.
 */
async function routeOf(rpc: Rpc, from: string, to: string): Promise<Route> {
  const { directory } = rpc.federation!;
  const own = await directory.localHome(from);
  if (own && own.node !== rpc.nodeAddress) {
    throw new RpcError(ErrorCode.Forbidden, `Forbidden: message.from is homed at ${own.node}; send through your home node`, { field: "message.from", home: own });
  }
  const route = await directory.route(to);
  if (route.kind === "unreachable") {
    throw new RpcError(ErrorCode.Forbidden, `Forbidden: the recipient's home node ${route.node} is not a peer of this node`, { field: "message.to", node: route.node });
  }
  if (route.kind === "unhomed") {
    // Anyone can copy a key bundle to any node: only the account's own home record may say where it lives.
    throw new RpcError(
      ErrorCode.Forbidden,
      "Forbidden: the recipient has no home record, and its key bundle is held by other nodes: only a home record it signed says which node is its home; it must publish one (neutralService_publishHome) to receive messages from other nodes",
      { field: "message.to", reason: "recipient has no home record" },
    );
  }
  if (route.kind === "unknown") {
    // Stored here, it could be lost to its recipient: refuse, and let the client send again.
    throw new RpcError(ErrorCode.InternalError, "The recipient's home node is not known: a peer did not answer; try again later", { field: "message.to", reason: "peers unreachable" });
  }
  if (route.kind === "remote" && !own) {
    throw new RpcError(
      ErrorCode.Forbidden,
      "Forbidden: the recipient is homed on another node, which accepts messages only from senders with a home record: publish yours here first (neutralService_publishHome)",
      { field: "message.from", reason: "no home record" },
    );
  }
  return route;
}

export function sendHandlers(rpc: Rpc): Pick<Handlers<RelayContext>, "neutralService_sendMessage"> {
  const { store, limits, federation } = rpc;
  return {
    async neutralService_sendMessage({ message: signed }, { auth }) {
      // Cheap checks first; the signature recovery is the expensive one.
      const bytes = signed.message.length / 2;
      if (bytes > limits.maxMessageBytes) {
        throw new RpcError(ErrorCode.TooLarge, `Message too large: ${bytes} bytes, at most ${limits.maxMessageBytes}`, {
          field: "message.message",
          limit: limits.maxMessageBytes,
        });
      }
      const from = callersOwn(auth, signed.from, "message.from");
      const clock = rpc.now();
      if (Math.abs(signed.timestamp - clock) > limits.clockSkewMs) {
        throw new RpcError(errors.TimestampOutOfWindow.code, `Timestamp outside the accepted window of ±${limits.clockSkewMs} ms`, {
          field: "message.timestamp",
          now: clock,
          clockSkewMs: limits.clockSkewMs,
        });
      }
      const fields = { from, to: signed.to.toLowerCase(), message: signed.message.toLowerCase(), timestamp: signed.timestamp, ...(signed.expires !== undefined && { expires: signed.expires }) };
      const expiry = expiryProblem(fields, clock);
      if (expiry) throw RpcError.invalidParams("message.expires", expiry, { param: "message", path: "/expires" });
      const digest = messageDigest(fields);
      if (!recovers(rpc, digest, signed.signature, from)) {
        throw new RpcError(errors.InvalidSignature.code, "Invalid signature: it does not recover message.from", { field: "message.signature" });
      }
      const route = federation?.enabled ? await routeOf(rpc, from, fields.to) : LOCAL;
      // The recipient's node decides by its consent: this one, for a recipient homed here.
      const folder = route.kind === "remote" ? undefined : await folderOf(rpc, from, fields.to);
      const reservation = reserveQuota(rpc, from, fields.to, bytes, folder);
      let stored: StoredMessage;
      try {
        // The store signs the receipts, over the positions the copies take (spec 3.0.0).
        const accepted: AcceptedMessage =
          route.kind === "remote"
            ? { ...fields, signature: signed.signature.toLowerCase(), status: "pending", route: { kind: "outbound", destination: route.peer.address }, digest }
            : { ...fields, signature: signed.signature.toLowerCase(), digest, ...(folder && { folder }) };
        const result = await store.append(accepted);
        if (!result.created) reservation.release();
        else rpc.onStored?.(route.kind === "remote" ? "outbound" : "local");
        stored = result.stored;
      } catch (error) {
        reservation.release();
        throw error;
      }
      if (route.kind === "remote" && federation && isPendingMessageJson(stored.json)) {
        // Durable already: hand it to the deliverer, and wait a little for the other node's receipt.
        federation.kick({ destination: route.peer.address });
        return rawJson((await federation.settled(from, stored.id, rpc.delivery.deliveryWaitMs)) ?? stored.json);
      }
      return rawJson(stored.json);
    },
  };
}
