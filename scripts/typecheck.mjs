#!/usr/bin/env node
// `pnpm typecheck` (turbo's `//#typecheck`): every workspace package's tsconfig.json checked in ONE
// TypeScript program. Each package's own `tsc --noEmit` parsed and bound the same lib files,
// @types/node and viem again: eleven programs took ~84 s of CPU on this machine, this ~25 s.
// The packages' tsconfig.json files stay what editors and `tsc -p` read and say which files each
// package checks; here their files are checked together, under the union of what they allow
// (JavaScript, path aliases). Options that would change what a check means must agree across
// packages, or this script refuses to merge them, naming the package. The packages that check
// their JavaScript (`checkJs`) get a program of their own, which reuses the other's parsed files.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { root } from "./turbo.mjs";

/** Options a package may set on its own: they only widen what the one program accepts. */
const MERGEABLE = new Set(["allowJs", "checkJs", "paths", "pathsBasePath", "noEmit", "outDir", "configFilePath"]);

/** The workspace's package folders, from pnpm-workspace.yaml's `packages` globs (`dir` or `dir/*`). */
export function workspaceFolders(dir = root) {
  const yaml = readFileSync(path.join(dir, "pnpm-workspace.yaml"), "utf8");
  const globs = [];
  let inPackages = false;
  for (const line of yaml.split("\n")) {
    if (/^\S/.test(line)) inPackages = line.startsWith("packages:");
    const entry = inPackages && /^\s+-\s+["']?([^"'#]+?)["']?\s*$/.exec(line);
    if (entry) globs.push(entry[1]);
  }
  return globs.flatMap((glob) => {
    if (!glob.endsWith("/*")) return [path.join(dir, glob)];
    const parent = path.join(dir, glob.slice(0, -2));
    return readdirSync(parent, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(parent, entry.name));
  });
}

/** Each package's parsed tsconfig.json, for the packages that have one. */
function packageConfigs(folders) {
  const configs = [];
  for (const folder of folders) {
    const file = path.join(folder, "tsconfig.json");
    if (!existsSync(file)) continue;
    const errors = [];
    const parsed = ts.getParsedCommandLineOfConfigFile(file, {}, {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => errors.push(diagnostic),
    });
    configs.push({ folder, parsed, errors: [...errors, ...(parsed?.errors ?? [])] });
  }
  return configs;
}

/** One program's options for `configs`: throws naming the first package whose options would not merge. */
export function mergeOptions(configs) {
  const merged = { ...configs[0].parsed.options };
  const paths = {};
  for (const { folder, parsed } of configs) {
    const { options } = parsed;
    for (const key of new Set([...Object.keys(merged), ...Object.keys(options)])) {
      if (MERGEABLE.has(key)) continue;
      if (JSON.stringify(options[key]) !== JSON.stringify(merged[key])) {
        throw new Error(`${path.relative(root, folder)}/tsconfig.json sets ${key} unlike the other packages: check it on its own`);
      }
    }
    for (const [alias, targets] of Object.entries(options.paths ?? {})) {
      const absolute = targets.map((target) => path.resolve(options.pathsBasePath ?? folder, target));
      if (paths[alias] && JSON.stringify(paths[alias]) !== JSON.stringify(absolute)) {
        throw new Error(`${path.relative(root, folder)}/tsconfig.json maps ${alias} unlike another package`);
      }
      paths[alias] = absolute;
    }
    if (options.allowJs) merged.allowJs = true;
  }
  delete merged.outDir;
  delete merged.configFilePath;
  delete merged.pathsBasePath;
  return { ...merged, noEmit: true, paths, pathsBasePath: root };
}

/** Checks every package's files, in one program per `checkJs` setting; returns the diagnostics' count. */
export function typecheck(folders = workspaceFolders()) {
  const configs = packageConfigs(folders);
  const configErrors = configs.flatMap(({ errors }) => errors);
  if (configErrors.length > 0) return report(configErrors);
  // A parsed (and bound) file does not depend on checkJs: the second program reuses the first's.
  const parsed = new Map();
  const diagnostics = [];
  for (const checkJs of [false, true]) {
    const group = configs.filter(({ parsed }) => Boolean(parsed.options.checkJs) === checkJs);
    if (group.length === 0) continue;
    const options = { ...mergeOptions(group), checkJs };
    const host = ts.createCompilerHost(options);
    const read = host.getSourceFile;
    host.getSourceFile = (fileName, languageVersion, ...rest) => {
      const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
      if (!parsed.has(key)) parsed.set(key, read.call(host, fileName, languageVersion, ...rest));
      return parsed.get(key);
    };
    const rootNames = [...new Set(group.flatMap(({ parsed }) => parsed.fileNames))];
    diagnostics.push(...ts.getPreEmitDiagnostics(ts.createProgram({ rootNames, options, host })));
  }
  return report(diagnostics);
}

function report(diagnostics) {
  if (diagnostics.length === 0) return 0;
  const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => "\n" };
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  process.stdout.write(format(diagnostics, host));
  process.stdout.write(`\n${diagnostics.length} error${diagnostics.length === 1 ? "" : "s"}\n`);
  return diagnostics.length;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) process.exitCode = typecheck() > 0 ? 1 : 0;
