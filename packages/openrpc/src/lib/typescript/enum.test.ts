// `enum`: a union of the values' literal types, whatever `type` says beside it.
import { describe, expect, it } from "vitest";
import { type Cases, checkCases, expectCase } from "../../../test/emitter.js";

const cases: Cases = [
  ["strings", { given: { type: "string", enum: ["asc", "desc"] }, want: '"asc" | "desc"', ok: ['"asc"', '"desc"'], bad: ['"up"', '""'] }],
  ["a single value", { given: { enum: ["only"] }, want: '"only"', ok: ['"only"'], bad: ['"other"'] }],
  ["numbers, negative and fractional", { given: { type: "number", enum: [1, -2, 0.5] }, want: "1 | -2 | 0.5", ok: ["-2", "0.5"], bad: ["2"] }],
  ["booleans", { given: { enum: [true] }, want: "true", ok: ["true"], bad: ["false"] }],
  ["with null", { given: { type: ["string", "null"], enum: ["a", null] }, want: '"a" | null', ok: ['"a"', "null"], bad: ['"b"', "undefined"] }],
  ["mixed kinds", { given: { enum: ["a", 1, false, null] }, want: '"a" | 1 | false | null', ok: ['"a"', "1", "false", "null"], bad: ['"1"', "true", "0"] }],
  ["values repeated once", { given: { enum: ["a", "a", "b"] }, want: '"a" | "b"' }],
  ["strings that need escaping", { given: { enum: ['say "hi"', "back\\slash", "line\nbreak", "*/"] }, want: '"say \\"hi\\"" | "back\\\\slash" | "line\\nbreak" | "*/"', ok: ['"say \\"hi\\""', "`line\nbreak`", '"*/"'] }],
  ["object and array values (as literal types)", { given: { enum: [{ a: 1 }, [1, "x"]] }, want: '{"a":1} | [1,"x"]', ok: ["{ a: 1 }", '[1, "x"]'], bad: ["{ a: 2 }", "[1]"] }],
  ["an empty enum: no value is valid", { given: { enum: [] }, want: "never", bad: ['"a"'] }],
  ["an enum of integers beside type integer", { given: { type: "integer", enum: [1, 2, 3] }, want: "1 | 2 | 3", ok: ["3"], bad: ["4"] }],
  [
    "a component enum, declared as a type alias",
    { components: { Direction: { type: "string", enum: ["sent", "received"], description: "Which way." } }, declarations: '/** Which way. */\nexport type Direction = "sent" | "received";\n', ok: ['"sent"'], bad: ['"both"'] },
  ],
  ["an enum beside oneOf: both apply", { given: { enum: ["a", "b", "c"], oneOf: [{ const: "a" }, { const: "b" }] }, want: '("a" | "b" | "c") & ("a" | "b")', ok: ['"a"'], bad: ['"c"'] }],
];

describe("enum", () => {
  it.each(cases)("%s", (_, c) => expectCase(c, expect));

  it("compiles, and accepts and refuses the values each case says", { timeout: 30_000 }, () => {
    expect(checkCases(cases)).toEqual({ errors: [], accepted: [] });
  });
});
