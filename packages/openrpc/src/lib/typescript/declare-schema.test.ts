// `declareSchema(name, schema, types)`: how types.ts declares a component schema. An object type with
// named members (alone) becomes an interface; anything else a type alias. A title that differs from
// the name, the description and `@deprecated` make its doc comment.
import { describe, expect, it } from "vitest";
import { type Cases, checkCases, declareSchema, expectCase } from "../../../test/emitter.js";

const Pet = { type: "object", required: ["name"], properties: { name: { type: "string" } } };
const ref = (key: string) => ({ $ref: `#/components/schemas/${key}` });

const cases: Cases = [
  ["an object with properties: an interface", { components: { Pet }, declarations: "export interface Pet {\n  name: string;\n}\n", ok: ["{ name: 'a' }"], bad: ["{}"] }],
  ["an object inferred from properties: an interface", { components: { Pet: { properties: Pet.properties, required: ["name"] } }, declarations: "export interface Pet {\n  name: string;\n}\n" }],
  ["an object with an index signature beside properties: an interface", { components: { Bag: { type: "object", properties: { id: { type: "string" } }, additionalProperties: true } }, declarations: "export interface Bag {\n  id?: string;\n  [key: string]: unknown;\n}\n" }],
  ["a map of component values: an interface with an index signature", { components: { Pet, Pets: { type: "object", additionalProperties: ref("Pet") } }, declarations: "export interface Pet {\n  name: string;\n}\n\nexport interface Pets {\n  [key: string]: Pet;\n}\n" }],
  ["an object without properties: a Record alias", { components: { Bag: { type: "object" } }, declarations: "export type Bag = Record<string, unknown>;\n" }],
  ["an empty closed object: a Record alias", { components: { Empty: { type: "object", additionalProperties: false } }, declarations: "export type Empty = Record<string, never>;\n", ok: ["{}"] }],
  ["a primitive: an alias", { components: { Id: { type: "string", description: "An id." } }, declarations: "/** An id. */\nexport type Id = string;\n" }],
  ["an object with oneOf: an alias of the intersection", { components: { Pet, Tagged: { type: "object", properties: { tag: { type: "string" } }, oneOf: [ref("Pet"), { type: "object", required: ["id"], properties: { id: { type: "number" } } }] } }, declarations: "export interface Pet {\n  name: string;\n}\n\nexport type Tagged = {\n  tag?: string;\n} & (Pet | {\n  id: number;\n});\n" }],
  ["an object with allOf of unconstrained members only: still an interface", { components: { Pet: { ...Pet, allOf: [{ description: "a note" }] } }, declarations: "export interface Pet {\n  name: string;\n}\n" }],
  ["a nullable object: an alias", { components: { Pet: { ...Pet, nullable: true } }, declarations: "export type Pet = {\n  name: string;\n} | null;\n", ok: ["null"] }],
  ["an object const: an alias", { components: { Origin: { type: "object", const: { x: 0 } } }, declarations: 'export type Origin = {"x":0};\n', ok: ["{ x: 0 }"], bad: ["{ x: 1 }"] }],
  ["an object enum: an alias", { components: { Corner: { type: "object", enum: [{ x: 0 }, { x: 1 }] } }, declarations: 'export type Corner = {"x":0} | {"x":1};\n' }],
  [
    "a $ref beside type and properties: an alias of the referenced type",
    { components: { Pet, Alias: { $ref: "#/components/schemas/Pet", type: "object", properties: { extra: { type: "string" } } } }, declarations: "export interface Pet {\n  name: string;\n}\n\nexport type Alias = Pet;\n", given: ref("Alias"), want: "Alias", ok: ["{ name: 'a' }"] },
  ],
  ["an array: an alias", { components: { Names: { type: "array", items: { type: "string" } } }, declarations: "export type Names = string[];\n" }],
  ["a self-referencing interface", { components: { Node: { type: "object", properties: { next: ref("Node") } } }, declarations: "export interface Node {\n  next?: Node;\n}\n", ok: ["{ next: { next: {} } }"] }],
  [
    "title, description and deprecated, in that order",
    { components: { Pet: { ...Pet, title: "Animal", description: "Any pet.", deprecated: true } }, declarations: "/**\n * Animal\n *\n * Any pet.\n *\n * @deprecated\n */\nexport interface Pet {\n  name: string;\n}\n" },
  ],
];

describe("declareSchema", () => {
  it.each(cases)("%s", (_, c) => expectCase(c, expect));

  it("needs no document for a schema without $refs", () => {
    expect(declareSchema("Point", { type: "object", properties: { x: { type: "number" } } })).toBe("export interface Point {\n  x?: number;\n}\n");
    expect(declareSchema("Flag", true)).toBe("export type Flag = unknown;\n");
  });

  it("compiles, and accepts and refuses the values each case says", { timeout: 30_000 }, () => {
    expect(checkCases(cases)).toEqual({ errors: [], accepted: [] });
  });
});
