// This repository's generation, as tests drive it: the targets of tools/neutral-openrpc.json, run by
// the published generator (@neutral/openrpc), exactly as `pnpm generate` runs its CLI
// (`neutral-openrpc generate --config tools/neutral-openrpc.json`).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findStaleFiles as findStale, generate as run, readConfig } from "@neutral/openrpc";

const toolsDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(toolsDir, "..");
export const configPath = path.join(toolsDir, "neutral-openrpc.json");

/** The generated directories, relative to the repository root (each owned by one target). */
export async function generatedDirs() {
  const { targets } = await readConfig(configPath);
  return Object.values(targets).map((t) => path.relative(repoRoot, t.out));
}

/**
 * Runs every target of the config. `specPath` replaces openrpc.json; `outRoot` stands in for the
 * repository root (output lands in `outRoot/packages/*`), for tests that must not touch the tree.
 */
export async function generate({ specPath, outRoot } = {}) {
  const config = await readConfig(configPath);
  const targets = Object.fromEntries(
    Object.entries(config.targets).map(([name, t]) => [name, { ...t, out: outRoot ? path.join(outRoot, path.relative(repoRoot, t.out)) : t.out }]),
  );
  await run({ spec: specPath ?? config.spec, targets, specName: "openrpc.json" });
}

/** Regenerates into a temp dir and lists the committed generated files that differ. */
export async function findStaleFiles() {
  const config = await readConfig(configPath);
  return (await findStale({ ...config, specName: "openrpc.json" })).map((file) => path.relative(repoRoot, file));
}
