#!/usr/bin/env node
// Assembles the static site: the generated page and the hand-written stylesheet, side by side in dist/.
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const page = path.join(here, "src/generated/index.html");
const dist = path.join(here, "dist");

if (!existsSync(page)) {
  console.error(`@neutral/docs: ${path.relative(process.cwd(), page) || page} is missing; run pnpm generate first.`);
  process.exit(1);
}
mkdirSync(dist, { recursive: true });
copyFileSync(page, path.join(dist, "index.html"));
copyFileSync(path.join(here, "src/style.css"), path.join(dist, "style.css"));
console.log(`@neutral/docs: wrote ${path.join(dist, "index.html")} and style.css`);
