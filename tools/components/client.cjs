// Custom @open-rpc/generator component: the typed client's generated half
// (packages/client/src/generated). The runtime it imports is hand-written (packages/client/src/rpc.ts).
"use strict";
const { templateFile, ensureDirs } = require("../lib/component.cjs");

module.exports = {
  staticPath: () => undefined,
  hooks: {
    beforeCompileTemplate: [ensureDirs(["src/generated"])],
    templateFiles: {
      typescript: [
        templateFile("types.ts.tpl", "src/generated/types.ts", { view: "client" }),
        templateFile("client/methods.ts.tpl", "src/generated/methods.ts"),
        templateFile("errors.ts.tpl", "src/generated/errors.ts"),
      ],
    },
  },
};
