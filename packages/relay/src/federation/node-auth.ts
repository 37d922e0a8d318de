// Checks a node-to-node request (openrpc.json "Federation"): `Authorization: NeutralNode …` must
// carry this node as destination, the body's one method, a time within the clock window, and the
// EIP-712 `NodeRequest` signature of its origin over the body's SHA-256; the origin must be
// one of this node's peers. Nothing of the header is echoed in a refusal.
import { parseNodeAuthorization } from "@neutral/protocol";
import { ErrorCode, RpcError, type RequestBody } from "@neutral/server";
import type { Secp256k1 } from "../crypto/secp256k1.js";
import type { Logger } from "../log.js";
import type { PeerRegistry } from "./peers.js";
import { nodeRequestDigest } from "./records.js";

/** The methods only peers call, with a node's signature. */
export const NODE_METHODS: ReadonlySet<string> = new Set(["neutralService_deliver", "neutralService_lookup", "neutralService_provePositions"]);

export interface NodeAuthOptions {
  /** This node's address (lowercase). */
  self: string;
  curve: Secp256k1;
  clockSkewMs: number;
  peers: PeerRegistry;
  logger: Logger;
}

/** The calling node's address, once its request checks out. */
export type NodeAuthenticate = (authorization: string, body: RequestBody) => Promise<string>;

export function createNodeAuthenticator(options: NodeAuthOptions): NodeAuthenticate {
  return async (authorization, body) => {
    const parsed = parseNodeAuthorization(authorization);
    if (!parsed.ok) throw RpcError.unauthorized(parsed.reason);
    const auth = parsed.value;
    const request = body.json as { method?: unknown } | unknown[] | null;
    if (Array.isArray(request) || typeof request !== "object" || request === null) throw RpcError.unauthorized("a node-to-node request is one JSON-RPC request, not a batch");
    if (typeof request.method !== "string" || !NODE_METHODS.has(request.method)) throw RpcError.unauthorized("NeutralNode authorization is for node-to-node methods only");
    if (request.method !== auth.method) throw RpcError.unauthorized("the signed method is not the request's");
    if (auth.destination !== options.self) throw RpcError.unauthorized("the request is signed for another node");
    const clock = Date.now();
    if (Math.abs(auth.timestamp - clock) > options.clockSkewMs) throw RpcError.unauthorized("the request's timestamp is outside the clock window");
    const signer = options.curve.recoverAddress(nodeRequestDigest(auth, body.text), Buffer.from(auth.signature.slice(2), "hex"));
    if (signer !== auth.origin) throw RpcError.unauthorized("the signature does not recover origin");
    if (options.peers.byAddress(auth.origin) === undefined) {
      // A peer whose address is not known yet may be this one.
      if (options.peers.unresolved) await options.peers.resolve();
      if (options.peers.byAddress(auth.origin) === undefined) {
        options.logger.warn({ origin: auth.origin, method: auth.method }, "refused a node-to-node request from a node that is not a peer");
        throw new RpcError(ErrorCode.Forbidden, "Forbidden: this node does not federate with the calling node", { reason: "not a peer" });
      }
    }
    return auth.origin;
  };
}
