// The corpus: every OpenRPC document of @open-rpc/examples and @metamask/api-specs (pinned
// devDependencies), this repository's own openrpc.json, and a shop API of our own
// (test/documents/). The corpus suite (src/corpus.test.ts) generates, type-checks, round-trips and
// renders each; src/corpus-scaffold.test.ts scaffolds, builds and tests a server for three.
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const repoRoot = path.resolve(packageRoot, "../..");

export interface CorpusDocument {
  /** Short name: the table's row, the output directory's name. */
  readonly id: string;
  readonly spec: string;
}

const examplesDir = path.join(packageRoot, "node_modules/@open-rpc/examples/build/service-descriptions");
const metamaskDir = path.join(packageRoot, "node_modules/@metamask/api-specs/dist/build");

export const CORPUS: readonly CorpusDocument[] = [
  ...readdirSync(examplesDir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => ({ id: file.replace(/-openrpc\.json$|\.json$/, ""), spec: path.join(examplesDir, file) })),
  { id: "metamask", spec: path.join(metamaskDir, "openrpc.json") },
  { id: "metamask-multichain", spec: path.join(metamaskDir, "multichain-openrpc.json") },
  { id: "neutralService", spec: path.join(repoRoot, "openrpc.json") },
  // Our own, heavy on composition and recursion (a recursive oneOf filter, an allOf order, kinds, nested defaults).
  { id: "shop", spec: path.join(packageRoot, "test/documents/shop-openrpc.json") },
];
