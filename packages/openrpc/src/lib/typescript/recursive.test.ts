// Recursive schemas: a `$ref` to a component is its type name, so recursion (direct, through array
// items, mutual, through a union) needs nothing special, and every case must compile.
import { describe, expect, it } from "vitest";
import { type Cases, checkCases, expectCase } from "../../../test/emitter.js";

const ref = (key: string) => ({ $ref: `#/components/schemas/${key}` });

const cases: Cases = [
  [
    "self-recursive through a property",
    {
      components: { Node: { type: "object", required: ["value"], properties: { value: { type: "number" }, next: ref("Node") } } },
      declarations: "export interface Node {\n  value: number;\n  next?: Node;\n}\n",
      ok: ["{ value: 1 }", "{ value: 1, next: { value: 2, next: { value: 3 } } }"],
      bad: ["{ value: 1, next: { next: { value: 2 } } }", "{ value: 1, next: 2 }"],
    },
  ],
  [
    "self-recursive through array items (a tree)",
    {
      components: { Tree: { type: "object", required: ["children"], properties: { children: { type: "array", items: ref("Tree") } } } },
      declarations: "export interface Tree {\n  children: Tree[];\n}\n",
      ok: ["{ children: [] }", "{ children: [{ children: [] }, { children: [{ children: [] }] }] }"],
      bad: ["{ children: 1 }", "{ children: [{}] }", "{}"],
    },
  ],
  [
    "mutually recursive: A → B → A",
    {
      components: {
        A: { type: "object", properties: { b: ref("B") } },
        B: { type: "object", required: ["a"], properties: { a: ref("A") } },
      },
      declarations: "export interface A {\n  b?: B;\n}\n\nexport interface B {\n  a: A;\n}\n",
      ok: ["{}", "{ b: { a: {} } }", "{ b: { a: { b: { a: {} } } } }"],
      bad: ["{ b: {} }", "{ b: { a: { b: 1 } } }"],
    },
  ],
  [
    "recursive through oneOf (an expression)",
    {
      components: {
        Expr: { oneOf: [{ type: "number" }, { type: "object", required: ["op", "args"], properties: { op: { enum: ["+", "*"] }, args: { type: "array", items: ref("Expr") } } }] },
      },
      declarations: 'export type Expr = number | {\n  op: "+" | "*";\n  args: Expr[];\n};\n',
      ok: ["1", "{ op: '+', args: [1, { op: '*', args: [2, 3] }] }"],
      bad: ["{ op: '-', args: [] }", "{ op: '+', args: ['1'] }"],
    },
  ],
  [
    "recursive through a union of refs (JSON values)",
    {
      components: {
        Json: { oneOf: [{ type: ["string", "number", "boolean", "null"] }, { type: "array", items: ref("Json") }, ref("JsonObject")] },
        JsonObject: { type: "object", additionalProperties: ref("Json") },
      },
      // An index signature, not `Record<string, Json>`: TypeScript expands that alias eagerly and reports the cycle.
      declarations: "export type Json = string | number | boolean | null | Json[] | JsonObject;\n\nexport interface JsonObject {\n  [key: string]: Json;\n}\n",
      ok: ["{ a: [1, 'x', null, { b: true }] }", "[[[]]]"],
      bad: ["{ a: undefined as unknown as bigint }", "() => 1"],
    },
  ],
  [
    "recursive through allOf",
    {
      components: {
        Named: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
        Category: { allOf: [ref("Named"), { type: "object", properties: { parent: ref("Category") } }] },
      },
      given: ref("Category"),
      want: "Category",
      declarations: "export interface Named {\n  name: string;\n}\n\nexport type Category = Named & {\n  parent?: Category;\n};\n",
      ok: ["{ name: 'a', parent: { name: 'b' } }"],
      bad: ["{ name: 'a', parent: {} }"],
    },
  ],
  [
    "recursive through additionalProperties (a directory)",
    {
      components: { Dir: { type: "object", additionalProperties: { oneOf: [ref("Dir"), { type: "string" }] } } },
      declarations: "export interface Dir {\n  [key: string]: Dir | string;\n}\n",
      ok: ["{ a: 'file', b: { c: 'file', d: {} } }"],
      bad: ["{ a: 1 }", "{ a: { b: 1 } }"],
    },
  ],
  [
    "recursive through a tuple (a cons list)",
    {
      components: { List: { type: ["array", "null"], items: [{ type: "number" }, ref("List")], minItems: 2 } },
      declarations: "export type List = [number, List] | null;\n",
      ok: ["null", "[1, [2, null]]"],
      bad: ["[1]", "[1, [2]]"],
    },
  ],
  [
    "a ref chain ending in a component: the first component's name",
    {
      components: {
        Item: { type: "object", properties: { id: { type: "string" } } },
        Items: { type: "array", items: ref("Item") },
        Page: { type: "object", required: ["items"], properties: { items: ref("Items"), next: ref("Page") } },
      },
      given: ref("Page"),
      want: "Page",
      ok: ["{ items: [{ id: 'a' }], next: { items: [] } }"],
      bad: ["{ items: [{ id: 1 }] }"],
    },
  ],
];

describe("recursive", () => {
  it.each(cases)("%s", (_, c) => expectCase(c, expect));

  it("compiles, and accepts and refuses the values each case says", { timeout: 30_000 }, () => {
    expect(checkCases(cases)).toEqual({ errors: [], accepted: [] });
  });
});
