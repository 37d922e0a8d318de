// @ts-check
// JSON Schema (as written in an OpenRPC document, `$ref`s kept) → TypeScript source. A `$ref` to a
// component schema becomes that component's type name, so recursive schemas and shared types read
// like a person wrote them; every other construct is one function below (tested one file per
// construct in ./typescript/).
"use strict";

const { isObject, isArray } = require("./document.cjs");

/**
 * @typedef {import("./document.cjs").Schema} Schema
 * @typedef {import("./document.cjs").SchemaObject} SchemaObject
 * @typedef {import("./model.cjs").ParamModel} ParamModel
 */

/**
 * What the emitter needs to turn a `$ref` into a type (model.cjs builds it as `model.types`).
 * @typedef {object} Types
 * @property {(ref: string) => string | undefined} typeNameOf the type name of the component schema `ref` names, if it names one
 * @property {(ref: string) => unknown} resolve the value at `ref` (throws when it does not resolve)
 */

/**
 * @typedef {object} EmitOptions
 * @property {string} [indent] the indentation of the line the type starts on (an object type's members go one level deeper)
 * @property {Set<string>} [seen] the `$ref`s being rendered in place around this schema (one met again is `unknown`)
 */

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * `types` when a caller has no document: every `$ref` is unresolvable.
 * @type {Types}
 */
const NO_TYPES = { typeNameOf: () => undefined, resolve: (ref) => { throw new Error(`cannot resolve ${ref}`); } };

/**
 * `text` as a doc comment on its own line(s) at `indent`, or "" for no text.
 * @param {string} text
 * @param {string} [indent]
 */
function docComment(text, indent = "") {
  if (!text) return "";
  const lines = String(text).replace(/\*\//g, "*\\/").split(/\r\n|\r|\n/);
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l ? " " + l : ""}`).join("\n")}\n${indent} */\n`;
}

/**
 * `name` as an object type's member key: as is when it is an identifier, quoted otherwise.
 * @param {string} name
 */
function propertyKey(name) {
  return IDENT.test(name) ? name : JSON.stringify(name);
}

/**
 * Splits `type` at the `separator` characters (`|` or `&`) outside brackets, string literals and doc
 * comments: `A | {\n  /** x | y *\/\n  b: "|";\n} | C` → [`A`, `{…}`, `C`].
 * @param {string} type
 * @param {"|" | "&"} separator
 * @returns {string[]}
 */
function splitTopLevel(type, separator) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < type.length; i++) {
    const c = type[i];
    if (c === "/" && type[i + 1] === "*") {
      const end = type.indexOf("*/", i + 2);
      i = end === -1 ? type.length : end + 1;
    } else if (c === '"') {
      for (i++; i < type.length && type[i] !== '"'; i++) if (type[i] === "\\") i++;
    } else if (c === "{" || c === "(" || c === "[" || c === "<") depth++;
    else if (c === "}" || c === ")" || c === "]" || c === ">") depth--;
    else if (depth === 0 && c === separator) {
      parts.push(type.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(type.slice(start).trim());
  return parts;
}

/**
 * Whether `type` must be parenthesized before `[]` or `?`, or inside `&`.
 * @param {string} type
 */
function needsParens(type) {
  return splitTopLevel(type, "|").length > 1 || splitTopLevel(type, "&").length > 1;
}

/** @param {string} type */
const group = (type) => (needsParens(type) ? `(${type})` : type);

/**
 * `A | B` of the types, each member once (a member that is itself a union contributes its members); `unknown` absorbs the rest, `never` adds nothing.
 * @param {string[]} types
 */
const union = (types) => {
  const unique = [...new Set(types.flatMap((type) => splitTopLevel(type, "|")))];
  if (unique.includes("unknown")) return "unknown";
  const members = unique.filter((type) => type !== "never");
  return members.length === 0 ? "never" : members.join(" | ");
};

/**
 * @param {object} schema
 * @param {string} key
 */
const has = (schema, key) => Object.prototype.hasOwnProperty.call(schema, key);

/**
 * A `$ref`: the component's type name, or (for a ref elsewhere in the document) the target rendered in place.
 * @param {string} ref
 * @param {Types} types
 * @param {EmitOptions} opts
 * @returns {string}
 */
function refType(ref, types, opts) {
  const name = types.typeNameOf(ref);
  if (name !== undefined) return name;
  const seen = opts.seen || new Set();
  if (seen.has(ref)) return "unknown";
  return tsType(types.resolve(ref), types, { ...opts, seen: new Set(seen).add(ref) });
}

/** @param {unknown[]} values */
function enumType(values) {
  return union(values.map((v) => JSON.stringify(v)));
}

/**
 * An array (`T[]`) or a tuple (`[A, B?, ...C[]]`).
 * @param {SchemaObject} schema
 * @param {Types} types
 * @param {EmitOptions} opts
 */
function arrayType(schema, types, opts) {
  /** @type {unknown[] | undefined} */
  const tuple = isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
  if (tuple) {
    const rest = isArray(schema.prefixItems) ? schema.items : schema.additionalItems;
    const min = typeof schema.minItems === "number" ? schema.minItems : 0;
    // An optional member is `T?`, so a union or intersection needs parentheses: `(A | B)?`.
    const members = tuple.map((s, i) => (i >= min ? `${group(tsType(s, types, opts))}?` : tsType(s, types, opts)));
    if (rest !== undefined && rest !== false) members.push(`...${group(tsType(rest === true ? {} : rest, types, opts))}[]`);
    return `[${members.join(", ")}]`;
  }
  const item = tsType(schema.items === undefined ? {} : schema.items, types, opts);
  return needsParens(item) ? `Array<${item}>` : `${item}[]`;
}

/**
 * An object type: `{ key: T; … }` with a doc comment per member, `Record<string, T>`, or an index signature.
 * @param {SchemaObject} schema
 * @param {Types} types
 * @param {EmitOptions} opts
 */
function objectType(schema, types, opts) {
  const indent = opts.indent || "";
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((key) => typeof key === "string") : []);
  // A required key the schema gives no property schema for may hold any value, but must be there.
  /** @type {[string, Schema][]} */
  const props = [...Object.entries(schema.properties || {}), ...[...required].filter((key) => !has(schema.properties || {}, key)).map(/** @returns {[string, Schema]} */ (key) => [key, {}])];
  const extra = schema.additionalProperties;
  const patterns = Object.values(schema.patternProperties || {});
  // Values of members no property names: additionalProperties, and every patternProperties schema.
  const extraSchemas = [...(extra !== undefined && extra !== false ? [extra] : []), ...patterns];
  /** @param {string} at */
  const extraTypes = (at) => extraSchemas.map((s) => tsType(s, types, { ...opts, indent: at }));
  const closed = extra === false && patterns.length === 0;
  const inner = indent + "  ";
  if (props.length === 0) {
    if (closed) return "Record<string, never>";
    // `Record<…>` is an alias TypeScript expands eagerly, so a value type that (through a `$ref`) names the
    // type being declared is circular (`type Dir = Record<string, Dir>`); an index signature is not.
    if (containsRef(extraSchemas)) return `{\n${inner}[key: string]: ${union(extraTypes(inner))};\n${indent}}`;
    return `Record<string, ${extraSchemas.length ? union(extraTypes(indent)) : "unknown"}>`;
  }
  const lines = props.map(([key, value]) => {
    const optional = !required.has(key) ? "?" : "";
    const text = describe(value, types);
    return `${docComment(text, inner)}${inner}${propertyKey(key)}${optional}: ${tsType(value, types, { ...opts, indent: inner })};`;
  });
  // Named members must fit the index signature's type; `unknown` always does.
  if (extraSchemas.length > 0) lines.push(`${inner}[key: string]: unknown;`);
  return `{\n${lines.join("\n")}\n${indent}}`;
}

/**
 * Whether a `$ref` occurs anywhere in `value` (a schema, or a list of them).
 * @param {unknown} value
 * @returns {boolean}
 */
function containsRef(value) {
  if (isArray(value)) return value.some(containsRef);
  if (!isObject(value)) return false;
  return typeof value.$ref === "string" || Object.values(value).some(containsRef);
}

/**
 * A member's doc comment: its description, or the description of the component its `$ref` names.
 * @param {Schema} schema
 * @param {Types} types
 */
function describe(schema, types) {
  if (!isObject(schema)) return "";
  /** @type {unknown} */
  let description = schema.description;
  // Through a chain of refs (`Owner` → `Address` → …) to the first description.
  const seen = new Set();
  /** @type {unknown} */
  let target = schema;
  while (!description && isObject(target) && typeof target.$ref === "string" && !seen.has(target.$ref)) {
    seen.add(target.$ref);
    try {
      target = types.resolve(target.$ref);
    } catch {
      break;
    }
    description = isObject(target) ? target.description : undefined;
  }
  return [description, schema.deprecated === true ? "@deprecated" : ""].filter(Boolean).join("\n\n");
}

/**
 * The type a schema's `type` keyword (one name) gives, with the keywords that go with it.
 * @param {string} kind
 * @param {SchemaObject} schema
 * @param {Types} types
 * @param {EmitOptions} opts
 * @returns {string}
 */
function typeOfKind(kind, schema, types, opts) {
  switch (kind) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return arrayType(schema, types, opts);
    case "object":
      return objectType(schema, types, opts);
    default:
      return "unknown";
  }
}

/**
 * The schema's own shape, ignoring the combinators (oneOf/anyOf/allOf) beside it; undefined when it has none.
 * @param {SchemaObject} schema
 * @param {Types} types
 * @param {EmitOptions} opts
 * @returns {string | undefined}
 */
function baseType(schema, types, opts) {
  // `const` allows one value, so it is the stricter of the two when both are given.
  if (has(schema, "const")) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return enumType(schema.enum);
  if (Array.isArray(schema.type)) return union(schema.type.map((kind) => typeOfKind(kind, schema, types, opts)));
  if (typeof schema.type === "string") return typeOfKind(schema.type, schema, types, opts);
  // No `type`: infer it from the keywords that only one kind takes.
  if (schema.properties || schema.additionalProperties !== undefined || schema.patternProperties || schema.required) return objectType(schema, types, opts);
  if (schema.items !== undefined || schema.prefixItems) return arrayType(schema, types, opts);
  return undefined;
}

/**
 * `A & B` of the parts. `never` (a `false` schema) leaves nothing; `unknown` adds nothing, and neither does an object that says nothing of its
 * members (`Record<string, unknown>`, from `{"type": "object"}` or `{"required": […]}`) beside other
 * parts: intersected with an interface it would refuse the interface's values (an interface has no
 * index signature).
 * @param {string[]} parts
 */
function intersection(parts) {
  // A part that is itself an intersection (and not a union) contributes its members: `A & B & C`.
  const members = parts.flatMap((part) => (splitTopLevel(part, "|").length > 1 ? [part] : splitTopLevel(part, "&")));
  if (members.includes("never")) return "never";
  let known = [...new Set(members.filter((p) => p !== "unknown"))];
  if (known.length > 1) known = known.filter((p) => p !== ANY_OBJECT);
  const [first] = known;
  if (first === undefined) return "unknown";
  return known.length === 1 ? first : known.map(group).join(" & ");
}

const ANY_OBJECT = "Record<string, unknown>";

/**
 * The TypeScript type of a schema.
 * @param {unknown} schema the schema to render (a JSON Schema object or boolean; anything else is `unknown`)
 * @param {Types} [types] component type names and the document's refs (model.types)
 * @param {EmitOptions} [opts]
 * @returns {string}
 */
function tsType(schema, types = NO_TYPES, opts = {}) {
  if (schema === true || schema === undefined || schema === null) return "unknown";
  if (schema === false) return "never";
  if (typeof schema !== "object" || Array.isArray(schema)) return "unknown";
  // An object in a schema's place: the meta-schema checked it (and a `$ref`'s target, see refs.cjs `follow`).
  const object = /** @type {SchemaObject} */ (schema);
  /** @type {string} */
  let type;
  if (typeof object.$ref === "string") {
    type = refType(object.$ref, types, opts);
  } else {
    const base = baseType(object, types, opts);
    const parts = base === undefined ? [] : [base];
    for (const key of /** @type {const} */ (["oneOf", "anyOf"])) {
      const members = object[key];
      if (Array.isArray(members)) parts.push(union(members.map((s) => tsType(s, types, opts))));
    }
    if (Array.isArray(object.allOf)) parts.push(...object.allOf.map((s) => tsType(s, types, opts)));
    type = intersection(parts);
  }
  // OpenAPI-style `nullable: true` (seen in documents converted from OpenAPI).
  if (object.nullable === true) type = union([type, "null"]);
  return type;
}

/**
 * `export interface X {…}` for a plain object schema, `export type X = …` otherwise.
 * @param {string} name the type's name
 * @param {unknown} schema
 * @param {Types} [types]
 */
function declareSchema(name, schema, types = NO_TYPES) {
  const text = isObject(schema) ? [schema.title && schema.title !== name ? schema.title : "", schema.description, schema.deprecated === true ? "@deprecated" : ""].filter(Boolean).join("\n\n") : "";
  const doc = docComment(text);
  const type = tsType(schema, types);
  // An object type with named members (what `objectType` writes: `{` and a line break), alone.
  const isObjectLiteral = type.startsWith("{\n") && !needsParens(type);
  if (isObjectLiteral) return `${doc}export interface ${name} ${type}\n`;
  return `${doc}export type ${name} = ${type};\n`;
}

/**
 * A method's params as one object type. `resolved` marks params whose default the dispatcher
 * fills in as present (the server's view); otherwise only required params are (the caller's view).
 * @param {{ params: ParamModel[] }} method a method or a notification (model.cjs)
 * @param {Types} [types]
 * @param {{ resolved?: boolean }} [options]
 */
function paramsType(method, types = NO_TYPES, { resolved = false } = {}) {
  if (method.params.length === 0) return "Record<string, never>";
  const lines = method.params.map((p) => {
    const present = p.required || (resolved && p.hasDefault);
    const text = [p.summary, p.description, p.deprecated ? "@deprecated" : ""].filter(Boolean).join("\n\n");
    const dflt = !resolved && p.hasDefault ? `${text ? "\n\n" : ""}@default ${JSON.stringify(p.default)}` : "";
    return `${docComment(text + dflt, "  ")}  ${propertyKey(p.name)}${present ? "" : "?"}: ${tsType(p.schema, types, { indent: "  " })};`;
  });
  return `{\n${lines.join("\n")}\n}`;
}

module.exports = { tsType, declareSchema, paramsType, docComment, propertyKey, needsParens, splitTopLevel };
