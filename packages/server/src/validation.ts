import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { ParamDescriptor } from "./descriptor.js";
import { RpcError } from "./errors.js";

/** The `$id` under which a service's document (its components) is registered with the Ajv instance. */
export const DOCUMENT_ID = "urn:neutral-openrpc:document";

/**
 * An Ajv instance for one service: its document's components registered under {@link DOCUMENT_ID},
 * where the `#/…` refs of its param schemas resolve (refs between component schemas, recursive
 * ones included, resolve there as written).
 *
 * Schemas of any OpenRPC document compile: keywords Ajv does not know (`x-…` extensions,
 * `example`, `discriminator`, …) are ignored, and `format` is not enforced (Ajv knows no format
 * by itself).
 */
export function createAjv(document: object = {}): Ajv {
  // allErrors off: the first failure is reported, and validation stops early on hostile input.
  const ajv = new Ajv({
    allErrors: false,
    // The schema lints of strict mode (unknown keywords and formats, tuples, required members
    // without properties) would refuse valid third-party documents; strictNumbers is validation.
    strict: false,
    strictNumbers: true,
    validateFormats: false,
    allowUnionTypes: true,
  });
  ajv.addSchema({ $id: DOCUMENT_ID, components: schemaComponents(document) });
  return ajv;
}

/**
 * The members of `components` that hold schemas. Examples and errors hold data, which is no
 * target of a schema's `$ref` and is kept away from Ajv.
 */
function schemaComponents(document: object): Record<string, unknown> {
  const components = (document as { components?: unknown }).components;
  if (!isObject(components)) return {};
  const kept: Record<string, unknown> = {};
  for (const key of ["schemas", "contentDescriptors"]) if (isObject(components[key])) kept[key] = components[key];
  return kept;
}

/** Compiles each param's schema once; a failing value becomes -32602 naming the field. */
export function compileParamValidator(param: ParamDescriptor, ajv: Ajv): (value: unknown) => void {
  const validate: ValidateFunction = ajv.compile(intoDocument(param.schema) as object);
  return (value) => {
    if (!validate(value)) throw toInvalidParams(param.name, validate.errors?.[0]);
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Keywords whose value is a map of names to schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "definitions", "$defs", "dependencies", "dependentSchemas"]);
/** Keywords whose value is a schema or a list of schemas. */
const SCHEMAS = new Set([
  "items",
  "additionalItems",
  "prefixItems",
  "additionalProperties",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contains",
  "propertyNames",
  "if",
  "then",
  "else",
  "not",
  "allOf",
  "anyOf",
  "oneOf",
]);

/**
 * A deep copy of a param's schema whose document-relative refs (`#/components/schemas/Pet`) point
 * into the registered document (`urn:neutral-openrpc:document#/components/schemas/Pet`). Only
 * `$ref`s in schema positions change: `enum`, `const`, `default`, examples and unknown keywords
 * are data, copied as they are.
 */
function intoDocument(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(intoDocument);
  if (!isObject(schema)) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$ref" && typeof value === "string" && value.startsWith("#")) copy[key] = `${DOCUMENT_ID}${value}`;
    else if (SCHEMA_MAPS.has(key) && isObject(value)) copy[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, intoDocument(sub)]));
    else if (SCHEMAS.has(key)) copy[key] = intoDocument(value);
    else copy[key] = structuredClone(value);
  }
  return copy;
}

/** `/from` under param `inboxFilter` → `inboxFilter.from`; array indexes as `[i]`. */
function fieldName(param: string, pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((field, part) => (/^\d+$/.test(part) ? `${field}[${part}]` : `${field}.${part}`), param);
}

function toInvalidParams(param: string, error: ErrorObject | undefined): RpcError {
  if (!error) return RpcError.invalidParams(param, "is invalid", { param });
  const path = error.instancePath;
  if (error.keyword === "additionalProperties") {
    const member = String((error.params as { additionalProperty: string }).additionalProperty);
    const pointer = `${path}/${member}`;
    return RpcError.invalidParams(fieldName(param, pointer), "is not a known member", { param, path: pointer });
  }
  if (error.keyword === "required") {
    const member = String((error.params as { missingProperty: string }).missingProperty);
    const pointer = `${path}/${member}`;
    return RpcError.invalidParams(fieldName(param, pointer), "is required", { param, path: pointer });
  }
  return RpcError.invalidParams(fieldName(param, path), describe(error), { param, path });
}

function describe(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "pattern":
      return `must match ${String(p.pattern)}`;
    case "enum":
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "type":
      return `must be ${String(p.type)}`;
    default:
      return error.message ?? "is invalid";
  }
}
