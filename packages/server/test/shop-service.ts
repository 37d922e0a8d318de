// A shop API with the composition real documents use (test support: never built nor shipped): a
// recursive oneOf filter, an allOf order, payments told apart by a `kind` const, shapes told apart
// by an OpenAPI `discriminator` with a mapping, a block id that is an object or a tag string,
// payment terms whose default lives inside one alternative, and a union of overlapping alternatives.
import type { ServiceDefinition } from "../src/descriptor.js";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const shopDocument = {
  openrpc: "1.3.2",
  info: { title: "shop", version: "1.0.0" },
  methods: [
    { name: "products_find", params: [{ name: "filter", required: true, schema: ref("Filter") }], result: { name: "count", schema: { type: "integer" } } },
    { name: "orders_place", params: [{ name: "order", required: true, schema: ref("NewOrder") }], result: { name: "order", schema: ref("Order") } },
    { name: "shapes_draw", params: [{ name: "shape", required: true, schema: ref("Shape") }], result: { name: "area", schema: { type: "number" } } },
    { name: "blocks_get", params: [{ name: "block_id", required: true, schema: ref("BlockId") }], result: { name: "found", schema: { type: "boolean" } } },
    { name: "invoices_send", params: [{ name: "invoice", required: true, schema: ref("Invoice") }], result: { name: "invoice", schema: ref("Invoice") } },
    { name: "contacts_add", params: [{ name: "contact", required: true, schema: ref("Contact") }], result: { name: "ok", schema: { type: "boolean" } } },
  ],
  components: {
    schemas: {
      Comparison: {
        title: "Comparison",
        type: "object",
        required: ["field", "op", "value"],
        additionalProperties: false,
        properties: { field: { type: "string" }, op: { type: "string", enum: ["eq", "lt", "gt"] }, value: { type: ["string", "number"] } },
      },
      Filter: {
        title: "Filter",
        oneOf: [
          ref("Comparison"),
          { title: "And", type: "object", required: ["and"], additionalProperties: false, properties: { and: { type: "array", minItems: 1, items: ref("Filter") } } },
          { title: "Or", type: "object", required: ["or"], additionalProperties: false, properties: { or: { type: "array", minItems: 1, items: ref("Filter") } } },
          { title: "Not", type: "object", required: ["not"], additionalProperties: false, properties: { not: ref("Filter") } },
        ],
      },
      CardPayment: {
        title: "CardPayment",
        type: "object",
        required: ["kind", "token"],
        additionalProperties: false,
        properties: { kind: { const: "card" }, token: { type: "string", minLength: 8 } },
      },
      BitcoinPayment: {
        title: "BitcoinPayment",
        type: "object",
        required: ["kind", "address"],
        additionalProperties: false,
        properties: { kind: { const: "bitcoin" }, address: { type: "string", pattern: "^bc1[a-z0-9]{8,}$" } },
      },
      Payment: { oneOf: [ref("CardPayment"), ref("BitcoinPayment")] },
      Line: { type: "object", required: ["sku", "quantity"], additionalProperties: false, properties: { sku: { type: "string" }, quantity: { type: "integer", minimum: 1 } } },
      NewOrder: {
        title: "NewOrder",
        type: "object",
        required: ["lines", "payment"],
        properties: { lines: { type: "array", minItems: 1, items: ref("Line") }, payment: ref("Payment"), note: { type: "string", default: "" } },
      },
      Order: {
        title: "Order",
        allOf: [
          ref("NewOrder"),
          { type: "object", required: ["id", "status"], properties: { id: { type: "string" }, status: { type: "string", enum: ["open", "paid", "shipped"] }, total: { type: "number" } } },
        ],
      },
      Circle: { title: "Circle", type: "object", required: ["shape", "radius"], additionalProperties: false, properties: { shape: { type: "string" }, radius: { type: "number", exclusiveMinimum: 0 } } },
      Square: { title: "Square", type: "object", required: ["shape", "side"], additionalProperties: false, properties: { shape: { type: "string" }, side: { type: "number", exclusiveMinimum: 0 } } },
      Shape: {
        oneOf: [ref("Circle"), ref("Square")],
        discriminator: { propertyName: "shape", mapping: { round: "#/components/schemas/Circle", box: "#/components/schemas/Square" } },
      },
      BlockId: {
        title: "BlockId",
        oneOf: [
          { title: "BlockHash", type: "object", required: ["blockHash"], additionalProperties: false, properties: { blockHash: { type: "string", pattern: "^0x[0-9a-f]{64}$" } } },
          { title: "BlockNumber", type: "object", required: ["blockNumber"], additionalProperties: false, properties: { blockNumber: { type: "integer", minimum: 0 } } },
          { title: "BlockTag", type: "string", enum: ["latest", "earliest", "pending"] },
        ],
      },
      Days: { type: "integer", minimum: 1, maximum: 90, default: 30 },
      Invoice: {
        title: "Invoice",
        type: "object",
        required: ["number", "terms"],
        properties: {
          number: { type: "string" },
          currency: { type: "string", default: "EUR" },
          terms: {
            oneOf: [
              { title: "Net", type: "object", required: ["kind"], properties: { kind: { const: "net" }, due_days: { type: "integer", minimum: 1, default: 14 }, reminder_days: ref("Days") } },
              { title: "Prepaid", type: "object", required: ["kind"], properties: { kind: { const: "prepaid" } } },
            ],
          },
          lines: { type: "array", items: { type: "object", required: ["sku"], properties: { sku: { type: "string" }, quantity: { type: "integer", default: 1 } } } },
        },
      },
      Contact: {
        title: "Contact",
        oneOf: [
          { title: "Person", type: "object", required: ["name"], properties: { name: { type: "string" } } },
          { title: "Company", type: "object", required: ["name"], properties: { name: { type: "string" }, vat: { type: "string" } } },
        ],
      },
    },
  },
} as const;

const method = (name: string, param: string) => ({ paramStructure: "either", requiresAuth: false, wrapResult: false, params: [{ name: param, required: true, schema: shopDocument.methods.find((m) => m.name === name)!.params[0].schema }] }) as const;

/** The shop service, as a generated stub would export it. */
export const shopService = {
  methods: {
    products_find: method("products_find", "filter"),
    orders_place: method("orders_place", "order"),
    shapes_draw: method("shapes_draw", "shape"),
    blocks_get: method("blocks_get", "block_id"),
    invoices_send: method("invoices_send", "invoice"),
    contacts_add: method("contacts_add", "contact"),
  },
  document: shopDocument,
} satisfies ServiceDefinition;
