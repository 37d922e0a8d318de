// @ts-check
// Custom @open-rpc/generator component: the API reference page (index.html), one self-contained
// HTML file; a project's own build may add a stylesheet and guides at its markers.
"use strict";
const { templateFile } = require("../lib/component.cjs");
const html = require("../lib/html.cjs");
const { buildModel, docsDocument } = require("../lib/model.cjs");

/**
 * The page renders the document with every `$ref` inlined (model.cjs `docsDocument`): only this target needs that view.
 * @param {import("../lib/component.cjs").GenerationContext} context
 */
function docsView(context) {
  const document = docsDocument(context.document);
  return { html, model: buildModel(document), openrpcDocument: document };
}

/** @type {import("../lib/component.cjs").ComponentModule} */
module.exports = {
  staticPath: () => undefined,
  hooks: {
    templateFiles: {
      html: [templateFile("docs/index.html.tpl", "index.html", docsView, "docs")],
    },
  },
};
