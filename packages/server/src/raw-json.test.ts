// Pre-serialized results (rawJson) and the onExchange hook, through the dispatcher and real HTTP.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createDispatcher } from "./dispatcher.js";
import { service } from "./neutral-service.js";
import { createHttpHandler, type HttpExchange } from "./http.js";
import { RawJson, rawJson, stringifyDispatchResult } from "./raw-json.js";
import { alice, createTestHandlers, message, type TestContext } from "../test/handlers.js";

const page = { address: alice, data: [message(2), message(1)], end: false };

function dispatcherAnswering(text: string) {
  const { handlers } = createTestHandlers();
  return createDispatcher<TestContext>({
    service,
    handlers: { ...handlers, neutralService_getInbox: () => rawJson(text) },
  });
}

describe("rawJson results", () => {
  it("are wrapped in the one-element array and spliced into the response text unchanged", async () => {
    const text = JSON.stringify(page);
    const dispatcher = dispatcherAnswering(text);
    const result = await dispatcher.dispatch({ jsonrpc: "2.0", id: "x", method: "neutralService_getInbox", params: [] }, { auth: { address: alice } });
    expect(result).toMatchObject({ jsonrpc: "2.0", id: "x" });
    const raw = (result as { result: unknown }).result;
    expect(raw).toBeInstanceOf(RawJson);
    expect(stringifyDispatchResult(result!)).toBe(`{"jsonrpc":"2.0","id":"x","result":[${text}]}`);
    // Plain JSON.stringify still gives the same JSON (toJSON), only slower.
    expect(JSON.parse(JSON.stringify(result))).toEqual({ jsonrpc: "2.0", id: "x", result: [page] });
  });

  it("mix with ordinary results and errors in a batch", async () => {
    const dispatcher = dispatcherAnswering(JSON.stringify(page));
    const result = await dispatcher.dispatch(
      [
        { jsonrpc: "2.0", id: 1, method: "neutralService_getInbox", params: [] },
        { jsonrpc: "2.0", id: 2, method: "neutralService_nodeInfo" },
        { jsonrpc: "2.0", id: 3, method: "nope" },
      ],
      { auth: { address: alice } },
    );
    const parsed = JSON.parse(stringifyDispatchResult(result!)) as { id: number; result?: unknown; error?: { code: number } }[];
    expect(parsed.map((entry) => entry.id)).toEqual([1, 2, 3]);
    expect(parsed[0]!.result).toEqual([page]);
    expect(Array.isArray(parsed[1]!.result)).toBe(true);
    expect(parsed[2]!.error!.code).toBe(-32601);
  });
});

describe("onExchange", () => {
  it("sees each JSON-RPC exchange once, with status, body, context and response", async () => {
    const exchanges: HttpExchange<TestContext>[] = [];
    const handler = createHttpHandler<TestContext>({
      dispatcher: dispatcherAnswering(JSON.stringify(page)),
      authenticate: (authorization) => ({ auth: { address: authorization === "Bearer alice" ? alice : "0x0" } }),
      onExchange: (exchange) => exchanges.push(exchange),
    });
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const body = { jsonrpc: "2.0", id: 5, method: "neutralService_getInbox", params: [] };
      const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer alice" }, body: JSON.stringify(body) });
      expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 5, result: [page] });
      await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{oops" });
      await fetch(`${url}/elsewhere`);
      expect(exchanges).toHaveLength(2);
      expect(exchanges[0]).toMatchObject({ status: 200, body, context: { auth: { address: alice } } });
      expect(exchanges[1]).toMatchObject({ status: 200, response: { error: { code: -32700 } } });
      expect(exchanges[1]!.context).toBeUndefined();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
