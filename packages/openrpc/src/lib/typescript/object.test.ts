// Objects with named properties: required and optional members, keys that are not identifiers,
// and doc comments from descriptions.
import { describe, expect, it } from "vitest";
import { type Cases, checkCases, expectCase } from "../../../test/emitter.js";

const cases: Cases = [
  [
    "required and optional properties",
    {
      given: { type: "object", required: ["id"], properties: { id: { type: "integer" }, name: { type: "string" } } },
      want: "{\n  id: number;\n  name?: string;\n}",
      ok: ["{ id: 1 }", '{ id: 1, name: "x" }', "{ id: 1, name: undefined }"],
      bad: ['{ name: "x" }', '{ id: "1" }', "{ id: 1, name: 2 }"],
    },
  ],
  ["every property required", { given: { type: "object", required: ["a", "b"], properties: { a: { type: "string" }, b: { type: "boolean" } } }, want: "{\n  a: string;\n  b: boolean;\n}", bad: ["{ a: 'x' }"] }],
  [
    "a required key without a property schema: present, any value",
    { given: { type: "object", required: ["a", "b"], properties: { a: { type: "string" } } }, want: "{\n  a: string;\n  b: unknown;\n}", ok: ["{ a: 'x', b: null }"], bad: ["{ a: 'x' }"] },
  ],
  ["required alone: the keys must be there", { given: { type: "object", required: ["id"] }, want: "{\n  id: unknown;\n}", ok: ["{ id: 1 }"], bad: ["{}"] }],
  [
    "keys that are not identifiers are quoted",
    {
      given: { type: "object", required: ["content-type"], properties: { "content-type": { type: "string" }, "1st": { type: "number" }, "with space": { type: "string" }, $ok: { type: "string" }, _under: { type: "string" }, "": { type: "string" }, "é": { type: "string" } } },
      want: '{\n  "content-type": string;\n  "1st"?: number;\n  "with space"?: string;\n  $ok?: string;\n  _under?: string;\n  ""?: string;\n  "é"?: string;\n}',
      ok: ['{ "content-type": "a", "1st": 1, "with space": "b", $ok: "c", "": "d" }'],
      bad: ['{ "content-type": 1 }'],
    },
  ],
  [
    "keys named like Object.prototype members or reserved words",
    {
      // As a document parses: "__proto__" an own key (a JavaScript object literal would set the prototype instead).
      given: JSON.parse('{"type": "object", "required": ["constructor"], "properties": {"constructor": {"type": "string"}, "__proto__": {"type": "number"}, "toString": {"type": "boolean"}, "delete": {"type": "string"}, "class": {"type": "string"}}}'),
      want: "{\n  constructor: string;\n  __proto__?: number;\n  toString?: boolean;\n  delete?: string;\n  class?: string;\n}",
      ok: ['{ constructor: "x", toString: true, delete: "d", class: "c" }'],
      bad: ["{ constructor: 1 }", '{ constructor: "x", toString: 1 }'],
    },
  ],
  [
    "descriptions become doc comments",
    {
      given: { type: "object", properties: { id: { type: "string", description: "The id." }, body: { type: "string", description: "First line.\n\nSecond paragraph." } } },
      want: "{\n  /** The id. */\n  id?: string;\n  /**\n   * First line.\n   *\n   * Second paragraph.\n   */\n  body?: string;\n}",
    },
  ],
  ["*/ in a description cannot end the comment", { given: { type: "object", properties: { glob: { type: "string", description: "Matches src/**/*.ts */ and more" } } }, want: "{\n  /** Matches src/**\\/*.ts *\\/ and more */\n  glob?: string;\n}", ok: ['{ glob: "x" }'] }],
  ["Windows line breaks in a description", { given: { type: "object", properties: { a: { type: "string", description: "one\r\ntwo" } } }, want: "{\n  /**\n   * one\n   * two\n   */\n  a?: string;\n}" }],
  [
    "nested objects are indented",
    {
      given: { type: "object", required: ["outer"], properties: { outer: { type: "object", required: ["inner"], properties: { inner: { type: "object", properties: { leaf: { type: "string", description: "A leaf." } } } } } } },
      want: "{\n  outer: {\n    inner: {\n      /** A leaf. */\n      leaf?: string;\n    };\n  };\n}",
      ok: ["{ outer: { inner: {} } }", '{ outer: { inner: { leaf: "x" } } }'],
      bad: ["{ outer: {} }", "{ outer: { inner: { leaf: 1 } } }"],
    },
  ],
  ["no properties: any object", { given: { type: "object" }, want: "Record<string, unknown>", ok: ["{}", "{ a: 1 }"], bad: ["1", "null"] }],
  ["empty properties: any object", { given: { type: "object", properties: {} }, want: "Record<string, unknown>", ok: ["{ a: 1 }"] }],
  ["a property whose schema is a $ref takes the component's description", { components: { Id: { type: "string", description: "An id." } }, given: { type: "object", properties: { id: { $ref: "#/components/schemas/Id" } } }, want: "{\n  /** An id. */\n  id?: Id;\n}" }],
  ["a description beside the $ref wins", { components: { Id: { type: "string", description: "An id." } }, given: { type: "object", properties: { id: { $ref: "#/components/schemas/Id", description: "The owner's id." } } }, want: "{\n  /** The owner's id. */\n  id?: Id;\n}" }],
  ["a required list that is not an array is ignored", { given: { type: "object", required: "a", properties: { a: { type: "string" } } }, want: "{\n  a?: string;\n}" }],
];

describe("object", () => {
  it.each(cases)("%s", (_, c) => expectCase(c, expect));

  it("compiles, and accepts and refuses the values each case says", { timeout: 30_000 }, () => {
    expect(checkCases(cases)).toEqual({ errors: [], accepted: [] });
  });
});
