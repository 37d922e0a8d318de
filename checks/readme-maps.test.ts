// Each package's README has a map of its folders (a fenced block or a table after `<!-- map -->`),
// and the map matches the tree: every path it names exists, and every folder of the package (its
// top level and src/'s) is on it. A folder added, moved or removed without its line fails here.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const MARKER = "<!-- map -->";
/** Folders no map lists: installed, built or written by a run, or hidden. */
const UNMAPPED = new Set(["node_modules", "dist", "test-output", "coverage"]);

/** Whose README must map their folders: the repository and every workspace package (pnpm-workspace.yaml). */
const mapped = [".", "tools", "examples", "checks", "release", ...readdirSync(path.join(root, "packages")).map((name) => `packages/${name}`)].filter((dir) => existsSync(path.join(root, dir, "package.json")));

/** One line of a map: a path (a folder ends with `/`; `*` matches within a name) and how deep it sits. */
interface Entry {
  indent: number;
  path: string;
}

/**
 * The maps of a README: each fenced block or table right after the marker. In a block, a line names a
 * path when its first word contains a `/` or a `.` and two spaces or the line's end follow it;
 * deeper-indented lines name paths inside the last folder above them; other lines continue a
 * description. In a table, the code spans of a row's first cell are its paths.
 */
function readMaps(markdown: string): Entry[][] {
  const lines = markdown.split("\n");
  const maps: Entry[][] = [];
  lines.forEach((line, i) => {
    if (line.trim() !== MARKER) return;
    const entries: Entry[] = [];
    if (lines[i + 1]?.startsWith("```")) {
      for (let j = i + 2; j < lines.length && !lines[j]!.startsWith("```"); j++) {
        const match = /^( *)([\w@.*-]+(?:\/[\w@.*-]*)*\/?)(?: {2,}|$)/.exec(lines[j]!);
        if (match && /[/.]/.test(match[2]!)) entries.push({ indent: match[1]!.length, path: match[2]! });
      }
    } else if (lines[i + 1]?.startsWith("|")) {
      // A table: the paths are the code spans of each row's first cell (after the header and its rule).
      for (let j = i + 3; j < lines.length && lines[j]!.startsWith("|"); j++) {
        const cell = lines[j]!.split("|")[1] ?? "";
        for (const [, span] of cell.matchAll(/`([^`]+)`/g)) entries.push({ indent: 0, path: span! });
      }
    } else return;
    maps.push(entries);
  });
  return maps;
}

/** Each entry's path from the package's folder: nested entries inside the folder above them. */
function resolveEntries(entries: readonly Entry[]): string[] {
  const parents: Entry[] = [];
  return entries.map((entry) => {
    while (parents.length > 0 && parents.at(-1)!.indent >= entry.indent) parents.pop();
    const full = path.posix.join(...parents.map((parent) => parent.path), entry.path);
    if (entry.path.endsWith("/")) parents.push({ indent: entry.indent, path: entry.path });
    return full;
  });
}

/** Whether `pattern` (a path with `*` within names) names something in `dir`. */
function exists(dir: string, pattern: string): boolean {
  const parts = pattern.replace(/\/$/, "").split("/");
  const walk = (at: string, rest: string[]): boolean => {
    if (rest.length === 0) return true;
    const [part, ...more] = rest as [string, ...string[]];
    if (!part.includes("*")) return existsSync(path.join(at, part)) && walk(path.join(at, part), more);
    const re = new RegExp(`^${part.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`);
    let names: string[] = [];
    try {
      names = readdirSync(at);
    } catch {
      return false;
    }
    return names.some((name) => re.test(name) && walk(path.join(at, name), more));
  };
  return walk(dir, parts);
}

/** The folders a package's map must show: its own top-level folders, and those directly in src/. */
function folders(dir: string): string[] {
  const list = (at: string) =>
    readdirSync(path.join(dir, at), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith(".") && !UNMAPPED.has(entry.name))
      .map((entry) => `${at ? `${at}/` : ""}${entry.name}/`);
  const top = list("");
  return [...top, ...(top.includes("src/") ? list("src") : [])];
}

describe("the README maps", () => {
  it("reads a map's paths, nested by indentation, and skips descriptions", () => {
    const markdown = [
      MARKER,
      "```",
      "src/main.ts         the command line",
      "src/topology/       which process does what:",
      "  run.ts              its role",
      "                      (continued: not a path)",
      "  cluster/*.ts        the cluster",
      "testing/",
      "```",
    ].join("\n");
    expect(resolveEntries(readMaps(markdown)[0]!)).toEqual(["src/main.ts", "src/topology/", "src/topology/run.ts", "src/topology/cluster/*.ts", "testing/"]);
  });

  it("reads a table's paths from the code spans of its first column", () => {
    const markdown = [MARKER, "| path | what |", "|---|---|", "| `lib/a.cjs`, `templates/` | two |", "| `spec.test.ts` | the `tests` |", "", "after"].join("\n");
    expect(resolveEntries(readMaps(markdown)[0]!)).toEqual(["lib/a.cjs", "templates/", "spec.test.ts"]);
  });

  it.each(mapped)("%s: every path on its map exists", (dir) => {
    const paths = readMaps(readFileSync(path.join(root, dir, "README.md"), "utf8")).flatMap(resolveEntries);
    expect(paths.filter((entry) => !exists(path.join(root, dir), entry))).toEqual([]);
  });

  it.each(mapped)("%s: every folder is on its map", (dir) => {
    const paths = readMaps(readFileSync(path.join(root, dir, "README.md"), "utf8")).flatMap(resolveEntries);
    const onMap = (folder: string) => paths.some((entry) => entry === folder || entry.startsWith(folder));
    // A package with folders has a map (one without, such as examples/, needs none).
    expect(folders(path.join(root, dir)).filter((folder) => !onMap(folder)), `folders missing from the map in ${dir}/README.md (a block or table after ${MARKER})`).toEqual([]);
  });
});
