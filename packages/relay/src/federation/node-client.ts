// Calls to peers: one JSON-RPC request per HTTP request, signed by this node (openrpc.json
// "Federation": `Authorization: NeutralNode …` over the body's keccak-256), and nodeInfo, which
// needs no signature, to learn an unpinned peer's address.
import { encodeNodeAuthorization, nodeRequestDigest, type Hex } from "@neutral/protocol";
import type { Secp256k1 } from "../crypto/secp256k1.js";

/** Why a call to a peer gave no result: it could not be reached or did not answer in time, it refused (a JSON-RPC error), or its answer was not one. */
export class PeerCallError extends Error {
  override readonly name = "PeerCallError";
  constructor(
    message: string,
    readonly kind: "unreachable" | "refused" | "malformed",
    /** The JSON-RPC error code of a refusal. */
    readonly code?: number,
  ) {
    super(message);
  }
}

/** A peer to call: its base URL and its (pinned) node address. */
export interface PeerTarget {
  url: string;
  address: string;
}

export interface NodeClient {
  /** Calls `method` on the peer; resolves with the payload of its one-element result. */
  call(peer: PeerTarget, method: string, params: Record<string, unknown>, timeoutMs: number): Promise<unknown>;
  /** The node address a URL's nodeInfo names (no signature is involved: the caller pins it). */
  nodeAddress(url: string, timeoutMs: number): Promise<string>;
}

export interface NodeClientOptions {
  /** This node's address and key: every call is signed with it. */
  self: string;
  privateKey: Uint8Array;
  curve: Secp256k1;
  fetch?: typeof globalThis.fetch;
  now?: () => number;
}

/** The most a peer's answer may weigh: a delivery's outcomes or a lookup's records are small. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

async function readCapped(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => {});
      throw new PeerCallError(`the answer is larger than ${MAX_ANSWER_BYTES} bytes`, "malformed");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** What went wrong in a fetch, in words: never a header or a body. */
function describeFailure(error: unknown): string {
  if (error instanceof PeerCallError) return error.message;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) return "no answer in time";
  if (typeof cause?.code === "string") return cause.code;
  return error instanceof Error ? error.message.slice(0, 200) : "unknown error";
}

export function createNodeClient(options: NodeClientOptions): NodeClient {
  const fetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const self = options.self.toLowerCase() as Hex;

  async function post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<unknown> {
    let text: string;
    let status: number;
    try {
      const response = await fetch(`${url}/`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "error",
      });
      status = response.status;
      text = await readCapped(response);
    } catch (error) {
      if (error instanceof PeerCallError) throw error;
      throw new PeerCallError(`${url}: ${describeFailure(error)}`, "unreachable");
    }
    let answer: { result?: unknown; error?: { code?: unknown; message?: unknown } };
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch {
      throw new PeerCallError(`${url}: HTTP ${status}, not a JSON-RPC answer`, status >= 500 ? "unreachable" : "malformed");
    }
    if (answer && typeof answer === "object" && answer.error && typeof answer.error === "object") {
      const code = typeof answer.error.code === "number" ? answer.error.code : undefined;
      const message = typeof answer.error.message === "string" ? answer.error.message.slice(0, 200) : "error";
      // A peer that fails internally, is overloaded or rate-limits us may succeed later.
      const transient = code === -32603 || code === -32029 || status >= 500;
      throw new PeerCallError(`${url}: ${message} (${code ?? "no code"})`, transient ? "unreachable" : "refused", code);
    }
    if (!answer || typeof answer !== "object" || !Array.isArray(answer.result) || answer.result.length !== 1) {
      throw new PeerCallError(`${url}: HTTP ${status}, the answer has no one-element result`, "malformed");
    }
    return answer.result[0];
  }

  return {
    async call(peer, method, params, timeoutMs) {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
      const fields = { origin: self, destination: peer.address.toLowerCase() as Hex, method, timestamp: now() };
      const signature = options.curve.sign(nodeRequestDigest(fields, body), options.privateKey);
      const authorization = encodeNodeAuthorization({ ...fields, signature: `0x${Buffer.from(signature).toString("hex")}` });
      return post(peer.url, body, { authorization }, timeoutMs);
    },

    async nodeAddress(url, timeoutMs) {
      const info = (await post(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_nodeInfo", params: [] }), {}, timeoutMs)) as { address?: unknown } | null;
      if (typeof info?.address !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(info.address)) throw new PeerCallError(`${url}: nodeInfo names no address`, "malformed");
      return info.address.toLowerCase();
    },
  };
}
