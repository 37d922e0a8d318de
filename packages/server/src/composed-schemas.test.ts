import { describe, expect, it } from "vitest";
import { argsOf, createDispatcher } from "./dispatcher.js";
import type { JsonRpcResponse } from "./errors.js";
import { createSchemaContext } from "./schema-context.js";
import { explain } from "./schema-errors.js";
import { createAjv, dialectOf } from "./validation.js";
import { shopDocument, shopService } from "../test/shop-service.js";

/** A dispatcher for the shop whose handlers keep the args they were given. */
function setup() {
  const seen: Record<string, unknown>[] = [];
  const keep = (answer: unknown) => (args: Record<string, unknown>) => (seen.push(args), answer);
  const handlers = {
    products_find: keep(3),
    orders_place: (args: { order: Record<string, unknown> }) => (seen.push(args), { ...args.order, id: "o-1", status: "open" }),
    shapes_draw: keep(1.5),
    blocks_get: keep(true),
    invoices_send: (args: { invoice: unknown }) => (seen.push(args), args.invoice),
    contacts_add: keep(true),
  };
  const dispatcher = createDispatcher({ service: shopService, handlers });
  const call = async (method: string, params: unknown): Promise<JsonRpcResponse> =>
    (await dispatcher.dispatch({ jsonrpc: "2.0", id: 1, method, params }, {})) as JsonRpcResponse;
  const refused = async (method: string, params: unknown) => {
    const response = await call(method, params);
    if (!("error" in response)) throw new Error(`expected an error, got ${JSON.stringify(response)}`);
    return response.error;
  };
  const answered = async (method: string, params: unknown) => {
    const response = await call(method, params);
    if (!("result" in response)) throw new Error(`expected a result, got ${JSON.stringify(response)}`);
    return response.result;
  };
  return { seen, refused, answered };
}

const comparison = { field: "price", op: "lt", value: 10 };
const line = { sku: "tea", quantity: 2 };

describe("oneOf: a recursive filter", () => {
  it("accepts each alternative, nested to any depth", async () => {
    const { answered } = setup();
    expect(await answered("products_find", [comparison])).toBe(3);
    expect(await answered("products_find", [{ and: [comparison, { or: [comparison, { not: comparison }] }] }])).toBe(3);
  });

  it("reports the problem inside the alternative the value is for, not the first alternative's required member", async () => {
    const { refused } = setup();
    // Ajv's first error was "filter.field is required" (Comparison's).
    expect(await refused("products_find", [{ and: [] }])).toEqual({
      code: -32602,
      message: "Invalid params: filter.and must NOT have fewer than 1 items",
      data: { field: "filter.and", reason: "must NOT have fewer than 1 items", param: "filter", path: "/and", alternative: "And" },
    });
    expect((await refused("products_find", [{ and: [{ or: [{ ...comparison, op: "like" }] }] }])).data).toEqual({
      field: "filter.and[0].or[0].op",
      reason: 'must be one of "eq", "lt", "gt"',
      param: "filter",
      path: "/and/0/or/0/op",
      alternative: "Comparison",
    });
    expect((await refused("products_find", [{ not: { field: "price", op: "eq" } }])).message).toBe("Invalid params: filter.not.value is required");
  });

  it("names the member no alternative knows", async () => {
    const { refused } = setup();
    expect((await refused("products_find", [{ ...comparison, limit: 3 }])).message).toBe("Invalid params: filter.limit is not a known member");
  });
});

describe("oneOf told apart by a const member (a kind)", () => {
  it("reports the chosen kind's problem", async () => {
    const { refused } = setup();
    // Ajv's first error was "order.payment.token is required" (the card's member).
    expect((await refused("orders_place", [{ lines: [line], payment: { kind: "bitcoin" } }])).data).toEqual({
      field: "order.payment.address",
      reason: "is required",
      param: "order",
      path: "/payment/address",
      alternative: "BitcoinPayment",
    });
    expect((await refused("orders_place", [{ lines: [line], payment: { kind: "bitcoin", address: "1abc" } }])).message).toBe(
      "Invalid params: order.payment.address must match ^bc1[a-z0-9]{8,}$",
    );
    expect((await refused("orders_place", [{ lines: [line], payment: { kind: "card", token: "short" } }])).message).toBe(
      "Invalid params: order.payment.token must NOT have fewer than 8 characters",
    );
  });

  it("names the kinds there are when the value's is none of them", async () => {
    const { refused } = setup();
    expect((await refused("orders_place", [{ lines: [line], payment: { kind: "paypal" } }])).message).toBe('Invalid params: order.payment.kind must be one of "card", "bitcoin"');
  });
});

describe("OpenAPI's discriminator, with a mapping", () => {
  it("chooses the alternative the mapping names", async () => {
    const { refused, answered } = setup();
    expect(await answered("shapes_draw", [{ shape: "box", side: 2 }])).toBe(1.5);
    // Neither alternative (each member's `shape` is any string): the mapping says which was meant.
    expect((await refused("shapes_draw", [{ shape: "box" }])).data).toMatchObject({ field: "shape.side", reason: "is required", alternative: "Square" });
    expect((await refused("shapes_draw", [{ shape: "round", radius: 0 }])).data).toMatchObject({ field: "shape.radius", reason: "must be > 0", alternative: "Circle" });
  });

  it("refuses a missing or unknown discriminator by name", async () => {
    const { refused } = setup();
    expect((await refused("shapes_draw", [{ shape: "blob" }])).message).toBe('Invalid params: shape.shape must be one of "round", "box"');
    expect((await refused("shapes_draw", [{}])).message).toBe("Invalid params: shape.shape is required");
  });
});

describe("oneOf of objects and a string", () => {
  it("accepts a tag, and reports a wrong one against the string alternative", async () => {
    const { refused, answered } = setup();
    expect(await answered("blocks_get", ["earliest"])).toBe(true);
    expect(await answered("blocks_get", [{ blockNumber: 7 }])).toBe(true);
    // Ajv's first error was "block_id must be object".
    expect(await refused("blocks_get", ["newest"])).toMatchObject({ message: 'Invalid params: block_id must be one of "latest", "earliest", "pending"', data: { alternative: "BlockTag" } });
    expect((await refused("blocks_get", [{ blockNumber: -1 }])).message).toBe("Invalid params: block_id.blockNumber must be >= 0");
    expect((await refused("blocks_get", [{ blockHash: "0x12" }])).message).toBe("Invalid params: block_id.blockHash must match ^0x[0-9a-f]{64}$");
    expect((await refused("blocks_get", [7])).message).toMatch(/^Invalid params: block_id must be /);
  });
});

describe("oneOf whose alternatives overlap", () => {
  it("refuses a value that matches more than one, naming them", async () => {
    const { refused } = setup();
    expect((await refused("contacts_add", [{ name: "Ada" }])).message).toBe(
      "Invalid params: contact matches more than one alternative (Person, Company); it must match exactly one",
    );
  });
});

describe("defaults at any depth", () => {
  it("fills a member's default inside the oneOf alternative the value matches, through $refs, and in array items", async () => {
    const { answered, seen } = setup();
    await answered("invoices_send", [{ number: "7", terms: { kind: "net" }, lines: [{ sku: "tea" }, { sku: "pot", quantity: 3 }] }]);
    expect(seen[0]).toEqual({
      invoice: { number: "7", currency: "EUR", terms: { kind: "net", due_days: 14, reminder_days: 30 }, lines: [{ sku: "tea", quantity: 1 }, { sku: "pot", quantity: 3 }] },
    });
  });

  it("keeps what was given, and fills nothing of another alternative", async () => {
    const { answered, seen } = setup();
    await answered("invoices_send", [{ number: "8", currency: "USD", terms: { kind: "net", due_days: 60 } }]);
    await answered("invoices_send", [{ number: "9", terms: { kind: "prepaid" } }]);
    expect(seen[0]).toEqual({ invoice: { number: "8", currency: "USD", terms: { kind: "net", due_days: 60, reminder_days: 30 } } });
    expect(seen[1]).toEqual({ invoice: { number: "9", currency: "EUR", terms: { kind: "prepaid" } } });
  });

  it("fills defaults inside an allOf's members (an order's note)", async () => {
    const { answered, seen } = setup();
    expect(await answered("orders_place", [{ lines: [line], payment: { kind: "card", token: "tok_12345" } }])).toEqual({
      lines: [line],
      payment: { kind: "card", token: "tok_12345" },
      note: "",
      id: "o-1",
      status: "open",
    });
    expect(seen[0]).toEqual({ order: { lines: [line], payment: { kind: "card", token: "tok_12345" }, note: "" } });
  });
});

describe("the work of explaining a failure is bounded", () => {
  it("gives up past its bound on a deeply nested failing value, and the dispatcher still answers Ajv's first error", async () => {
    let filter: unknown = { ...comparison, op: "like" };
    for (let i = 0; i < 200; i++) filter = i % 2 ? { and: [comparison, filter] } : { or: [filter, comparison] };
    const ajv = createAjv(shopDocument);
    const context = createSchemaContext(ajv, shopDocument);
    const schema = { $ref: "#/components/schemas/Filter" };
    expect(explain(context, schema, filter, "", 50)).toBeUndefined();
    expect(explain(context, schema, filter)).toMatchObject({ reason: 'must be one of "eq", "lt", "gt"' });
    const { refused } = setup();
    expect((await refused("products_find", [filter])).code).toBe(-32602);
  });
});

describe("the size of value explaining looks at", () => {
  it("explains a value of 10,000 values (members, items, scalars: the object itself counts) and leaves one past it to Ajv's first error", async () => {
    const context = createSchemaContext(createAjv(shopDocument), shopDocument);
    const schema = { $ref: "#/components/schemas/Filter" };
    // The object, its three members and 9,996 more: 10,000 values; one more member: 10,001.
    const filter = (extra: number) => ({ and: [{ ...comparison, op: "like" }], ...Object.fromEntries(Array.from({ length: extra }, (_, i) => [`x${i}`, i])) });
    const atLimit = filter(10_000 - 1 - 1 - 1 - 3); // the object, "and", its array, the comparison's 3 members
    expect(explain(context, schema, atLimit)).toMatchObject({ reason: "is not a known member" });
    expect(explain(context, schema, filter(10_000 - 1 - 1 - 1 - 3 + 1))).toBeUndefined();
    const { refused } = setup();
    expect((await refused("products_find", [filter(50_000)])).code).toBe(-32602);
  });
});

describe("the JSON Schema dialect a document declares", () => {
  const tupleDocument = (dialect?: string) => ({
    openrpc: "1.3.2",
    info: { title: "tuples", version: "1" },
    methods: [],
    components: { schemas: { Point: { ...(dialect && { $schema: dialect }), type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false } } },
  });
  const service = (document: object) =>
    ({
      methods: { points_add: { paramStructure: "by-position", requiresAuth: false, wrapResult: false, params: [{ name: "point", required: true, schema: { $ref: "#/components/schemas/Point" } }] } },
      document,
    }) as const;

  it("is draft-07 unless 2020-12 is declared", () => {
    expect(dialectOf(tupleDocument())).toBe("draft-07");
    expect(dialectOf(tupleDocument("https://json-schema.org/draft/2020-12/schema"))).toBe("2020-12");
    expect(dialectOf({ ...tupleDocument(), "x-json-schema-dialect": "https://json-schema.org/draft/2020-12/schema" })).toBe("2020-12");
  });

  it("checks 2020-12's prefixItems when the document declares 2020-12", async () => {
    const dispatcher = createDispatcher({ service: service(tupleDocument("https://json-schema.org/draft/2020-12/schema")), handlers: { points_add: () => null } });
    const call = (point: unknown) => dispatcher.dispatch({ jsonrpc: "2.0", id: 1, method: "points_add", params: [point] }, {});
    expect(await call([1, 2])).toEqual({ jsonrpc: "2.0", id: 1, result: null });
    expect(await call([1, "2"])).toMatchObject({ error: { message: "Invalid params: point[1] must be number" } });
    expect(await call([1, 2, 3])).toMatchObject({ error: { code: -32602 } });
  });
});

describe("argsOf: a call's args without dispatching it", () => {
  it("gives the args a handler would get, defaults filled in, and throws what the dispatcher would answer", () => {
    expect(argsOf(shopService, "invoices_send", [{ number: "1", terms: { kind: "net" } }])).toEqual({
      invoice: { number: "1", currency: "EUR", terms: { kind: "net", due_days: 14, reminder_days: 30 } },
    });
    expect(() => argsOf(shopService, "orders_place", { order: { lines: [], payment: { kind: "card", token: "tok_12345" } } })).toThrow(
      "Invalid params: order.lines must NOT have fewer than 1 items",
    );
    expect(() => argsOf(shopService, "orders_cancel", [])).toThrow("Method not found: orders_cancel");
  });
});

describe("defaults through $refs that lead back to themselves", () => {
  it("plans a cycle of bare refs without looping, and fills the members around it", async () => {
    const { compileDefaults } = await import("./schema-defaults.js");
    const document = {
      components: {
        schemas: {
          A: { $ref: "#/components/schemas/B" },
          B: { $ref: "#/components/schemas/A" },
          Holder: { type: "object", properties: { loop: { $ref: "#/components/schemas/A" }, kind: { type: "string", default: "plain" } } },
        },
      },
    };
    const context = createSchemaContext(createAjv({}), document);
    const fill = compileDefaults(context, { $ref: "#/components/schemas/Holder" })!;
    const value: Record<string, unknown> = { loop: { x: 1 } };
    fill(value);
    expect(value).toEqual({ loop: { x: 1 }, kind: "plain" });
  });
});
