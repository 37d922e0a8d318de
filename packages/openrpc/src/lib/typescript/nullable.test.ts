// Null: `type` arrays that list "null", and OpenAPI's `nullable: true` (documents converted from
// OpenAPI 3.0): `T | null`, null listed once, no parentheses a union does not need.
import { describe, expect, it } from "vitest";
import { type Cases, checkCases, expectCase } from "../../../test/emitter.js";

const Pet = { type: "object", required: ["name"], properties: { name: { type: "string" } } };

const cases: Cases = [
  ["type [string, null]", { given: { type: ["string", "null"] }, want: "string | null", ok: ['"a"', "null"], bad: ["undefined", "1"] }],
  ["type [null, integer]: the listed order", { given: { type: ["null", "integer"] }, want: "null | number", ok: ["null", "1"] }],
  ["type [string, number, boolean]", { given: { type: ["string", "number", "boolean"] }, want: "string | number | boolean" }],
  ["type [integer, number]: number once", { given: { type: ["integer", "number"] }, want: "number" }],
  ["type [object, null] with properties", { given: { type: ["object", "null"], properties: { a: { type: "string" } } }, want: "{\n  a?: string;\n} | null", ok: ["{ a: 'x' }", "null"], bad: ["{ a: 1 }"] }],
  ["type [array, null]", { given: { type: ["array", "null"], items: { type: "string" } }, want: "string[] | null", ok: ["['a']", "null"], bad: ["[1]"] }],
  ["nullable: true", { given: { type: "string", nullable: true }, want: "string | null", ok: ['"a"', "null"], bad: ["undefined"] }],
  ["nullable: false", { given: { type: "string", nullable: false }, want: "string", bad: ["null"] }],
  ["nullable beside a type array that has null already", { given: { type: ["string", "null"], nullable: true }, want: "string | null" }],
  ["nullable enum: null added once, no parentheses", { given: { type: "string", enum: ["a", "b"], nullable: true }, want: '"a" | "b" | null', ok: ["null", '"a"'], bad: ['"c"'] }],
  ["nullable enum that lists null", { given: { type: "string", enum: ["a", null], nullable: true }, want: '"a" | null' }],
  ["nullable $ref", { components: { Pet }, given: { $ref: "#/components/schemas/Pet", nullable: true }, want: "Pet | null", ok: ["null", '{ name: "x" }'], bad: ["{}"] }],
  ["nullable oneOf", { given: { oneOf: [{ type: "string" }, { type: "number" }], nullable: true }, want: "string | number | null", ok: ["null", "1"] }],
  [
    "nullable allOf: & binds tighter than |",
    { components: { Pet, Tagged: { type: "object", required: ["tag"], properties: { tag: { type: "string" } } } }, given: { allOf: [{ $ref: "#/components/schemas/Pet" }, { $ref: "#/components/schemas/Tagged" }], nullable: true }, want: "Pet & Tagged | null", ok: ["null", '{ name: "a", tag: "b" }'], bad: ['{ name: "a" }'] },
  ],
  ["nullable object without properties", { given: { type: "object", nullable: true }, want: "Record<string, unknown> | null", ok: ["null", "{ a: 1 }"] }],
  ["nullable without a type: any value already", { given: { nullable: true }, want: "unknown" }],
  ["type null with nullable", { given: { type: "null", nullable: true }, want: "null" }],
  ["nullable array items: Array<T | null>", { given: { type: "array", items: { type: "string", nullable: true } }, want: "Array<string | null>", ok: ["['a', null]"], bad: ["[1]"] }],
  ["a nullable component, declared as a type alias", { components: { Name: { type: "object", properties: { first: { type: "string" } }, nullable: true } }, declarations: "export type Name = {\n  first?: string;\n} | null;\n", ok: ["null"] }],
];

describe("nullable", () => {
  it.each(cases)("%s", (_, c) => expectCase(c, expect));

  it("compiles, and accepts and refuses the values each case says", { timeout: 30_000 }, () => {
    expect(checkCases(cases)).toEqual({ errors: [], accepted: [] });
  });
});
