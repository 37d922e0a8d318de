// Arrays of one item schema: `T[]`, or `Array<T>` when T is a union or intersection (where `T[]`
// would bind to its last member only).
import { describe, expect, it } from "vitest";
import { type Cases, checkCases, expectCase } from "../../../test/emitter.js";

const Pet = { type: "object", required: ["name"], properties: { name: { type: "string" } } };

const cases: Cases = [
  ["items: a primitive", { given: { type: "array", items: { type: "string" } }, want: "string[]", ok: ["[]", "['a', 'b']"], bad: ["[1]", "'a'"] }],
  ["no items: any items", { given: { type: "array" }, want: "unknown[]", ok: ["[1, 'a', null]"], bad: ["{}"] }],
  ["items: true", { given: { type: "array", items: true }, want: "unknown[]" }],
  ["items: false: only the empty array", { given: { type: "array", items: false }, want: "never[]", ok: ["[]"], bad: ["[1]"] }],
  ["items: a $ref", { components: { Pet }, given: { type: "array", items: { $ref: "#/components/schemas/Pet" } }, want: "Pet[]", ok: ["[{ name: 'a' }]"], bad: ["[{}]"] }],
  ["nested arrays", { given: { type: "array", items: { type: "array", items: { type: "number" } } }, want: "number[][]", ok: ["[[1], []]"], bad: ["[1]"] }],
  ["three levels", { given: { type: "array", items: { type: "array", items: { type: "array", items: { type: "boolean" } } } }, want: "boolean[][][]" }],
  ["items: a union (oneOf)", { given: { type: "array", items: { oneOf: [{ type: "string" }, { type: "number" }] } }, want: "Array<string | number>", ok: ["['a', 1]"], bad: ["[true]"] }],
  ["items: a type array", { given: { type: "array", items: { type: ["string", "null"] } }, want: "Array<string | null>", ok: ["['a', null]"], bad: ["[1]"] }],
  ["items: an enum", { given: { type: "array", items: { enum: ["a", "b"] } }, want: 'Array<"a" | "b">', ok: ["['a', 'b']"], bad: ["['c']"] }],
  ["items: a single-value enum needs no Array<>", { given: { type: "array", items: { enum: ["a"] } }, want: '"a"[]' }],
  ["items: an intersection (allOf)", { components: { Pet, Tagged: { type: "object", properties: { tag: { type: "string" } } } }, given: { type: "array", items: { allOf: [{ $ref: "#/components/schemas/Pet" }, { $ref: "#/components/schemas/Tagged" }] } }, want: "Array<Pet & Tagged>", ok: ["[{ name: 'a', tag: 'b' }]"], bad: ["[{ name: 'a', tag: 1 }]"] }],
  ["an array of arrays of unions", { given: { type: "array", items: { type: "array", items: { type: ["string", "number"] } } }, want: "Array<string | number>[]", ok: ["[['a', 1]]"], bad: ["[[true]]"] }],
  [
    "items: an object",
    { given: { type: "array", items: { type: "object", required: ["id"], properties: { id: { type: "string" } } } }, want: "{\n  id: string;\n}[]", ok: ["[{ id: 'a' }]"], bad: ["[{}]"] },
  ],
  [
    "items: a union of objects whose doc comments hold brackets and quotes",
    {
      given: { type: "array", items: { oneOf: [{ type: "object", properties: { a: { type: "string", description: 'A 5" screen } (or [ <' } } }, { type: "string" }] } },
      want: 'Array<{\n  /** A 5" screen } (or [ < */\n  a?: string;\n} | string>',
      ok: ["[{ a: 'x' }, 'y']"],
      bad: ["[1]"],
    },
  ],
  ["items: a string enum with | in a value", { given: { type: "array", items: { enum: ["a|b"] } }, want: '"a|b"[]', ok: ["['a|b']"] }],
  ["items: a nullable $ref", { components: { Pet }, given: { type: "array", items: { $ref: "#/components/schemas/Pet", nullable: true } }, want: "Array<Pet | null>", ok: ["[null, { name: 'a' }]"] }],
  ["a nullable array", { given: { type: "array", items: { type: "string" }, nullable: true }, want: "string[] | null", ok: ["null"] }],
  ["minItems and maxItems alone do not make a tuple", { given: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3, uniqueItems: true }, want: "string[]", ok: ["[]"] }],
  ["a component array, declared as a type alias", { components: { Pet, Pets: { type: "array", items: { $ref: "#/components/schemas/Pet" } } }, declarations: "export interface Pet {\n  name: string;\n}\n\nexport type Pets = Pet[];\n" }],
];

describe("array", () => {
  it.each(cases)("%s", (_, c) => expectCase(c, expect));

  it("compiles, and accepts and refuses the values each case says", { timeout: 30_000 }, () => {
    expect(checkCases(cases)).toEqual({ errors: [], accepted: [] });
  });
});
