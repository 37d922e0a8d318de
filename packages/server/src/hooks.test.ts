// The pre-dispatch hooks: `onRequest` (per HTTP request) and `onEntry` (per JSON-RPC entry), and
// the CORS headers every answer carries, refusals included, so that browser code can read them.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDispatcher } from "./dispatcher.js";
import { service } from "./neutral-service.js";
import { ErrorCode, RpcError } from "./errors.js";
import { createHttpHandler, type RequestHook } from "./http.js";
import { alice, createTestHandlers, type TestContext } from "../test/handlers.js";

interface HookedContext extends TestContext {
  client?: string;
  requestId?: string;
}

let server: Server;
let url: string;
/** The contexts the nodeInfo handler saw. */
const seen: HookedContext[] = [];
/** Units left per client (the header `x-client`), charged one per request and one per entry. */
const budgets = new Map<string, number>();

const clientOf = (request: IncomingMessage) => String(request.headers["x-client"] ?? "anonymous");

beforeAll(async () => {
  const { handlers } = createTestHandlers();
  const hooked = {
    ...handlers,
    neutralService_nodeInfo(args: Parameters<typeof handlers.neutralService_nodeInfo>[0], context: HookedContext) {
      seen.push(context);
      return handlers.neutralService_nodeInfo(args, context);
    },
  };
  let nextId = 0;
  const requestId: RequestHook<HookedContext> = ({ response, context }) => {
    const id = `req-${++nextId}`;
    response.setHeader("x-request-id", id);
    context.requestId = id;
  };
  const admit: RequestHook<HookedContext> = async ({ request, rpc, context }) => {
    if (!rpc) return;
    await new Promise((resolve) => setImmediate(resolve)); // a hook may be asynchronous
    const client = clientOf(request);
    context.client = client;
    const left = budgets.get(client) ?? Infinity;
    if (left <= 0) throw new RpcError(ErrorCode.RateLimited, "Rate limited", { retryAfter: 3 });
    budgets.set(client, left - 1);
  };
  const dispatcher = createDispatcher<HookedContext>({
    service,
    handlers: hooked,
    onEntry(entry, context) {
      if (entry.method === "explode") throw new Error("a hook bug");
      const client = context.client ?? "anonymous";
      const left = budgets.get(client) ?? Infinity;
      if (left <= 0) throw new RpcError(ErrorCode.RateLimited, `Rate limited: entry ${entry.index} of ${entry.count}`, { retryAfter: 2 });
      budgets.set(client, left - 1);
    },
  });
  const handler = createHttpHandler<HookedContext>({
    dispatcher,
    maxBodyBytes: 2048,
    onRequest: [requestId, admit],
    cors: { exposeHeaders: ["X-Request-Id"] },
    authenticate(authorization) {
      if (authorization === "Bearer alice") return { auth: { address: alice } };
      throw RpcError.unauthorized("missing token");
    },
    fallback(request, response) {
      response.writeHead(200, { "content-type": "text/plain" }).end("fallback\n");
    },
  });
  server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A request, or with id null a notification. */
const rpc = (method: string, id: number | null = 1) => ({ jsonrpc: "2.0", ...(id !== null && { id }), method, params: [] });
const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", origin: "http://app.example", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });

describe("onRequest hooks", () => {
  it("run for every request, JSON-RPC or not, and may set headers", async () => {
    const call = await post(rpc("neutralService_nodeInfo"));
    expect(call.headers.get("x-request-id")).toMatch(/^req-\d+$/);
    const health = await fetch(`${url}/health`);
    expect(await health.text()).toBe("fallback\n");
    expect(health.headers.get("x-request-id")).toMatch(/^req-\d+$/);
    expect(health.headers.get("x-request-id")).not.toBe(call.headers.get("x-request-id"));
  });

  it("annotate the context the handlers and the entry hooks see", async () => {
    seen.length = 0;
    const response = await post(rpc("neutralService_nodeInfo"), { "x-client": "annotated" });
    expect(response.status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ client: "annotated", requestId: response.headers.get("x-request-id") });
    // Authenticated requests keep the annotations beside what authenticate returned.
    seen.length = 0;
    await post([rpc("neutralService_nodeInfo"), rpc("neutralService_getInbox", 2)], { "x-client": "annotated", authorization: "Bearer alice" });
    expect(seen[0]).toMatchObject({ client: "annotated", auth: { address: alice } });
  });

  it("refuse a request with its error's status, Retry-After and CORS headers; nothing runs", async () => {
    budgets.set("flood", 0);
    seen.length = 0;
    const response = await post(rpc("neutralService_nodeInfo", 5), { "x-client": "flood" });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("3");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-expose-headers")).toContain("retry-after");
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32029, message: "Rate limited", data: { retryAfter: 3 } } });
    expect(seen).toHaveLength(0);
  });
});

describe("onEntry hooks", () => {
  it("see each entry in order before any runs, and refuse some: those are answered the error, notifications not at all", async () => {
    budgets.set("batch", 3); // the request, then two entries
    seen.length = 0;
    const response = await post([rpc("neutralService_nodeInfo", 1), rpc("neutralService_nodeInfo", 2), rpc("neutralService_nodeInfo", 3), rpc("neutralService_nodeInfo", null)], {
      "x-client": "batch",
    });
    expect(response.status).toBe(200);
    const answers = (await response.json()) as { id: number; result?: unknown; error?: { code: number; message: string } }[];
    expect(answers.map((answer) => answer.id)).toEqual([1, 2, 3]);
    expect(answers[0]!.result).toBeDefined();
    expect(answers[1]!.result).toBeDefined();
    expect(answers[2]!.error).toEqual({ code: -32029, message: "Rate limited: entry 2 of 4", data: { retryAfter: 2 } });
    expect(seen).toHaveLength(2);
  });

  it("a single request is one entry; a hook that throws something else answers -32603", async () => {
    budgets.set("single", 1);
    const refused = await post(rpc("neutralService_nodeInfo", 9), { "x-client": "single" });
    expect(await refused.json()).toMatchObject({ id: 9, error: { code: -32029, message: "Rate limited: entry 0 of 1" } });
    const broken = await post(rpc("explode", 4));
    expect(await broken.json()).toEqual({ jsonrpc: "2.0", id: 4, error: { code: -32603, message: "Internal error" } });
  });

  it("dispatch() runs them too, outside HTTP", async () => {
    const indexes: number[] = [];
    const dispatcher = createDispatcher<TestContext>({
      service,
      handlers: createTestHandlers().handlers,
      onEntry: [(entry) => void indexes.push(entry.index), (entry) => {
        if (entry.raw === 42) throw new RpcError(ErrorCode.InvalidRequest, "no 42s");
      }],
    });
    const answers = await dispatcher.dispatch([rpc("neutralService_nodeInfo", 1), 42], {});
    expect(indexes).toEqual([0, 1]);
    // Validation comes first: a malformed entry is answered as malformed, whatever the hooks say.
    expect(answers).toMatchObject([{ id: 1, result: expect.anything() }, { id: null, error: { code: -32600 } }]);
  });
});

describe("CORS on every refusal", () => {
  const expectCors = (response: Response, exposed: string[]) => {
    expect(response.headers.get("access-control-allow-origin"), `${response.status}`).toBe("*");
    const list = (response.headers.get("access-control-expose-headers") ?? "").split(",").map((name) => name.trim().toLowerCase());
    for (const name of exposed) expect(list, `${response.status} exposes ${name}`).toContain(name);
  };

  it("401, 413, 415, 429, 405 and 200 carry them; the configured extra header is exposed", async () => {
    const unauthorized = await post(rpc("neutralService_getInbox"));
    expect(unauthorized.status).toBe(401);
    expectCors(unauthorized, ["www-authenticate", "x-request-id"]);
    expect(unauthorized.headers.get("www-authenticate")).toMatch(/^Bearer/);

    const tooLarge = await post(JSON.stringify(rpc("neutralService_nodeInfo")).padEnd(4096, " "));
    expect(tooLarge.status).toBe(413);
    expectCors(tooLarge, ["retry-after", "www-authenticate"]);

    const notJson = await post("{}", { "content-type": "text/plain" });
    expect(notJson.status).toBe(415);
    expectCors(notJson, ["retry-after", "www-authenticate"]);

    budgets.set("cors", 0);
    const limited = await post(rpc("neutralService_nodeInfo"), { "x-client": "cors" });
    expect(limited.status).toBe(429);
    expectCors(limited, ["retry-after"]);

    const put = await fetch(url, { method: "PUT", body: "{}" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, HEAD, POST");
    expectCors(put, []);

    const ok = await post(rpc("neutralService_nodeInfo"));
    expect(ok.status).toBe(200);
    expectCors(ok, ["x-request-id"]);
  });
});
