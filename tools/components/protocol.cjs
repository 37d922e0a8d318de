// This repository's own @open-rpc/generator component (a neutral-openrpc target like client or
// server): the generated half of @neutral/protocol (packages/protocol/src/generated): the EIP-712
// typed data of the document's `x-eip712` extension, the spec's numeric limits, and its application
// errors. The rest of the package is hand-written.
"use strict";
const path = require("node:path");
const { templateFile } = require("@neutral/openrpc/component");
const { readEip712 } = require("../lib/eip712.cjs");

const templates = path.join(__dirname, "..", "templates");

module.exports = {
  staticPath: () => undefined,
  hooks: {
    templateFiles: {
      typescript: [
        templateFile(path.join(templates, "protocol/eip712.ts.tpl"), "eip712.ts", { eip712: readEip712 }, "protocol"),
        templateFile(path.join(templates, "protocol/spec.ts.tpl"), "spec.ts", {}, "protocol"),
        // The package's own errors template: the same `errors` the client and server stubs get.
        templateFile("errors.ts.tpl", "errors.ts", {}, "protocol"),
      ],
    },
  },
};
