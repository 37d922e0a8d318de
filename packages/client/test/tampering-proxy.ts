// Test support (never built nor shipped): a dishonest node. A real HTTP server in front of a real relay that
// forwards every request and lets a test rewrite the JSON-RPC answers on their way back.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type Rewrite = (method: string, result: unknown) => unknown;
/** A JSON-RPC error to answer a request with instead of forwarding it, or undefined to forward it. */
export type Refuse = (method: string, params: unknown) => { code: number; message: string; data?: unknown } | undefined;

export interface TamperingProxy {
  url: string;
  /** The rewrite applied to every successful answer; undefined passes answers through unchanged. */
  rewrite: Rewrite | undefined;
  /** Requests (one per HTTP request, not batches) the proxy answers with an error itself; undefined forwards every one. */
  refuse: Refuse | undefined;
  close(): Promise<void>;
}

export async function startTamperingProxy(target: string): Promise<TamperingProxy> {
  const proxy: TamperingProxy = { url: "", rewrite: undefined, refuse: undefined, close: async () => {} };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    if (proxy.refuse && request.method === "POST") {
      const call = JSON.parse(body) as { id?: unknown; method?: string; params?: unknown };
      const error = !Array.isArray(call) && typeof call.method === "string" ? proxy.refuse(call.method, call.params) : undefined;
      if (error) return void response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: call.id, error }));
    }
    const headers: Record<string, string> = { "content-type": request.headers["content-type"] ?? "application/json" };
    if (request.headers.authorization) headers.authorization = request.headers.authorization;
    const upstream = await fetch(new URL(request.url ?? "/", target), { method: request.method, headers, ...(request.method === "POST" && { body }) });
    let text = await upstream.text();
    if (proxy.rewrite && request.method === "POST" && text !== "") {
      const requestJson = JSON.parse(body) as { method?: string };
      const answer = JSON.parse(text) as { result?: unknown };
      if (!Array.isArray(answer) && "result" in answer && typeof requestJson.method === "string") {
        answer.result = proxy.rewrite(requestJson.method, answer.result);
        text = JSON.stringify(answer);
      }
    }
    response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return proxy;
}
