// @ts-check
// Shared plumbing for @open-rpc/generator custom components, ours and a project's own: lodash
// templates rendered with the document's model (model.cjs) and the TypeScript helpers. The engine
// hands each template only its own dereferenced view of the document; the generator puts the
// document as written, its model and the target's options in the context below for the duration
// of one run.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { template } = require("lodash");
const ts = require("./typescript.cjs");
const views = require("./views.cjs");

/**
 * @typedef {import("./document.cjs").OpenrpcDocument} OpenrpcDocument
 * @typedef {import("./model.cjs").Model} Model
 */

/**
 * What templates render from during one run (generate.mjs makes it).
 * @typedef {object} GenerationContext
 * @property {OpenrpcDocument} document the document as written
 * @property {Model} model its model (model.cjs)
 * @property {string} header the do-not-edit line
 * @property {Record<string, Record<string, unknown>>} targets each target's options (`out`, `runtime`, its own), by target name
 */

/**
 * One file a component writes: the engine calls `template` (with its own view of the document,
 * which ours do not read) and writes what it returns to `path`, inside the target's folder.
 * @typedef {object} TemplateFile
 * @property {string} path
 * @property {() => string} template
 */

/**
 * A custom @open-rpc/generator component module, as the engine (1.22) reads it: `staticPath` (a
 * folder it copies first, none for ours) and the template files of each language. (The engine's
 * own `IComponentModule` declares `template` a lodash TemplateExecutor; it only ever calls it.)
 * @typedef {object} ComponentModule
 * @property {(language: string, type?: string) => string | undefined} staticPath
 * @property {{ templateFiles: Record<string, TemplateFile[]> }} hooks
 */

/** @param {unknown} value */
const json = (value) => JSON.stringify(value);
/** @param {unknown[]} items */
const list = (items) => `[${items.map(json).join(", ")}]`;

const templatesDir = path.join(__dirname, "..", "templates");

/** @type {GenerationContext | undefined} */
let current;

/**
 * Sets what templates render from while `run` runs (the generator does this around each engine run).
 * @template T
 * @param {GenerationContext} context
 * @param {() => Promise<T>} run
 * @returns {Promise<T>}
 */
async function withContext(context, run) {
  if (current) throw new Error("one generation at a time per process");
  current = context;
  try {
    return await run();
  } finally {
    current = undefined;
  }
}

/**
 * What a template sees: `model` (model.cjs), `document` (as written), `target` (the target's name
 * and options, e.g. `target.runtime`), `ts` (typescript.cjs), `header` (the do-not-edit line),
 * `views` (views.cjs), `json`, `list`, `className`, and `extra` (an object, or a function of the context returning one).
 * `targetName` is the target whose options `target` holds ("client", "server", "docs", or a
 * project's own component's name).
 * @param {string} templatePath absolute, or relative to this package's templates folder
 * @param {string} outPath the file's path in the target's folder
 * @param {Record<string, unknown> | ((context: GenerationContext) => Record<string, unknown>)} [extra]
 * @param {string} [targetName]
 * @returns {TemplateFile}
 */
function templateFile(templatePath, outPath, extra = {}, targetName = "") {
  const file = path.isAbsolute(templatePath) ? templatePath : path.join(templatesDir, templatePath);
  const compiled = template(fs.readFileSync(file, "utf8"));
  return {
    path: outPath,
    template: () => {
      if (!current) throw new Error("templates render only inside a neutral-openrpc generation");
      const target = { name: targetName, ...(current.targets[targetName] || {}) };
      const more = typeof extra === "function" ? extra(current) : extra;
      return compiled({ model: current.model, document: current.document, openrpcDocument: current.document, ts, views, header: current.header, json, list, className: current.model.className, target, ...more });
    },
  };
}

/**
 * A hook that makes the directories the templates write into (the engine only makes outPath).
 * @param {string[]} dirs relative to the target's folder
 * @returns {(destDir: string) => Promise<void>}
 */
function ensureDirs(dirs) {
  return async (destDir) => {
    for (const dir of dirs) fs.mkdirSync(path.join(destDir, dir), { recursive: true });
  };
}

module.exports = { templateFile, ensureDirs, withContext };
