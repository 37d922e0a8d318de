// Shared plumbing for the project's @open-rpc/generator custom components: lodash templates
// read from tools/templates, rendered with the method model and TypeScript helpers.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { template } = require("lodash");
const { buildModel } = require("./model.cjs");
const ts = require("./typescript.cjs");
const { header } = require("./layout.cjs");
const { readEip712 } = require("./eip712.cjs");

const json = (value) => JSON.stringify(value);
const list = (items) => `[${items.map(json).join(", ")}]`;

const templatesDir = path.join(__dirname, "..", "templates");

/** One generator template file: `path` is where it lands inside the component's outPath. */
function templateFile(templatePath, outPath, extra = {}) {
  const compiled = template(fs.readFileSync(path.join(templatesDir, templatePath), "utf8"));
  return {
    path: outPath,
    template: (data) => {
      const model = buildModel(data.openrpcDocument);
      return compiled({ ...data, model, ts, header, json, list, eip712: readEip712, ...extra });
    },
  };
}

/** A hook that makes the directories the templates write into (the generator only makes outPath). */
function ensureDirs(dirs) {
  return async (destDir) => {
    for (const dir of dirs) fs.mkdirSync(path.join(destDir, dir), { recursive: true });
  };
}

module.exports = { templateFile, ensureDirs };
