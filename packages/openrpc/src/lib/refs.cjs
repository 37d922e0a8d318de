// @ts-check
// `$ref`s inside one OpenRPC document. The generator reads the document as written: a reference to a
// component schema becomes a reference to its generated type (so recursive schemas need nothing
// special), and the other references (content descriptors, errors, examples, pairings, tags, links)
// are followed here. References outside the document (URLs, files) are refused with a clear error
// that says how to bundle the document first (bundle.mjs).
"use strict";

const { DocumentError } = require("./errors.cjs");
const { isObject, isArray } = require("./document.cjs");

/** @typedef {import("./document.cjs").ReferenceObject} ReferenceObject */

/** What every refusal of a reference into another file says to do. */
const BUNDLE_HINT = "bundle the document first (neutral-openrpc bundle FILE --out bundled.json, or --bundle with generate and create)";

/**
 * A JSON pointer's reference token, unescaped (`a~1b` → `a/b`), after its URI fragment encoding.
 * @param {string} token
 */
const unescapeToken = (token) => decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~");

/**
 * The value at a local JSON pointer (`#/components/schemas/Pet`), or throws naming the reference.
 * @param {unknown} document
 * @param {unknown} ref
 * @returns {unknown}
 */
function resolvePointer(document, ref) {
  if (typeof ref !== "string" || !ref.startsWith("#")) {
    throw new DocumentError(`$ref ${JSON.stringify(ref)} points outside the document; only local references ("#/…") are read: ${BUNDLE_HINT}`);
  }
  if (ref === "#") return document;
  if (!ref.startsWith("#/")) throw new DocumentError(`$ref ${JSON.stringify(ref)} is not a JSON pointer ("#/…")`);
  let value = document;
  for (const raw of ref.slice(2).split("/")) {
    const part = unescapeToken(raw);
    if (!isObject(value) || !Object.prototype.hasOwnProperty.call(value, part)) {
      throw new DocumentError(`$ref ${ref} does not resolve: no ${JSON.stringify(part)}`);
    }
    value = value[part];
  }
  return value;
}

/**
 * Follows `$ref` objects (`{"$ref": "#/components/contentDescriptors/PetId"}`) until a value that is
 * not one. The result is typed as what the place calls for (a `$ref` in a content descriptor's place
 * stands for a content descriptor: OpenRPC's rule, which the meta-schema cannot check); a caller
 * reading a place nothing validated (an extension) passes `unknown` and checks what it gets.
 * @template T
 * @param {unknown} document
 * @param {T | ReferenceObject} value
 * @returns {T}
 */
function follow(document, value) {
  const seen = new Set();
  /** @type {unknown} */
  let current = value;
  while (isObject(current) && typeof current.$ref === "string") {
    if (seen.has(current.$ref)) throw new DocumentError(`$ref ${current.$ref} refers to itself`);
    seen.add(current.$ref);
    current = resolvePointer(document, current.$ref);
  }
  return /** @type {T} */ (current);
}

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;

/**
 * The component key a `$ref` names when it is exactly a component schema (`#/components/schemas/Pet` → `Pet`).
 * @param {unknown} ref
 * @returns {string | undefined}
 */
function componentSchemaKey(ref) {
  const key = typeof ref === "string" ? SCHEMA_REF.exec(ref)?.[1] : undefined;
  return key === undefined ? undefined : unescapeToken(key);
}

/**
 * A deep copy of `value` with every `$ref` replaced by what it points at (its sibling keywords kept), a recursive one by a stub with the target's name as `title`.
 * @param {unknown} document
 * @param {unknown} value
 * @param {Set<string>} [seen] the `$ref`s being inlined around `value`
 * @returns {unknown}
 */
function inlineRefs(document, value, seen = new Set()) {
  if (isArray(value)) return value.map((item) => inlineRefs(document, item, seen));
  if (!isObject(value)) return value;
  const ref = value.$ref;
  if (typeof ref === "string") {
    // Keywords beside the `$ref` (a description, a default) refine what it points at.
    const { $ref, ...siblings } = value;
    const own = inlineMembers(document, siblings, seen);
    if (seen.has(ref)) return { title: ref.split("/").pop(), ...own };
    const target = inlineRefs(document, resolvePointer(document, ref), new Set(seen).add(ref));
    return isObject(target) && !Array.isArray(target) ? { ...target, ...own } : target;
  }
  return inlineMembers(document, value, seen);
}

/**
 * `inlineRefs` of an object that is not a `$ref`: each member inlined.
 * @param {unknown} document
 * @param {Record<string, unknown>} object
 * @param {Set<string>} seen
 * @returns {Record<string, unknown>}
 */
function inlineMembers(document, object, seen) {
  /** @type {Record<string, unknown>} */
  const out = {};
  // defineProperty, not `out[key] =`: a "__proto__" key (JSON.parse makes it an own key) stays a key.
  for (const [key, member] of Object.entries(object)) Object.defineProperty(out, key, { value: inlineRefs(document, member, seen), enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * The first `$ref` in `value` that points outside the document (a file, a URL), or undefined.
 * @param {unknown} value
 * @returns {string | undefined}
 */
function firstExternalRef(value) {
  if (isArray(value)) {
    for (const item of value) {
      const found = firstExternalRef(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isObject(value)) return undefined;
  if (typeof value.$ref === "string" && !value.$ref.startsWith("#")) return value.$ref;
  for (const item of Object.values(value)) {
    const found = firstExternalRef(item);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Refuses a document with references into other files before anything reads it (the meta-schema
 * would refuse it first, and say nothing of bundling).
 * @param {unknown} document
 * @param {string} name
 */
function refuseExternalRefs(document, name) {
  const ref = firstExternalRef(document);
  if (ref !== undefined) throw new DocumentError(`${name}: $ref ${JSON.stringify(ref)} points outside the document; only local references ("#/…") are read: ${BUNDLE_HINT}`);
}

module.exports = { resolvePointer, follow, componentSchemaKey, inlineRefs, firstExternalRef, refuseExternalRefs };
