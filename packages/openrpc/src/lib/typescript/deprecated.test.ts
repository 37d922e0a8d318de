// `deprecated: true` → `@deprecated` in the doc comment (of a property, a component, a param), after
// the description; TypeScript then strikes the member through where it is used.
import { describe, expect, it } from "vitest";
import { type Cases, checkCases, expectCase } from "../../../test/emitter.js";

const cases: Cases = [
  ["a deprecated property without a description", { given: { type: "object", properties: { old: { type: "string", deprecated: true } } }, want: "{\n  /** @deprecated */\n  old?: string;\n}", ok: ["{ old: 'x' }"] }],
  [
    "a deprecated property with a description",
    { given: { type: "object", properties: { old: { type: "string", description: "Use `new`.", deprecated: true }, new: { type: "string" } } }, want: "{\n  /**\n   * Use `new`.\n   *\n   * @deprecated\n   */\n  old?: string;\n  new?: string;\n}" },
  ],
  ["deprecated: false adds nothing", { given: { type: "object", properties: { a: { type: "string", deprecated: false } } }, want: "{\n  a?: string;\n}" }],
  [
    "a deprecated $ref property takes the component's description",
    { components: { Id: { type: "string", description: "An id." } }, given: { type: "object", properties: { legacyId: { $ref: "#/components/schemas/Id", deprecated: true } } }, want: "{\n  /**\n   * An id.\n   *\n   * @deprecated\n   */\n  legacyId?: Id;\n}" },
  ],
  ["a deprecated component", { components: { Old: { type: "string", deprecated: true } }, declarations: "/** @deprecated */\nexport type Old = string;\n" }],
  [
    "a deprecated component object with a description",
    { components: { Old: { type: "object", description: "The old shape.", deprecated: true, properties: { a: { type: "number" } } } }, declarations: "/**\n * The old shape.\n *\n * @deprecated\n */\nexport interface Old {\n  a?: number;\n}\n", ok: ["{ a: 1 }"] },
  ],
  ["deprecated inside a nested object", { given: { type: "object", properties: { o: { type: "object", properties: { x: { type: "number", deprecated: true } } } } }, want: "{\n  o?: {\n    /** @deprecated */\n    x?: number;\n  };\n}" }],
];

describe("deprecated", () => {
  it.each(cases)("%s", (_, c) => expectCase(c, expect));

  it("compiles, and accepts and refuses the values each case says", { timeout: 30_000 }, () => {
    expect(checkCases(cases)).toEqual({ errors: [], accepted: [] });
  });
});
