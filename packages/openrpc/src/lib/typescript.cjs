// JSON Schema (as written in an OpenRPC document, `$ref`s kept) → TypeScript source. A `$ref` to a
// component schema becomes that component's type name, so recursive schemas and shared types read
// like a person wrote them; every other construct is one function below (tested one file per
// construct in ./typescript/).
"use strict";

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `types` when a caller has no document: every `$ref` is unresolvable. */
const NO_TYPES = { typeNameOf: () => undefined, resolve: (ref) => { throw new Error(`cannot resolve ${ref}`); } };

function docComment(text, indent = "") {
  if (!text) return "";
  const lines = String(text).replace(/\*\//g, "*\\/").split(/\r\n|\r|\n/);
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l ? " " + l : ""}`).join("\n")}\n${indent} */\n`;
}

function propertyKey(name) {
  return IDENT.test(name) ? name : JSON.stringify(name);
}

/**
 * Splits `type` at the `separator` characters (`|` or `&`) outside brackets, string literals and doc
 * comments: `A | {\n  /** x | y *\/\n  b: "|";\n} | C` → [`A`, `{…}`, `C`].
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

/** Whether `type` must be parenthesized before `[]` or `?`, or inside `&`. */
function needsParens(type) {
  return splitTopLevel(type, "|").length > 1 || splitTopLevel(type, "&").length > 1;
}

const group = (type) => (needsParens(type) ? `(${type})` : type);

/** `A | B` of the types, each member once (a member that is itself a union contributes its members); `unknown` absorbs the rest, `never` adds nothing. */
const union = (types) => {
  const unique = [...new Set(types.flatMap((type) => splitTopLevel(type, "|")))];
  if (unique.includes("unknown")) return "unknown";
  const members = unique.filter((type) => type !== "never");
  return members.length === 0 ? "never" : members.join(" | ");
};

const has = (schema, key) => Object.prototype.hasOwnProperty.call(schema, key);

/** A `$ref`: the component's type name, or (for a ref elsewhere in the document) the target rendered in place. */
function refType(schema, types, opts) {
  const name = types.typeNameOf(schema.$ref);
  if (name !== undefined) return name;
  const seen = opts.seen || new Set();
  if (seen.has(schema.$ref)) return "unknown";
  return tsType(types.resolve(schema.$ref), types, { ...opts, seen: new Set(seen).add(schema.$ref) });
}

function enumType(values) {
  return union(values.map((v) => JSON.stringify(v)));
}

function arrayType(schema, types, opts) {
  const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
  if (tuple) {
    const rest = Array.isArray(schema.prefixItems) ? schema.items : schema.additionalItems;
    const min = typeof schema.minItems === "number" ? schema.minItems : 0;
    // An optional member is `T?`, so a union or intersection needs parentheses: `(A | B)?`.
    const members = tuple.map((s, i) => (i >= min ? `${group(tsType(s, types, opts))}?` : tsType(s, types, opts)));
    if (rest !== undefined && rest !== false) members.push(`...${group(tsType(rest === true ? {} : rest, types, opts))}[]`);
    return `[${members.join(", ")}]`;
  }
  const item = tsType(schema.items === undefined ? {} : schema.items, types, opts);
  return needsParens(item) ? `Array<${item}>` : `${item}[]`;
}

function objectType(schema, types, opts) {
  const indent = opts.indent || "";
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((key) => typeof key === "string") : []);
  // A required key the schema gives no property schema for may hold any value, but must be there.
  const props = [...Object.entries(schema.properties || {}), ...[...required].filter((key) => !has(schema.properties || {}, key)).map((key) => [key, {}])];
  const extra = schema.additionalProperties;
  const patterns = Object.values(schema.patternProperties || {});
  // Values of members no property names: additionalProperties, and every patternProperties schema.
  const extraSchemas = [...(extra !== undefined && extra !== false ? [extra] : []), ...patterns];
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

/** Whether a `$ref` occurs anywhere in `value` (a schema, or a list of them). */
function containsRef(value) {
  if (Array.isArray(value)) return value.some(containsRef);
  if (!value || typeof value !== "object") return false;
  return typeof value.$ref === "string" || Object.values(value).some(containsRef);
}

/** A member's doc comment: its description, or the description of the component its `$ref` names. */
function describe(schema, types) {
  if (!schema || typeof schema !== "object") return "";
  let description = schema.description;
  // Through a chain of refs (`Owner` → `Address` → …) to the first description.
  const seen = new Set();
  for (let target = schema; !description && target && typeof target.$ref === "string" && !seen.has(target.$ref); ) {
    seen.add(target.$ref);
    try {
      target = types.resolve(target.$ref);
    } catch {
      break;
    }
    description = target && typeof target === "object" ? target.description : undefined;
  }
  return [description, schema.deprecated === true ? "@deprecated" : ""].filter(Boolean).join("\n\n");
}

/** The type a schema's `type` keyword (one name) gives, with the keywords that go with it. */
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

/** The schema's own shape, ignoring the combinators (oneOf/anyOf/allOf) beside it. */
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
 */
function intersection(parts) {
  // A part that is itself an intersection (and not a union) contributes its members: `A & B & C`.
  const members = parts.flatMap((part) => (splitTopLevel(part, "|").length > 1 ? [part] : splitTopLevel(part, "&")));
  if (members.includes("never")) return "never";
  let known = [...new Set(members.filter((p) => p !== "unknown"))];
  if (known.length > 1) known = known.filter((p) => p !== ANY_OBJECT);
  return known.length === 0 ? "unknown" : known.length === 1 ? known[0] : known.map(group).join(" & ");
}

const ANY_OBJECT = "Record<string, unknown>";

/**
 * @param schema the schema to render (a JSON Schema object or boolean)
 * @param types  `{ typeNameOf(ref), resolve(ref) }` (model.types): component type names and the document's refs
 * @param opts   `{ indent }`
 */
function tsType(schema, types = NO_TYPES, opts = {}) {
  if (schema === true || schema === undefined || schema === null) return "unknown";
  if (schema === false) return "never";
  if (typeof schema !== "object" || Array.isArray(schema)) return "unknown";
  let type;
  if (typeof schema.$ref === "string") {
    type = refType(schema, types, opts);
  } else {
    const base = baseType(schema, types, opts);
    const parts = base === undefined ? [] : [base];
    for (const key of ["oneOf", "anyOf"]) {
      if (Array.isArray(schema[key])) parts.push(union(schema[key].map((s) => tsType(s, types, opts))));
    }
    if (Array.isArray(schema.allOf)) parts.push(...schema.allOf.map((s) => tsType(s, types, opts)));
    type = intersection(parts);
  }
  // OpenAPI-style `nullable: true` (seen in documents converted from OpenAPI).
  if (schema.nullable === true) type = union([type, "null"]);
  return type;
}

/** `export interface X {…}` for a plain object schema, `export type X = …` otherwise. */
function declareSchema(name, schema, types = NO_TYPES) {
  const text = schema && typeof schema === "object" ? [schema.title && schema.title !== name ? schema.title : "", schema.description, schema.deprecated === true ? "@deprecated" : ""].filter(Boolean).join("\n\n") : "";
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
