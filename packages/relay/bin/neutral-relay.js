#!/usr/bin/env node
// The `neutral-relay` command: runs the built relay (dist/main.js). It lives outside dist/ so that
// the bin pnpm and npm link at install time exists before the first build.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const main = new URL("../dist/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write(`neutral-relay: the relay is not built (${fileURLToPath(main)} is missing): run pnpm build\n`);
  process.exit(1);
}
await import(main.href);
