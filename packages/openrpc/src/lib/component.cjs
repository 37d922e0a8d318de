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

const json = (value) => JSON.stringify(value);
const list = (items) => `[${items.map(json).join(", ")}]`;

const templatesDir = path.join(__dirname, "..", "templates");

let current;

/** Sets what templates render from while `run` runs (the generator does this around each engine run). */
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

/** A hook that makes the directories the templates write into (the engine only makes outPath). */
function ensureDirs(dirs) {
  return async (destDir) => {
    for (const dir of dirs) fs.mkdirSync(path.join(destDir, dir), { recursive: true });
  };
}

module.exports = { templateFile, ensureDirs, withContext };
