#!/usr/bin/env node
// A tiny static server for the built docs (dist/), with no dependencies, to preview the site alone;
// the relay (`pnpm start`) serves the same files at /docs/.
//
//   node serve.mjs [--host 127.0.0.1] [--port 8645]     (or NEUTRAL_HOST / NEUTRAL_PORT)
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { docsDir, indexHtmlPath } from "./index.js";

const { values } = parseArgs({ options: { host: { type: "string" }, port: { type: "string" } } });
const host = values.host ?? process.env.NEUTRAL_HOST ?? "127.0.0.1";
const portText = values.port ?? process.env.NEUTRAL_PORT ?? "8645";
const port = Number(portText);
if (!/^\d+$/.test(portText) || port > 65535) {
  console.error(`docs: invalid port "${portText}" (expected 0..65535)`);
  process.exit(2);
}
if (!existsSync(indexHtmlPath)) {
  console.error(`docs: ${indexHtmlPath} is missing; run pnpm build (or pnpm --filter @neutral/docs build) first.`);
  process.exit(1);
}

// Only these files are served: a request path is looked up here, never joined onto a directory.
const routes = new Map([
  ["/", { file: "index.html", type: "text/html; charset=utf-8" }],
  ["/index.html", { file: "index.html", type: "text/html; charset=utf-8" }],
  ["/style.css", { file: "style.css", type: "text/css; charset=utf-8" }],
]);

const server = createServer(async (req, res) => {
  const headers = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; style-src 'self'",
    "Cache-Control": "no-cache",
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { ...headers, Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" }).end("Method Not Allowed\n");
    return;
  }
  const route = routes.get((req.url ?? "/").split("?")[0]);
  if (!route) {
    res.writeHead(404, { ...headers, "Content-Type": "text/plain; charset=utf-8" }).end("Not Found\n");
    return;
  }
  try {
    const body = await readFile(path.join(docsDir, route.file));
    res.writeHead(200, { ...headers, "Content-Type": route.type, "Content-Length": body.length });
    res.end(req.method === "HEAD" ? undefined : body);
  } catch {
    res.writeHead(500, { ...headers, "Content-Type": "text/plain; charset=utf-8" }).end("Could not read the docs; rebuild them.\n");
  }
});

server.on("error", (error) => {
  console.error(`docs: ${error.message}`);
  process.exit(1);
});
server.listen(port, host, () => {
  const address = server.address();
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  console.log(`docs listening on http://${shown}:${address.port}`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
