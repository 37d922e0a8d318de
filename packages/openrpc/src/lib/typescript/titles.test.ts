// Titles: a component's type name comes from its KEY, never its title; a title that differs from
// the type name opens the declaration's doc comment instead. Titles inside a schema change nothing.
import { describe, expect, it } from "vitest";
import { type Cases, checkCases, expectCase } from "../../../test/emitter.js";

const cases: Cases = [
  ["a title that differs from the key: in the doc comment", { components: { Pet: { title: "Animal", type: "string" } }, declarations: "/** Animal */\nexport type Pet = string;\n" }],
  ["a title and a description", { components: { Pet: { title: "Animal", description: "Any pet.", type: "object", properties: { name: { type: "string" } } } }, declarations: "/**\n * Animal\n *\n * Any pet.\n */\nexport interface Pet {\n  name?: string;\n}\n" }],
  ["a title equal to the type name: left out", { components: { Pet: { title: "Pet", description: "Any pet.", type: "string" } }, declarations: "/** Any pet. */\nexport type Pet = string;\n" }],
  ["a lower-case key with a PascalCase title (metamask's address / Address)", { components: { address: { title: "Address", type: "string", pattern: "^0x[0-9a-fA-F]{40}$" } }, declarations: "export type Address = string;\n" }],
  ["a title that would be another type's name changes nothing", { components: { A: { title: "B", type: "string" }, B: { title: "A", type: "number" } }, declarations: "/** B */\nexport type A = string;\n\n/** A */\nexport type B = number;\n", ok: ["'a'"], bad: ["1"] }],
  ["a title with */ in it", { components: { Glob: { title: "src/**/*.ts */", type: "string" } }, declarations: "/** src/**\\/*.ts *\\/ */\nexport type Glob = string;\n" }],
  ["a title inside a property schema: not a doc comment", { given: { type: "object", properties: { a: { title: "The A", type: "string" } } }, want: "{\n  a?: string;\n}" }],
  ["a title inside a oneOf member: not a type name", { given: { oneOf: [{ title: "Circle", type: "number" }, { title: "Square", type: "string" }] }, want: "number | string" }],
];

describe("titles", () => {
  it.each(cases)("%s", (_, c) => expectCase(c, expect));

  it("compiles, and accepts and refuses the values each case says", { timeout: 30_000 }, () => {
    expect(checkCases(cases)).toEqual({ errors: [], accepted: [] });
  });
});
