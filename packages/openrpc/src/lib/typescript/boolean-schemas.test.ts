// Boolean schemas and the empty schema: `true` and `{}` allow any value (`unknown`), `false` none
// (`never`), wherever a schema may stand.
import { describe, expect, it } from "vitest";
import { type Cases, checkCases, expectCase } from "../../../test/emitter.js";

const cases: Cases = [
  ["true", { given: true, want: "unknown", ok: ["1", "'a'", "null", "undefined", "{}"] }],
  ["false", { given: false, want: "never", bad: ["1", "null", "undefined"] }],
  ["{}", { given: {}, want: "unknown", ok: ["[]", "null"] }],
  ["only annotations", { given: { title: "Anything", description: "Any value.", examples: [1] }, want: "unknown" }],
  ["a property true", { given: { type: "object", required: ["a"], properties: { a: true } }, want: "{\n  a: unknown;\n}", ok: ["{ a: 1 }", "{ a: null }"], bad: ["{}"] }],
  ["a property false: it must be absent", { given: { type: "object", properties: { a: false, b: { type: "string" } } }, want: "{\n  a?: never;\n  b?: string;\n}", ok: ["{ b: 'x' }"], bad: ["{ a: 1 }"] }],
  ["items true", { given: { type: "array", items: true }, want: "unknown[]" }],
  ["items false", { given: { type: "array", items: false }, want: "never[]", ok: ["[]"], bad: ["[1]"] }],
  ["additionalProperties false", { given: { type: "object", additionalProperties: false }, want: "Record<string, never>", bad: ["{ a: 1 }"] }],
  ["a tuple member true", { given: { type: "array", items: [true, { type: "string" }], minItems: 2 }, want: "[unknown, string]", ok: ["[null, 'a']"] }],
  ["a tuple member false", { given: { type: "array", prefixItems: [{ type: "string" }, false] }, want: "[string?, never?]", ok: ["['a']"], bad: ["['a', 1]"] }],
  ["null and undefined stand for no schema", { given: null, want: "unknown" }],
  ["a schema that is not an object or boolean is read as no constraint", { given: [{ type: "string" }], want: "unknown" }],
  ["a component true, declared as unknown", { components: { Anything: true }, declarations: "export type Anything = unknown;\n", ok: ["1"] }],
  ["a component false, declared as never", { components: { Nothing: false }, declarations: "export type Nothing = never;\n", bad: ["1"] }],
  ["a component {}, declared as unknown", { components: { Any: {} }, declarations: "export type Any = unknown;\n" }],
];

describe("boolean schemas", () => {
  it.each(cases)("%s", (_, c) => expectCase(c, expect));

  it("compiles, and accepts and refuses the values each case says", { timeout: 30_000 }, () => {
    expect(checkCases(cases)).toEqual({ errors: [], accepted: [] });
  });
});
