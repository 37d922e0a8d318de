// Keeps what a newcomer reads true: every fenced code block of every README.md in the repository
// (found on disk, outside node_modules, so a new package's README is checked without a list) is
// checked by its language:
// - ts, tsx, js, mjs: type-checked strictly (the repository's tsconfig.base.json), all blocks in
//   one TypeScript program, in a throwaway project that depends on every workspace package and
//   resolves it through its package.json exports, as an app would. Each block is its own module.
// - json: must parse. toml (a relay's --config file): must parse; the relay's own tests also read its
//   README's example as a config (src/config.test.ts).
// - sh, bash, shell, console (the `$ ` lines): every command it runs must exist: `pnpm <script>`
//   (in the package.json of the repository or of the README's package; `--filter` names a
//   workspace package that has it), `node <file>` (on disk, from the repository root or the
//   README's folder), and `neutral …` / the relay: the command in `--help`, each `--flag` in that
//   command's `--help`. A pnpm script that ends in `node <file>` passes its arguments on to it.
// - no language, text, nginx, yaml (Prometheus configuration and alert rules): shown, not checked.
// On the line before a fence, `<!-- check: run -->` also runs a ts/js block (after the type check)
// with `node`, against a fresh relay: NEUTRAL_URL is its URL, NEUTRAL_KEY a fresh account's key;
// it must exit 0 and print nothing on stderr. A block that cannot stand alone says so, with a
// reason: `<!-- check: skip REASON -->`. Keep these rare.
// The quick start's two blocks are run too, and compared with examples/ (quickstart.test.ts).
// Relative links of every Markdown file must reach a file, and their #anchors a heading (GitHub's
// ids) of that file.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generatePrivateKey } from "@neutral/client";
import { runAsync } from "@neutral/test-support/exec";
import { startRelay } from "@neutral/relay/testing";
import { parse as parseToml } from "smol-toml";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const examples = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(examples);
const rel = (file: string) => path.relative(root, file);

// ---- finding files and blocks ----------------------------------------------------------------

const SKIP_DIRS = new Set(["node_modules", ".git", ".turbo"]);

function walk(dir: string, accept: (name: string) => boolean, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, accept, out);
    else if (entry.isFile() && accept(entry.name)) out.push(full);
  }
  return out.sort();
}

const readmes = walk(root, (name) => name === "README.md");
const markdownFiles = walk(root, (name) => name.endsWith(".md"));

interface Block {
  /** README path relative to the repository root. */
  readme: string;
  /** 1-based line of the block's first content line. */
  line: number;
  lang: string;
  code: string;
  /** The `check:` directive before the fence, if any. */
  directive: string | undefined;
  closed: boolean;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;

function blocksOf(file: string): Block[] {
  const lines = readFileSync(file, "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent = "", fence = "", info = ""] = open;
    const body: string[] = [];
    let j = i + 1;
    let closed = false;
    for (; j < lines.length; j++) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[j]!);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) {
        closed = true;
        break;
      }
      const text = lines[j]!;
      body.push(text.startsWith(indent) ? text.slice(indent.length) : text.trimStart());
    }
    // The directive is an HTML comment among those right before the fence.
    let directive: string | undefined;
    for (let k = i - 1; k >= 0 && /^\s*(<!--.*-->\s*)?$/.test(lines[k]!); k--) {
      const found = /^\s*<!--\s*check:\s*(.*?)\s*-->\s*$/.exec(lines[k]!);
      if (found) {
        directive = found[1];
        break;
      }
    }
    blocks.push({ readme: rel(file), line: i + 2, lang: info.toLowerCase(), code: `${body.join("\n")}\n`, directive, closed });
    i = j;
  }
  return blocks;
}

const allBlocks = readmes.flatMap(blocksOf);
const where = (block: Block) => `${block.readme}:${block.line - 1}`;

const TYPESCRIPT: Record<string, string> = { ts: ".ts", typescript: ".ts", tsx: ".tsx", js: ".mjs", javascript: ".mjs", mjs: ".mjs" };
const SHELL = new Set(["sh", "bash", "shell", "console"]);
const JSON_LANGS = new Set(["json"]);
const TOML_LANGS = new Set(["toml"]);
const SHOWN = new Set(["", "text", "nginx", "yaml"]);

const checked = allBlocks.filter((block) => block.directive === undefined || block.directive === "run");

// ---- workspace packages ----------------------------------------------------------------------

interface Pkg {
  name: string;
  dir: string;
  scripts: Record<string, string>;
}

const readPkg = (dir: string): Pkg => {
  const json = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { name: string; scripts?: Record<string, string> };
  return { name: json.name, dir, scripts: json.scripts ?? {} };
};
const rootPkg = readPkg(root);
const workspace = readdirSync(path.join(root, "packages"))
  .map((name) => path.join(root, "packages", name))
  .filter((dir) => existsSync(path.join(dir, "package.json")))
  .map(readPkg);
const byName = new Map([...workspace, readPkg(examples), readPkg(path.join(root, "tools"))].map((pkg) => [pkg.name, pkg]));

// ---- the type check ---------------------------------------------------------------------------

/**
 * A throwaway project holding the blocks, one module each, that depends on every workspace
 * package (and on what this package resolves: @types/node, …) through node_modules links.
 */
function blockProject(blocks: Block[]): { dir: string; files: Map<string, Block> } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "neutral-readme-"));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "readme-blocks", private: true, type: "module" }));
  const modules = path.join(dir, "node_modules");
  for (const pkg of workspace) {
    mkdirSync(path.dirname(path.join(modules, pkg.name)), { recursive: true });
    symlinkSync(pkg.dir, path.join(modules, pkg.name), "dir");
  }
  for (const entry of readdirSync(path.join(examples, "node_modules"))) {
    if (entry.startsWith(".") || existsSync(path.join(modules, entry))) continue;
    symlinkSync(realpathSync(path.join(examples, "node_modules", entry)), path.join(modules, entry), "dir");
  }
  const files = new Map<string, Block>();
  for (const block of blocks) {
    const file = path.join(dir, `${block.readme.replace(/[^A-Za-z0-9]+/g, "_")}_L${block.line - 1}${TYPESCRIPT[block.lang]}`);
    writeFileSync(file, block.code);
    files.set(file, block);
  }
  return { dir, files };
}

/** Type-checks the project's blocks in one program; one line per problem, `README:line:col: message`. */
function typeCheck({ dir, files }: { dir: string; files: Map<string, Block> }): string[] {
  writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      extends: path.join(root, "tsconfig.base.json"),
      compilerOptions: { noEmit: true, declaration: false, declarationMap: false, sourceMap: false, types: ["node"], allowJs: true, checkJs: true, moduleDetection: "force", jsx: "preserve" },
      files: [...files.keys()].map((file) => path.basename(file)),
    }),
  );
  const config = ts.readConfigFile(path.join(dir, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dir);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  return [...parsed.errors, ...ts.getPreEmitDiagnostics(program)].map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n  ");
    if (!diagnostic.file || diagnostic.start === undefined) return `TS${diagnostic.code}: ${message}`;
    const block = files.get(path.resolve(diagnostic.file.fileName));
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    const at = block ? `${block.readme}:${block.line + line}:${character + 1}` : `${diagnostic.file.fileName}:${line + 1}`;
    return `${at}: TS${diagnostic.code} ${message}`;
  });
}

/** Runs a block, transpiled to JavaScript beside it, with `env`; its problem, if any. */
async function runBlock(file: string, block: Block, env: Record<string, string>): Promise<string | undefined> {
  const js = ts.transpileModule(block.code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const script = file.replace(/\.[a-z]+$/, ".run.mjs");
  writeFileSync(script, js);
  const result = await runAsync(process.execPath, [script], { cwd: path.dirname(script), timeoutMs: 30_000, env: { ...process.env, ...env } });
  if (result.status === 0 && result.stderr === "") return undefined;
  return `${where(block)}: exit ${result.status ?? result.signal}\n${result.stderr}${result.stdout}`;
}

// ---- shell -----------------------------------------------------------------------------------

interface Shell {
  commands: string[][];
  /** Names defined as shell functions (`name() { … }`), with the commands they run. */
  functions: Set<string>;
}

/** The simple commands of a shell script, command substitutions included; quotes removed. */
function parseShell(source: string): Shell {
  const text = source.replace(/\\\n/g, " ");
  const commands: string[][] = [];
  const functions = new Set<string>();
  let i = 0;
  const isSpace = (c: string | undefined) => c === " " || c === "\t";

  function parse(until: ")" | null): void {
    let words: string[] = [];
    let word: string | null = null;
    const endWord = () => {
      if (word !== null) words.push(word);
      word = null;
    };
    const endCommand = () => {
      endWord();
      while (["{", "then", "do", "else", "!", "time"].includes(words[0]!)) words.shift();
      if (words.length > 0 && !(words.length === 1 && words[0] === "}")) commands.push(words);
      words = [];
    };
    const substitution = () => {
      i += 2; // "$("
      parse(")");
      word = `${word ?? ""}$(…)`;
    };
    while (i < text.length) {
      const c = text[i]!;
      if (c === ")" && until === ")") {
        i++;
        endCommand();
        return;
      }
      if (c === "\n" || c === ";") {
        i++;
        endCommand();
      } else if (isSpace(c)) {
        i++;
        endWord();
      } else if (c === "#" && word === null) {
        while (i < text.length && text[i] !== "\n") i++;
      } else if (c === "|" || c === "&") {
        i += text[i + 1] === c ? 2 : 1;
        endCommand();
      } else if (c === "(" || c === ")") {
        endWord();
        i++;
        let k = i;
        while (isSpace(text[k])) k++;
        if (c === "(" && words.length === 1 && text[k] === ")") {
          functions.add(words[0]!);
          words = [];
          i = k + 1;
        } else endCommand();
      } else if (c === ">" || c === "<") {
        if (word !== null && /^\d+$/.test(word)) word = null;
        endWord();
        i++;
        if (text[i] === c || text[i] === "&") i++;
        while (isSpace(text[i])) i++;
        while (i < text.length && !isSpace(text[i]) && !"\n;|&)".includes(text[i]!)) i++; // the target
      } else if (c === "\\") {
        word = (word ?? "") + (text[i + 1] ?? "");
        i += 2;
      } else if (c === "'") {
        const end = text.indexOf("'", i + 1);
        word = (word ?? "") + text.slice(i + 1, end < 0 ? undefined : end);
        i = end < 0 ? text.length : end + 1;
      } else if (c === "$" && text[i + 1] === "'") {
        let k = i + 2;
        while (k < text.length && text[k] !== "'") k += text[k] === "\\" ? 2 : 1;
        word = (word ?? "") + text.slice(i + 2, k).replace(/\\n/g, "\n");
        i = k + 1;
      } else if (c === "$" && text[i + 1] === "(") {
        substitution();
      } else if (c === '"') {
        word = word ?? "";
        i++;
        while (i < text.length && text[i] !== '"') {
          if (text[i] === "\\") {
            word += text[i + 1] ?? "";
            i += 2;
          } else if (text[i] === "$" && text[i + 1] === "(") substitution();
          else word += text[i++];
        }
        i++;
      } else {
        word = (word ?? "") + c;
        i++;
      }
    }
    endCommand();
  }
  parse(null);
  return { commands, functions };
}

/** The shell source a block runs: the whole block, or in a `console` block its `$ ` lines. */
function shellSource(block: Block): string {
  if (block.lang !== "console") return block.code;
  const lines: string[] = [];
  let continued = false;
  for (const line of block.code.split("\n")) {
    if (line.startsWith("$ ") || continued) {
      lines.push(line.startsWith("$ ") ? line.slice(2) : line);
      continued = line.endsWith("\\");
    }
  }
  return lines.join("\n");
}

async function run(args: string[]): Promise<string> {
  const result = await runAsync(process.execPath, args, { cwd: root, timeoutMs: 30_000, env: { ...process.env, NEUTRAL_KEY: "", NO_COLOR: "1" } });
  if (result.status !== 0) throw new Error(`node ${args.join(" ")} failed (${result.status ?? result.signal}): ${result.stderr}`);
  return result.stdout;
}

const flagsIn = (help: string) => new Set([...help.matchAll(/(?<![\w-])(--[a-z][a-z0-9-]*|-[a-z])\b/g)].map((m) => m[1]!));

const CLI_MAIN = path.join(root, "packages/cli/dist/main.js");
const OPENRPC_MAIN = path.join(root, "packages/openrpc/bin/neutral-openrpc.mjs");
const RELAY_MAIN = path.join(root, "packages/relay/dist/main.js");
/** Every `--help` the shell checks read, fetched once beforehand (loadHelp): the checks themselves stay synchronous. */
const helpCache = new Map<string, string>();
const help = (main: string, ...args: string[]) => {
  const text = helpCache.get([main, ...args].join(" "));
  if (text === undefined) throw new Error(`${[main, ...args].join(" ")} --help was not loaded (loadHelp)`);
  return text;
};
async function loadHelp(): Promise<void> {
  const fetch = async (main: string, ...args: string[]) => helpCache.set([main, ...args].join(" "), await run([main, ...args, "--help"]));
  await Promise.all([fetch(RELAY_MAIN), fetch(OPENRPC_MAIN), fetch(CLI_MAIN)]);
  for (const command of cliCommands()) await fetch(CLI_MAIN, command);
}
/** The commands `neutral --help` lists under "Commands:". */
const cliCommands = () => {
  const section = /^Commands:\n((?: {2}.*\n)+)/m.exec(help(CLI_MAIN))?.[1] ?? "";
  return new Set([...section.matchAll(/^ {2}([a-z][a-z-]*)(?= |$)/gm)].map((m) => m[1]!));
};

/** Flags given to a program, up to a `--`; placeholders (`…`, `$VAR`) are not flags. */
function flagsOf(args: string[]): string[] {
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).filter((arg) => /^--?[a-z]/.test(arg)).map((arg) => arg.split("=")[0]!);
}

function checkRelay(args: string[]): string[] {
  const known = flagsIn(help(RELAY_MAIN));
  return flagsOf(args)
    .filter((flag) => !known.has(flag))
    .map((flag) => `relay flag ${flag} is not in \`node packages/relay/dist/main.js --help\``);
}

function checkNeutral(args: string[]): string[] {
  const command = args.find((arg) => !arg.startsWith("-"));
  if (command === undefined) return flagsOf(args).filter((flag) => !flagsIn(help(CLI_MAIN)).has(flag)).map((flag) => `neutral has no option ${flag}`);
  if (command.includes("$") || command.includes("…")) return [];
  if (!cliCommands().has(command)) return [`neutral has no command ${command} (neutral --help)`];
  if (command === "serve") return checkRelay(args.slice(args.indexOf(command) + 1));
  const known = flagsIn(help(CLI_MAIN, command));
  return flagsOf(args)
    .filter((flag) => !known.has(flag))
    .map((flag) => `neutral ${command} has no option ${flag} (neutral ${command} --help)`);
}

/** `neutral-openrpc <command> …` (also as `npx neutral-openrpc` / `npx @neutral/openrpc`): the command and each flag in its --help. */
function checkOpenrpc(args: string[]): string[] {
  const usage = help(OPENRPC_MAIN);
  const command = args.find((arg) => !arg.startsWith("-"));
  if (command !== undefined && !new RegExp(`^ {2}neutral-openrpc ${command}\\b`, "m").test(usage)) return [`neutral-openrpc has no command ${command} (neutral-openrpc --help)`];
  const known = flagsIn(usage);
  return flagsOf(args)
    .filter((flag) => !known.has(flag))
    .map((flag) => `neutral-openrpc has no option ${flag} (neutral-openrpc --help)`);
}

function checkNodeFile(file: string, args: string[], readmeDir: string): string[] {
  if (file.includes("$") || file.includes("…")) return [];
  const found = [path.resolve(root, file), path.resolve(readmeDir, file)].find((candidate) => existsSync(candidate));
  if (!found) return [`node ${file}: no such file (from the repository root or ${rel(readmeDir) || "."})`];
  if (found === CLI_MAIN) return checkNeutral(args);
  if (found === RELAY_MAIN) return checkRelay(args);
  if (found === OPENRPC_MAIN) return checkOpenrpc(args);
  return [];
}

const PNPM_BUILTINS = new Set(["install", "i", "add", "remove", "update", "exec", "dlx", "why", "list", "ls", "outdated", "pack", "publish", "store", "config", "init", "link", "rebuild", "audit", "env", "root", "bin", "create", "deploy"]);

function checkPnpm(args: string[], readmeDir: string): string[] {
  let k = 0;
  let filter: string | undefined;
  while (args[k]?.startsWith("-")) {
    const option = args[k++]!;
    if (option === "--filter" || option === "-F") filter = args[k++];
    else if (option.startsWith("--filter=")) filter = option.slice("--filter=".length);
    else if (option === "-C" || option === "--dir") k++;
  }
  let name = args[k];
  let rest = args.slice(k + 1);
  if (name === "run") [name, ...rest] = rest;
  if (name === undefined || name.includes("…")) return [];
  let candidates: Pkg[];
  if (filter !== undefined) {
    const pkg = byName.get(filter);
    if (!pkg) return [`pnpm --filter ${filter}: no workspace package of that name`];
    candidates = [pkg];
  } else {
    // From the repository root, or from the README's own package.
    candidates = [rootPkg];
    for (let dir = readmeDir; dir.startsWith(root) && dir !== root; dir = path.dirname(dir)) {
      if (existsSync(path.join(dir, "package.json"))) candidates.push(readPkg(dir));
    }
  }
  const pkg = candidates.find((candidate) => name in candidate.scripts);
  if (!pkg) {
    if (filter === undefined && PNPM_BUILTINS.has(name)) return [];
    return [`pnpm ${name}: no such script in ${candidates.map((candidate) => rel(path.join(candidate.dir, "package.json"))).join(" or ")}`];
  }
  // A script that ends in `node <file>` hands its arguments to that file.
  const script = pkg.scripts[name]!;
  const tail = /(?:^|&&|;)\s*node\s+([^\s;&|]+)\s*$/.exec(script);
  return tail ? checkNodeFile(tail[1]!, rest, pkg.dir) : [];
}

function checkShell(block: Block): string[] {
  const readmeDir = path.dirname(path.join(root, block.readme));
  const { commands } = parseShell(shellSource(block));
  const problems: string[] = [];
  for (const command of commands) {
    const words = [...command];
    while (words.length > 0 && /^[A-Za-z_]\w*=/.test(words[0]!)) words.shift(); // VAR=value cmd
    const [program, ...args] = words;
    if (program === "pnpm") problems.push(...checkPnpm(args, readmeDir));
    else if (program === "node") {
      let k = 0;
      while (args[k]?.startsWith("-")) {
        if (["-e", "-p", "-pe", "--eval", "--print"].includes(args[k]!)) return problems; // inline code
        k++;
      }
      if (args[k] !== undefined) problems.push(...checkNodeFile(args[k]!, args.slice(k + 1), readmeDir));
    } else if (program === "neutral") problems.push(...checkNeutral(args));
    else if (program === "neutral-relay") problems.push(...checkRelay(args));
    else if (program === "neutral-openrpc") problems.push(...checkOpenrpc(args));
    else if (program === "npx" && (args[0] === "neutral-openrpc" || args[0] === "@neutral/openrpc")) problems.push(...checkOpenrpc(args.slice(1)));
  }
  return problems.map((problem) => `${where(block)}: ${problem}`);
}

// ---- links -----------------------------------------------------------------------------------

/** GitHub's id for a heading: lowercase, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  const text = heading
    .replace(/<[^>]*>/g, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** The text of a Markdown file outside fenced code blocks, line by line (fenced lines blank). */
function prose(file: string): string[] {
  let fence: string | null = null;
  return readFileSync(file, "utf8")
    .split("\n")
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === null && marker) {
        fence = marker;
        return "";
      }
      if (fence !== null) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length && /^\s*[`~]+\s*$/.test(line)) fence = null;
        return "";
      }
      return line;
    });
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  if (!anchorCache.has(file)) {
    const anchors = new Set<string>();
    const seen = new Map<string, number>();
    for (const line of prose(file)) {
      const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
      if (heading) {
        const base = slug(heading[1]!);
        const count = seen.get(base) ?? 0;
        seen.set(base, count + 1);
        anchors.add(count === 0 ? base : `${base}-${count}`);
      }
      for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
    }
    anchorCache.set(file, anchors);
  }
  return anchorCache.get(file)!;
}

function checkLinks(file: string): string[] {
  const problems: string[] = [];
  prose(file).forEach((line, index) => {
    const text = line.replace(/(`+)[\s\S]*?\1/g, (code) => " ".repeat(code.length));
    const targets = [
      ...[...text.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
      ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)].map((m) => m[1]!),
    ];
    for (const target of targets) {
      if (target === "" || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [pathPart = "", anchor] = target.split("#", 2);
      const resolved = pathPart === "" ? file : path.resolve(pathPart.startsWith("/") ? root : path.dirname(file), decodeURIComponent(pathPart.replace(/^\//, "")));
      const at = `${rel(file)}:${index + 1}: ${target}`;
      if (!existsSync(resolved)) problems.push(`${at}: no such file`);
      else if (anchor !== undefined && resolved.endsWith(".md") && !anchorsOf(resolved).has(decodeURIComponent(anchor))) problems.push(`${at}: no heading with that id in ${rel(resolved)}`);
    }
  });
  return problems;
}

// ---- the tests -------------------------------------------------------------------------------

beforeAll(loadHelp, 180_000);

describe("every README's code blocks", () => {
  it("are found: every README.md outside node_modules, every block closed, every language known", () => {
    expect(readmes.map(rel)).toEqual(expect.arrayContaining(["README.md", "packages/relay/README.md", "packages/server/README.md", "seeds/README.md", "examples/README.md"]));
    expect(allBlocks.filter((block) => !block.closed).map(where), "unclosed fences").toEqual([]);
    const known = (lang: string) => lang in TYPESCRIPT || SHELL.has(lang) || JSON_LANGS.has(lang) || TOML_LANGS.has(lang) || SHOWN.has(lang);
    expect(allBlocks.filter((block) => !known(block.lang)).map((block) => `${where(block)}: \`\`\`${block.lang}`), "languages this test does not know").toEqual([]);
  });

  it("say `<!-- check: run -->` only before ts/js, and skip a check only with a reason (`<!-- check: skip REASON -->`)", () => {
    const bad = allBlocks.filter(
      (block) => block.directive !== undefined && !(block.directive === "run" && block.lang in TYPESCRIPT) && !/^skip\s+\S+(\s+\S+){2,}/.test(block.directive),
    );
    expect(bad.map((block) => `${where(block)}: <!-- check: ${block.directive} -->`)).toEqual([]);
  });

  describe("ts/tsx/js/mjs", () => {
    let project: ReturnType<typeof blockProject>;
    beforeAll(() => {
      project = blockProject(checked.filter((block) => block.lang in TYPESCRIPT));
    });
    afterAll(() => {
      if (project) rmSync(project.dir, { recursive: true, force: true });
    });

    it(
      "type-check strictly against the workspace packages, in one program",
      () => {
        expect(project.files.size).toBeGreaterThan(5);
        expect(typeCheck(project)).toEqual([]);
      },
      // One TypeScript program over every block and the packages' declarations: 3-5 s alone on
      // the 2-core machine, several times that while turbo runs other packages' tests beside it.
      120_000,
    );

    it("import only workspace packages this package depends on (so that turbo builds them before this test)", () => {
      const pkg = JSON.parse(readFileSync(path.join(examples, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
      const dependencies = new Set(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }));
      const missing = [...project.files.values()].flatMap((block) =>
        [...block.code.matchAll(/\bfrom\s+["'](@neutral\/[^/"']+)/g)].map((m) => m[1]!).filter((name) => !dependencies.has(name)).map((name) => `${where(block)}: ${name}`),
      );
      expect(missing, "add them to examples/package.json (devDependencies)").toEqual([]);
    });

    it(
      "`<!-- check: run -->` blocks run against a fresh relay, with NEUTRAL_URL and a fresh NEUTRAL_KEY",
      async () => {
        const runs = [...project.files].filter(([, block]) => block.directive === "run");
        expect(runs.length).toBeGreaterThan(0);
        const relay = await startRelay();
        try {
          const problems: (string | undefined)[] = [];
          for (const [file, block] of runs) problems.push(await runBlock(file, block, { NEUTRAL_URL: relay.url, NEUTRAL_KEY: generatePrivateKey() }));
          expect(problems.filter((problem) => problem !== undefined)).toEqual([]);
        } finally {
          await relay.stop();
        }
      },
      // A relay start and one node process per block (each ≤ 30 s).
      120_000,
    );
  });

  it("toml: parse", () => {
    const blocks = checked.filter((block) => TOML_LANGS.has(block.lang));
    expect(blocks.length, "the relay README's example config").toBeGreaterThan(0);
    const problems: string[] = [];
    for (const block of blocks) {
      try {
        parseToml(block.code);
      } catch (error) {
        problems.push(`${where(block)}: ${(error as Error).message.split("\n")[0]}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("json: parse", () => {
    const problems: string[] = [];
    for (const block of checked.filter((block) => JSON_LANGS.has(block.lang))) {
      try {
        JSON.parse(block.code);
      } catch (error) {
        problems.push(`${where(block)}: ${(error as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it(
    "sh/bash/console: every pnpm script, node file and neutral command (and flag) they run exists",
    () => {
      const blocks = checked.filter((block) => SHELL.has(block.lang));
      expect(blocks.length).toBeGreaterThan(3);
      expect(blocks.flatMap(checkShell)).toEqual([]);
    },
    // Runs the built CLI and relay for their --help, a few times.
    60_000,
  );
});

describe("what the READMEs say about the code", () => {
  it("links: every relative link of every Markdown file reaches a file, and its #anchor a heading", () => {
    expect(markdownFiles.flatMap(checkLinks)).toEqual([]);
  });

  it(
    "the relay README documents every flag of `neutral-relay --help`, and names no flag the relay lacks",
    () => {
      const readme = readFileSync(path.join(root, "packages/relay/README.md"), "utf8");
      const documented = new Set([...readme.matchAll(/`(--[a-z][a-z0-9-]*)/g)].map((m) => m[1]!));
      const flags = flagsIn(help(RELAY_MAIN));
      // Node's own flags, named where the README discusses V8 settings and profiling.
      const NODE_FLAGS = new Set(["--cpu-prof", "--heap-growing-percent", "--single-threaded-gc", "--no-single-threaded-gc"]);
      expect([...flags].filter((flag) => !documented.has(flag))).toEqual([]);
      expect([...documented].filter((flag) => !flags.has(flag) && !NODE_FLAGS.has(flag))).toEqual([]);
    },
    30_000,
  );

  it(
    "the CLI README lists every command of `neutral --help`",
    () => {
      const readme = readFileSync(path.join(root, "packages/cli/README.md"), "utf8");
      expect([...cliCommands()].filter((command) => !readme.includes(`\`neutral ${command}`))).toEqual([]);
    },
    30_000,
  );

  it("a spec version a README states is openrpc.json's `info.version`", () => {
    const { version } = (JSON.parse(readFileSync(path.join(root, "openrpc.json"), "utf8")) as { info: { version: string } }).info;
    const stated = readmes.flatMap((file) => [...readFileSync(file, "utf8").matchAll(/info\.version`?[^.\n]{0,20}?`?(\d+\.\d+\.\d+)/g)].map((m) => `${rel(file)}: ${m[1]}`));
    expect(stated.filter((entry) => !entry.endsWith(`: ${version}`))).toEqual([]);
  });
});

describe("the shell parser of this test", () => {
  it("finds the commands, substitutions included, and drops quotes, comments, redirections and assignments", () => {
    const { commands, functions } = parseShell(
      [
        `neutral() { node packages/cli/dist/main.js "$@"; }   # a function`,
        `NEUTRAL_KEY=$(echo "$bob" | field privateKey) neutral send "$(echo "$bob" | field address)" 'Hello, Bob!'`,
        `pnpm -s neutral --help >&2 && node bench/run.mjs \\`,
        `  --quick 2>/dev/null; neutral send 0x… $'a\\nb' &`,
      ].join("\n"),
    );
    expect([...functions]).toEqual(["neutral"]);
    expect(commands).toEqual([
      ["node", "packages/cli/dist/main.js", "$@"],
      ["echo", "$bob"],
      ["field", "privateKey"],
      ["echo", "$bob"],
      ["field", "address"],
      ["NEUTRAL_KEY=$(…)", "neutral", "send", "$(…)", "Hello, Bob!"],
      ["pnpm", "-s", "neutral", "--help"],
      ["node", "bench/run.mjs", "--quick"],
      ["neutral", "send", "0x…", "a\nb"],
    ]);
  });

  it("reports a missing script, file, command and flag", () => {
    const block = (code: string, lang = "sh"): Block => ({ readme: "README.md", line: 2, lang, code, directive: undefined, closed: true });
    const problems = checkShell(block("$ pnpm nosuchscript\n$ node nosuch.mjs\nnot a command\n$ neutral frobnicate\n$ neutral inbox --nosuch\n$ pnpm start --nosuch\n", "console"));
    expect(problems).toEqual([
      "README.md:1: pnpm nosuchscript: no such script in package.json",
      "README.md:1: node nosuch.mjs: no such file (from the repository root or .)",
      "README.md:1: neutral has no command frobnicate (neutral --help)",
      "README.md:1: neutral inbox has no option --nosuch (neutral inbox --help)",
      "README.md:1: relay flag --nosuch is not in `node packages/relay/dist/main.js --help`",
    ]);
    expect(checkShell(block("$ npx @neutral/openrpc frobnicate\n$ neutral-openrpc generate --spec x --nosuch\n$ npx neutral-openrpc create d --spec x\n", "console"))).toEqual([
      "README.md:1: neutral-openrpc has no command frobnicate (neutral-openrpc --help)",
      "README.md:1: neutral-openrpc has no option --nosuch (neutral-openrpc --help)",
    ]);
  }, 30_000);
});
