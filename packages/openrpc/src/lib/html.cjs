// @ts-check
// HTML helpers for the docs component: escaping, a small Markdown subset for the spec's prose,
// and JSON Schema → tables. Every string from the spec is escaped; only these helpers emit tags.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const { isObject, isArray } = require("./document.cjs");

/**
 * @typedef {import("./document.cjs").Schema} Schema
 * @typedef {import("./document.cjs").SchemaObject} SchemaObject
 * @typedef {import("./model.cjs").MethodModel} MethodModel
 * @typedef {import("./model.cjs").ParamModel} ParamModel
 * @typedef {Map<string, string>} SchemaNames component key by title (model.schemaNames)
 */

/**
 * An example as the helpers read it (model.cjs `ExampleModel`): its params by name, its result.
 * @typedef {{ name?: string, params?: { name: string, value?: unknown }[], result?: { value?: unknown } }} ExampleView
 */

/** @type {Readonly<Record<string, string>>} */
const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/**
 * Escapes text for element content (quotes stay readable, e.g. in JSON blocks).
 * @param {unknown} value
 */
const esc = (value) => String(value).replace(/[&<>]/g, (c) => ENTITIES[c] ?? c);
/**
 * Escapes text for a quoted attribute value.
 * @param {unknown} value
 */
const attr = (value) => String(value).replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

/**
 * `Limits (defaults, …)` → `limits`: lowercase words joined by dashes, parentheticals dropped.
 * @param {string} text
 */
const slug = (text) =>
  String(text)
    .replace(/\([^)]*\)/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");

/**
 * Inline Markdown: `code` and **bold**. Code spans are split out first so their content stays literal.
 * @param {string} text
 */
function inline(text) {
  return String(text)
    .split(/(`[^`]*`)/)
    .map((part) => {
      if (part.length > 1 && part.startsWith("`") && part.endsWith("`")) return `<code>${esc(part.slice(1, -1))}</code>`;
      return esc(part).replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>");
    })
    .join("");
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const LIST_ITEM = /^\s*([-*]|\d+\.)\s+(.*)$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_SEP = /^\s*\|?(\s*:?-+:?\s*\|)*\s*:?-+:?\s*\|?\s*$/;
const FENCE = /^\s*```/;

/** @param {string} row */
const cells = (row) =>
  row
    .trim()
    .replace(/^\||\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, "|"));

/**
 * Gives each heading text a unique id: `idPrefix` + slug, with -2, -3… on repeats.
 * @param {string} idPrefix
 */
function idMaker(idPrefix) {
  const ids = new Set();
  /** @param {string} text */
  return (text) => {
    let id = idPrefix + slug(text);
    for (let n = 2; ids.has(id); n++) id = `${idPrefix}${slug(text)}-${n}`;
    ids.add(id);
    return id;
  };
}

/**
 * The headings of a Markdown text, with the ids `markdown` gives them (for a table of contents).
 * @param {string} text
 * @param {{ idPrefix?: string }} [options]
 * @returns {{ level: number, text: string, html: string, id: string }[]}
 */
function outline(text, { idPrefix = "" } = {}) {
  const nextId = idMaker(idPrefix);
  const out = [];
  let fenced = false;
  for (const line of String(text).replace(/\r\n?/g, "\n").split("\n")) {
    if (FENCE.test(line)) fenced = !fenced;
    const m = !fenced && HEADING.exec(line);
    if (m) {
      const [, hashes = "", title = ""] = m;
      out.push({ level: hashes.length, text: title, html: inline(title), id: nextId(title) });
    }
  }
  return out;
}

/**
 * Block Markdown: ATX headings (shifted by `headingShift`, with ids `idPrefix` + slug), paragraphs,
 * `-`/`*`/`1.` lists, fenced code and GitHub tables. Anything else is a paragraph of plain text.
 * @param {string} text
 * @param {{ headingShift?: number, idPrefix?: string }} [options]
 */
function markdown(text, { headingShift = 0, idPrefix = "" } = {}) {
  const lines = String(text).replace(/\r\n?/g, "\n").split("\n");
  /** The line at `at`; "" past the end. @param {number} at */
  const lineAt = (at) => lines[at] ?? "";
  const out = [];
  const nextId = idMaker(idPrefix);
  /** @param {number} at */
  const startsBlock = (at) =>
    HEADING.test(lineAt(at)) || FENCE.test(lineAt(at)) || LIST_ITEM.test(lineAt(at)) || (TABLE_ROW.test(lineAt(at)) && TABLE_SEP.test(lineAt(at + 1)));
  let i = 0;
  while (i < lines.length) {
    const line = lineAt(i);
    /** @type {RegExpExecArray | null} */
    let m;
    if (!line.trim()) {
      i++;
    } else if ((m = HEADING.exec(line))) {
      const [, hashes = "", title = ""] = m;
      const level = Math.min(6, hashes.length + headingShift);
      const id = nextId(title);
      out.push(`<h${level} id="${attr(id)}">${inline(title)}</h${level}>`);
      i++;
    } else if (FENCE.test(line)) {
      const code = [];
      for (i++; i < lines.length && !FENCE.test(lineAt(i)); i++) code.push(lineAt(i));
      i++;
      out.push(`<pre><code>${esc(code.join("\n"))}</code></pre>`);
    } else if (TABLE_ROW.test(line) && TABLE_SEP.test(lineAt(i + 1))) {
      const head = cells(line);
      const rows = [];
      for (i += 2; i < lines.length && TABLE_ROW.test(lineAt(i)); i++) rows.push(cells(lineAt(i)));
      out.push(table(head.map(inline), rows.map((row) => head.map((_, c) => inline(row[c] || "")))));
    } else if ((m = LIST_ITEM.exec(line))) {
      const [, marker = ""] = m;
      const ordered = /\d/.test(marker);
      /** @type {string[]} */
      const items = [];
      while (i < lines.length && lineAt(i).trim()) {
        const item = LIST_ITEM.exec(lineAt(i));
        if (item) items.push(item[2] ?? "");
        else if (startsBlock(i)) break;
        else items[items.length - 1] += " " + lineAt(i).trim();
        i++;
      }
      const tag = ordered ? "ol" : "ul";
      out.push(`<${tag}>\n${items.map((item) => `<li>${inline(item)}</li>`).join("\n")}\n</${tag}>`);
    } else {
      const para = [line.trim()];
      for (i++; i < lines.length && lineAt(i).trim() && !startsBlock(i); i++) para.push(lineAt(i).trim());
      out.push(`<p>${inline(para.join(" "))}</p>`);
    }
  }
  return out.join("\n");
}

/**
 * A table from already-rendered cell HTML, wrapped so it scrolls sideways on narrow screens.
 * @param {string[]} head
 * @param {string[][]} rows
 * @param {string} [className]
 */
function table(head, rows, className = "") {
  const cls = className ? ` class="${attr(className)}"` : "";
  /**
   * @param {"th" | "td"} tag
   * @param {string[]} row
   */
  const tr = (tag, row) => `<tr>${row.map((cell) => `<${tag}>${cell}</${tag}>`).join("")}</tr>`;
  return [
    `<div class="table-wrap"><table${cls}>`,
    `<thead>${tr("th", head)}</thead>`,
    "<tbody>",
    ...rows.map((row) => tr("td", row)),
    "</tbody>",
    "</table></div>",
  ].join("\n");
}

/** @param {unknown} value */
const code = (value) => `<code>${esc(value)}</code>`;
/**
 * One-line JSON with a space after `,` and `:` so it can wrap (raw newlines never occur inside JSON strings).
 * @param {unknown} value a JSON value
 */
const jsonInline = (value) => JSON.stringify(value, null, 1).replace(/\n\s*/g, " ");
/** @param {unknown} value a JSON value */
const jsonCode = (value) => code(jsonInline(value));
/**
 * Pretty JSON in a code block, as it travels on the wire (modulo whitespace).
 * @param {unknown} value a JSON value
 */
const jsonBlock = (value) => `<pre><code class="json">${esc(JSON.stringify(value, null, 2))}</code></pre>`;

/**
 * A link to the component schema this (dereferenced) schema came from, if any.
 * @param {Schema | undefined} schema
 * @param {SchemaNames} names
 */
function schemaLink(schema, names) {
  const key = componentKey(schema);
  if (key === undefined || !names.has(key)) return undefined;
  const name = names.get(key);
  return `<a href="#schema-${attr(name)}"><code>${esc(name)}</code></a>`;
}

/**
 * The component a (dereferenced) schema is: the key `docsDocument` marks it with, which a `title`
 * beside its `$ref` does not hide; else its title.
 * @param {Schema | undefined} schema
 * @returns {string | undefined}
 */
function componentKey(schema) {
  if (!schema || typeof schema !== "object") return undefined;
  const marked = /** @type {Record<string, unknown>} */ (schema)[COMPONENT_KEY];
  if (typeof marked === "string") return marked;
  return typeof schema.title === "string" ? schema.title : undefined;
}

/** The member `docsDocument` marks each component schema with (its key), kept through `$ref`s with siblings. */
const COMPONENT_KEY = "x-neutral-schema";

/**
 * How one alternative of a union (or member of an allOf) is named: a link to its component; its
 * title; an inline object by its members (`{ and }`); else its type.
 * @param {Schema | undefined} schema
 * @param {SchemaNames} names
 */
function memberTypeHtml(schema, names) {
  const link = schemaLink(schema, names);
  if (link) return link;
  if (isObject(schema) && typeof schema.title === "string" && schema.title !== "") return `<em>${esc(schema.title)}</em>`;
  if (isObject(schema) && isObject(schema.properties) && !Array.isArray(schema.oneOf) && !Array.isArray(schema.anyOf) && !Array.isArray(schema.allOf)) {
    const members = Object.keys(schema.properties);
    return members.length > 0 ? `<code>{ ${esc(members.join(", "))} }</code>` : code("object");
  }
  return typeHtml(schema, names);
}

const SCHEMA_REF = /^#\/components\/schemas\/(.+)$/;

/**
 * The component a `$ref` names, for the schemas the engine leaves as written: it dereferences what
 * OpenRPC defines, not extensions such as `x-subscription`. Throws on a ref to anything else.
 * @param {SchemaObject} schema
 * @param {SchemaNames} names
 */
function refName(schema, names) {
  if (typeof schema.$ref !== "string") return undefined;
  const key = SCHEMA_REF.exec(schema.$ref)?.[1];
  if (key === undefined || !names.has(key)) throw new Error(`cannot resolve ${schema.$ref}`);
  return names.get(key);
}

/**
 * A schema with every `$ref` to a component schema replaced by that (dereferenced) component, its
 * sibling keywords kept: the constraints and types of an extension's schemas read like the rest.
 * `components` maps a component name to its schema (model.schemas).
 * @param {unknown} schema a schema, or any value inside one
 * @param {Map<string, Schema>} components
 * @returns {unknown}
 */
function resolveRefs(schema, components) {
  if (isArray(schema)) return schema.map((s) => resolveRefs(s, components));
  if (!isObject(schema)) return schema;
  /** @type {Record<string, unknown>} */
  const out = {};
  /** @type {SchemaObject} */
  let base = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$ref" && typeof value === "string") {
      const name = SCHEMA_REF.exec(value)?.[1];
      const component = name === undefined ? undefined : components.get(name);
      if (!component) throw new Error(`cannot resolve ${value}`);
      // `true` (anything) has no keywords to add.
      base = component === true ? {} : component;
    } else {
      out[key] = resolveRefs(value, components);
    }
  }
  return { ...base, ...out };
}

/**
 * The type of a schema as HTML. A schema titled like a component links to it, except `root`
 * (the component being described), which is spelled out.
 * @param {Schema | undefined} schema
 * @param {SchemaNames} names
 * @param {Schema} [root]
 * @returns {string}
 */
function typeHtml(schema, names, root) {
  if (schema === true || schema === undefined || schema === null) return "any";
  if (schema === false) return "nothing";
  const link = schema !== root && schemaLink(schema, names);
  if (link) return link;
  const ref = refName(schema, names);
  if (ref) return `<a href="#schema-${attr(ref)}"><code>${esc(ref)}</code></a>`;
  for (const key of /** @type {const} */ (["oneOf", "anyOf"])) {
    const members = schema[key];
    if (Array.isArray(members)) return members.map((s) => memberTypeHtml(s, names)).join(" | ");
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((s) => memberTypeHtml(s, names)).join(" &amp; ");
  if (Object.prototype.hasOwnProperty.call(schema, "const")) return jsonCode(schema.const);
  if (Array.isArray(schema.type)) return schema.type.map((t) => code(t)).join(" | ");
  if (schema.type === "array") {
    if (Array.isArray(schema.items)) return `[${schema.items.map((s) => typeHtml(s, names)).join(", ")}]`;
    return `array of ${typeHtml(schema.items, names)}`;
  }
  return schema.type ? code(schema.type) : "any";
}

/**
 * `typeHtml`, parenthesized when it is a union (to read right after "array holding exactly one").
 * @param {Schema | undefined} schema
 * @param {SchemaNames} names
 */
function groupedTypeHtml(schema, names) {
  const type = typeHtml(schema, names);
  const union = schema && typeof schema === "object" && !schemaLink(schema, names) && (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf) || Array.isArray(schema.type));
  return union ? `(${type})` : type;
}

/**
 * The validation keywords of a schema as short phrases (HTML).
 * @param {Schema | undefined} schema
 * @returns {string[]}
 */
function constraints(schema) {
  if (!schema || typeof schema !== "object") return [];
  const out = [];
  if (Array.isArray(schema.enum)) out.push(`one of ${schema.enum.map(jsonCode).join(", ")}`);
  if (schema.pattern !== undefined) out.push(`pattern ${code(schema.pattern)}`);
  if (schema.format !== undefined) out.push(`format ${code(schema.format)}`);
  if (schema.minimum !== undefined && schema.maximum !== undefined) out.push(`${esc(schema.minimum)} … ${esc(schema.maximum)}`);
  else if (schema.minimum !== undefined) out.push(`≥ ${esc(schema.minimum)}`);
  else if (schema.maximum !== undefined) out.push(`≤ ${esc(schema.maximum)}`);
  if (schema.exclusiveMinimum !== undefined) out.push(`&gt; ${esc(schema.exclusiveMinimum)}`);
  if (schema.exclusiveMaximum !== undefined) out.push(`&lt; ${esc(schema.exclusiveMaximum)}`);
  if (schema.minLength !== undefined) out.push(`min length ${esc(schema.minLength)}`);
  if (schema.maxLength !== undefined) out.push(`max length ${esc(schema.maxLength)}`);
  if (schema.minItems !== undefined) out.push(`min items ${esc(schema.minItems)}`);
  if (schema.maxItems !== undefined) out.push(`max items ${esc(schema.maxItems)}`);
  if (schema.uniqueItems === true) out.push("unique items");
  if (schema.type === "object" && schema.additionalProperties === false) out.push("no other members");
  return out;
}

/**
 * @param {Schema | undefined} schema
 * @returns {schema is SchemaObject}
 */
const hasDefault = (schema) => isObject(schema) && Object.prototype.hasOwnProperty.call(schema, "default");
/** @param {Schema | undefined} schema */
const defaultHtml = (schema) => (hasDefault(schema) ? jsonCode(schema.default) : "");
/** @param {Schema | undefined} schema */
const constraintsHtml = (schema) => constraints(schema).join("<br>");
/** @param {boolean} flag */
const yesNo = (flag) => (flag ? `<span class="yes">yes</span>` : "no");

/**
 * A method's params (from model.methods[i].params) as a table.
 * @param {ParamModel[]} params
 * @param {SchemaNames} names
 */
function paramsTable(params, names) {
  return table(
    ["#", "name", "type", "required", "default", "constraints", "description"],
    params.map((p, index) => [
      String(index),
      code(p.name),
      typeHtml(p.schema, names),
      yesNo(p.required),
      defaultHtml(p.schema),
      constraintsHtml(p.schema),
      inline([p.summary, p.description].filter(Boolean).join(" ")),
    ]),
    "params",
  );
}

/**
 * A notification's params (by name, as notifications send them) as a table: resolved schemas, see `resolveRefs`.
 * @param {ParamModel[]} params
 * @param {SchemaNames} names
 */
function eventParamsTable(params, names) {
  return table(
    ["name", "type", "required", "constraints", "description"],
    params.map((p) => [code(p.name), typeHtml(p.schema, names), yesNo(p.required), constraintsHtml(p.schema), inline([p.summary, p.description].filter(Boolean).join(" "))]),
    "event-params",
  );
}

/**
 * An `eventId` JSON pointer as the member path it names: `/message/id` → `params.message.id`.
 * @param {string} pointer
 */
function eventIdPath(pointer) {
  return ["params", ...String(pointer).split("/").slice(1).map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"))].join(".");
}

/**
 * Events as a node sends them on an event stream (`{id?, method, params}` each): an `id:` line if it has one, one `data:` line, a blank line between.
 * @param {{ id?: unknown, method?: unknown, params?: unknown }[]} events as an example's `x-events` lists them
 */
function sseText(events) {
  return events
    .map((event) => {
      const data = `data: ${JSON.stringify({ jsonrpc: "2.0", method: event.method, params: event.params })}`;
      return event.id !== undefined && event.id !== null ? `id: ${event.id}\n${data}` : data;
    })
    .join("\n\n");
}

/**
 * The members of an object schema as a table, or "" if it has none.
 * @param {Schema | undefined} schema
 * @param {SchemaNames} names
 */
function fieldsTable(schema, names) {
  if (!schema || typeof schema !== "object") return "";
  const props = Object.entries(schema.properties || {});
  if (props.length === 0) return "";
  const required = new Set(schema.required || []);
  return table(
    ["field", "type", "required", "default", "constraints", "description"],
    props.map(([key, value]) => [
      code(key),
      typeHtml(value, names),
      yesNo(required.has(key)),
      defaultHtml(value),
      constraintsHtml(value),
      inline((value && typeof value === "object" && value.description) || ""),
    ]),
    "fields",
  );
}

/**
 * Everything a schema holds, in full: its members (an `allOf`'s members' merged into one table,
 * each row saying which member it comes from), and each alternative of a `oneOf`/`anyOf` with its
 * title and its own members. A component met inside is linked, not expanded, so a recursive schema
 * ends at its link. "" when there is nothing to show beyond the type line.
 * @param {Schema | undefined} schema
 * @param {SchemaNames} names
 * @param {Schema} [root] the component being described (spelled out, not linked)
 * @returns {string}
 */
function schemaBodyHtml(schema, names, root) {
  if (!isObject(schema)) return "";
  const parts = [];
  if (Array.isArray(schema.allOf)) parts.push(mergedFieldsTable(schema, names));
  else parts.push(fieldsTable(schema, names));
  for (const key of /** @type {const} */ (["oneOf", "anyOf"])) {
    const alternatives = schema[key];
    if (!Array.isArray(alternatives)) continue;
    let informative = false;
    const items = alternatives.map((alternative, index) => {
      const linked = alternative !== root && schemaLink(alternative, names);
      const title = isObject(alternative) && typeof alternative.title === "string" && !linked ? alternative.title : undefined;
      const what = linked || (title ? `<strong>${esc(title)}</strong>` : `alternative ${index + 1}`);
      const type = linked ? "" : ` · ${typeHtml(isObject(alternative) ? { ...alternative, title: undefined } : alternative, names)}`;
      const rules = linked ? [] : constraints(alternative);
      const description = isObject(alternative) && typeof alternative.description === "string" && !linked ? ` ${inline(alternative.description)}` : "";
      const body = linked ? "" : schemaBodyHtml(alternative, names);
      if (title || rules.length > 0 || description || body) informative = true;
      return `<li><p>${what}${type}${rules.length > 0 ? ` · ${rules.join(" · ")}` : ""}${description}</p>${body ? `\n${body}` : ""}</li>`;
    });
    // Links and bare types only (`KeyBundle | null`): the type line says it all.
    if (!informative) continue;
    parts.push(`<p class="label">${key === "oneOf" ? "Exactly one of" : "At least one of"}</p>\n<ol class="alternatives">\n${items.join("\n")}\n</ol>`);
  }
  return parts.filter(Boolean).join("\n");
}

/**
 * The members of an `allOf` schema as one table: each member's (a component's, or an inline
 * object's) and the schema's own, with where each comes from; required if any part requires it.
 * @param {SchemaObject} schema
 * @param {SchemaNames} names
 */
function mergedFieldsTable(schema, names) {
  /** @type {{ key: string, value: Schema, from: string }[]} */
  const rows = [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  /** @param {Schema} part @param {string} from @param {number} depth */
  const collect = (part, from, depth) => {
    if (!isObject(part) || depth > 8) return;
    for (const name of Array.isArray(part.required) ? part.required : []) required.add(name);
    if (Array.isArray(part.allOf)) for (const inner of part.allOf) collect(inner, schemaLink(inner, names) || from, depth + 1);
    for (const [key, value] of Object.entries(isObject(part.properties) ? part.properties : {})) {
      const at = rows.findIndex((row) => row.key === key);
      if (at >= 0) rows.splice(at, 1);
      rows.push({ key, value, from });
    }
  };
  (schema.allOf ?? []).forEach((member, index) => collect(member, schemaLink(member, names) || `member ${index + 1}`, 0));
  collect({ properties: schema.properties, required: schema.required }, "this schema", 0);
  if (rows.length === 0) return "";
  return table(
    ["field", "type", "required", "default", "constraints", "from", "description"],
    rows.map(({ key, value, from }) => [
      code(key),
      typeHtml(value, names),
      yesNo(required.has(key)),
      defaultHtml(value),
      constraintsHtml(value),
      from,
      inline((value && typeof value === "object" && value.description) || ""),
    ]),
    "fields merged",
  );
}

/**
 * The license line's text: its name, else its url (as text: the page links nothing outside
 * itself); undefined when it has neither.
 * @param {unknown} license `info.license` as written
 */
function licenseHtml(license) {
  if (!isObject(license)) return undefined;
  const name = typeof license.name === "string" && license.name.trim() !== "" ? license.name : undefined;
  const url = typeof license.url === "string" && license.url.trim() !== "" ? license.url : undefined;
  if (name !== undefined) return esc(name);
  return url === undefined ? undefined : code(url);
}

/**
 * An example as the exact JSON-RPC request: params by position in the method's param order,
 * trailing absent ones dropped and absent ones in between sent as null; by name for a method that
 * takes them only so (`paramStructure: "by-name"`). A notification (no `result`) has no `id`.
 * @param {Pick<MethodModel, "name" | "notification" | "paramStructure" | "params">} method
 * @param {ExampleView} example
 * @param {number} [id]
 */
function exampleRequest(method, example, id = 1) {
  /** @type {Map<string, unknown>} */
  const byName = new Map((example.params || []).map((p) => [p.name, p.value]));
  const head = method.notification ? { jsonrpc: "2.0", method: method.name } : { jsonrpc: "2.0", id, method: method.name };
  if (method.paramStructure === "by-name") {
    return { ...head, params: Object.fromEntries(method.params.filter((p) => byName.has(p.name) && byName.get(p.name) !== null).map((p) => [p.name, byName.get(p.name)])) };
  }
  const params = method.params.map((p) => (byName.has(p.name) ? byName.get(p.name) : undefined));
  while (params.length > 0 && params[params.length - 1] === undefined) params.pop();
  return { ...head, params: params.map((v) => (v === undefined ? null : v)) };
}

/**
 * The params an example leaves out (or lists as null) that `exampleRequest` sends as null to reach later ones.
 * @param {Pick<MethodModel, "paramStructure" | "params">} method
 * @param {ExampleView} example
 * @returns {string[]}
 */
function nullFilled(method, example) {
  if (method.paramStructure === "by-name") return [];
  const given = new Set((example.params || []).filter((p) => p.value !== null).map((p) => p.name));
  const last = method.params.reduce((at, p, i) => (given.has(p.name) ? i : at), -1);
  return method.params.slice(0, last + 1).filter((p) => !given.has(p.name)).map((p) => p.name);
}

/**
 * An example's result as the JSON-RPC response (a null result when the example gives none).
 * @param {ExampleView} example
 * @param {number} [id]
 */
function exampleResponse(example, id = 1) {
  return { jsonrpc: "2.0", id, result: example.result ? example.result.value : null };
}

/**
 * How the try-it form edits a value of this schema: number, enum (select), boolean (select), string, or JSON text.
 * @param {Schema | undefined} schema
 * @returns {"json" | "number" | "enum" | "string" | "boolean"}
 */
function fieldKind(schema) {
  if (!schema || typeof schema !== "object") return "json";
  if (schema.type === "integer" || schema.type === "number") return "number";
  if (schema.type === "string") return Array.isArray(schema.enum) ? "enum" : "string";
  if (schema.type === "boolean") return "boolean";
  return "json";
}

/**
 * A value as the text of its try-it field ("" when absent).
 * @param {ReturnType<typeof fieldKind>} kind
 * @param {unknown} value
 */
function fieldText(kind, value) {
  if (value === undefined) return "";
  return kind === "json" ? JSON.stringify(value, null, 2) : String(value);
}

/**
 * The params of an example by name (what a "fill from example" choice puts into the fields); null is absent.
 * @param {ExampleView} example
 * @returns {Record<string, unknown>}
 */
const exampleParams = (example) => Object.fromEntries((example.params || []).filter((p) => p.value !== null).map((p) => [p.name, p.value]));

/**
 * A method's "Try it" form: one field per param, generated from the param's schema and prefilled
 * with the first example; the request it sends (the first example's, until edited); and where the
 * answer goes. The docs package's try-it script makes it work (it reads the data-* attributes).
 * A method answered as an event stream (`x-subscription`) gets `data-stream="true"`, a Subscribe
 * and a Stop button, the stream's state and the list its events go to as they arrive.
 * @param {MethodModel} method
 * @param {SchemaNames} names
 */
function tryItForm(method, names) {
  /** @param {string} suffix */
  const id = (suffix) => attr(`try-${method.name}${suffix}`);
  const first = method.examples[0] ? exampleParams(method.examples[0]) : {};
  const stream = Boolean(method.subscription);
  const out = [
    `<details class="try-it" id="${id("")}">`,
    "<summary>Try it</summary>",
    `<form class="try" data-method="${attr(method.name)}" data-auth="${method.requiresAuth}" data-structure="${attr(method.paramStructure)}"${stream ? ' data-stream="true"' : ""} novalidate>`,
  ];
  if (method.examples.length > 1) {
    out.push(
      `<p class="try-field"><label for="${id("-preset")}">Fill from example</label>`,
      `<select id="${id("-preset")}" class="try-preset">`,
      ...method.examples.map((ex, i) => `<option value="${i}" data-params="${attr(JSON.stringify(exampleParams(ex)))}">${esc(ex.name || `Example ${i + 1}`)}</option>`),
      "</select></p>",
    );
  }
  for (const p of method.params) {
    const kind = fieldKind(p.schema);
    const fid = id(`-${p.name}`);
    const value = fieldText(kind, first[p.name]);
    const hint = hasDefault(p.schema) ? ` placeholder="${attr(`default ${jsonInline(p.schema.default)}`)}"` : "";
    out.push(
      `<p class="try-field"><label for="${fid}"><code>${esc(p.name)}</code> <span class="note">${typeHtml(p.schema, names)} · ${p.required ? "required" : "optional"}</span></label>`,
    );
    const common = `id="${fid}" name="${attr(p.name)}" data-kind="${kind}"${p.required ? ' data-required="true"' : ""}`;
    if (kind === "json") {
      const rows = Math.min(12, Math.max(3, value.split("\n").length));
      out.push(`<textarea ${common} rows="${rows}" spellcheck="false" autocomplete="off"${hint}>${esc(value)}</textarea></p>`);
    } else if (kind === "enum" || kind === "boolean") {
      const options = kind === "enum" ? enumOf(p.schema).map(String) : ["true", "false"];
      out.push(
        `<select ${common}>`,
        `<option value=""${value === "" ? " selected" : ""}>(absent)</option>`,
        ...options.map((o) => `<option value="${attr(o)}"${o === value ? " selected" : ""}>${esc(o)}</option>`),
        "</select></p>",
      );
    } else {
      const type = kind === "number" ? ' type="number" inputmode="numeric"' : ' type="text" spellcheck="false" autocomplete="off"';
      const schema = p.schema;
      // A "number" field's schema is an object (see `fieldKind`).
      const range = kind === "number" && typeof schema === "object" ? /** @type {const} */ (["minimum", "maximum"]).filter((k) => schema[k] !== undefined).map((k) => ` ${k.slice(0, 3)}="${attr(schema[k])}"`).join("") : "";
      out.push(`<input ${common}${type}${range} value="${attr(value)}"${hint}></p>`);
    }
  }
  if (method.params.length === 0) out.push("<p>No params.</p>");
  out.push(
    `<p class="try-auth">${method.requiresAuth ? 'Sends your bearer token: sign in under <a href="#try-it">Try it</a>.' : "Needs no token; none is sent."}</p>`,
    '<p class="label">Request</p>',
    `<pre><code class="try-request">${esc(JSON.stringify(exampleRequest(method, method.examples[0] || {}), null, 2))}</code></pre>`,
  );
  if (stream) {
    out.push(
      '<p class="note">Sent with <code>Accept: text/event-stream</code>: each event shows below the moment it arrives, until the node ends the stream or you press Stop.</p>',
      '<p><button type="submit">Subscribe</button> <button type="button" class="try-stop" disabled>Stop</button></p>',
      '<p class="try-stream-state" data-state="idle" aria-live="polite">Not subscribed.</p>',
      '<div class="try-output"></div>',
      '<ol class="try-events"></ol>',
    );
  } else {
    out.push('<p><button type="submit">Send</button></p>', '<div class="try-output" aria-live="polite"></div>');
  }
  out.push("</form>", "</details>");
  return out.join("\n");
}

/**
 * The values an "enum" field offers (see `fieldKind`): the schema's `enum`.
 * @param {Schema} schema
 * @returns {unknown[]}
 */
const enumOf = (schema) => (typeof schema === "object" && schema.enum) || [];

/**
 * The stylesheet a standalone page (no docs site around it, see the docs template) carries inline:
 * templates/docs/standalone.css.
 */
function standaloneStyle() {
  return fs.readFileSync(path.join(__dirname, "..", "templates", "docs", "standalone.css"), "utf8").trimEnd();
}

module.exports = {
  standaloneStyle,
  esc,
  attr,
  slug,
  inline,
  markdown,
  outline,
  table,
  code,
  jsonCode,
  jsonBlock,
  schemaLink,
  typeHtml,
  groupedTypeHtml,
  constraints,
  constraintsHtml,
  defaultHtml,
  paramsTable,
  eventParamsTable,
  eventIdPath,
  sseText,
  resolveRefs,
  fieldsTable,
  schemaBodyHtml,
  licenseHtml,
  COMPONENT_KEY,
  exampleRequest,
  exampleResponse,
  nullFilled,
  fieldKind,
  tryItForm,
};
