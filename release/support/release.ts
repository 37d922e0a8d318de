// The project's own release path (RELEASING.md), run on a throwaway copy of the workspace so that
// the repository is never touched: `changeset version --snapshot` gives every package of the release
// a version of its own, and `changeset publish` sends them to the private registry (through
// `pnpm publish`, which turns `workspace:` ranges into those versions and applies .pnpmfile.cjs).
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { plainEnv, runOk } from "./programs.js";

export const repositoryRoot = fileURLToPath(new URL("../..", import.meta.url));

/** What the copy needs besides the packages: the workspace, its hooks and settings, the pending changesets. */
const ROOT_FILES = ["package.json", "pnpm-workspace.yaml", "pnpm-lock.yaml", ".npmrc", ".pnpmfile.cjs", ".changeset"];
/** Never part of a package: installed dependencies, build caches, test and bench output. */
const NOT_COPIED = new Set(["node_modules", ".turbo", "test-output", ".data", "coverage"]);

const changesetBin = path.join(path.dirname(createRequire(import.meta.url).resolve("@changesets/cli/package.json")), "bin.js");

export interface WorkspacePackage {
  name: string;
  version: string;
  private?: boolean;
  /** Its folder in the repository. */
  dir: string;
}

/** The workspace's packages under packages/ (the ones that may be published), read from the repository. */
export function productPackages(root = repositoryRoot): WorkspacePackage[] {
  const base = path.join(root, "packages");
  return readdirSync(base)
    .filter((name) => existsSync(path.join(base, name, "package.json")))
    .map((name) => {
      const dir = path.join(base, name);
      const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as Omit<WorkspacePackage, "dir">;
      return { name: manifest.name, version: manifest.version, private: manifest.private, dir };
    });
}

/** The workspace folders pnpm-workspace.yaml names (`dir` or `dir/*`). */
function workspaceFolders(root: string): string[] {
  const yaml = readFileSync(path.join(root, "pnpm-workspace.yaml"), "utf8");
  const globs = [...yaml.matchAll(/^\s+-\s+"([^"]+)"\s*$/gm)].map((match) => match[1]!);
  return globs.flatMap((glob) =>
    glob.endsWith("/*")
      ? readdirSync(path.join(root, glob.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => path.join(glob.slice(0, -2), entry.name))
      : [glob],
  );
}

/**
 * Copies the workspace to `copy`: every package to publish whole (with its build), every other
 * workspace package only as its package.json (changesets reads them all). Each package's
 * `workspace:` dependencies are linked into its node_modules, as `pnpm install` would: `pnpm publish`
 * reads their versions there.
 */
export function copyWorkspace(copy: string, published: readonly WorkspacePackage[], root = repositoryRoot): void {
  mkdirSync(copy, { recursive: true });
  for (const file of ROOT_FILES) cpSync(path.join(root, file), path.join(copy, file), { recursive: true });
  const whole = new Set(published.map((pkg) => path.relative(root, pkg.dir)));
  for (const folder of workspaceFolders(root)) {
    if (!existsSync(path.join(root, folder, "package.json"))) continue;
    if (whole.has(folder)) {
      cpSync(path.join(root, folder), path.join(copy, folder), { recursive: true, filter: (source) => !NOT_COPIED.has(path.basename(source)) });
    } else {
      mkdirSync(path.join(copy, folder), { recursive: true });
      cpSync(path.join(root, folder, "package.json"), path.join(copy, folder, "package.json"));
    }
  }
  const folders = workspaceFolders(copy).filter((folder) => existsSync(path.join(copy, folder, "package.json")));
  const folderOf = new Map(folders.map((folder) => [(JSON.parse(readFileSync(path.join(copy, folder, "package.json"), "utf8")) as { name: string }).name, folder]));
  for (const folder of folders) {
    const manifest = JSON.parse(readFileSync(path.join(copy, folder, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
    const ranges = { ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies };
    for (const [name, range] of Object.entries(ranges)) {
      const target = folderOf.get(name);
      if (!range.startsWith("workspace:") || target === undefined) continue;
      const link = path.join(copy, folder, "node_modules", name);
      mkdirSync(path.dirname(link), { recursive: true });
      symlinkSync(path.join(copy, target), link, "dir");
    }
  }
}


/**
 * Versions the copy's packages as a snapshot (`0.0.0-<tag>-<time>`) and publishes them to `registry`
 * with `changeset publish`; answers each package's published version.
 */
export async function publishSnapshot(copy: string, registry: { url: string; publisherConfig: string }, tag: string): Promise<Map<string, string>> {
  const env = plainEnv({
    npm_config_registry: registry.url,
    npm_config_userconfig: registry.publisherConfig,
    npm_config_loglevel: "error",
    npm_config_update_notifier: "false",
    NO_COLOR: "1",
    FORCE_COLOR: "0",
  });
  await runOk(process.execPath, [changesetBin, "version", "--snapshot", tag], { cwd: copy, env, timeoutMs: 120_000 });
  await runOk(process.execPath, [changesetBin, "publish", "--no-git-tag"], { cwd: copy, env, timeoutMs: 300_000 });
  const versions = new Map<string, string>();
  for (const pkg of productPackages(copy)) if (!pkg.private) versions.set(pkg.name, pkg.version);
  return versions;
}
