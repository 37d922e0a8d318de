/**
 * Node-to-node requests (federation): the calling node signs EIP-712 `NodeRequest(address
 * origin,address destination,string method,bytes32 body,uint64 timestamp)` over the SHA-256 of the
 * HTTP request body (a delivery's body is large: SHA-256 is several times cheaper than keccak-256
 * here, and native where it matters), and sends it as
 * `Authorization: NeutralNode origin="0x…", destination="0x…", method="…", timestamp="…", signature="0x…"`.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import type { Decoded } from "./bearer-token.js";
import { hashTypedData } from "./eip712.js";
import { toHex, type Hex } from "./hex.js";

/** The `Authorization` scheme of node-to-node requests. */
export const NODE_AUTH_SCHEME = "NeutralNode";

/** What a node signs of a request, besides the body. */
export interface NodeRequestFields {
  /** The calling node's address (lowercase). */
  origin: Hex;
  /** The called node's address (lowercase). */
  destination: Hex;
  /** The JSON-RPC method of the (single) request in the body. */
  method: string;
  /** Epoch ms, the calling node's clock. */
  timestamp: number;
}

/** A parsed `Authorization: NeutralNode …` header. */
export interface NodeAuthorization extends NodeRequestFields {
  /** 0x + 130 hex: the origin's EIP-712 signature. */
  signature: Hex;
}

/** SHA-256 of the HTTP body, as `NodeRequest.body`. */
export const nodeRequestBodyDigest = (body: string | Uint8Array): Hex => toHex(sha256(typeof body === "string" ? utf8ToBytes(body) : body));

/** The EIP-712 digest the calling node signs for a request with `body`. */
export function nodeRequestDigest(fields: NodeRequestFields, body: string | Uint8Array): Uint8Array {
  return nodeRequestDigestOf(fields, nodeRequestBodyDigest(body));
}

/** `nodeRequestDigest` given the body's SHA-256 (for a caller with a faster SHA-256 of its own). */
export function nodeRequestDigestOf(fields: NodeRequestFields, bodyDigest: Hex): Uint8Array {
  return hashTypedData({
    primaryType: "NodeRequest",
    message: { origin: fields.origin, destination: fields.destination, method: fields.method, body: bodyDigest, timestamp: fields.timestamp },
  });
}

const ADDRESS = /^0x[0-9a-f]{40}$/;
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
const METHOD = /^[A-Za-z0-9_.]{1,64}$/;
const TIMESTAMP = /^[0-9]{1,16}$/;
const PARAM = /^([a-z]+)="([^"]*)"$/;

/** The header value for a signed request. */
export function encodeNodeAuthorization(auth: NodeAuthorization): string {
  return `${NODE_AUTH_SCHEME} origin="${auth.origin}", destination="${auth.destination}", method="${auth.method}", timestamp="${auth.timestamp}", signature="${auth.signature}"`;
}

/** Whether an `Authorization` header is meant as a node's (whatever its state). */
export const isNodeAuthorization = (header: string | undefined): boolean => header !== undefined && /^NeutralNode\s/i.test(header);

/**
 * Parses `Authorization: NeutralNode …` strictly: every parameter exactly once, in any order,
 * addresses lowercase. The reasons are what a node answers (never the header itself).
 */
export function parseNodeAuthorization(header: string): Decoded<NodeAuthorization> {
  const match = /^NeutralNode\s+(.+)$/i.exec(header.trim());
  if (!match) return { ok: false, reason: `not a ${NODE_AUTH_SCHEME} authorization` };
  const params = new Map<string, string>();
  for (const part of match[1]!.split(/\s*,\s*/)) {
    const param = PARAM.exec(part);
    if (!param) return { ok: false, reason: 'malformed NeutralNode authorization: expected name="value" pairs' };
    if (params.has(param[1]!)) return { ok: false, reason: `malformed NeutralNode authorization: ${param[1]} given twice` };
    params.set(param[1]!, param[2]!);
  }
  const origin = params.get("origin");
  const destination = params.get("destination");
  const method = params.get("method");
  const timestamp = params.get("timestamp");
  const signature = params.get("signature");
  if (params.size !== 5 || origin === undefined || destination === undefined || method === undefined || timestamp === undefined || signature === undefined) {
    return { ok: false, reason: "malformed NeutralNode authorization: needs exactly origin, destination, method, timestamp and signature" };
  }
  if (!ADDRESS.test(origin) || !ADDRESS.test(destination)) return { ok: false, reason: "malformed NeutralNode authorization: origin and destination must be lowercase hex addresses" };
  if (!METHOD.test(method)) return { ok: false, reason: "malformed NeutralNode authorization: method" };
  if (!TIMESTAMP.test(timestamp) || !Number.isSafeInteger(Number(timestamp))) return { ok: false, reason: "malformed NeutralNode authorization: timestamp" };
  if (!SIGNATURE.test(signature)) return { ok: false, reason: "malformed NeutralNode authorization: signature" };
  return { ok: true, value: { origin: origin as Hex, destination: destination as Hex, method, timestamp: Number(timestamp), signature: signature.toLowerCase() as Hex } };
}

/**
 * The EIP-712 digest a node signs over its answer to a delivery (`DeliveryAnswer`): `messages` is
 * the SHA-256 of the delivered messages' 32-byte `Message` digests, concatenated in order;
 * `outcomes` the SHA-256 of the outcomes' JSON text (`JSON.stringify(outcomes)`).
 */
export function deliveryAnswerDigest(node: string, messageDigests: readonly Uint8Array[], outcomesJson: string): Uint8Array {
  const joined = new Uint8Array(32 * messageDigests.length);
  messageDigests.forEach((digest, i) => joined.set(digest, 32 * i));
  return hashTypedData({
    primaryType: "DeliveryAnswer",
    message: { node: node.toLowerCase() as Hex, messages: toHex(sha256(joined)), outcomes: toHex(sha256(utf8ToBytes(outcomesJson))) },
  });
}
