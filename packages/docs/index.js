// Where the built documentation site lives, for a relay (or anything else) to serve it.
import path from "node:path";
import { fileURLToPath } from "node:url";

export const docsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "dist");
export const indexHtmlPath = path.join(docsDir, "index.html");
