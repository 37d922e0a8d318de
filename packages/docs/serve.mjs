#!/usr/bin/env node
// A tiny static server for the built docs (dist/), with no dependencies, to preview the site alone;
// the relay (`pnpm start`) serves the same files at /docs/.
//
//   node serve.mjs [--host 127.0.0.1] [--port 8645] [--dir DIST]     (or NEUTRAL_HOST / NEUTRAL_PORT)
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { createServer } from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { docsDir, indexHtmlPath } from "./index.js";

const { values } = parseArgs({ options: { host: { type: "string" }, port: { type: "string" }, dir: { type: "string" } } });
const host = values.host ?? process.env.NEUTRAL_HOST ?? "127.0.0.1";
const portText = values.port ?? process.env.NEUTRAL_PORT ?? "8645";
const port = Number(portText);
if (!/^\d+$/.test(portText) || port > 65535) {
  console.error(`docs: invalid port "${portText}" (expected 0..65535)`);
  process.exit(2);
}
const root = values.dir ? path.resolve(values.dir) : docsDir;
if (!existsSync(path.join(root, "index.html"))) {
  console.error(`docs: ${values.dir ? path.join(root, "index.html") : indexHtmlPath} is missing; run pnpm build (or pnpm --filter @neutral/docs build) first.`);
  process.exit(1);
}

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
};
// Every file of dist/, read once: a request path is looked up here, never joined onto a directory.
const files = new Map();
for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const file = path.join(entry.parentPath ?? entry.path, entry.name);
  const name = path.relative(root, file).split(path.sep).join("/");
  const body = readFileSync(file);
  files.set(`/${name}`, { body, gzipped: gzipSync(body, { level: 9 }), type: TYPES[path.extname(name)] ?? "application/octet-stream" });
}
files.set("/", files.get("/index.html"));

// The same policy as the relay's /docs/: scripts, styles, images and fetches from this origin only, nothing inline.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const server = createServer((req, res) => {
  const headers = { "X-Content-Type-Options": "nosniff", "Content-Security-Policy": CSP, "Cache-Control": "no-cache" };
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { ...headers, Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" }).end("Method Not Allowed: this server only shows the docs; Try it needs a relay (pnpm start)\n");
    return;
  }
  const file = files.get((req.url ?? "/").split("?")[0]);
  if (!file) {
    res.writeHead(404, { ...headers, "Content-Type": "text/plain; charset=utf-8" }).end("Not Found\n");
    return;
  }
  // Gzipped for clients that take it, as the relay serves /docs/ (the page is mostly HTML tables).
  const gzip = /(?:^|,)\s*(?:gzip|\*)\s*(?:,|$|;(?!\s*q=0(?:\.0*)?\s*(?:,|$)))/i.test(req.headers["accept-encoding"] ?? "");
  const body = gzip ? file.gzipped : file.body;
  res.writeHead(200, { ...headers, "Content-Type": file.type, "Content-Length": body.length, Vary: "Accept-Encoding", ...(gzip && { "Content-Encoding": "gzip" }) });
  res.end(req.method === "HEAD" ? undefined : body);
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
