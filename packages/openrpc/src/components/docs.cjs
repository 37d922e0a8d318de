// Custom @open-rpc/generator component: the API reference page (index.html), one self-contained
// HTML file; a project's own build may add a stylesheet and guides at its markers.
"use strict";
const { templateFile } = require("../lib/component.cjs");
const html = require("../lib/html.cjs");

module.exports = {
  staticPath: () => undefined,
  hooks: {
    templateFiles: {
      html: [templateFile("docs/index.html.tpl", "index.html", (context) => ({ html, model: context.docsModel, openrpcDocument: context.docsDocument }), "docs")],
    },
  },
};
