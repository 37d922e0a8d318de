// `startHostilePeer`: a peer that is not a relay but a small HTTP server playing a dishonest node,
// for tests of what a node must refuse from the peers its operator lists. It answers lookups with
// whatever records it is told to replay (an account's public, signed key bundle and home records:
// anyone can copy them), and answers deliveries with receipts it signs with its own node key, as a
// node would that captured the mail, or with refusals. It checks no signature: it takes anything.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { deliveryAnswerDigest, hashTypedData, type Hex } from "@neutral/protocol";
import { fixtureSigner, signDigest } from "@neutral/protocol/testing";

/** A message as `neutralService_deliver` carries it. */
export interface DeliveredMessage {
  from: string;
  to: string;
  message: string;
  timestamp: number;
  expires?: number;
  signature: string;
  sender_receipt: string;
}

/** How the hostile peer answers a delivery: receipts for every message (it keeps the mail), or a refusal of each. */
export type DeliveryMode = { kind: "receipts" } | { kind: "refuse"; permanent: boolean; code?: number; message?: string; retryAfter?: number };

export interface HostilePeer {
  /** Base URL (`http://127.0.0.1:PORT`), for `--peer URL#ADDRESS`. */
  readonly url: string;
  /** The node address it signs as (lowercase). */
  readonly address: string;
  /** Home records `neutralService_lookup` answers (replayed as given, for any account asked about). */
  homes: unknown[];
  /** Key bundles `neutralService_lookup` answers. */
  keys: unknown[];
  /** How deliveries are answered (default: receipts, capturing the mail). */
  deliveries: DeliveryMode;
  /** Messages delivered to it so far. */
  readonly delivered: DeliveredMessage[];
  /** Every JSON-RPC method called on it, in order. */
  readonly calls: string[];
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

export interface HostilePeerOptions {
  /** Its node key (0x + 64 hex). Use a public test key: the peer is a test fixture. */
  key: `0x${string}`;
  /** Port on 127.0.0.1; default 0 (a free one). */
  port?: number;
}

/** The EIP-712 `Message` (or `ExpiringMessage`) digest of a delivered message, as receipts sign it. */
function messageDigestOf(message: DeliveredMessage): Uint8Array {
  const fields = { from: message.from.toLowerCase() as Hex, to: message.to.toLowerCase() as Hex, message: `0x${message.message.toLowerCase()}` as Hex, timestamp: message.timestamp };
  return message.expires === undefined
    ? hashTypedData({ primaryType: "Message", message: fields })
    : hashTypedData({ primaryType: "ExpiringMessage", message: { ...fields, expires: message.expires } });
}

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}` as Hex;

/** Starts the hostile peer on loopback; `close()` it when done. */
export async function startHostilePeer(options: HostilePeerOptions): Promise<HostilePeer> {
  const signer = fixtureSigner(options.key);
  const peer: HostilePeer = {
    url: "",
    address: signer.address,
    homes: [],
    keys: [],
    deliveries: { kind: "receipts" },
    delivered: [],
    calls: [],
    close: async () => {},
  };

  function answerDelivery(params: unknown): unknown {
    const messages = (Array.isArray(params) ? params[0] : (params as { messages?: unknown } | undefined)?.messages) as DeliveredMessage[] | undefined;
    const list = Array.isArray(messages) ? messages : [];
    const digests = list.map(messageDigestOf);
    const mode = peer.deliveries;
    const outcomes = digests.map((digest) => {
      if (mode.kind === "receipts") return { receiver_receipt: signer.signTypedData("Receipt", { message: hex(digest), role: "receiver" }) };
      return { refused: { code: mode.code ?? -32029, message: mode.message ?? "refused by the hostile peer", permanent: mode.permanent, ...(mode.retryAfter !== undefined && { retryAfter: mode.retryAfter }) } };
    });
    if (mode.kind === "receipts") peer.delivered.push(...list);
    // Signed as an honest node signs its answer: the calling node accepts the receipts with it.
    return { outcomes, signature: signDigest(deliveryAnswerDigest(signer.address, digests, JSON.stringify(outcomes)), options.key) };
  }

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      let body: { id?: unknown; method?: unknown; params?: unknown };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as typeof body;
      } catch {
        response.writeHead(400).end();
        return;
      }
      const method = typeof body.method === "string" ? body.method : "";
      peer.calls.push(method);
      let result: unknown;
      if (method === "neutralService_nodeInfo") result = { address: signer.address, software: "hostile-peer", version: "0", domains: [], limits: {}, url: peer.url, peers: [] };
      else if (method === "neutralService_lookup") result = { homes: peer.homes, keys: peer.keys };
      else if (method === "neutralService_deliver") result = answerDelivery(body.params);
      const answer =
        result === undefined
          ? { jsonrpc: "2.0", id: body.id ?? null, error: { code: -32601, message: "Method not found" } }
          : { jsonrpc: "2.0", id: body.id ?? null, result: [result] };
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(peer, {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return peer;
}
