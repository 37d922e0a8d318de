// Test support (never built nor shipped): a node from before live delivery, played by an HTTP proxy in
// front of a real relay. It forwards every call but `neutralService_subscribe`, which it answers the
// way such a node would: -32601 (no such method), or HTTP 406 (it refuses `Accept: text/event-stream`).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type OldNodeAnswer = "method-not-found" | "not-acceptable";

export interface OldNode {
  url: string;
  /** host:port: the SIWE domain the relay behind it must accept (`--domain`). */
  host: string;
  /** The relay it forwards to. */
  target: string;
  answer: OldNodeAnswer;
  close(): Promise<void>;
}

export async function startOldNode(answer: OldNodeAnswer = "method-not-found"): Promise<OldNode> {
  const node: OldNode = { url: "", host: "", target: "", answer, close: async () => {} };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    let call: { id?: unknown; method?: unknown } = {};
    try {
      call = JSON.parse(body) as typeof call;
    } catch {
      // not JSON: forwarded as it is
    }
    if (request.method === "POST" && call.method === "neutralService_subscribe") {
      const [status, error] =
        node.answer === "method-not-found"
          ? [200, { code: -32601, message: "Method not found" }]
          : [406, { code: -32600, message: "Not Acceptable: this node answers application/json only" }];
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: call.id ?? null, error }));
      return;
    }
    const headers: Record<string, string> = { "content-type": request.headers["content-type"] ?? "application/json" };
    if (request.headers.authorization) headers.authorization = request.headers.authorization;
    try {
      const upstream = await fetch(new URL(request.url ?? "/", node.target), { method: request.method, headers, ...(request.method === "POST" && { body }) });
      response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" }).end(await upstream.text());
    } catch {
      response.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  node.url = `http://127.0.0.1:${port}`;
  node.host = `127.0.0.1:${port}`;
  node.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return node;
}
