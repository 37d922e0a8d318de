// The third-party packages the published ones need, served by the private registry without a
// network: every package the public workspace packages depend on (and what those depend on, all the
// way down), plus the tools a consumer project installs (TypeScript, @types/node), packed with
// `npm pack` from the copies this workspace installed and stored the way Verdaccio stores a package
// it was sent. A package missing from that set makes a consumer's `npm install` fail with E404,
// never reach another registry.
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { plainEnv, runOk } from "./programs.js";

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

export interface InstalledPackage {
  name: string;
  version: string;
  /** The installed copy's real folder. */
  dir: string;
  manifest: Manifest;
}

const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as Manifest;

/** Where Node finds `name` from a package's folder: each ancestor's node_modules, nearest first (pnpm's layout included). */
export function locate(fromDir: string, name: string): string | undefined {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    if (path.basename(dir) !== "node_modules") {
      const candidate = path.join(dir, "node_modules", name);
      if (existsSync(path.join(candidate, "package.json"))) return realpathSync(candidate);
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** What installing a package installs with it: its dependencies, optional ones that are here, and its required peers. */
function needs(manifest: Manifest): { name: string; optional: boolean }[] {
  const optionalPeer = (name: string) => manifest.peerDependenciesMeta?.[name]?.optional === true;
  return [
    ...Object.keys(manifest.dependencies ?? {}).map((name) => ({ name, optional: false })),
    ...Object.keys(manifest.optionalDependencies ?? {}).map((name) => ({ name, optional: true })),
    ...Object.keys(manifest.peerDependencies ?? {})
      .filter((name) => !optionalPeer(name))
      .map((name) => ({ name, optional: false })),
  ];
}

/**
 * Every installed package that installing `roots` brings, found from their folders; packages for
 * which `published(name)` is true (the workspace's own) are left out, their dependencies not.
 * `tools` are installed packages wanted themselves (with everything they bring).
 */
export function dependencyClosure(roots: readonly string[], tools: readonly string[], published: (name: string) => boolean): InstalledPackage[] {
  const found = new Map<string, InstalledPackage>();
  const visited = new Set<string>();
  const visit = (dir: string) => {
    if (visited.has(dir)) return;
    visited.add(dir);
    const manifest = readManifest(dir);
    if (!published(manifest.name)) found.set(`${manifest.name}@${manifest.version}`, { name: manifest.name, version: manifest.version, dir, manifest });
    for (const need of needs(manifest)) {
      const at = locate(dir, need.name);
      if (at !== undefined) visit(at);
      // An optional dependency for another platform or CPU is not installed here, nor needed.
      else if (!need.optional) throw new Error(`${manifest.name}@${manifest.version} needs ${need.name}, which is not installed beside it (${dir})`);
    }
  };
  for (const root of roots) visit(realpathSync(root));
  for (const tool of tools) visit(tool);
  return [...found.values()].sort((a, b) => (a.name === b.name ? semver.compare(a.version, b.version) : a.name < b.name ? -1 : 1));
}

interface Packed {
  name: string;
  version: string;
  filename: string;
  integrity: string;
  shasum: string;
}

/** The file name Verdaccio gives a version's tarball: the name without its scope, the version. */
const tarballName = (name: string, version: string) => `${name.split("/").pop()}-${version}.tgz`;

/**
 * Packs `packages` with npm (scripts off: a package's `prepack` is its authors' build) and stores
 * them in Verdaccio's `storage`: per package a folder with its tarballs and the package document a
 * registry serves (every version, `latest` the highest).
 */
export async function storePackages(packages: readonly InstalledPackage[], storage: string, work: string): Promise<void> {
  const packDir = path.join(work, "packed");
  mkdirSync(packDir, { recursive: true });
  const packed: Packed[] = [];
  // One npm for many folders; a bounded argument list per run. npm packs copies: given a folder
  // inside pnpm's store (node_modules/.pnpm/…), it fails without a message.
  const staging = path.join(work, "staging");
  for (let start = 0; start < packages.length; start += 100) {
    const batch = packages.slice(start, start + 100);
    const copies = batch.map((pkg, index) => {
      const copy = path.join(staging, String(start + index));
      cpSync(pkg.dir, copy, { recursive: true, filter: (source) => path.basename(source) !== "node_modules" });
      return copy;
    });
    const output = await runOk("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", packDir, ...copies], {
      cwd: work,
      env: plainEnv({ npm_config_loglevel: "error", npm_config_update_notifier: "false", npm_config_cache: path.join(work, "npm-cache") }),
      timeoutMs: 300_000,
    });
    packed.push(...(JSON.parse(output) as Packed[]));
    rmSync(staging, { recursive: true, force: true });
  }
  const byName = new Map<string, { pkg: InstalledPackage; packed: Packed }[]>();
  packages.forEach((pkg, index) => {
    const entry = packed[index]!;
    if (entry.name !== pkg.name || entry.version !== pkg.version) throw new Error(`npm pack answered ${entry.name}@${entry.version} for ${pkg.name}@${pkg.version}`);
    byName.set(pkg.name, [...(byName.get(pkg.name) ?? []), { pkg, packed: entry }]);
  });
  for (const [name, versions] of byName) {
    const dir = path.join(storage, name);
    mkdirSync(dir, { recursive: true });
    const document = {
      name,
      _id: name,
      versions: {} as Record<string, unknown>,
      "dist-tags": { latest: versions.map((v) => v.pkg.version).sort(semver.rcompare)[0] },
      time: {},
      users: {},
      _uplinks: {},
      _distfiles: {},
      _attachments: {} as Record<string, { shasum: string; version: string }>,
      _rev: "1-offline",
    };
    for (const { pkg, packed: entry } of versions) {
      const file = tarballName(name, pkg.version);
      renameSync(path.join(packDir, entry.filename), path.join(dir, file));
      document.versions[pkg.version] = {
        ...pkg.manifest,
        _id: `${name}@${pkg.version}`,
        // Verdaccio serves every tarball from its own address, whatever host is stored here.
        dist: { integrity: entry.integrity, shasum: entry.shasum, tarball: `http://localhost/${name}/-/${file}` },
      };
      document._attachments[file] = { shasum: entry.shasum, version: pkg.version };
    }
    writeFileSync(path.join(dir, "package.json"), JSON.stringify(document));
  }
}
