// `allOf`: an intersection of its members (and of the schema's own shape beside it). Members that
// allow anything add nothing; unions inside are parenthesized.
import { describe, expect, it } from "vitest";
import { type Cases, checkCases, expectCase } from "../../../test/emitter.js";

const components = {
  Named: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
  Aged: { type: "object", required: ["age"], properties: { age: { type: "integer" } } },
  Cat: { type: "object", required: ["meows"], properties: { meows: { type: "boolean" } } },
  Dog: { type: "object", required: ["barks"], properties: { barks: { type: "boolean" } } },
};
const ref = (key: string) => ({ $ref: `#/components/schemas/${key}` });

const cases: Cases = [
  ["allOf of refs", { components, given: { allOf: [ref("Named"), ref("Aged")] }, want: "Named & Aged", ok: ["{ name: 'a', age: 1 }"], bad: ["{ name: 'a' }", "{ name: 'a', age: 'x' }"] }],
  ["a single member", { components, given: { allOf: [ref("Named")] }, want: "Named" }],
  ["a member twice", { components, given: { allOf: [ref("Named"), ref("Named")] }, want: "Named" }],
  [
    "allOf of a ref and an inline object",
    {
      components,
      given: { allOf: [ref("Named"), { type: "object", required: ["id"], properties: { id: { type: "string" } } }] },
      want: "Named & {\n  id: string;\n}",
      ok: ["{ name: 'a', id: 'b' }"],
      bad: ["{ id: 'b' }"],
    },
  ],
  ["allOf beside properties", { components, given: { type: "object", properties: { id: { type: "string" } }, allOf: [ref("Named")] }, want: "{\n  id?: string;\n} & Named", ok: ["{ name: 'a' }"], bad: ["{ id: 'a' }"] }],
  ["allOf beside type object alone: the members (an interface fits)", { components, given: { type: "object", allOf: [ref("Named"), ref("Aged")] }, want: "Named & Aged", ok: ["((n: Named & Aged) => n)({ name: 'a', age: 1 })"] }],
  ["members that allow anything add nothing", { components, given: { allOf: [{}, ref("Named"), true, { description: "no constraint" }] }, want: "Named" }],
  ["nothing but unconstrained members: unknown", { given: { allOf: [{}, true] }, want: "unknown" }],
  ["a false member: nothing is valid", { components, given: { allOf: [ref("Named"), false] }, want: "never", bad: ["{ name: 'a' }"] }],
  ["a union member is parenthesized", { components, given: { allOf: [ref("Named"), { oneOf: [ref("Cat"), ref("Dog")] }] }, want: "Named & (Cat | Dog)", ok: ["{ name: 'a', meows: true }"], bad: ["{ meows: true }"] }],
  ["a type-array member is parenthesized", { given: { allOf: [{ type: ["string", "null"] }, { type: "string" }] }, want: "(string | null) & string", ok: ["'a'"], bad: ["null"] }],
  ["nested allOf", { components, given: { allOf: [{ allOf: [ref("Named"), ref("Aged")] }, ref("Cat")] }, want: "Named & Aged & Cat", ok: ["{ name: 'a', age: 1, meows: true }"] }],
  ["an intersection inside a union", { components, given: { oneOf: [{ allOf: [ref("Named"), ref("Cat")] }, { allOf: [ref("Named"), ref("Dog")] }] }, want: "Named & Cat | Named & Dog", ok: ["{ name: 'a', barks: true }"], bad: ["{ barks: true }"] }],
  ["an intersection in an array is wrapped", { components, given: { type: "array", items: { allOf: [ref("Named"), ref("Aged")] } }, want: "Array<Named & Aged>" }],
  ["a nullable intersection", { components, given: { allOf: [ref("Named"), ref("Aged")], nullable: true }, want: "Named & Aged | null", ok: ["null"] }],
  ["allOf + oneOf + own properties", { components, given: { type: "object", properties: { id: { type: "string" } }, oneOf: [ref("Cat"), ref("Dog")], allOf: [ref("Named")] }, want: "{\n  id?: string;\n} & (Cat | Dog) & Named", ok: ["{ name: 'a', barks: true }"], bad: ["{ name: 'a' }"] }],
  [
    "a component extending another, declared as a type alias",
    {
      components: { Named: components.Named, Pet: { description: "A pet.", allOf: [ref("Named"), { type: "object", properties: { tag: { type: "string" } } }] } },
      given: ref("Pet"),
      want: "Pet",
      declarations: "export interface Named {\n  name: string;\n}\n\n/** A pet. */\nexport type Pet = Named & {\n  tag?: string;\n};\n",
      ok: ["{ name: 'a', tag: 't' }"],
      bad: ["{ tag: 't' }"],
    },
  ],
];

describe("allOf", () => {
  it.each(cases)("%s", (_, c) => expectCase(c, expect));

  it("compiles, and accepts and refuses the values each case says", { timeout: 30_000 }, () => {
    expect(checkCases(cases)).toEqual({ errors: [], accepted: [] });
  });
});
