// @ts-check
// The server stub's param validators, compiled at generation time (Ajv's standalone code), so that a
// server pays no schema compilation when it starts. They must be what @neutral/server compiles at
// run time when a stub has none: the same Ajv class (by the document's dialect), options, formats,
// document registration and `$ref` rewriting as its validation.ts, which this file follows (it
// cannot import @neutral/server: generation makes that package's own stub before it is built).
// validators.test.ts checks the two agree, option for option and value for value.
"use strict";
const { Ajv } = require("ajv");
const { Ajv2020 } = require("ajv/dist/2020");
const addFormats = require("ajv-formats");
const standaloneCode = require("ajv/dist/standalone").default;
const { isObject } = require("./document.cjs");

/** Where the document's components are registered: `#/…` refs point into it (validation.ts `DOCUMENT_ID`). */
const DOCUMENT_ID = "urn:neutral-openrpc:document";

/** validation.ts `AJV_OPTIONS`. @type {import("ajv").Options} */
const AJV_OPTIONS = { allErrors: false, strict: false, strictNumbers: true, allowUnionTypes: true, logger: false };

const DIALECT_2020 = "https://json-schema.org/draft/2020-12/schema";

/**
 * validation.ts `dialectOf`: 2020-12 when the document declares it, else draft-07.
 * @param {Record<string, unknown>} document
 */
function dialectOf(document) {
  const components = isObject(document.components) ? document.components : {};
  const schemas = isObject(components.schemas) ? Object.values(components.schemas) : [];
  const declared = [document.jsonSchemaDialect, document["x-json-schema-dialect"], ...schemas.map((schema) => (isObject(schema) ? schema.$schema : undefined))];
  return declared.some((uri) => typeof uri === "string" && uri.replace(/#$/, "") === DIALECT_2020) ? "2020-12" : "draft-07";
}

/** Keywords whose value is a map of names to schemas, and those whose value is a schema or a list of them (validation.ts). */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "definitions", "$defs", "dependencies", "dependentSchemas"]);
const SCHEMAS = new Set(["items", "additionalItems", "prefixItems", "additionalProperties", "unevaluatedItems", "unevaluatedProperties", "contains", "propertyNames", "if", "then", "else", "not", "allOf", "anyOf", "oneOf"]);

/**
 * schema-context.ts `intoDocument`: a copy whose `#/…` refs (in schema positions) point into the registered document.
 * @param {unknown} schema
 * @returns {unknown}
 */
function intoDocument(schema) {
  if (Array.isArray(schema)) return schema.map(intoDocument);
  if (!isObject(schema)) return schema;
  /** @type {Record<string, unknown>} */
  const copy = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$ref" && typeof value === "string" && value.startsWith("#")) copy[key] = `${DOCUMENT_ID}${value}`;
    else if (SCHEMA_MAPS.has(key) && isObject(value)) copy[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, intoDocument(sub)]));
    else if (SCHEMAS.has(key)) copy[key] = intoDocument(value);
    else copy[key] = structuredClone(value);
  }
  return copy;
}

/** The runtime helpers standalone code requires, and the name each has in the runtime's `validationRuntime`. */
const RUNTIME = [
  [/require\("ajv\/dist\/runtime\/(\w+)"\)\.default/g, (/** @type {string} */ _, /** @type {string} */ name) => `runtime.${name}`],
  [/require\("ajv-formats\/dist\/formats"\)\.fullFormats/g, () => "runtime.fullFormats"],
];

/**
 * The ES module (TypeScript, unchecked) of the param validators of every method of `document`:
 * `validators[method][i]` checks the method's i-th param as @neutral/server's dispatcher would have
 * compiled it. Its helpers come from the runtime's `validationRuntime` (@neutral/server's).
 * @param {Record<string, unknown>} document the document as written
 * @param {import("./model.cjs").Model} model
 * @param {string} runtime the server runtime's module (`@neutral/server`)
 */
function validatorsModule(document, model, runtime) {
  const ajv = dialectOf(document) === "2020-12" ? new Ajv2020({ ...AJV_OPTIONS, code: { source: true, esm: true } }) : new Ajv({ ...AJV_OPTIONS, code: { source: true, esm: true } });
  (/** @type {(ajv: Ajv) => Ajv} */ (/** @type {unknown} */ (addFormats)))(ajv);
  const components = isObject(document.components) ? document.components : {};
  /** @type {Record<string, unknown>} */
  const kept = {};
  for (const key of ["schemas", "contentDescriptors"]) if (isObject(components[key])) kept[key] = components[key];
  ajv.addSchema({ $id: DOCUMENT_ID, components: kept });
  /** @type {Record<string, string>} */
  const exports = {};
  /** @type {string[]} */
  const entries = [];
  model.methods.forEach((method, m) => {
    const names = method.params.map((param, p) => {
      const key = `m${m}p${p}`;
      ajv.addSchema(/** @type {object} */ (intoDocument(param.schema)), key);
      exports[key] = key;
      return key;
    });
    entries.push(`  ${JSON.stringify(method.name)}: [${names.join(", ")}],`);
  });
  let code = standaloneCode(ajv, exports).replace(/^"use strict";/, "");
  for (const [pattern, replacement] of RUNTIME) code = code.replace(/** @type {RegExp} */ (pattern), /** @type {(...args: string[]) => string} */ (replacement));
  const left = /require\("[^"]*"\)/.exec(code);
  if (left) throw new Error(`Ajv's standalone code needs ${left[0]}, which the runtime's validationRuntime does not provide`);
  return [
    `import { validationRuntime as runtime } from ${JSON.stringify(runtime)};`,
    code,
    ``,
    `/** Each method's param validators, in param order, compiled from openrpc.json at generation time. */`,
    `export const validators = {`,
    ...entries,
    `};`,
    ``,
  ].join("\n");
}

module.exports = { validatorsModule, dialectOf, intoDocument, AJV_OPTIONS, DOCUMENT_ID };
