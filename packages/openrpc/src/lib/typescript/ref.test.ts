// `$ref`: a component schema becomes its type name (from the component's KEY); a ref to any other
// place in the document is rendered in place; a ref that does not resolve, or points outside the
// document, is refused with an error naming it.
import { describe, expect, it } from "vitest";
import { type Cases, buildModel, checkCases, expectCase, tsType } from "../../../test/emitter.js";

const Pet = { type: "object", required: ["name"], properties: { name: { type: "string" }, tag: { type: "string", description: "A tag." } } };

const cases: Cases = [
  ["a component: its type name", { components: { Pet }, given: { $ref: "#/components/schemas/Pet" }, want: "Pet", ok: ["{ name: 'a' }"], bad: ["{ tag: 'a' }"] }],
  ["a component whose key is not PascalCase: the type name from the key", { components: { pet_record: Pet }, given: { $ref: "#/components/schemas/pet_record" }, want: "PetRecord", ok: ["{ name: 'a' }"] }],
  ["a component key with an escaped / (~1) and ~ (~0)", { components: { "a/b~c": { type: "string" } }, given: { $ref: "#/components/schemas/a~1b~0c" }, want: "ABC", ok: ["'x'"] }],
  ["a percent-encoded component key", { components: { "my pet": { type: "string" } }, given: { $ref: "#/components/schemas/my%20pet" }, want: "MyPet", ok: ["'x'"] }],
  ["a component whose title differs: still the key's name", { components: { Pet: { ...Pet, title: "Animal" } }, given: { $ref: "#/components/schemas/Pet" }, want: "Pet" }],
  ["keywords beside a component ref other than nullable do not change the type", { components: { Pet }, given: { $ref: "#/components/schemas/Pet", description: "The pet.", default: { name: "x" } }, want: "Pet" }],
  ["a ref into a component's property: rendered in place", { components: { Pet }, given: { $ref: "#/components/schemas/Pet/properties/name" }, want: "string", ok: ["'a'"], bad: ["1"] }],
  ["a ref into a component's array items", { components: { Pets: { type: "array", items: { type: "object", properties: { id: { type: "number" } } } } }, given: { $ref: "#/components/schemas/Pets/items" }, want: "{\n  id?: number;\n}", ok: ["{ id: 1 }"] }],
  ["a ref to a ref to a component: the component's name", { components: { Pet, Alias: { $ref: "#/components/schemas/Pet" } }, given: { $ref: "#/components/schemas/Alias" }, want: "Alias", ok: ["{ name: 'a' }"] }],
  ["a ref to a place holding a component ref: the component's name", { components: { Pet, Box: { type: "object", properties: { pet: { $ref: "#/components/schemas/Pet" } } } }, given: { $ref: "#/components/schemas/Box/properties/pet" }, want: "Pet", ok: ["{ name: 'a' }"] }],
  [
    "refs inside a target rendered in place still name components",
    { components: { Pet, Outer: { type: "object", properties: { inner: { type: "object", properties: { pet: { $ref: "#/components/schemas/Pet" } } } } } }, given: { $ref: "#/components/schemas/Outer/properties/inner" }, want: "{\n  pet?: Pet;\n}", ok: ["{ pet: { name: 'a' } }"], bad: ["{ pet: {} }"] },
  ],
  ["a ref that does not resolve", { components: { Pet }, given: { $ref: "#/components/schemas/Nope" }, throws: /\$ref #\/components\/schemas\/Nope does not resolve: no "Nope"/ }],
  ["a ref into a missing member of a component", { components: { Pet }, given: { $ref: "#/components/schemas/Pet/properties/age" }, throws: /\$ref #\/components\/schemas\/Pet\/properties\/age does not resolve: no "age"/ }],
  ["a ref to another file", { given: { $ref: "pet.json#/Pet" }, throws: /\$ref "pet\.json#\/Pet" points outside the document; only local references \("#\/…"\) are read: bundle the document first \(neutral-openrpc bundle FILE --out bundled\.json, or --bundle with generate and create\)/ }],
  ["a ref to a URL", { given: { $ref: "https://example.com/schemas/pet.json" }, throws: /points outside the document/ }],
  ["a ref that is not a JSON pointer", { given: { $ref: "#Pet" }, throws: /\$ref "#Pet" is not a JSON pointer/ }],
  ["a ref inside a property that does not resolve", { given: { type: "object", properties: { a: { $ref: "#/components/schemas/Gone" } } }, throws: /\$ref #\/components\/schemas\/Gone does not resolve/ }],
];

describe("$ref", () => {
  it.each(cases)("%s", (_, c) => expectCase(c, expect));

  it("renders a ref to another part of the document (a content descriptor's schema) in place", () => {
    const model = buildModel({
      openrpc: "1.3.2",
      info: { title: "x", version: "1" },
      methods: [],
      components: { contentDescriptors: { Limit: { name: "limit", schema: { type: "integer", minimum: 1 } } }, schemas: { Pet } },
    });
    expect(tsType({ $ref: "#/components/contentDescriptors/Limit/schema" }, model.types)).toBe("number");
    expect(tsType({ type: "array", items: { $ref: "#/components/contentDescriptors/Limit/schema" } }, model.types)).toBe("number[]");
  });

  it("without a document, any ref is refused", () => {
    expect(() => tsType({ $ref: "#/components/schemas/Pet" })).toThrow(/cannot resolve #\/components\/schemas\/Pet/);
  });

  it("compiles, and accepts and refuses the values each case says", { timeout: 30_000 }, () => {
    expect(checkCases(cases)).toEqual({ errors: [], accepted: [] });
  });
});
