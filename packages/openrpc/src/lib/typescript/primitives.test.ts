// Primitive types: each JSON Schema `type` name, with the keywords that only constrain (formats,
// lengths, ranges) leaving the type alone.
import { describe, expect, it } from "vitest";
import { type Cases, checkCases, expectCase } from "../../../test/emitter.js";

const cases: Cases = [
  ["string", { given: { type: "string" }, want: "string", ok: ['"text"', '""'], bad: ["1", "null", "undefined"] }],
  ["number", { given: { type: "number" }, want: "number", ok: ["1.5", "-2"], bad: ['"1"'] }],
  ["integer (a number in TypeScript)", { given: { type: "integer" }, want: "number", ok: ["3"], bad: ['"3"', "3n"] }],
  ["boolean", { given: { type: "boolean" }, want: "boolean", ok: ["true", "false"], bad: ["0"] }],
  ["null", { given: { type: "null" }, want: "null", ok: ["null"], bad: ["undefined", "0"] }],
  ["string with a format (date-time)", { given: { type: "string", format: "date-time" }, want: "string", ok: ['"2024-01-01T00:00:00Z"'], bad: ["new Date()"] }],
  ["string with a format (uri, email, uuid, byte)", { given: { type: "string", format: "uuid", minLength: 36, maxLength: 36, pattern: "^[0-9a-f-]+$" }, want: "string" }],
  ["integer with a format (int64) and a range", { given: { type: "integer", format: "int64", minimum: 0, maximum: 10, multipleOf: 2 }, want: "number", bad: ['"2"'] }],
  ["number with a format (double)", { given: { type: "number", format: "double", exclusiveMinimum: 0 }, want: "number" }],
  ["an unknown type name", { given: { type: "file" }, want: "unknown", ok: ["1", '"x"', "null"] }],
  ["constraints without a type (minLength) constrain only strings: any value", { given: { minLength: 3 }, want: "unknown", ok: ["1"] }],
  ["a description alone", { given: { description: "anything" }, want: "unknown" }],
];

describe("primitives", () => {
  it.each(cases)("%s", (_, c) => expectCase(c, expect));

  it("compiles, and accepts and refuses the values each case says", { timeout: 30_000 }, () => {
    expect(checkCases(cases)).toEqual({ errors: [], accepted: [] });
  });
});
