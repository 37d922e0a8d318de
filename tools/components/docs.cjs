// Custom @open-rpc/generator component: the documentation site's generated half
// (packages/docs/src/generated/index.html). The stylesheet, build and server are hand-written.
"use strict";
const { templateFile, ensureDirs } = require("../lib/component.cjs");
const html = require("../lib/html.cjs");

module.exports = {
  staticPath: () => undefined,
  hooks: {
    beforeCompileTemplate: [ensureDirs(["src/generated"])],
    templateFiles: {
      html: [templateFile("docs/index.html.tpl", "src/generated/index.html", { html })],
    },
  },
};
