// Custom @open-rpc/generator component: the server stub's generated half
// (packages/server/src/generated). The dispatcher and HTTP glue are hand-written beside it.
"use strict";
const fs = require("node:fs/promises");
const path = require("node:path");
const { templateFile, ensureDirs } = require("../lib/component.cjs");
const { header } = require("../lib/layout.cjs");

// The generator writes the spec as src/generated/openrpc.json (openRPCPath); turn it into a
// module with the header, so rpc.discover and GET /openrpc.json serve the document as written.
async function documentAsModule(destDir) {
  const jsonPath = path.join(destDir, "src/generated/openrpc.json");
  const document = JSON.parse(await fs.readFile(jsonPath, "utf8"));
  const body = [
    `// ${header}`,
    "//",
    "// The OpenRPC document, as written (references kept), for rpc.discover and GET /openrpc.json.",
    `export const openrpcDocument = ${JSON.stringify(document, null, 2)} as const;`,
    "",
  ].join("\n");
  await fs.writeFile(path.join(destDir, "src/generated/openrpc.ts"), body, "utf8");
  await fs.rm(jsonPath);
}

module.exports = {
  staticPath: () => undefined,
  hooks: {
    beforeCompileTemplate: [ensureDirs(["src/generated"])],
    afterCompileTemplate: [documentAsModule],
    templateFiles: {
      typescript: [
        templateFile("types.ts.tpl", "src/generated/types.ts", { view: "server" }),
        templateFile("server/handlers.ts.tpl", "src/generated/handlers.ts"),
        templateFile("server/methods.ts.tpl", "src/generated/methods.ts"),
        templateFile("errors.ts.tpl", "src/generated/errors.ts"),
      ],
    },
  },
};
