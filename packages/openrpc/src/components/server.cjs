// @ts-check
// Custom @open-rpc/generator component: a server stub (the Handlers type a server implements, the
// method descriptors the runtime dispatches by, the document as written). Its runtime is imported
// from `target.runtime` (default "@neutral/server").
"use strict";
const { templateFile } = require("../lib/component.cjs");
const { validatorsModule } = require("../lib/validators.cjs");

/** @type {import("../lib/component.cjs").ComponentModule} */
module.exports = {
  staticPath: () => undefined,
  hooks: {
    templateFiles: {
      typescript: [
        templateFile("types.ts.tpl", "types.ts", { view: "server" }, "server"),
        templateFile("server/handlers.ts.tpl", "handlers.ts", {}, "server"),
        templateFile("server/methods.ts.tpl", "methods.ts", {}, "server"),
        templateFile("errors.ts.tpl", "errors.ts", {}, "server"),
        templateFile("server/openrpc.ts.tpl", "openrpc.ts", {}, "server"),
        templateFile("server/examples.ts.tpl", "examples.ts", {}, "server"),
        templateFile("server/validators.ts.tpl", "validators.ts", (context) => ({ validatorsCode: validatorsModule(context.document, context.model, String(context.targets.server?.runtime ?? "@neutral/server")) }), "server"),
        templateFile("server/index.ts.tpl", "index.ts", {}, "server"),
      ],
    },
  },
};
