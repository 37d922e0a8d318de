import { afterEach, describe, expect, it } from "vitest";
import { createDispatcher, resultProblemOf } from "./dispatcher.js";
import { rawJson } from "./raw-json.js";
import { shopService } from "../test/shop-service.js";

const order = { lines: [{ sku: "tea", quantity: 1 }], payment: { kind: "card", token: "tok_12345" } };

/** A shop whose orders_place answers `answer`, and whose internal errors are kept. */
function setup(answer: unknown, validateResults?: boolean) {
  const internal: { error: unknown; method: string }[] = [];
  const handlers = {
    products_find: () => answer,
    orders_place: () => answer,
    shapes_draw: () => 1,
    blocks_get: () => true,
    invoices_send: () => null,
    contacts_add: () => true,
  };
  const dispatcher = createDispatcher({
    service: shopService,
    handlers,
    onInternalError: (error, method) => internal.push({ error, method }),
    ...(validateResults !== undefined && { validateResults }),
  });
  // A copy: the dispatcher fills defaults into the params it is given (the order's note).
  const call = (method: string, params: unknown) => dispatcher.dispatch({ jsonrpc: "2.0", id: 1, method, params: structuredClone(params) }, {});
  return { call, internal };
}

const environment = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = environment;
});

describe("results checked against the method's result schema", () => {
  it("answers a matching result as it is", async () => {
    const { call, internal } = setup({ ...order, id: "o-1", status: "paid" });
    expect(await call("orders_place", [order])).toEqual({ jsonrpc: "2.0", id: 1, result: { ...order, id: "o-1", status: "paid" } });
    expect(internal).toEqual([]);
  });

  it("answers -32603 naming the place for a result that does not match, and tells onInternalError", async () => {
    const { call, internal } = setup({ ...order, id: "o-1", status: "lost" });
    expect(await call("orders_place", [order])).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32603,
        message: `Internal error: the result does not match the method's result schema: result.status must be one of "open", "paid", "shipped"`,
        data: { field: "result.status", reason: 'must be one of "open", "paid", "shipped"', path: "/status" },
      },
    });
    expect(internal).toHaveLength(1);
    expect(internal[0]!.method).toBe("orders_place");
    expect(String(internal[0]!.error)).toMatch(/^ResultMismatch: the result does not match/);
  });

  it("explains a result's union as it explains params (the payment's kind)", async () => {
    const { call } = setup({ ...order, payment: { kind: "bitcoin" }, id: "o-1", status: "open" });
    expect(await call("orders_place", [order])).toMatchObject({ error: { data: { field: "result.payment.address", reason: "is required" } } });
  });

  it("checks pre-serialized answers (rawJson) too", async () => {
    expect(await setup(rawJson("3")).call("products_find", [{ field: "a", op: "eq", value: 1 }])).toMatchObject({ result: expect.anything() });
    expect(await setup(rawJson('"three"')).call("products_find", [{ field: "a", op: "eq", value: 1 }])).toMatchObject({ error: { code: -32603, data: { field: "result", reason: "must be integer" } } });
  });

  it("is off with validateResults: false", async () => {
    const { call, internal } = setup({ id: 1 }, false);
    expect(await call("orders_place", [order])).toEqual({ jsonrpc: "2.0", id: 1, result: { id: 1 } });
    expect(internal).toEqual([]);
  });

  it("is on by default in development and tests, off otherwise", async () => {
    for (const [mode, checked] of [["test", true], ["development", true], ["production", false], [undefined, false]] as const) {
      if (mode === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = mode;
      const response = await setup({ id: 1 }).call("orders_place", [order]);
      expect("error" in (response as object), `NODE_ENV=${mode}`).toBe(checked);
    }
  });
});

describe("resultProblemOf: an answer from elsewhere checked", () => {
  it("names the first problem of a wire result, or nothing", () => {
    expect(resultProblemOf(shopService, "orders_place", { ...order, id: "o-1", status: "open" })).toBeUndefined();
    expect(resultProblemOf(shopService, "orders_place", { ...order, id: "o-1" })).toEqual({ path: "/status", reason: "is required" });
    expect(resultProblemOf(shopService, "blocks_get", "yes")).toEqual({ path: "", reason: "must be boolean" });
    expect(resultProblemOf(shopService, "orders_cancel", 1)).toBeUndefined();
  });
});
