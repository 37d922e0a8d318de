// Schemas without `type`: the kind is inferred from keywords only one kind takes (`properties`,
// `additionalProperties`, `required` → an object; `items`, `prefixItems` → an array). Keywords
// that only constrain a kind (`minLength`, `minimum`) leave any value valid.
import { describe, expect, it } from "vitest";
import { type Cases, checkCases, expectCase } from "../../../test/emitter.js";

const cases: Cases = [
  ["properties without type: an object", { given: { properties: { a: { type: "string" } }, required: ["a"] }, want: "{\n  a: string;\n}", ok: ["{ a: 'x' }"], bad: ["{}"] }],
  ["properties whose schemas have no type", { given: { type: "object", properties: { a: {}, b: { description: "B." } } }, want: "{\n  a?: unknown;\n  /** B. */\n  b?: unknown;\n}", ok: ["{ a: 1, b: null }"] }],
  ["additionalProperties without type", { given: { additionalProperties: { type: "number" } }, want: "Record<string, number>" }],
  ["patternProperties without type", { given: { patternProperties: { "^a": { type: "number" } } }, want: "Record<string, number>" }],
  ["required without type or properties", { given: { required: ["id"] }, want: "{\n  id: unknown;\n}", bad: ["{}"] }],
  ["items without type: an array", { given: { items: { type: "string" } }, want: "string[]", ok: ["['a']"], bad: ["'a'"] }],
  ["items whose schema has no type", { given: { type: "array", items: { description: "anything" } }, want: "unknown[]" }],
  ["nested items without types", { given: { items: { items: { type: "integer" } } }, want: "number[][]", ok: ["[[1]]"] }],
  ["items array without type: a tuple", { given: { items: [{ type: "string" }], minItems: 1 }, want: "[string]" }],
  ["prefixItems without type: a tuple", { given: { prefixItems: [{ type: "boolean" }], items: { type: "number" }, minItems: 1 }, want: "[boolean, ...number[]]" }],
  ["string keywords alone constrain only strings", { given: { minLength: 1, pattern: "^a" }, want: "unknown" }],
  ["number keywords alone constrain only numbers", { given: { minimum: 0 }, want: "unknown" }],
  ["format alone", { given: { format: "email" }, want: "unknown" }],
  [
    "an object inferred from properties is declared as an interface",
    { components: { Point: { properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] } }, declarations: "export interface Point {\n  x: number;\n  y: number;\n}\n", ok: ["{ x: 1, y: 2 }"], bad: ["{ x: 1 }"] },
  ],
];

describe("schemas without type", () => {
  it.each(cases)("%s", (_, c) => expectCase(c, expect));

  it("compiles, and accepts and refuses the values each case says", { timeout: 30_000 }, () => {
    expect(checkCases(cases)).toEqual({ errors: [], accepted: [] });
  });
});
