// @ts-check
// A custom component that writes what a template sees: its target's options and the model's names.
"use strict";
const { templateFile } = require("../src/lib/component.cjs");
const path = require("node:path");

/** @type {import("../src/lib/component.cjs").ComponentModule} */
module.exports = {
  staticPath: () => undefined,
  hooks: { templateFiles: { typescript: [templateFile(path.join(__dirname, "echo.tpl"), "echo.json", {}, "echo")] } },
};
