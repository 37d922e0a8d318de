// Calls to peers: one JSON-RPC request per HTTP request, signed by this node (openrpc.json
// "Federation": `Authorization: NeutralNode …` over the body's SHA-256), and nodeInfo, which
// needs no signature, to learn an unpinned peer's address.
import http from "node:http";
import https from "node:https";
import { encodeNodeAuthorization, type Hex } from "@neutral/protocol";
import type { Secp256k1 } from "../crypto/secp256k1.js";
import { nodeRequestDigest } from "./records.js";

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
  /** Closes the kept-alive connections. */
  close(): void;
}

export interface NodeClientOptions {
  /** This node's address and key: every call is signed with it. */
  self: string;
  privateKey: Uint8Array;
  curve: Secp256k1;
}

/** Connections kept open to each peer: deliveries, lookups and announcements share them. */
const SOCKETS_PER_PEER = 8;

/** The most a peer's answer may weigh: a delivery's outcomes or a lookup's records are small. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** What went wrong in a request, in words: never a header or a body. */
function describeFailure(error: unknown): string {
  if (error instanceof PeerCallError) return error.message;
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === "string") return code;
  return error instanceof Error ? error.message.slice(0, 200) : "unknown error";
}

/**
 * POSTs `body` to `url` and reads the answer (at most MAX_ANSWER_BYTES) within `timeoutMs`, over
 * `node:http` with kept-alive, bounded connections: several times cheaper per call than fetch,
 * and a peer's connections stay a handful rather than one per concurrent call.
 */
function postJson(agents: { http: http.Agent; https: https.Agent }, url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(`${url}/`);
    } catch {
      reject(new PeerCallError(`${url}: not a URL`, "unreachable"));
      return;
    }
    const secure = target.protocol === "https:";
    const request = (secure ? https : http).request(
      target,
      { method: "POST", agent: secure ? agents.https : agents.http, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            request.destroy(new PeerCallError(`${url}: the answer is larger than ${MAX_ANSWER_BYTES} bytes`, "malformed"));
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () => {
          clearTimeout(timer);
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") });
        });
        response.on("error", (error) => {
          clearTimeout(timer);
          reject(error instanceof PeerCallError ? error : new PeerCallError(`${url}: ${describeFailure(error)}`, "unreachable"));
        });
      },
    );
    const timer = setTimeout(() => request.destroy(new PeerCallError(`${url}: no answer in time`, "unreachable")), timeoutMs);
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error instanceof PeerCallError ? error : new PeerCallError(`${url}: ${describeFailure(error)}`, "unreachable"));
    });
    request.end(body);
  });
}

export function createNodeClient(options: NodeClientOptions): NodeClient {
  const agentOptions = { keepAlive: true, maxSockets: SOCKETS_PER_PEER, maxFreeSockets: SOCKETS_PER_PEER };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  const self = options.self.toLowerCase() as Hex;

  async function post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<unknown> {
    const { status, text } = await postJson(agents, url, body, headers, timeoutMs);
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
      const fields = { origin: self, destination: peer.address.toLowerCase() as Hex, method, timestamp: Date.now() };
      const signature = options.curve.sign(nodeRequestDigest(fields, body), options.privateKey);
      const authorization = encodeNodeAuthorization({ ...fields, signature: `0x${Buffer.from(signature).toString("hex")}` });
      return post(peer.url, body, { authorization }, timeoutMs);
    },

    close() {
      agents.http.destroy();
      agents.https.destroy();
    },

    async nodeAddress(url, timeoutMs) {
      const info = (await post(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_nodeInfo", params: [] }), {}, timeoutMs)) as { address?: unknown } | null;
      if (typeof info?.address !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(info.address)) throw new PeerCallError(`${url}: nodeInfo names no address`, "malformed");
      return info.address.toLowerCase();
    },
  };
}
