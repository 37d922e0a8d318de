import type { Ajv, ErrorObject, ValidateFunction } from "ajv";

/** The `$id` under which a service's document (its components) is registered with the Ajv instance. */
export const DOCUMENT_ID = "urn:neutral-openrpc:document";

export type Schema = Record<string, unknown> | boolean;

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

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
 * A deep copy of a schema whose document-relative refs (`#/components/schemas/Pet`) point into the
 * registered document (`urn:neutral-openrpc:document#/components/schemas/Pet`). Only `$ref`s in
 * schema positions change: `enum`, `const`, `default`, examples and unknown keywords are data,
 * copied as they are.
 */
export function intoDocument(schema: unknown): unknown {
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

/**
 * What the walkers over a document's schemas share (schema-errors.ts, schema-defaults.ts): the
 * document's `$ref`s resolved, and any sub-schema checked by Ajv, each compiled once, when first
 * needed (a server never compiles a union's branches unless a request fails or needs a default).
 */
export interface SchemaContext {
  /** The schema `$ref` points at in the document; undefined for a ref that is not local or leads nowhere. */
  resolve(ref: string): Schema | undefined;
  /** Whether `value` is valid against `schema` (a schema of the document, or a param's). */
  isValid(schema: Schema, value: unknown): boolean;
  /** Ajv's errors of `value` against `schema` (the first only: allErrors is off); [] when valid. */
  errorsOf(schema: Schema, value: unknown): ErrorObject[];
}

/** `ajv`: the service's instance, or what makes it when first needed (a stub's precompiled params may never need one). */
export function createSchemaContext(ajv: Ajv | (() => Ajv), document: object): SchemaContext {
  const ajvOf = typeof ajv === "function" ? ajv : () => ajv;
  const compiled = new WeakMap<object, ValidateFunction>();
  const validatorOf = (schema: Schema): ValidateFunction | ((value: unknown) => boolean) => {
    if (typeof schema === "boolean") return () => schema;
    let validate = compiled.get(schema);
    if (validate === undefined) {
      validate = ajvOf().compile(intoDocument(schema) as object);
      compiled.set(schema, validate);
    }
    return validate;
  };
  const resolved = new Map<string, Schema | undefined>();
  const lookUp = (ref: string): Schema | undefined => {
    if (!ref.startsWith("#")) return undefined;
    let at: unknown = document;
    for (const raw of ref.slice(1).split("/").slice(1)) {
      const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      if (!isObject(at) && !Array.isArray(at)) return undefined;
      at = (at as Record<string, unknown>)[key];
    }
    return isObject(at) || typeof at === "boolean" ? at : undefined;
  };
  return {
    resolve(ref) {
      if (resolved.has(ref)) return resolved.get(ref);
      const schema = lookUp(ref);
      resolved.set(ref, schema);
      return schema;
    },
    isValid: (schema, value) => validatorOf(schema)(value) === true,
    errorsOf(schema, value) {
      const validate = validatorOf(schema);
      if (validate(value)) return [];
      return ("errors" in validate && validate.errors) || [];
    },
  };
}
