// Test support (not built): nodes that federate (`startFederation` of the testing entry, with fast
// retries), the accounts that use them, signed node-to-node calls, and a proxy to put between two
// nodes (a dishonest network).
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fixtureSigner, TEST_KEYS, type FixtureSigner } from "@neutral/protocol/testing";
import { call, freePorts, post, startFederation, type FederatedNode, type Federation, type FederationOptions, type RpcAnswer } from "../testing/index.js";

/** Node keys: the examples' node, their peer, and one more (public test keys, never real secrets). */
export const NODE_KEYS = [TEST_KEYS.node, TEST_KEYS.peer, TEST_KEYS.mallory] as const;

/** A free TCP port on loopback (released before it is used: fine on a test machine). */
export const freePort = async (): Promise<number> => (await freePorts(1))[0]!;

export type TestNode = FederatedNode;
export type { Federation };

/**
 * Fast retries for tests: a node that comes back is retried within a second. A send waits up to 10 s
 * for the other node's receipt: the wait ends as soon as it comes, and a loaded 2-core CI machine
 * once took more than the default 2 s for a federation's first delivery. A send whose receipt cannot
 * come (its node down, the message refused for now) waits all of it.
 */
export const DELIVERY_WAIT_MS = 10_000;
export const FAST_RETRIES = ["--retry-backoff-ms", "50", "--retry-backoff-max-ms", "500", "--delivery-wait-ms", String(DELIVERY_WAIT_MS)];

/**
 * `count` nodes (keys: NODE_KEYS, or `keyOf`), each a peer of every other, with fast retries; not
 * started. Built in this process (protocol tests) unless the test needs processes: `processes: true`
 * for `crash()` (kill -9), or `workers`.
 */
export function federation(
  options: Omit<FederationOptions, "keys" | "start" | "inProcess"> & { count: number; keyOf?: (index: number) => `0x${string}`; processes?: boolean },
): Promise<Federation> {
  const { count, keyOf, args, processes, ...rest } = options;
  const keys = Array.from({ length: count }, (_, i) => keyOf?.(i) ?? NODE_KEYS[i]!);
  const inProcess = !processes && (rest.workers === undefined || rest.workers === 1);
  return startFederation({ ...rest, keys, args: [...FAST_RETRIES, ...(args ?? [])], start: false, inProcess });
}

export const startAll = (nodes: readonly TestNode[]) => Promise.all(nodes.map((node) => node.start()));

/** An account using a node: signs in, publishes, sends and reads there. */
export interface Account {
  readonly signer: FixtureSigner;
  readonly address: string;
  /** One call at `node` (signed in there when the method needs it). */
  call(node: TestNode, method: string, params: unknown): Promise<RpcAnswer>;
  /** The payload of a successful call; throws with the error otherwise. */
  ok<T = unknown>(node: TestNode, method: string, params: unknown): Promise<T>;
  /** Makes `node` its home (and publishes a messaging key there). */
  homeAt(node: TestNode, timestamp?: number): Promise<void>;
  /** Sends `hex` to `to` through `node`; resolves with the stored message. */
  send(node: TestNode, to: string, hex: string, timestamp?: number): Promise<StoredMessage>;
  /** Every message of its mailbox at `node` (`direction`), oldest first. */
  mailbox(node: TestNode, direction?: "received" | "sent" | "all"): Promise<StoredMessage[]>;
}

export interface StoredMessage {
  id: string;
  message: string;
  from: string;
  to: string;
  signature: string;
  sender_receipt: string;
  /** The sender's copy's position, which `sender_receipt` binds (spec 3.0.0). */
  sender_seq?: number;
  receiver_receipt?: string;
  /** The recipient's copy's position, which `receiver_receipt` binds. */
  receiver_seq?: number;
  timestamp: number;
  expires?: number;
  status?: "pending" | "delivered" | "failed";
  reason?: string;
}

const NEEDS_TOKEN = new Set(["neutralService_importMessages", "neutralService_getInbox", "neutralService_getChat", "neutralService_sendMessage", "neutralService_publishKey", "neutralService_publishHome", "neutralService_setConsent", "neutralService_getConsent", "neutralService_getLog"]);

export function account(key: `0x${string}`): Account {
  const signer = fixtureSigner(key);
  const tokens = new Map<string, string>();
  const token = (node: TestNode) => {
    const domain = `127.0.0.1:${node.port}`;
    let value = tokens.get(domain);
    if (!value) tokens.set(domain, (value = signer.bearerToken({ domain, lifetimeMs: 3_600_000 }).token));
    return value;
  };
  const self: Account = {
    signer,
    address: signer.address,
    call: (node, method, params) => call(node.url, method, params, NEEDS_TOKEN.has(method) ? token(node) : undefined),
    async ok<T>(node: TestNode, method: string, params: unknown): Promise<T> {
      const answer = await self.call(node, method, params);
      if (answer.body?.error || !Array.isArray(answer.body?.result)) throw new Error(`${method} at ${node.name}: ${answer.status} ${answer.text.slice(0, 500)}`);
      return answer.body.result[0] as T;
    },
    async homeAt(node, timestamp = Date.now()) {
      await self.ok(node, "neutralService_publishHome", [signer.homeRecord(node.address, timestamp)]);
      await self.ok(node, "neutralService_publishKey", [{ account: signer.address, key: signer.xOnlyPublicKey, timestamp, signature: signer.signTypedData("KeyBundle", { account: signer.address, key: signer.xOnlyPublicKey, timestamp }) }]);
    },
    send: (node, to, hex, timestamp) => self.ok<StoredMessage>(node, "neutralService_sendMessage", [signer.signMessageFor(to, hex, timestamp)]),
    async mailbox(node, direction = "received") {
      const all: StoredMessage[] = [];
      let after = "0";
      for (;;) {
        const page = await self.ok<{ data: StoredMessage[]; end: boolean; cursor?: string }>(node, "neutralService_getInbox", [{ direction }, 100, after]);
        all.push(...page.data);
        if (page.end) return all;
        after = page.cursor ?? page.data[page.data.length - 1]!.id;
      }
    },
  };
  return self;
}

/** Waits until `condition` holds (polling), or fails with `what` after `timeoutMs`. */
export async function eventually<T>(what: string, probe: () => Promise<T>, condition: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T;
  for (;;) {
    last = await probe();
    if (condition(last)) return last;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last).slice(0, 1000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A signed node-to-node request from `signer` (a node key) to `node`, as a peer sends it. */
export function nodeCall(signer: FixtureSigner, node: TestNode, method: string, params: unknown, destination = node.address): Promise<RpcAnswer> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
  return post(node.url, body, undefined, { authorization: signer.nodeAuthorization(destination, method, body) });
}

/** What a proxy between two nodes saw, and lets a test change. */
export interface NodeProxy {
  url: string;
  /** Every JSON-RPC request body that went through, parsed, with the HTTP status answered (0: the node behind was down). */
  readonly requests: { method: string; params: Record<string, unknown>; status: number }[];
  /** Rewrites a request body before it goes on (default: unchanged). */
  rewriteRequest: ((body: string, headers: IncomingHttpHeaders) => string) | undefined;
  /** Rewrites an answer body before it comes back (default: unchanged). */
  rewriteAnswer: ((body: string) => string) | undefined;
  close(): Promise<void>;
}

/** A proxy in front of `target` (a URL), for the calls one node makes to another. */
export async function nodeProxy(target: () => string): Promise<NodeProxy> {
  const proxy: NodeProxy = { url: "", requests: [], rewriteRequest: undefined, rewriteAnswer: undefined, close: async () => {} };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks).toString("utf8");
    let seen: NodeProxy["requests"][number] | undefined;
    try {
      const parsed = JSON.parse(body) as { method?: unknown; params?: unknown };
      if (typeof parsed.method === "string") proxy.requests.push((seen = { method: parsed.method, params: (parsed.params ?? {}) as Record<string, unknown>, status: 0 }));
    } catch {
      // not JSON: passed on as it is
    }
    if (proxy.rewriteRequest) body = proxy.rewriteRequest(body, request.headers);
    const headers: Record<string, string> = { "content-type": request.headers["content-type"] ?? "application/json" };
    if (request.headers.authorization) headers.authorization = request.headers.authorization;
    try {
      const upstream = await fetch(new URL(request.url ?? "/", target()), { method: request.method, headers, ...(request.method === "POST" && { body }) });
      let text = await upstream.text();
      if (seen) seen.status = upstream.status;
      if (proxy.rewriteAnswer && text !== "") text = proxy.rewriteAnswer(text);
      response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" }).end(text);
    } catch {
      response.destroy(); // the node behind is down: as if unreachable
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
