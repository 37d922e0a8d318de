// @ts-check
// A custom component whose only template throws, to prove a failed run leaves every target as it was.
"use strict";
const { templateFile } = require("../src/lib/component.cjs");
const path = require("node:path");

/** @type {import("../src/lib/component.cjs").ComponentModule} */
module.exports = {
  staticPath: () => undefined,
  hooks: { templateFiles: { typescript: [templateFile(path.join(__dirname, "failing.tpl"), "x.ts", {}, "failing")] } },
};
