// `additionalProperties` and `patternProperties`: the members no property names. Alone they make a
// `Record`; beside named properties an index signature, typed `unknown` so that every named member
// fits it.
import { describe, expect, it } from "vitest";
import { type Cases, checkCases, expectCase } from "../../../test/emitter.js";

const cases: Cases = [
  ["additionalProperties: true, no properties", { given: { type: "object", additionalProperties: true }, want: "Record<string, unknown>", ok: ["{ a: 1, b: 'x' }"] }],
  ["additionalProperties: false, no properties: the empty object", { given: { type: "object", additionalProperties: false }, want: "Record<string, never>", ok: ["{}"], bad: ["{ a: 1 }"] }],
  ["additionalProperties: a schema, no properties", { given: { type: "object", additionalProperties: { type: "integer" } }, want: "Record<string, number>", ok: ["{ a: 1, b: 2 }", "{}"], bad: ["{ a: 'x' }"] }],
  ["additionalProperties: {} (any value)", { given: { type: "object", additionalProperties: {} }, want: "Record<string, unknown>" }],
  ["additionalProperties: a union", { given: { type: "object", additionalProperties: { type: ["string", "null"] } }, want: "Record<string, string | null>", ok: ["{ a: null, b: 'x' }"], bad: ["{ a: 1 }"] }],
  [
    "additionalProperties: a $ref: an index signature (a Record naming the type it declares would be circular)",
    { components: { Pet: { type: "object", properties: { name: { type: "string" } } } }, given: { type: "object", additionalProperties: { $ref: "#/components/schemas/Pet" } }, want: "{\n  [key: string]: Pet;\n}", ok: ["{ rex: { name: 'Rex' } }", "{}"], bad: ["{ rex: { name: 1 } }"] },
  ],
  [
    "patternProperties with a $ref inside, indented",
    { components: { Pet: { type: "string" } }, given: { type: "object", patternProperties: { "^p": { type: "object", properties: { pet: { $ref: "#/components/schemas/Pet" } } } } }, want: "{\n  [key: string]: {\n    pet?: Pet;\n  };\n}", ok: ["{ p1: { pet: 'x' } }"], bad: ["{ p1: { pet: 1 } }"] },
  ],
  [
    "additionalProperties: an object schema, indented",
    { given: { type: "object", additionalProperties: { type: "object", required: ["n"], properties: { n: { type: "number" } } } }, want: "Record<string, {\n  n: number;\n}>", ok: ["{ a: { n: 1 } }"], bad: ["{ a: {} }"] },
  ],
  ["additionalProperties: false with properties: only the named members", { given: { type: "object", additionalProperties: false, required: ["a"], properties: { a: { type: "string" } } }, want: "{\n  a: string;\n}", ok: ["{ a: 'x' }"], bad: ["{ a: 'x', b: 1 }"] }],
  ["additionalProperties: true with properties", { given: { type: "object", additionalProperties: true, properties: { a: { type: "string" } } }, want: "{\n  a?: string;\n  [key: string]: unknown;\n}", ok: ["{ a: 'x', b: 1 }"], bad: ["{ a: 1 }"] }],
  [
    "additionalProperties: a schema with properties: an unknown index signature every member fits",
    { given: { type: "object", additionalProperties: { type: "number" }, required: ["name"], properties: { name: { type: "string" } } }, want: "{\n  name: string;\n  [key: string]: unknown;\n}", ok: ["{ name: 'x', n: 1 }"], bad: ["{ n: 1 }", "{ name: 1 }"] },
  ],
  ["additionalProperties without type", { given: { additionalProperties: { type: "string" } }, want: "Record<string, string>" }],
  ["patternProperties alone", { given: { type: "object", patternProperties: { "^x-": { type: "string" } } }, want: "Record<string, string>", ok: ["{ 'x-a': 'y' }"], bad: ["{ 'x-a': 1 }"] }],
  ["several patternProperties", { given: { type: "object", patternProperties: { "^s_": { type: "string" }, "^n_": { type: "number" } } }, want: "Record<string, string | number>", ok: ["{ s_a: 'y', n_b: 1 }"], bad: ["{ s_a: true }"] }],
  ["patternProperties with additionalProperties: false", { given: { type: "object", additionalProperties: false, patternProperties: { "^x-": { type: "string" } } }, want: "Record<string, string>" }],
  ["patternProperties with additionalProperties: a schema", { given: { type: "object", additionalProperties: { type: "boolean" }, patternProperties: { "^x-": { type: "string" } } }, want: "Record<string, boolean | string>" }],
  ["patternProperties with properties", { given: { type: "object", patternProperties: { "^x-": { type: "string" } }, properties: { id: { type: "number" } } }, want: "{\n  id?: number;\n  [key: string]: unknown;\n}", ok: ["{ id: 1, 'x-a': 'b' }"], bad: ["{ id: 'x' }"] }],
  [
    "a component with an index signature, declared as an interface",
    { components: { Headers: { type: "object", additionalProperties: { type: "string" }, properties: { host: { type: "string" } } } }, declarations: "export interface Headers {\n  host?: string;\n  [key: string]: unknown;\n}\n", ok: ["{ host: 'h', other: 'x' }"] },
  ],
  ["a component map, declared as a type alias", { components: { Labels: { type: "object", additionalProperties: { type: "string" } } }, declarations: "export type Labels = Record<string, string>;\n", ok: ["{ a: 'b' }"], bad: ["{ a: 1 }"] }],
];

describe("additionalProperties", () => {
  it.each(cases)("%s", (_, c) => expectCase(c, expect));

  it("compiles, and accepts and refuses the values each case says", { timeout: 30_000 }, () => {
    expect(checkCases(cases)).toEqual({ errors: [], accepted: [] });
  });
});
