import { Ajv } from "ajv";
import { describe, expect, it, vi } from "vitest";
import { createDispatcher } from "./dispatcher.js";
import { service, openrpcDocument } from "./neutral-service.js";
import { alice, bob, createTestHandlers, message, sig, type TestContext } from "../test/handlers.js";

const authed: TestContext = { auth: { address: alice } };
const anonymous: TestContext = {};

function setup() {
  const { handlers, calls } = createTestHandlers();
  const onInternalError = vi.fn();
  const dispatcher = createDispatcher<TestContext>({ service, handlers, onInternalError });
  const call = (body: unknown, ctx: TestContext = authed) => dispatcher.dispatch(body, ctx);
  return { dispatcher, calls, call, onInternalError };
}

const req = (method: string, params?: unknown, id: unknown = 1) => ({ jsonrpc: "2.0", id, method, ...(params !== undefined && { params }) });

describe("params", () => {
  it("accepts the interface's `params: []` and fills defaults", async () => {
    const { call, calls } = setup();
    const response = await call(req("neutralService_getInbox", []));
    expect(response).toEqual({ jsonrpc: "2.0", id: 1, result: [{ address: alice, data: [message(2), message(1)], end: true }] });
    // The filter's members' defaults too (InboxFilter's direction and folder, through their $refs).
    expect(calls[0]!.args).toEqual({ inboxFilter: { direction: "received", folder: "inbox" }, limit: 20 });
  });

  it("maps positional and by-name params to the same args", async () => {
    const { call, calls } = setup();
    await call(req("neutralService_getInbox", [{ from: bob }, 5, "10", "20"]));
    await call(req("neutralService_getInbox", { before: "20", after: "10", limit: 5, inboxFilter: { from: bob } }));
    expect(calls[0]!.args).toEqual({ inboxFilter: { from: bob, direction: "received", folder: "inbox" }, limit: 5, after: "10", before: "20" });
    expect(calls[1]!.args).toEqual(calls[0]!.args);
  });

  it("treats null and missing trailing entries as absent", async () => {
    const { call, calls } = setup();
    await call(req("neutralService_getInbox", [null, null, "3"]));
    expect(calls[0]!.args).toEqual({ inboxFilter: { direction: "received", folder: "inbox" }, limit: 20, after: "3" });
  });

  it.each([
    [[{ form: bob }], "inboxFilter.form", "is not a known member"],
    [[{ from: "0x123" }], "inboxFilter.from", "must match"],
    [[{ direction: "sideways" }], "inboxFilter.direction", "must be one of"],
    [[{}, 0], "limit", "must be >= 1"],
    [[{}, 101], "limit", "must be <= 100"],
    [[{}, 2.5], "limit", "must be integer"],
    [[{}, "20"], "limit", "must be integer"],
    [[{}, 20, "01"], "after", "must match"],
    [[{}, 20, 5], "after", "must be string"],
    [{ inboxFiltr: {} }, "inboxFiltr", "is not a param"],
    [[{}, 20, "1", "2", "extra"], "proof", "must be object"],
    [[{}, 20, "1", "2", {}, "extra"], "params", "at most 5 positional params"],
  ])("rejects %j naming %s", async (params, field, reason) => {
    const { call, calls } = setup();
    const response = (await call(req("neutralService_getInbox", params))) as { error: { code: number; message: string; data: { field: string } } };
    expect(response.error.code).toBe(-32602);
    expect(response.error.data.field).toBe(field);
    expect(response.error.message).toContain(field);
    expect(response.error.message).toContain(reason);
    expect(calls).toHaveLength(0);
  });

  it("requires required params and validates nested members", async () => {
    const { call } = setup();
    const missing = (await call(req("neutralService_sendMessage", []))) as { error: { code: number; data: { field: string } } };
    expect(missing.error).toMatchObject({ code: -32602, data: { field: "message" } });
    const draft = { from: alice, to: bob, message: "abc", timestamp: 1, signature: sig("1") };
    const odd = (await call(req("neutralService_sendMessage", [draft]))) as { error: { data: { field: string } } };
    expect(odd.error.data.field).toBe("message.message");
    const { signature: _, ...unsigned } = draft;
    const noSig = (await call(req("neutralService_sendMessage", { message: { ...unsigned, message: "abcd" } }))) as { error: { message: string } };
    expect(noSig.error.message).toBe("Invalid params: message.signature is required");
  });
});

describe("validators compiled at generation time", () => {
  /** Ajv's compile, where every Ajv class (draft-07, 2020-12) has it. */
  const compiling = () => vi.spyOn(Object.getPrototypeOf(Ajv.prototype) as { compile: (schema: object) => unknown }, "compile");

  it("a stub that carries them compiles no param schema when its dispatcher is made, and validates the same", async () => {
    const { handlers } = createTestHandlers();
    const compile = compiling();
    try {
      // Fresh service objects: nothing compiled for them yet in this process.
      const carried = createDispatcher<TestContext>({ service: { ...service }, handlers });
      expect(compile).not.toHaveBeenCalled();
      const compiledHere = createDispatcher<TestContext>({ service: { methods: service.methods, document: service.document }, handlers });
      expect(compile.mock.calls.length).toBeGreaterThanOrEqual(Object.values(service.methods).reduce((sum, method) => sum + method.params.length, 0));
      for (const params of [[{ from: "0x123" }], [{}, 101], [{ direction: "sideways" }], [{ folder: "requests", direction: "sent" }], { inboxFiltr: {} }]) {
        const body = { jsonrpc: "2.0", id: 1, method: "neutralService_getInbox", params };
        expect(await carried.dispatch(structuredClone(body), authed)).toEqual(await compiledHere.dispatch(structuredClone(body), authed));
      }
    } finally {
      compile.mockRestore();
    }
  });

  it("are ignored when they do not fit the descriptors (a method's count of params differs)", async () => {
    const echo = { paramStructure: "either" as const, requiresAuth: false, wrapResult: false, params: [{ name: "value", required: true, schema: { type: "integer" } }] };
    const dispatcher = createDispatcher<TestContext>({ service: { document: {}, methods: { echo }, validators: { echo: [] } }, handlers: { echo: (args: { value: unknown }) => args.value } });
    expect(await dispatcher.dispatch({ jsonrpc: "2.0", id: 1, method: "echo", params: ["x"] }, anonymous)).toMatchObject({ error: { code: -32602, message: "Invalid params: value must be integer" } });
  });
});

describe("compiled once per service", () => {
  const echoService = (schema: object) => ({
    document: {},
    methods: { echo: { paramStructure: "either" as const, requiresAuth: false, wrapResult: false, params: [{ name: "value", required: true, schema }] } },
  });
  const echo = (value: unknown) => ({ jsonrpc: "2.0", id: 1, method: "echo", params: [value] });

  it("a second dispatcher of one service validates as the first", async () => {
    const shared = echoService({ type: "integer", maximum: 9 });
    const dispatchers = [0, 1].map(() => createDispatcher<TestContext>({ service: shared, handlers: { echo: (args: { value: unknown }) => args.value } }));
    for (const dispatcher of dispatchers) {
      expect(await dispatcher.dispatch(echo(9), anonymous)).toEqual({ jsonrpc: "2.0", id: 1, result: 9 });
      expect(await dispatcher.dispatch(echo(10), anonymous)).toMatchObject({ error: { code: -32602 } });
    }
  });

  it("a service whose methods were replaced since its first dispatcher is validated by its new schemas", async () => {
    const changing: { document: object; methods: ReturnType<typeof echoService>["methods"] } = echoService({ type: "integer", maximum: 9 });
    const handlers = { echo: (args: { value: unknown }) => args.value };
    createDispatcher<TestContext>({ service: changing, handlers });
    changing.methods = echoService({ type: "string" }).methods;
    const after = createDispatcher<TestContext>({ service: changing, handlers });
    expect(await after.dispatch(echo("text"), anonymous)).toEqual({ jsonrpc: "2.0", id: 1, result: "text" });
    expect(await after.dispatch(echo(5), anonymous)).toMatchObject({ error: { code: -32602 } });
  });
});

describe("results and errors", () => {
  it("wraps results in a one-element array", async () => {
    const { call } = setup();
    const draft = { from: alice.toUpperCase().replace("0X", "0x"), to: bob, message: "ABCD", timestamp: 1, signature: sig("1") };
    const response = (await call(req("neutralService_sendMessage", [draft]))) as { result: unknown[] };
    expect(response.result).toHaveLength(1);
    expect(response.result[0]).toMatchObject({ id: "7", message: "abcd" });
  });

  it("passes RpcError through and hides every other error", async () => {
    const { call, onInternalError } = setup();
    const forbidden = await call(req("neutralService_sendMessage", [{ from: bob, to: alice, message: "00", timestamp: 1, signature: sig("1") }]));
    expect(forbidden).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32002, message: "Forbidden: from is not the caller" } });
    const internal = await call(req("neutralService_getInbox", [{}, 20, "666"], "x"));
    expect(internal).toEqual({ jsonrpc: "2.0", id: "x", error: { code: -32603, message: "Internal error" } });
    expect(JSON.stringify(internal)).not.toMatch(/SELECT|secret|stack|at /);
    expect(onInternalError).toHaveBeenCalledOnce();
  });

  it("refuses methods that need a token when the context has none", async () => {
    const { call, calls } = setup();
    expect(await call(req("neutralService_getInbox", []), anonymous)).toMatchObject({ error: { code: -32001, data: { reason: "missing token" } } });
    expect(await call(req("neutralService_nodeInfo", []), anonymous)).toMatchObject({ result: [{ software: "test" }] });
    expect(calls.map((c) => c.method)).toEqual(["neutralService_nodeInfo"]);
  });

  it("key bundles: publishKey needs a token and a well-formed bundle; getKey needs none, and null travels as [null]", async () => {
    const { call, calls } = setup();
    const bundle = { account: alice, key: `0x${"ab".repeat(32)}`, timestamp: 1, signature: sig("1") };
    expect(await call(req("neutralService_getKey", [bob]), anonymous)).toEqual({ jsonrpc: "2.0", id: 1, result: [null] });
    expect(await call(req("neutralService_publishKey", [bundle]), anonymous)).toMatchObject({ error: { code: -32001 } });
    for (const [change, field] of [
      [{ key: `0x${"ab".repeat(33)}` }, "bundle.key"],
      [{ key: "ab".repeat(32) }, "bundle.key"],
      [{ account: "0x12" }, "bundle.account"],
      [{ timestamp: -1 }, "bundle.timestamp"],
      [{ extra: 1 }, "bundle.extra"],
    ] as const) {
      expect(await call(req("neutralService_publishKey", [{ ...bundle, ...change }])), field).toMatchObject({ error: { code: -32602, data: { field } } });
    }
    expect(await call(req("neutralService_getKey", [])), "account is required").toMatchObject({ error: { code: -32602, data: { field: "account" } } });
    expect(await call(req("neutralService_publishKey", { bundle }))).toEqual({ jsonrpc: "2.0", id: 1, result: [bundle] });
    expect(await call(req("neutralService_getKey", { account: alice.toUpperCase().replace("0X", "0x") }), anonymous)).toEqual({ jsonrpc: "2.0", id: 1, result: [bundle] });
    expect(calls.map((c) => c.method)).toEqual(["neutralService_getKey", "neutralService_publishKey", "neutralService_getKey"]);
  });

  it("answers rpc.discover with the document itself, unwrapped", async () => {
    const { call } = setup();
    expect(await call(req("rpc.discover"), anonymous)).toEqual({ jsonrpc: "2.0", id: 1, result: openrpcDocument });
    expect(await call(req("rpc.discover", [1]))).toMatchObject({ error: { code: -32602 } });
  });

  it("answers unknown methods with -32601", async () => {
    const { call } = setup();
    expect(await call(req("neutralService_nope"))).toMatchObject({ error: { code: -32601, message: "Method not found: neutralService_nope" } });
    expect(await call(req("__proto__"))).toMatchObject({ error: { code: -32601 } });
  });
});

describe("envelope", () => {
  it.each([
    [1, null, "expected an object"],
    [{ id: 1, method: "neutralService_nodeInfo" }, 1, 'jsonrpc must be "2.0"'],
    [{ jsonrpc: "2.0", id: 2, method: 5 }, 2, "method must be a string"],
    [{ jsonrpc: "2.0", id: 3, method: "neutralService_nodeInfo", params: "x" }, 3, "params must be"],
    [{ jsonrpc: "2.0", id: 4, method: "neutralService_nodeInfo", params: null }, 4, "params must be"],
    [{ jsonrpc: "2.0", id: { a: 1 }, method: "neutralService_nodeInfo" }, null, "id must be"],
  ])("rejects %j as an invalid request", async (body, id, reason) => {
    const { call } = setup();
    const response = (await call(body)) as { id: unknown; error: { code: number; message: string } };
    expect(response.id).toBe(id);
    expect(response.error.code).toBe(-32600);
    expect(response.error.message).toContain(reason);
  });

  it("answers -32700 for text that is not JSON", async () => {
    const { dispatcher } = setup();
    expect(await dispatcher.dispatchText("{nope", authed)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the body is not valid JSON" } });
  });

  it("runs notifications and answers nothing for them", async () => {
    const { call, calls } = setup();
    expect(await call({ jsonrpc: "2.0", method: "neutralService_nodeInfo" })).toBeUndefined();
    expect(await call({ jsonrpc: "2.0", method: "neutralService_getInbox", params: [{ bad: 1 }] })).toBeUndefined();
    expect(calls).toHaveLength(1);
  });
});

describe("batch", () => {
  it("answers every entry that has an id, in order, and none for notifications", async () => {
    const { call } = setup();
    const response = (await call([
      req("neutralService_nodeInfo", [], 1),
      { jsonrpc: "2.0", method: "neutralService_nodeInfo" },
      req("neutralService_getInbox", [{}, 0], 2),
      5,
      req("neutralService_nope", [], 3),
    ])) as { id: unknown; result?: unknown; error?: { code: number } }[];
    expect(response.map((r) => [r.id, r.error?.code ?? "ok"])).toEqual([
      [1, "ok"],
      [2, -32602],
      [null, -32600],
      [3, -32601],
    ]);
  });

  it("answers nothing for a batch of only notifications", async () => {
    const { call } = setup();
    expect(await call([{ jsonrpc: "2.0", method: "neutralService_nodeInfo" }, { jsonrpc: "2.0", method: "x" }])).toBeUndefined();
  });

  it("rejects an empty batch and one over the limit as a whole", async () => {
    const { call, calls } = setup();
    expect(await call([])).toMatchObject({ id: null, error: { code: -32600 } });
    const big = Array.from({ length: 101 }, (_, i) => req("neutralService_nodeInfo", [], i));
    expect(await call(big)).toMatchObject({ id: null, error: { code: -32005, data: { limit: 100 } } });
    expect(calls).toHaveLength(0);
    const full = (await call(big.slice(0, 100))) as unknown[];
    expect(full).toHaveLength(100);
  });

  it("knows which bodies need a token", () => {
    const { dispatcher } = setup();
    expect(dispatcher.needsAuth(req("neutralService_getInbox"))).toBe(true);
    expect(dispatcher.needsAuth(req("neutralService_nodeInfo"))).toBe(false);
    expect(dispatcher.needsAuth([req("rpc.discover"), req("neutralService_nodeInfo")])).toBe(false);
    expect(dispatcher.needsAuth([req("rpc.discover"), req("neutralService_sendMessage")])).toBe(true);
    expect(dispatcher.needsAuth([req("nope"), 5, null])).toBe(false);
  });
});
