// @ts-check
// Custom @open-rpc/generator component: a typed client (types, one function per method, errors).
// Its runtime is imported from `target.runtime` (default "@neutral/client/rpc").
"use strict";
const { templateFile } = require("../lib/component.cjs");

/** @type {import("../lib/component.cjs").ComponentModule} */
module.exports = {
  staticPath: () => undefined,
  hooks: {
    templateFiles: {
      typescript: [
        templateFile("types.ts.tpl", "types.ts", { view: "client" }, "client"),
        templateFile("client/methods.ts.tpl", "methods.ts", {}, "client"),
        templateFile("errors.ts.tpl", "errors.ts", {}, "client"),
        templateFile("client/index.ts.tpl", "index.ts", {}, "client"),
      ],
    },
  },
};
