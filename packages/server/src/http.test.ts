import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDispatcher } from "./dispatcher.js";
import { service } from "./neutral-service.js";
import { RpcError, ErrorCode } from "./errors.js";
import { createHttpHandler } from "./http.js";
import { alice, createTestHandlers, type TestContext } from "../test/handlers.js";

let server: Server;
let url: string;

beforeAll(async () => {
  const { handlers } = createTestHandlers();
  const dispatcher = createDispatcher<TestContext>({ service, handlers });
  const handler = createHttpHandler<TestContext>({
    dispatcher,
    maxBodyBytes: 4096,
    authenticate(authorization) {
      if (authorization === "Bearer alice") return { auth: { address: alice } };
      if (authorization === "Bearer flood") throw new RpcError(ErrorCode.RateLimited, "Rate limited", { retryAfter: 7 });
      throw RpcError.unauthorized(authorization ? "bad signature" : "missing token");
    },
    fallback(request, response) {
      if (request.url === "/health" && request.method === "GET") response.writeHead(200).end("ok");
      else response.writeHead(404).end();
    },
  });
  server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
const rpc = (method: string, params: unknown = [], id = 1) => ({ jsonrpc: "2.0", id, method, params });

describe("HTTP", () => {
  it("answers 200 with the JSON-RPC response, errors included", async () => {
    const ok = await post(rpc("neutralService_getInbox"), { authorization: "Bearer alice" });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("application/json");
    expect(((await ok.json()) as { result: { address: string }[] }).result[0]!.address).toBe(alice);
    const bad = await post(rpc("neutralService_getInbox", [{ nope: 1 }]), { authorization: "Bearer alice" });
    expect(bad.status).toBe(200);
    expect(await bad.json()).toMatchObject({ id: 1, error: { code: -32602 } });
  });

  it("answers 401 with WWW-Authenticate when a needed token is missing or bad", async () => {
    for (const headers of [{}, { authorization: "Bearer mallory" }] as Record<string, string>[]) {
      const response = await post(rpc("neutralService_getInbox", [], 9), headers);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="api"'); // the default realm: no spec named
      expect(await response.json()).toMatchObject({ id: 9, error: { code: -32001, data: { reason: expect.any(String) } } });
    }
  });

  it("fails a whole batch with 401 unless no entry needs a token", async () => {
    const mixed = await post([rpc("neutralService_nodeInfo", [], 1), rpc("neutralService_getInbox", [], 2)]);
    expect(mixed.status).toBe(401);
    expect(await mixed.json()).toMatchObject({ id: null, error: { code: -32001 } });
    const open = await post([rpc("neutralService_nodeInfo", [], 1), rpc("rpc.discover", [], 2)]);
    expect(open.status).toBe(200);
    expect(((await open.json()) as unknown[]).length).toBe(2);
  });

  it("maps a rate-limit refusal to 429 with Retry-After", async () => {
    const response = await post(rpc("neutralService_getInbox"), { authorization: "Bearer flood" });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("7");
    expect(await response.json()).toMatchObject({ error: { code: -32029 } });
  });

  it("answers 204 for notifications only", async () => {
    const response = await post([{ jsonrpc: "2.0", method: "neutralService_nodeInfo" }]);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
  });

  it("answers 415 for a body that is not declared JSON", async () => {
    const response = await fetch(url, { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ error: { code: -32600 } });
    const withCharset = await post(rpc("neutralService_nodeInfo"), { "content-type": "application/json; charset=utf-8" });
    expect(withCharset.status).toBe(200);
  });

  it("answers 413 for a body over the limit, declared or streamed", async () => {
    const big = JSON.stringify(rpc("neutralService_nodeInfo", [], 1)).padEnd(5000, " ");
    const response = await post(big);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: -32005, data: { limit: 4096 } } });
    // Chunked, so no Content-Length tells in advance.
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode(" ".repeat(1000)));
        controller.close();
      },
    });
    const chunked = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: stream, duplex: "half" } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it("answers -32700 with 200 for JSON that does not parse", async () => {
    const response = await post("{\"jsonrpc\": ");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: null, error: { code: -32700 } });
  });

  it("answers 405 for other verbs on the RPC path and hands other paths to the fallback", async () => {
    const put = await fetch(url, { method: "PUT", body: "{}" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, HEAD, POST"); // GET and HEAD on the path are the fallback's
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect((await fetch(`${url}/nowhere`)).status).toBe(404);
  });

  it("answers CORS preflights", async () => {
    const response = await fetch(url, { method: "OPTIONS", headers: { origin: "http://app.example", "access-control-request-method": "POST" } });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-headers")).toContain("authorization");
  });
});
