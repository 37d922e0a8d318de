// `neutral-openrpc create DIR --spec FILE`: scaffolds a standalone server project for any OpenRPC
// document. The project owns its copy of the spec (openrpc.json) and its hand-written files from then
// on; only src/generated/ is ever rewritten (by `npm run generate`, i.e. `generate` below).
//
// What it writes:
// - the files of scaffold/project/ (each `NAME.tpl` → `NAME`, `gitignore.tpl` → `.gitignore`:
//   npm leaves a `.gitignore` out of a package), with `{{title}}`, `{{name}}`… filled in;
// - package.json (versions from scaffold/versions.json), neutral-openrpc.json, openrpc.json (copied
//   byte for byte), built here;
// - src/handlers/: one file per method, and the index that names them all, built here;
// - src/generated/: the server stub, by `generate` with the project's own config.
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleDocument } from "./bundle.mjs";
import { generate, readConfig, readDocument, validateDocument } from "./generate.mjs";

const require = createRequire(import.meta.url);
const { buildModel } = require("./lib/model.cjs");
const { DocumentError } = require("./lib/errors.cjs");
const { refuseExternalRefs } = require("./lib/refs.cjs");
const { createNamespace, words } = require("./lib/names.cjs");

const scaffoldDir = fileURLToPath(new URL("../scaffold/", import.meta.url));
const projectDir = path.join(scaffoldDir, "project");

/** Template files whose name in the project is not their own minus `.tpl`. */
const RENAMED = { "gitignore.tpl": ".gitignore" };

/** The project's config for `neutral-openrpc generate --config` (`npm run generate`). */
const CONFIG = { spec: "openrpc.json", targets: { server: { out: "src/generated" } } };

/**
 * The versions the scaffold's package.json asks for: `{package: range}`. The toolkit's packages are
 * released together under one version (RELEASING.md), so a scaffold asks for the release it was made
 * by; scaffold/versions.json gives the rest (TypeScript, Node's types).
 */
export async function scaffoldVersions() {
  const { version } = JSON.parse(await readFile(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8"));
  const release = `^${version}`;
  return { "@neutral/server": release, "@neutral/openrpc": release, ...JSON.parse(await readFile(path.join(scaffoldDir, "versions.json"), "utf8")) };
}

/**
 * A valid npm package name from `raw` (a directory name or `--name`): lower case, only the
 * characters npm allows, no leading dot or underscore, at most 214 characters; a scope is kept.
 */
export function npmName(raw) {
  const clean = (part) =>
    part
      .toLowerCase()
      .replace(/[^a-z0-9._~-]+/g, "-")
      .replace(/-{2,}/g, "-")
      .replace(/^[._-]+|[.-]+$/g, "");
  const scoped = /^@([^/]+)\/(.+)$/.exec(String(raw).trim());
  const scope = scoped ? clean(scoped[1]) : "";
  const base = clean(scoped ? scoped[2] : String(raw).trim()) || "openrpc-server";
  const name = scope ? `@${scope}/${base}` : base;
  return name.slice(0, 214).replace(/[.-]+$/, "");
}

/** Whether `dir` can be scaffolded into: it does not exist, or is an empty directory. */
async function checkTarget(dir) {
  let entries;
  try {
    entries = await readdir(dir);
  } catch (error) {
    if (error.code === "ENOENT") return;
    if (error.code === "ENOTDIR") throw new DocumentError(`${dir} is a file; create needs a new or empty directory`);
    throw error;
  }
  if (entries.length > 0) {
    throw new DocumentError(`${dir} is not empty (${entries.length} entr${entries.length === 1 ? "y" : "ies"}); create needs a new or empty directory`);
  }
}

/** One line of a `//` comment: no line breaks. */
const oneLine = (text) => String(text).replace(/\s+/g, " ").trim();

/**
 * Per method: the handler's file (kebab-cased from the generated function name, `listPets` →
 * `list-pets.ts`, unique even on a case-insensitive file system) and the name of the const it
 * exports (the function name; one the handler files use themselves gets a suffix).
 */
export function handlerFiles(model) {
  const consts = createNamespace(["handlers", "notImplemented", "Handlers"]);
  const files = createNamespace(["index"]); // lower case: unique on any file system
  return model.methods.map((method) => {
    const base = words(method.fn).join("-").toLowerCase() || "method";
    return { method, constName: consts.take(method.fn), file: `${files.take(base)}.ts` };
  });
}

function handlerSource({ method, constName }) {
  const key = JSON.stringify(method.name);
  const lines = [`// ${oneLine(method.name)}${method.summary ? ` — ${oneLine(method.summary)}` : ""}`, "//"];
  if (method.subscription) {
    lines.push(
      `// Answers an event stream: return an async iterable (an \`async function*\`) of its notifications,`,
      `// ${method.typeBase}Notification in ../generated/types.ts; stop when context.signal aborts.`,
    );
  } else if (method.notification) {
    lines.push(`// A notification: the client expects no answer, so whatever this returns is not sent.`);
  } else {
    lines.push(`// Return its result (${method.typeBase}Result in ../generated/types.ts), or throw an RpcError.`);
  }
  if (method.requiresAuth) lines.push(`// Called only with an authenticated context (see \`authenticate\` in ../server.ts).`);
  // A method with one result gets its return type spelled out: an async function returning a bare
  // literal ("pong", a value of an enum) keeps its literal type only against a Promise type, and
  // Handlers' own return type (a value or a Promise of one) would widen it to string.
  const answers = !method.subscription && !method.notification;
  const resultType = `${method.typeBase}Result`;
  lines.push(
    `// Until it is written, it answers the not-implemented error.`,
    ``,
    `import type { Handlers${answers ? `, ${resultType}` : ""} } from "../generated/index.js";`,
    `import { notImplemented } from "../not-implemented.js";`,
    ``,
    `export const ${constName}: Handlers[${key}] = async (args, context)${answers ? `: Promise<${resultType}>` : ""} => {`,
    `  throw notImplemented(${key});`,
    `};`,
    ``,
  );
  return lines.join("\n");
}

function handlersIndexSource(entries) {
  return [
    `// The handlers this server serves: one per method of openrpc.json, each in a file of its own.`,
    `// Hand-written (neutral-openrpc create wrote it once). When openrpc.json gains a method and`,
    `// \`npm run generate\` has run, tsc reports it missing here ("Property '…' is missing in type");`,
    `// write its handler in a new file and add it below.`,
    `import type { Handlers } from "../generated/index.js";`,
    ...entries.map(({ constName, file }) => `import { ${constName} } from "./${file.replace(/\.ts$/, ".js")}";`),
    ``,
    `export const handlers: Handlers = {`,
    ...entries.map(({ method, constName }) => `  ${JSON.stringify(method.name)}: ${constName},`),
    `};`,
    ``,
  ].join("\n");
}

async function packageJson(name, model) {
  const versions = await scaffoldVersions();
  const pick = (...names) => Object.fromEntries(names.map((n) => [n, versions[n]]));
  const what = [model.title, model.version].filter(Boolean).join(" ");
  return {
    name,
    version: "0.1.0",
    private: true,
    description: `A JSON-RPC 2.0 server for ${what || "an OpenRPC service"}, scaffolded from openrpc.json by neutral-openrpc.`,
    type: "module",
    engines: { node: ">=20" },
    scripts: {
      generate: "neutral-openrpc generate --config neutral-openrpc.json",
      build: "tsc -p tsconfig.json",
      start: "node dist/server.js",
      test: "npm run build && node --test",
    },
    dependencies: pick("@neutral/server"),
    devDependencies: pick("@neutral/openrpc", "@types/node", "typescript"),
  };
}

/** `{{key}}` → `values[key]`; an unknown key is a bug in a template. */
function fill(template, values, file) {
  return template.replace(/\{\{(\w+)\}\}/g, (_, key) => {
    if (!(key in values)) throw new Error(`scaffold template ${file}: unknown placeholder {{${key}}}`);
    return values[key];
  });
}

/**
 * Scaffolds a server project for the document `spec` into `dir` (which must not exist or be empty).
 * @param {string} dir
 * @param {{spec: string, name?: string, bundle?: boolean}} options  `bundle`: resolve `$ref`s into
 *   other files first; the project's openrpc.json is then the bundled document
 * @returns {Promise<{files: string[], renamed: {what: string, wanted: string, name: string, takenBy: string | undefined}[]}>}
 *   the files written, relative to `dir`, sorted; the names given a suffix (see the model's `renamed`)
 */
export async function create(dir, { spec, name, bundle } = {}) {
  if (!spec) throw new DocumentError("create needs a spec (the OpenRPC document)");
  dir = path.resolve(dir);
  await checkTarget(dir);
  // Everything that can be wrong with the input is found before anything is written.
  const document = bundle ? await bundleDocument(spec) : await readDocument(spec);
  refuseExternalRefs(document, spec);
  validateDocument(document, spec);
  const model = buildModel(document);
  const packageName = npmName(name ?? path.basename(dir));

  const written = [];
  /** @type {{ what: string, wanted: string, name: string, takenBy: string | undefined }[]} */
  let renamed = [];
  const write = async (file, content) => {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
    written.push(file);
  };
  const existed = await readdir(dir).then(() => true, () => false);
  try {
    await mkdir(dir, { recursive: true });
    const values = { name: packageName, title: model.title || "the service", version: model.version || "" };
    for (const entry of await readdir(projectDir, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile()) continue;
      const source = path.join(entry.parentPath ?? entry.path, entry.name);
      const relative = path.relative(projectDir, source);
      const target = path.join(path.dirname(relative), RENAMED[entry.name] ?? entry.name.replace(/\.tpl$/, ""));
      await write(target, fill(await readFile(source, "utf8"), values, relative));
    }
    await write("package.json", `${JSON.stringify(await packageJson(packageName, model), null, 2)}\n`);
    await write("neutral-openrpc.json", `${JSON.stringify(CONFIG, null, 2)}\n`);
    // The document as written; bundled, the one self-contained file the project regenerates from.
    if (bundle) await writeFile(path.join(dir, "openrpc.json"), `${JSON.stringify(document, null, 2)}\n`);
    else await copyFile(spec, path.join(dir, "openrpc.json"));
    written.push("openrpc.json");

    const entries = handlerFiles(model);
    for (const entry of entries) await write(path.join("src/handlers", entry.file), handlerSource(entry));
    await write("src/handlers/index.ts", handlersIndexSource(entries));

    // Exactly what `npm run generate` does in the project.
    ({ model: { renamed } } = await generate(await readConfig(path.join(dir, "neutral-openrpc.json"))));
    const generatedDir = path.join(dir, CONFIG.targets.server.out);
    for (const entry of await readdir(generatedDir, { withFileTypes: true, recursive: true })) {
      if (entry.isFile()) written.push(path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)));
    }
  } catch (error) {
    // Leave the directory as it was found: absent, or empty.
    if (existed) await Promise.all((await readdir(dir).catch(() => [])).map((e) => rm(path.join(dir, e), { recursive: true, force: true })));
    else await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { files: written.map((f) => f.split(path.sep).join("/")).sort(), renamed };
}
