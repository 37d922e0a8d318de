// The generator's reading of the `x-subscription` extension (lib/model.cjs): what it accepts, and
// the clear errors for what it does not, before any template runs.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const { subscriptionOf, buildModel } = require("./model.cjs") as {
  subscriptionOf: (method: Record<string, unknown>, doc?: unknown) => unknown;
  buildModel: (doc: unknown) => { types: unknown };
};
const { tsType } = require("./typescript.cjs") as { tsType: (schema: unknown, types: unknown) => string };
const { DocumentError } = require("./errors.cjs") as { DocumentError: new () => Error };

const method = (extension: unknown) => ({ name: "x_watch", "x-subscription": extension });

describe("x-subscription", () => {
  it("is absent for an ordinary method", () => {
    expect(subscriptionOf({ name: "x_get" })).toBeUndefined();
  });

  it("reads each notification: its name, params, the JSON pointer of its SSE id, and a type name", () => {
    const model = subscriptionOf(
      method({ notifications: [{ name: "x_item", eventId: "/item/id", params: [{ name: "item", required: true, schema: { type: "string" } }] }, { name: "x_done" }] }),
    ) as { notifications: { name: string; eventId?: string; typeBase: string; params: { name: string; required: boolean }[] }[] };
    expect(model.notifications.map((n) => [n.name, n.eventId, n.typeBase])).toEqual([
      ["x_item", "/item/id", "ItemNotification"],
      ["x_done", undefined, "DoneNotification"],
    ]);
    expect(model.notifications[0]!.params).toMatchObject([{ name: "item", required: true }]);
  });

  it.each([
    [null, /non-empty `notifications`/],
    [{ notifications: [] }, /non-empty `notifications`/],
    [{ notifications: [{ summary: "no name" }] }, /notifications\[0\] needs a `name`/],
    [{ notifications: [{ name: "x_a" }, { name: "x_a" }] }, /names the notification x_a twice/],
    [{ notifications: [{ name: "x_a", eventId: "id" }] }, /eventId must be a JSON pointer/],
    // Nothing validates an extension: its members are checked here, not left to crash a template
    // (params that are not a list) or to reach the output as they are (a schema or text of the wrong kind).
    [{ notifications: [{ name: "x_a", params: "id" }] }, /x_a: params must be an array/],
    [{ notifications: [{ name: "x_a", params: [{ name: "id", schema: "string" }] }] }, /x_a: params\[0\]: its schema must be a JSON Schema/],
    [{ notifications: [{ name: "x_a", params: [{ name: "id", schema: [] }] }] }, /x_a: params\[0\]: its schema must be a JSON Schema/],
    [{ notifications: [{ name: "x_a", params: [{ name: "id", description: ["a"] }] }] }, /x_a: params\[0\]: description must be a string/],
    [{ notifications: [{ name: "x_a", summary: 1 }] }, /x_a: summary must be a string/],
    [{ description: { text: "a" }, notifications: [{ name: "x_a" }] }, /x-subscription: description must be a string/],
  ])("refuses %j, naming the method", (extension, message) => {
    expect(() => subscriptionOf(method(extension))).toThrow(message);
    expect(() => subscriptionOf(method(extension))).toThrow(/^x_watch: x-subscription/);
    // A DocumentError: the command reports it as one line, without a stack.
    expect(() => subscriptionOf(method(extension))).toThrow(DocumentError);
  });

  it("accepts a notification param's schema as a boolean or a $ref, and no schema as any value", () => {
    const model = subscriptionOf(
      method({ notifications: [{ name: "x_a", params: [{ name: "any", schema: true }, { name: "none" }, { name: "ref", schema: { $ref: "#/components/schemas/X" } }] }] }),
      { components: { schemas: { X: { type: "string" } } } },
    ) as { notifications: { params: { name: string; schema: unknown }[] }[] };
    expect(model.notifications[0]!.params.map((p) => p.schema)).toEqual([true, {}, { $ref: "#/components/schemas/X" }]);
  });

  it("resolves the component refs an extension keeps to their types, and names a ref that does not resolve", () => {
    const { types } = buildModel({ openrpc: "1.3.2", info: { title: "x", version: "1" }, methods: [], components: { schemas: { Message: { type: "string" } } } });
    expect(tsType({ $ref: "#/components/schemas/Message" }, types)).toBe("Message");
    expect(() => tsType({ $ref: "#/components/schemas/Nope" }, types)).toThrow(/\$ref #\/components\/schemas\/Nope does not resolve/);
  });
});
