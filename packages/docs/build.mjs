#!/usr/bin/env node
// Assembles the static site in dist/: the generated page (from openrpc.json) with the hand-written
// guides put in at its markers, the stylesheet, the favicon, and the scripts bundled by esbuild.
//
//   node build.mjs [--out DIR] [--page FILE] [--spec FILE]
//     defaults: dist/, src/generated/index.html, the repository's openrpc.json (the tests build from
//     a regenerated page and a changed spec into temp dirs)
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.join(here, "src");

const { values: args } = parseArgs({ options: { out: { type: "string" }, page: { type: "string" }, spec: { type: "string" } } });
const page = args.page ? path.resolve(args.page) : path.join(src, "generated/index.html");
const specPath = args.spec ? path.resolve(args.spec) : path.resolve(here, "../../openrpc.json");
const dist = args.out ? path.resolve(args.out) : path.join(here, "dist");

function fail(message) {
  console.error(`@neutral/docs: ${message}`);
  process.exit(1);
}

if (!existsSync(page)) fail(`${path.relative(process.cwd(), page) || page} is missing; run pnpm generate first.`);
const { build } = await import("esbuild");

const esc = (value) => String(value).replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]);

/** The worked sign-in example: a real token, signed at build time with a public test key (@neutral/protocol/testing). */
async function authExample(spec, server) {
  const { TEST_KEYS, fixtureSigner } = await import("@neutral/protocol/testing");
  const { DEFAULT_TOKEN_LIFETIME_MS } = await import("@neutral/protocol");
  // Hardhat's account #0: a well-known public test key, never a real secret.
  const privateKey = TEST_KEYS.alice;
  const signer = fixtureSigner(privateKey);
  const signed = signer.bearerToken({
    domain: server.host,
    uri: server.origin,
    issuedAt: Date.UTC(2026, 0, 1),
    lifetimeMs: DEFAULT_TOKEN_LIFETIME_MS,
    nonce: "docsExample2026",
  });
  // The first method that needs a token and no params: the request of the curl line.
  const method = spec.methods.find((m) => m["x-requires-auth"] === true && !m.params.some((p) => p.required));
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: method ? method.name : "rpc.discover", params: [] });
  const curl = [`curl ${server.origin}/`, "-H 'Content-Type: application/json'", `-H 'Authorization: Bearer ${signed.token}'`, `-d '${body}'`].join(" \\\n  ");
  return { privateKey, address: signer.checksumAddress, message: signed.message, signature: signed.signature, token: signed.token, curl };
}

/** The guides, with their placeholders filled in and a contents entry per h3. */
async function guides(spec) {
  const url = new URL((spec.servers && spec.servers[0] && spec.servers[0].url) || "http://127.0.0.1:8645");
  const server = { url: url.origin, origin: url.origin, host: url.host, port: url.port || (url.protocol === "https:" ? "443" : "80") };
  const values = { server, auth: await authExample(spec, server) };
  let html = readFileSync(path.join(src, "guide.html"), "utf8").replace(/^<!--[\s\S]*?-->\n/, "");
  html = html.replace(/\{\{([a-zA-Z.]+)\}\}/g, (whole, key) => {
    const value = key.split(".").reduce((at, part) => (at === undefined ? undefined : at[part]), values);
    if (value === undefined) fail(`src/guide.html: unknown placeholder ${whole}`);
    return esc(value);
  });
  const nav = [...html.matchAll(/<section id="([^"]+)">\s*<h3>([\s\S]*?)<\/h3>/g)].map(([, id, title]) => `<li><a href="#${id}">${title}</a></li>`);
  return { html: html.trimEnd(), nav: `<li><a href="#guides">Guides</a>\n<ul>\n${nav.join("\n")}\n</ul>\n</li>` };
}

function insert(html, marker, content) {
  const tag = `<!-- ${marker} -->`;
  if (html.split(tag).length !== 2) fail(`src/generated/index.html must have exactly one ${tag}; regenerate it (pnpm generate).`);
  return html.replace(tag, () => content);
}

const spec = JSON.parse(readFileSync(specPath, "utf8"));
const guide = await guides(spec);
let html = readFileSync(page, "utf8");
html = insert(html, "docs:guide-nav", guide.nav);
html = insert(html, "docs:guide", guide.html);

// Every in-page link must land: a guide naming a method, schema or section the spec no longer has fails here.
const ids = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
const broken = [...new Set([...html.matchAll(/\shref="#([^"]*)"/g)].map((m) => m[1]))].filter((id) => !ids.has(id));
if (broken.length > 0) fail(`links to missing anchors: ${broken.map((id) => `#${id}`).join(", ")}`);

// dist/ is served file by file (the relay serves every file in it): start clean so nothing stale ships.
// (An --out directory is the caller's: it is written into, not cleared.)
if (!args.out) rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
writeFileSync(path.join(dist, "index.html"), html);
copyFileSync(path.join(src, "style.css"), path.join(dist, "style.css"));
copyFileSync(path.join(src, "favicon.svg"), path.join(dist, "favicon.svg"));
// Classic scripts (not modules): they also run when the page is opened from file://.
await build({
  // sign-in.js (the signing code, most of the weight) is loaded by try-it.js when someone signs in.
  entryPoints: { "try-it": path.join(src, "try-it.ts"), "sign-in": path.join(src, "sign-in.ts"), theme: path.join(src, "theme.ts") },
  outdir: dist,
  bundle: true,
  minify: true,
  format: "iife",
  platform: "browser",
  target: "es2020",
  legalComments: "none",
  logLevel: "warning",
});
console.log(`@neutral/docs: wrote ${dist} (index.html, style.css, favicon.svg, try-it.js, sign-in.js, theme.js)`);
