// The docs helpers for event streams (lib/html.cjs): the `$ref`s an extension keeps, the SSE id a
// notification names, the events of an example as the node sends them, and the stream's Try it form.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
type Schema = Record<string, unknown>;
const html = require("./html.cjs") as {
  resolveRefs: (schema: unknown, components: Map<string, Schema>) => Schema;
  typeHtml: (schema: unknown, names: Map<string, string>) => string;
  constraintsHtml: (schema: unknown) => string;
  eventIdPath: (pointer: string) => string;
  sseText: (events: { id?: string; method: string; params: unknown }[]) => string;
  tryItForm: (method: Record<string, unknown>, names: Map<string, string>) => string;
  exampleRequest: (method: Record<string, unknown>, example: Record<string, unknown>) => Record<string, unknown>;
  nullFilled: (method: Record<string, unknown>, example: Record<string, unknown>) => string[];
  licenseHtml: (license: unknown) => string | undefined;
};

const components = new Map<string, Schema>([
  ["MessageId", { title: "MessageId", type: "string", pattern: "^[0-9]+$" }],
  ["Item", { title: "Item", type: "object", properties: { id: { title: "MessageId", type: "string", pattern: "^[0-9]+$" } } }],
]);
const names = new Map([...components.keys()].map((name) => [name, name]));

describe("resolveRefs", () => {
  it("replaces a $ref to a component schema by the component, keeping sibling keywords, at any depth", () => {
    const resolved = html.resolveRefs({ type: "object", properties: { at: { $ref: "#/components/schemas/MessageId", description: "where" } }, items: [{ $ref: "#/components/schemas/Item" }] }, components);
    expect(resolved).toEqual({
      type: "object",
      properties: { at: { title: "MessageId", type: "string", pattern: "^[0-9]+$", description: "where" } },
      items: [components.get("Item")],
    });
    // Resolved, it reads like a dereferenced param: a link to the schema, and its constraints.
    const at = (resolved.properties as Record<string, unknown>).at;
    expect(html.typeHtml(at, names)).toBe('<a href="#schema-MessageId"><code>MessageId</code></a>');
    expect(html.constraintsHtml(at)).toBe("pattern <code>^[0-9]+$</code>");
  });

  it("fails on a ref to anything but a component schema, as the TypeScript generation does", () => {
    expect(() => html.resolveRefs({ $ref: "#/components/schemas/Nope" }, components)).toThrow("cannot resolve #/components/schemas/Nope");
    expect(() => html.resolveRefs({ $ref: "#/components/errors/Unauthorized" }, components)).toThrow("cannot resolve");
    expect(() => html.typeHtml({ $ref: "#/components/schemas/Nope" }, names)).toThrow("cannot resolve");
    // An unresolved ref to a component still links (typeHtml on the schema as written).
    expect(html.typeHtml({ $ref: "#/components/schemas/Item" }, names)).toBe('<a href="#schema-Item"><code>Item</code></a>');
  });
});

describe("eventIdPath", () => {
  it("reads a JSON pointer into the params as the member path it names", () => {
    expect(html.eventIdPath("/message/id")).toBe("params.message.id");
    expect(html.eventIdPath("/a~1b/c~0d")).toBe("params.a/b.c~d");
  });
});

describe("sseText", () => {
  it("writes events as a node sends them: an id line when the event has one, one data line with the notification, a blank line between", () => {
    expect(
      html.sseText([
        { id: "3", method: "x_item", params: { item: { id: "3" } } },
        { method: "x_caughtUp", params: { cursor: "3" } },
      ]),
    ).toBe('id: 3\ndata: {"jsonrpc":"2.0","method":"x_item","params":{"item":{"id":"3"}}}\n\ndata: {"jsonrpc":"2.0","method":"x_caughtUp","params":{"cursor":"3"}}');
  });
});

describe("tryItForm", () => {
  const method = (subscription?: unknown) => ({
    name: "x_watch",
    requiresAuth: true,
    paramStructure: "either",
    params: [{ name: "after", required: false, schema: { type: "string" } }],
    examples: [{ name: "From 2", params: [{ name: "after", value: "2" }] }],
    ...(subscription !== undefined && { subscription }),
  });

  it("gives a stream a Subscribe and a Stop button, its state line and its event list", () => {
    const form = html.tryItForm(method({ notifications: [{ name: "x_item", params: [] }] }), names);
    expect(form).toContain('data-structure="either" data-stream="true" novalidate>');
    expect(form).toContain('<button type="submit">Subscribe</button> <button type="button" class="try-stop" disabled>Stop</button>');
    expect(form).toContain('<p class="try-stream-state" data-state="idle" aria-live="polite">Not subscribed.</p>');
    expect(form).toContain('<ol class="try-events"></ol>');
  });

  it("leaves any other method's form as it was: Send, and the output", () => {
    const form = html.tryItForm(method(), names);
    expect(form).not.toMatch(/data-stream|try-stop|try-stream-state|try-events|Subscribe/);
    expect(form).toContain('data-structure="either" novalidate>');
    expect(form.endsWith('<p><button type="submit">Send</button></p>\n<div class="try-output" aria-live="polite"></div>\n</form>\n</details>')).toBe(true);
  });
});

describe("exampleRequest", () => {
  const params = [{ name: "a" }, { name: "b" }, { name: "c" }];
  const example = { params: [{ name: "c", value: 3 }, { name: "a", value: 1 }] };

  it("sends params by position, in the method's order, a gap as null", () => {
    const method = { name: "x_m", paramStructure: "either", params };
    expect(html.exampleRequest(method, example)).toEqual({ jsonrpc: "2.0", id: 1, method: "x_m", params: [1, null, 3] });
    expect(html.nullFilled(method, example)).toEqual(["b"]);
  });

  it("sends them by name to a by-name method, leaving out absent ones", () => {
    const method = { name: "x_m", paramStructure: "by-name", params };
    expect(html.exampleRequest(method, example)).toEqual({ jsonrpc: "2.0", id: 1, method: "x_m", params: { a: 1, c: 3 } });
    expect(html.exampleRequest({ ...method, params: [] }, { params: [] })).toEqual({ jsonrpc: "2.0", id: 1, method: "x_m", params: {} });
    expect(html.nullFilled(method, example)).toEqual([]);
  });

  it("gives a notification (a method without result) no id", () => {
    const method = { name: "x_n", paramStructure: "either", params, notification: true };
    expect(html.exampleRequest(method, example)).toEqual({ jsonrpc: "2.0", method: "x_n", params: [1, null, 3] });
  });
});

describe("licenseHtml", () => {
  it("shows a license's name, else its url as text, and nothing for an empty one", () => {
    expect(html.licenseHtml({})).toBeUndefined();
    expect(html.licenseHtml({ name: "  " })).toBeUndefined();
    expect(html.licenseHtml(undefined)).toBeUndefined();
    expect(html.licenseHtml({ name: "MIT & <more>", url: "https://example.com/mit" })).toBe("MIT &amp; &lt;more&gt;");
    expect(html.licenseHtml({ url: "https://example.com/mit" })).toBe("<code>https://example.com/mit</code>");
  });
});
