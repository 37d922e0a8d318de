// Tuples: draft-07 `items: [..]` (+ `additionalItems`) and 2020-12 `prefixItems` (+ `items`).
// Members from `minItems` on are optional; a schema for the items after the listed ones becomes a
// rest element. Without one the tuple is closed.
import { describe, expect, it } from "vitest";
import { type Cases, checkCases, expectCase } from "../../../test/emitter.js";

const cases: Cases = [
  ["draft-07 items array, every member required", { given: { type: "array", items: [{ type: "string" }, { type: "number" }], minItems: 2 }, want: "[string, number]", ok: ["['a', 1]"], bad: ["['a']", "[1, 'a']", "['a', 1, 2]"] }],
  ["draft-07 without minItems: every member optional", { given: { type: "array", items: [{ type: "string" }, { type: "number" }] }, want: "[string?, number?]", ok: ["[]", "['a']", "['a', 1]"], bad: ["[1]"] }],
  ["minItems makes the tail optional", { given: { type: "array", items: [{ type: "string" }, { type: "number" }, { type: "boolean" }], minItems: 1 }, want: "[string, number?, boolean?]", ok: ["['a']", "['a', 1, true]"], bad: ["[]"] }],
  ["additionalItems: a schema becomes a rest element", { given: { type: "array", items: [{ type: "string" }], additionalItems: { type: "number" }, minItems: 1 }, want: "[string, ...number[]]", ok: ["['a']", "['a', 1, 2]"], bad: ["['a', 'b']"] }],
  ["additionalItems: true", { given: { type: "array", items: [{ type: "string" }], additionalItems: true, minItems: 1 }, want: "[string, ...unknown[]]", ok: ["['a', 1, null]"] }],
  ["additionalItems: false", { given: { type: "array", items: [{ type: "string" }], additionalItems: false, minItems: 1 }, want: "[string]", bad: ["['a', 1]"] }],
  ["additionalItems: a union is parenthesized", { given: { type: "array", items: [{ type: "string" }], additionalItems: { type: ["number", "null"] }, minItems: 1 }, want: "[string, ...(number | null)[]]", ok: ["['a', 1, null]"], bad: ["['a', 'b']"] }],
  ["2020-12 prefixItems", { given: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], minItems: 2 }, want: "[string, number]", ok: ["['a', 1]"], bad: ["['a']"] }],
  ["2020-12 prefixItems + items: the rest", { given: { type: "array", prefixItems: [{ type: "string" }], items: { type: "boolean" }, minItems: 1 }, want: "[string, ...boolean[]]", ok: ["['a', true, false]"], bad: ["['a', 1]"] }],
  ["2020-12 prefixItems + items: false", { given: { type: "array", prefixItems: [{ type: "string" }], items: false, minItems: 1 }, want: "[string]" }],
  ["2020-12 prefixItems without type", { given: { prefixItems: [{ type: "string" }], minItems: 1 }, want: "[string]", ok: ["['a']"] }],
  ["optional union members are parenthesized: (A | B)?", { given: { type: "array", items: [{ type: "string" }, { type: ["number", "null"] }], minItems: 1 }, want: "[string, (number | null)?]", ok: ["['a']", "['a', null]"], bad: ["['a', 'b']"] }],
  ["a required union member needs no parentheses", { given: { type: "array", items: [{ oneOf: [{ type: "string" }, { type: "number" }] }], minItems: 1 }, want: "[string | number]", ok: ["[1]"], bad: ["[true]"] }],
  [
    "members are $refs and objects",
    {
      components: { Pet: { type: "object", required: ["name"], properties: { name: { type: "string" } } } },
      given: { type: "array", items: [{ $ref: "#/components/schemas/Pet" }, { type: "object", properties: { n: { type: "number" } } }], minItems: 2 },
      want: "[Pet, {\n  n?: number;\n}]",
      ok: ["[{ name: 'a' }, {}]"],
      bad: ["[{}, {}]"],
    },
  ],
  ["an empty tuple", { given: { type: "array", items: [], maxItems: 0 }, want: "[]", ok: ["[]"], bad: ["[1]"] }],
  ["a tuple of tuples", { given: { type: "array", items: [{ type: "array", items: [{ type: "number" }, { type: "number" }], minItems: 2 }], minItems: 1 }, want: "[[number, number]]", ok: ["[[1, 2]]"] }],
  ["an array of tuples", { given: { type: "array", items: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], minItems: 2 } }, want: "[string, number][]", ok: ["[['a', 1]]"], bad: ["[['a']]"] }],
];

describe("tuple", () => {
  it.each(cases)("%s", (_, c) => expectCase(c, expect));

  it("compiles, and accepts and refuses the values each case says", { timeout: 30_000 }, () => {
    expect(checkCases(cases)).toEqual({ errors: [], accepted: [] });
  });
});
