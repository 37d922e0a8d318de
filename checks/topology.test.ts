// The relay's process topology is written in one place (issue 34): only packages/relay/src/topology/
// imports node:cluster or calls process.send. Every other module takes what it needs from there
// as plain functions and objects (topology/serving.ts), and never asks which process it is in.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = fileURLToPath(new URL("../packages/relay/src/", import.meta.url));

/** What ties a module to the process topology: importing node:cluster (any way), or process.send. */
const TOPOLOGY_CODE = /(from\s*|import\s*\(\s*|require\s*\(\s*)["'](node:)?cluster["']|\bprocess\.send\b/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.(ts|mts|js|mjs)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [file] : [];
  });
}

describe("the relay's process topology", () => {
  it("the check recognises topology code in each of its forms", () => {
    for (const code of ['import cluster from "node:cluster";', "import { isWorker } from 'cluster'", 'await import("node:cluster")', 'require("cluster")', "process.send?.(message)", "process.send(message)"]) {
      expect(code, code).toMatch(TOPOLOGY_CODE);
    }
    for (const code of ['import { cluster } from "./cluster/primary.js";', "// the cluster primary", "process.sender"]) expect(code, code).not.toMatch(TOPOLOGY_CODE);
  });

  it("is written only under src/topology/", () => {
    const files = sources(src);
    const topology = files.filter((file) => path.relative(src, file).startsWith(`topology${path.sep}`));
    const offending = files.filter((file) => !topology.includes(file) && TOPOLOGY_CODE.test(readFileSync(file, "utf8"))).map((file) => path.relative(src, file));
    expect(offending).toEqual([]);
    // The scan sees the files that do hold it (else it would pass by reading nothing).
    expect(topology.filter((file) => TOPOLOGY_CODE.test(readFileSync(file, "utf8"))).length).toBeGreaterThanOrEqual(3);
  });
});
