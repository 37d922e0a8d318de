// JSON Schema (dereferenced, titled) → TypeScript source. Schemas whose title names a component
// schema are referenced by that name, so types read like a person wrote them.
"use strict";

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function docComment(text, indent = "") {
  if (!text) return "";
  const lines = String(text).replace(/\*\//g, "*\\/").split("\n");
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l ? " " + l : ""}`).join("\n")}\n${indent} */\n`;
}

function propertyKey(name) {
  return IDENT.test(name) ? name : JSON.stringify(name);
}

function needsParens(type) {
  return /[|&]/.test(type) && !/^\{[\s\S]*\}$/.test(type);
}

/**
 * @param schema the schema to render
 * @param names  Map of component title → type name
 * @param opts   { indent, root } — `root` is the component being declared (rendered structurally)
 */
function tsType(schema, names, opts = {}) {
  const indent = opts.indent || "";
  if (schema === true || schema === undefined || schema === null) return "unknown";
  if (schema === false) return "never";
  if (schema !== opts.root && schema.title && names.has(schema.title)) return names.get(schema.title);
  // Extensions (x-subscription) are not dereferenced by the engine: their refs name component schemas.
  if (typeof schema.$ref === "string") {
    const target = /^#\/components\/schemas\/(.+)$/.exec(schema.$ref);
    if (!target || !names.has(target[1])) throw new Error(`cannot resolve ${schema.$ref}`);
    return names.get(target[1]);
  }
  const next = { indent };
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (Object.prototype.hasOwnProperty.call(schema, "const")) return JSON.stringify(schema.const);
  for (const key of ["oneOf", "anyOf"]) {
    if (Array.isArray(schema[key])) return schema[key].map((s) => tsType(s, names, next)).join(" | ");
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((s) => tsType(s, names, next)).join(" & ");
  if (Array.isArray(schema.type)) return schema.type.map((t) => tsType({ ...schema, type: t, title: undefined }, names, next)).join(" | ");
  switch (schema.type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array": {
      if (Array.isArray(schema.items)) return `[${schema.items.map((s) => tsType(s, names, next)).join(", ")}]`;
      const item = tsType(schema.items, names, next);
      return needsParens(item) ? `Array<${item}>` : `${item}[]`;
    }
    case "object":
      return objectType(schema, names, indent);
    default:
      return "unknown";
  }
}

function objectType(schema, names, indent, { optionalAll = false } = {}) {
  const props = Object.entries(schema.properties || {});
  const required = new Set(schema.required || []);
  if (props.length === 0) {
    const extra = schema.additionalProperties;
    if (extra === false) return "Record<string, never>";
    return `Record<string, ${extra && extra !== true ? tsType(extra, names, { indent }) : "unknown"}>`;
  }
  const inner = indent + "  ";
  const lines = props.map(([key, value]) => {
    const optional = optionalAll || !required.has(key) ? "?" : "";
    return `${docComment(value && value.description, inner)}${inner}${propertyKey(key)}${optional}: ${tsType(value, names, { indent: inner })};`;
  });
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false) {
    lines.push(`${inner}[key: string]: ${extra === true ? "unknown" : tsType(extra, names, { indent: inner })};`);
  }
  return `{\n${lines.join("\n")}\n${indent}}`;
}

/** `export interface X {…}` for objects, `export type X = …` otherwise. */
function declareSchema(name, schema, names) {
  const doc = docComment(schema.description);
  if (schema.type === "object" && schema.properties && !schema.oneOf && !schema.anyOf && !schema.allOf) {
    return `${doc}export interface ${name} ${tsType(schema, names, { root: schema })}\n`;
  }
  return `${doc}export type ${name} = ${tsType(schema, names, { root: schema })};\n`;
}

/**
 * A method's params as one object type. `resolved` marks params whose default the dispatcher
 * fills in as present (the server's view); otherwise only required params are (the caller's view).
 */
function paramsType(method, names, { resolved }) {
  if (method.params.length === 0) return "Record<string, never>";
  const lines = method.params.map((p) => {
    const present = p.required || (resolved && p.hasDefault);
    const text = [p.summary, p.description].filter(Boolean).join("\n\n");
    const dflt = !resolved && p.hasDefault ? `${text ? "\n\n" : ""}@default ${JSON.stringify(p.default)}` : "";
    return `${docComment(text + dflt, "  ")}  ${propertyKey(p.name)}${present ? "" : "?"}: ${tsType(p.schema, names, { indent: "  " })};`;
  });
  return `{\n${lines.join("\n")}\n}`;
}

module.exports = { tsType, declareSchema, paramsType, docComment, propertyKey };
