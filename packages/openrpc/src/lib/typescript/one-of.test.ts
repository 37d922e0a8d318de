// `oneOf` and `anyOf`: unions. Beside the schema's own shape (`properties`, `type`) they intersect
// with it; nested unions flatten, and `&` binds tighter than `|`, so a union inside an intersection is
// parenthesized.
import { describe, expect, it } from "vitest";
import { type Cases, checkCases, expectCase } from "../../../test/emitter.js";

const components = {
  Cat: { type: "object", required: ["meows"], properties: { meows: { type: "boolean" } } },
  Dog: { type: "object", required: ["barks"], properties: { barks: { type: "boolean" } } },
  Named: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
};
const cat = { $ref: "#/components/schemas/Cat" };
const dog = { $ref: "#/components/schemas/Dog" };
const named = { $ref: "#/components/schemas/Named" };

const cases: Cases = [
  ["oneOf primitives", { given: { oneOf: [{ type: "string" }, { type: "number" }] }, want: "string | number", ok: ["'a'", "1"], bad: ["true"] }],
  ["anyOf primitives", { given: { anyOf: [{ type: "string" }, { type: "null" }] }, want: "string | null", ok: ["null"], bad: ["1"] }],
  ["oneOf $refs", { components, given: { oneOf: [cat, dog] }, want: "Cat | Dog", ok: ["{ meows: true }", "{ barks: false }"], bad: ["{}", "{ meows: 1 }"] }],
  ["a member listed twice appears once", { given: { oneOf: [{ type: "string" }, { type: "string" }] }, want: "string" }],
  ["a single member", { components, given: { oneOf: [cat] }, want: "Cat" }],
  ["a member that allows anything makes the union unknown", { given: { anyOf: [{ type: "string" }, {}] }, want: "unknown" }],
  ["a false member adds nothing", { given: { oneOf: [false, { type: "string" }] }, want: "string", bad: ["1"] }],
  ["only false members: nothing is valid", { given: { oneOf: [false, false] }, want: "never", bad: ["1"] }],
  ["nested unions flatten", { given: { oneOf: [{ oneOf: [{ type: "string" }, { type: "number" }] }, { type: "boolean" }] }, want: "string | number | boolean" }],
  ["overlapping enums: each value once", { given: { anyOf: [{ enum: ["a", "b"] }, { enum: ["b", "c"] }] }, want: '"a" | "b" | "c"', ok: ["'c'"], bad: ["'d'"] }],
  [
    "oneOf of objects",
    {
      given: { oneOf: [{ type: "object", required: ["ok"], properties: { ok: { const: true } } }, { type: "object", required: ["error"], properties: { error: { type: "string" } } }] },
      want: "{\n  ok: true;\n} | {\n  error: string;\n}",
      ok: ["{ ok: true }", "{ error: 'x' }"],
      bad: ["{ ok: false }", "{}"],
    },
  ],
  [
    "oneOf beside properties: the properties & the union",
    {
      components,
      given: { type: "object", required: ["id"], properties: { id: { type: "string" } }, oneOf: [cat, dog] },
      want: "{\n  id: string;\n} & (Cat | Dog)",
      ok: ["{ id: 'a', meows: true }", "{ id: 'a', barks: true }"],
      bad: ["{ id: 'a' }", "{ meows: true }"],
    },
  ],
  ["oneOf beside type object alone: just the union (an interface fits it)", { components, given: { type: "object", oneOf: [cat, dog] }, want: "Cat | Dog", ok: ["{ meows: true }", "((c: Cat) => c)({ meows: true })"] }],
  ["oneOf beside type string: the members narrow it", { given: { type: "string", oneOf: [{ format: "email" }, { format: "uri" }] }, want: "string", ok: ["'a'"] }],
  [
    "oneOf of required-only members beside properties: which keys must be present",
    {
      given: { type: "object", properties: { email: { type: "string" }, phone: { type: "string" } }, oneOf: [{ required: ["email"] }, { required: ["phone"] }] },
      want: "{\n  email?: string;\n  phone?: string;\n} & ({\n  email: unknown;\n} | {\n  phone: unknown;\n})",
      ok: ["{ email: 'a' }", "{ phone: 'b' }"],
      bad: ["{}", "{ email: 1 }"],
    },
  ],
  ["oneOf and anyOf together: both apply", { components, given: { oneOf: [cat, dog], anyOf: [named, { type: "object", required: ["id"], properties: { id: { type: "number" } } }] }, want: "(Cat | Dog) & (Named | {\n  id: number;\n})", ok: ["{ meows: true, name: 'x' }", "{ barks: true, id: 1 }"], bad: ["{ meows: true }"] }],
  ["a union inside allOf is parenthesized", { components, given: { allOf: [named, { oneOf: [cat, dog] }] }, want: "Named & (Cat | Dog)", ok: ["{ name: 'a', barks: true }"], bad: ["{ barks: true }"] }],
  ["an intersection inside a union needs no parentheses", { components, given: { oneOf: [{ allOf: [named, cat] }, dog] }, want: "Named & Cat | Dog", ok: ["{ name: 'a', meows: true }", "{ barks: true }"], bad: ["{ meows: true }"] }],
  ["a nullable union", { components, given: { oneOf: [cat, dog], nullable: true }, want: "Cat | Dog | null", ok: ["null"] }],
  ["a type array with a oneOf of the same types: one part", { given: { type: ["string", "number"], oneOf: [{ type: "string" }, { type: "number", minimum: 0 }] }, want: "string | number" }],
  ["a component union, declared as a type alias", { components: { ...components, Pet: { oneOf: [cat, dog] } }, given: { $ref: "#/components/schemas/Pet" }, want: "Pet", ok: ["{ meows: true }"], bad: ["{ name: 'x' }"] }],
];

describe("oneOf / anyOf", () => {
  it.each(cases)("%s", (_, c) => expectCase(c, expect));

  it("compiles, and accepts and refuses the values each case says", { timeout: 30_000 }, () => {
    expect(checkCases(cases)).toEqual({ errors: [], accepted: [] });
  });
});
