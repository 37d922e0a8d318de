#!/usr/bin/env node
// Drives @open-rpc/generator with tools/generator.config.json and the project's custom components.
//
//   node tools/generate.mjs                      regenerate into the repository
//   node tools/generate.mjs --check              fail if the committed generated files are stale
//   node tools/generate.mjs --spec S --out DIR   generate from spec S into DIR/packages/* (used by tests)
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const require = createRequire(import.meta.url);
const toolsDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(toolsDir, "..");
const { generatedDirs } = require("./lib/layout.cjs");

/** Runs the generator for every component of the config; `outRoot` stands in for the repository root. */
export async function generate({ specPath = path.join(repoRoot, "openrpc.json"), outRoot = repoRoot } = {}) {
  const config = JSON.parse(await readFile(path.join(toolsDir, "generator.config.json"), "utf8"));
  const document = JSON.parse(await readFile(specPath, "utf8"));
  const components = config.components.map((component) => ({
    ...component,
    customComponent: path.join(toolsDir, component.customComponent),
    outPath: path.join(outRoot, path.relative(repoRoot, path.resolve(toolsDir, component.outPath))),
  }));
  // Each component owns only its generated directory; clear it so a removed method leaves no file behind.
  for (const dir of generatedDirs) await rm(path.join(outRoot, dir), { recursive: true, force: true });
  const { default: runGenerator } = require("@open-rpc/generator");
  // As text: the generator dereferences a parsed object in place, and the server must serve the
  // document as written (references kept).
  await runGenerator({ openrpcDocument: JSON.stringify(document), components });
}

async function listFiles(root) {
  const out = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(path.relative(root, path.join(entry.parentPath ?? entry.path, entry.name)));
  }
  return out.sort();
}

/** Regenerates into a temp dir and compares with the committed generated directories. */
export async function findStaleFiles() {
  const outRoot = await mkdtemp(path.join(tmpdir(), "neutral-generate-"));
  try {
    await generate({ outRoot });
    const stale = [];
    for (const dir of generatedDirs) {
      const fresh = await listFiles(path.join(outRoot, dir));
      const committed = await listFiles(path.join(repoRoot, dir)).catch(() => []);
      for (const file of new Set([...fresh, ...committed])) {
        const a = await readFile(path.join(outRoot, dir, file)).catch(() => null);
        const b = await readFile(path.join(repoRoot, dir, file)).catch(() => null);
        if (!a || !b || !a.equals(b)) stale.push(path.join(dir, file));
      }
    }
    return stale;
  } finally {
    await rm(outRoot, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { check: { type: "boolean" }, spec: { type: "string" }, out: { type: "string" } } });
  if (values.check) {
    const stale = await findStaleFiles();
    if (stale.length > 0) {
      console.error(`Generated files are out of date with openrpc.json/tools. Run \`pnpm generate\` and commit:\n  ${stale.join("\n  ")}`);
      process.exit(1);
    }
    console.log("Generated files are up to date.");
  } else {
    await generate({ specPath: values.spec && path.resolve(values.spec), outRoot: values.out && path.resolve(values.out) });
  }
}
