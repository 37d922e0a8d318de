// Custom @open-rpc/generator component: the generated half of @neutral/protocol
// (packages/protocol/src/generated): the EIP-712 typed data of the document's `x-eip712` extension,
// the spec's numeric limits, and its application errors. The rest of the package is hand-written.
"use strict";
const { templateFile, ensureDirs } = require("../lib/component.cjs");

module.exports = {
  staticPath: () => undefined,
  hooks: {
    beforeCompileTemplate: [ensureDirs(["src/generated"])],
    templateFiles: {
      typescript: [
        templateFile("protocol/eip712.ts.tpl", "src/generated/eip712.ts"),
        templateFile("protocol/spec.ts.tpl", "src/generated/spec.ts"),
        templateFile("errors.ts.tpl", "src/generated/errors.ts"),
      ],
    },
  },
};
