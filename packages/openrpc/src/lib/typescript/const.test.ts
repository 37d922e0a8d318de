// `const`: the value's literal type, whatever `type` or `enum` say beside it.
import { describe, expect, it } from "vitest";
import { type Cases, checkCases, expectCase } from "../../../test/emitter.js";

const cases: Cases = [
  ["a string", { given: { const: "pong" }, want: '"pong"', ok: ['"pong"'], bad: ['"ping"'] }],
  ["a string beside type", { given: { type: "string", const: "v1" }, want: '"v1"', ok: ['"v1"'], bad: ['"v2"'] }],
  ["a number", { given: { const: 42 }, want: "42", ok: ["42"], bad: ["43"] }],
  ["zero and negative numbers", { given: { oneOf: [{ const: 0 }, { const: -1 }] }, want: "0 | -1", ok: ["0", "-1"], bad: ["1"] }],
  ["true", { given: { const: true }, want: "true", ok: ["true"], bad: ["false"] }],
  ["false (a value, not the false schema)", { given: { const: false }, want: "false", ok: ["false"], bad: ["true"] }],
  ["null", { given: { const: null }, want: "null", ok: ["null"], bad: ["undefined"] }],
  ["an object", { given: { const: { kind: "x", n: 1 } }, want: '{"kind":"x","n":1}', ok: ['{ kind: "x", n: 1 }'], bad: ['{ kind: "y", n: 1 }'] }],
  ["an array", { given: { const: ["a", 1] }, want: '["a",1]', ok: ['["a", 1]'], bad: ['["a"]'] }],
  ["a string with quotes and a comment end", { given: { const: 'a "b" */' }, want: '"a \\"b\\" */"', ok: ["'a \"b\" */'"] }],
  ["a const beside enum: const wins", { given: { enum: ["a", "b"], const: "a" }, want: '"a"' }],
  [
    "a discriminator property",
    {
      given: { type: "object", required: ["kind"], properties: { kind: { const: "circle" }, r: { type: "number" } } },
      want: '{\n  kind: "circle";\n  r?: number;\n}',
      ok: ['{ kind: "circle", r: 1 }', '{ kind: "circle" }'],
      bad: ['{ kind: "square" }', "{ r: 1 }"],
    },
  ],
];

describe("const", () => {
  it.each(cases)("%s", (_, c) => expectCase(c, expect));

  it("compiles, and accepts and refuses the values each case says", { timeout: 30_000 }, () => {
    expect(checkCases(cases)).toEqual({ errors: [], accepted: [] });
  });
});
