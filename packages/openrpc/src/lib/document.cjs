// @ts-check
// What the generator reads, as JSDoc types: an OpenRPC document (1.0 to 1.3.x) and the JSON Schemas
// in it, as the OpenRPC meta-schema that `generate` and `create` validate against first guarantees
// them (only the members something here reads are listed), and two guards for values nothing
// validated. Those are `unknown`, and checked where they are read: the `x-` extensions, and schema
// keywords draft 7 does not define (`prefixItems`, `nullable`, `deprecated`). The meta-schema checks
// what is written in a place, not what a `$ref` there points at: a `$ref` is taken to point at what
// its place calls for (OpenRPC's rule; see refs.cjs `follow`).
"use strict";

/**
 * A JSON Schema as an OpenRPC document writes it (draft 7): an object, or `true` (anything) or
 * `false` (nothing).
 * @typedef {boolean | SchemaObject} Schema
 */

/** @typedef {"array" | "boolean" | "integer" | "null" | "number" | "object" | "string"} SimpleType */

/**
 * The keywords of an object schema the generator reads.
 * @typedef {object} SchemaObject
 * @property {string} [$ref]
 * @property {string} [title]
 * @property {string} [description]
 * @property {unknown} [deprecated] 2019-09; `true` marks it deprecated
 * @property {unknown} [default]
 * @property {unknown} [const]
 * @property {unknown[]} [enum]
 * @property {SimpleType | SimpleType[]} [type]
 * @property {unknown} [nullable] OpenAPI's (in documents converted from OpenAPI); `true` adds `null`
 * @property {Schema[]} [oneOf]
 * @property {Schema[]} [anyOf]
 * @property {Schema[]} [allOf]
 * @property {Record<string, Schema>} [properties]
 * @property {Record<string, Schema>} [patternProperties]
 * @property {Schema} [additionalProperties]
 * @property {string[]} [required]
 * @property {Schema | Schema[]} [items]
 * @property {Schema} [additionalItems]
 * @property {unknown} [prefixItems] 2020-12: a tuple's members (then `items` is the rest)
 * @property {number} [minItems]
 * @property {number} [maxItems]
 * @property {boolean} [uniqueItems]
 * @property {number} [minimum]
 * @property {number} [maximum]
 * @property {number} [exclusiveMinimum]
 * @property {number} [exclusiveMaximum]
 * @property {number} [minLength]
 * @property {number} [maxLength]
 * @property {string} [pattern]
 * @property {string} [format]
 */

/**
 * `{"$ref": "#/…"}`, in a place that allows one.
 * @typedef {object} ReferenceObject
 * @property {string} $ref
 */

/**
 * The `x-…` members most OpenRPC objects may carry; nothing validates them.
 * @typedef {{ [extension: `x-${string}`]: unknown }} Extensions
 */

/**
 * @typedef {object} ContentDescriptorObject
 * @property {string} name
 * @property {string} [summary]
 * @property {string} [description]
 * @property {boolean} [required]
 * @property {boolean} [deprecated]
 * @property {Schema} schema
 */

/**
 * @typedef {object} ErrorObject
 * @property {number} code
 * @property {string} message
 * @property {unknown} [data]
 */

/**
 * @typedef {object} TagObject
 * @property {string} name
 * @property {string} [description]
 */

/**
 * @typedef {object} ExampleObject
 * @property {string} name
 * @property {string} [summary]
 * @property {string} [description]
 * @property {unknown} value
 */

/**
 * An example pairing: example params (by position, or by name) and an example result.
 * @typedef {{
 *   name: string,
 *   summary?: string,
 *   description?: string,
 *   params: (ExampleObject | ReferenceObject)[],
 *   result?: ExampleObject | ReferenceObject,
 * } & Extensions} ExamplePairingObject
 */

/**
 * A method. Its `x-requires-auth` and `x-subscription` are read (and checked) by model.cjs.
 * @typedef {{
 *   name: string,
 *   summary?: string,
 *   description?: string,
 *   tags?: (TagObject | ReferenceObject)[],
 *   paramStructure?: "by-name" | "by-position" | "either",
 *   params: (ContentDescriptorObject | ReferenceObject)[],
 *   result?: ContentDescriptorObject | ReferenceObject,
 *   errors?: (ErrorObject | ReferenceObject)[],
 *   examples?: (ExamplePairingObject | ReferenceObject)[],
 *   deprecated?: boolean,
 * } & Extensions} MethodObject
 */

/**
 * @typedef {object} InfoObject
 * @property {string} title
 * @property {string} version
 * @property {string} [description]
 * @property {{ name: string, url?: string }} [license]
 */

/**
 * The components read by name (the others are reached through `$ref`s).
 * @typedef {object} ComponentsObject
 * @property {Record<string, Schema>} [schemas]
 * @property {Record<string, ErrorObject>} [errors]
 */

/**
 * An OpenRPC document as written (parsed JSON, `$ref`s kept). Its `x-unwrap-single-item-results`
 * is read (and checked) by model.cjs.
 * @typedef {{
 *   openrpc: string,
 *   info: InfoObject,
 *   servers?: { name?: string, url: string }[],
 *   methods: (MethodObject | ReferenceObject)[],
 *   components?: ComponentsObject,
 * } & Extensions} OpenrpcDocument
 */

/**
 * Whether `value` is an object (an array too, as `typeof` has it), its members typed `unknown`.
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
const isObject = (value) => value !== null && typeof value === "object";

/**
 * `Array.isArray`, typed for a value nothing has checked: its items are `unknown` (the built-in
 * narrows an `unknown` to `any[]`).
 * @type {(value: unknown) => value is unknown[]}
 */
const isArray = Array.isArray;

module.exports = { isObject, isArray };
