// Bundling: a document whose `$ref`s point into other files (`"$ref": "./schemas/pet.json"`,
// `"./common.json#/components/schemas/Id"`) → one document with only local references ("#/…"),
// which is what generation and create read. @apidevtools/json-schema-ref-parser does the resolving
// (JSON and YAML files, JSON pointers, circular references): each external target is inlined once, at
// its first reference, and every other reference to it points there. URLs are not fetched: a
// generated project must not depend on what a server answers on the day it is generated.
import { writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import $RefParser from "@apidevtools/json-schema-ref-parser";
import { DocumentError, readDocument, validateDocument } from "./generate.mjs";

const require = createRequire(import.meta.url);
const { firstExternalRef } = require("./lib/refs.cjs");

/** Whether a document has a `$ref` to anything but itself: only such a document needs bundling. */
export const hasExternalRefs = (value) => firstExternalRef(value) !== undefined;

/**
 * Reads `specPath` and resolves its external `$ref`s (files relative to it) into one document;
 * local references stay as they are. A missing file, a bad pointer, or a URL is a `DocumentError`
 * naming the reference.
 * @param {string} specPath
 * @returns {Promise<Record<string, unknown>>}
 */
export async function bundleDocument(specPath) {
  const document = await readDocument(specPath);
  if (!hasExternalRefs(document)) return document;
  try {
    return await new $RefParser().bundle(path.resolve(specPath), document, { resolve: { http: false, external: true } });
  } catch (error) {
    const message = String(error?.message ?? error).split("\n")[0];
    throw new DocumentError(`cannot bundle ${specPath}: ${/Unable to resolve|http/i.test(message) && /https?:/i.test(message) ? `${message} (URLs are not fetched: download the document it names and refer to the file)` : message}`);
  }
}

/**
 * Bundles `input` into `output` (JSON, two-space indent), once the result is a valid OpenRPC
 * document (otherwise nothing is written); returns the document.
 */
export async function bundle(input, output) {
  const document = await bundleDocument(input);
  validateDocument(document, `${input} bundled`);
  await writeFile(output, `${JSON.stringify(document, null, 2)}\n`);
  return document;
}
