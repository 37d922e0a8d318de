// `$ref`s inside one OpenRPC document. The generator reads the document as written: a reference to a
// component schema becomes a reference to its generated type (so recursive schemas need nothing
// special), and the other references (content descriptors, errors, examples, pairings, tags, links)
// are followed here. References outside the document (URLs, files) are refused with a clear error:
// bundle the document first.
"use strict";

const { DocumentError } = require("./errors.cjs");

/** The value at a local JSON pointer (`#/components/schemas/Pet`), or throws naming the reference. */
function resolvePointer(document, ref) {
  if (typeof ref !== "string" || !ref.startsWith("#")) {
    throw new DocumentError(`$ref ${JSON.stringify(ref)} points outside the document; only local references ("#/…") are supported (bundle the document first)`);
  }
  if (ref === "#") return document;
  if (!ref.startsWith("#/")) throw new DocumentError(`$ref ${JSON.stringify(ref)} is not a JSON pointer ("#/…")`);
  let value = document;
  for (const raw of ref.slice(2).split("/")) {
    const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (value === null || typeof value !== "object" || !Object.prototype.hasOwnProperty.call(value, part)) {
      throw new DocumentError(`$ref ${ref} does not resolve: no ${JSON.stringify(part)}`);
    }
    value = value[part];
  }
  return value;
}

/** Follows `$ref` objects (`{"$ref": "#/components/contentDescriptors/PetId"}`) until a value that is not one. */
function follow(document, value) {
  const seen = new Set();
  while (value && typeof value === "object" && typeof value.$ref === "string") {
    if (seen.has(value.$ref)) throw new DocumentError(`$ref ${value.$ref} refers to itself`);
    seen.add(value.$ref);
    value = resolvePointer(document, value.$ref);
  }
  return value;
}

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;

/** The component key a `$ref` names when it is exactly a component schema (`#/components/schemas/Pet` → `Pet`). */
function componentSchemaKey(ref) {
  const match = typeof ref === "string" ? SCHEMA_REF.exec(ref) : null;
  return match ? decodeURIComponent(match[1]).replace(/~1/g, "/").replace(/~0/g, "~") : undefined;
}

/** A deep copy of `value` with every `$ref` replaced by what it points at (its sibling keywords kept), a recursive one by a stub with the target's name as `title`. */
function inlineRefs(document, value, seen = new Set()) {
  if (Array.isArray(value)) return value.map((item) => inlineRefs(document, item, seen));
  if (!value || typeof value !== "object") return value;
  if (typeof value.$ref === "string") {
    // Keywords beside the `$ref` (a description, a default) refine what it points at.
    const { $ref, ...siblings } = value;
    const own = inlineRefs(document, siblings, seen);
    if (seen.has($ref)) return { title: $ref.split("/").pop(), ...own };
    const target = inlineRefs(document, resolvePointer(document, $ref), new Set(seen).add($ref));
    return target && typeof target === "object" && !Array.isArray(target) ? { ...target, ...own } : target;
  }
  const out = {};
  // defineProperty, not `out[key] =`: a "__proto__" key (JSON.parse makes it an own key) stays a key.
  for (const [key, member] of Object.entries(value)) Object.defineProperty(out, key, { value: inlineRefs(document, member, seen), enumerable: true, writable: true, configurable: true });
  return out;
}

module.exports = { resolvePointer, follow, componentSchemaKey, inlineRefs };
