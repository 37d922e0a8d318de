// Generation: an OpenRPC document → the chosen targets (client, server stub, docs, or a project's own
// custom component), each into its own directory, which it owns entirely (cleared first, so a removed
// method leaves nothing behind). @open-rpc/generator is the engine that runs the components.
import { cp, mkdir, mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const srcDir = path.dirname(fileURLToPath(import.meta.url));
const { buildModel } = require("./lib/model.cjs");
const { withContext } = require("./lib/component.cjs");
const { refuseExternalRefs } = require("./lib/refs.cjs");

/** The built-in targets: the component that renders each, and its default options. */
export const BUILT_IN_TARGETS = {
  client: { component: path.join(srcDir, "components/client.cjs"), language: "typescript", defaults: { runtime: "@neutral/client/rpc" } },
  server: { component: path.join(srcDir, "components/server.cjs"), language: "typescript", defaults: { runtime: "@neutral/server" } },
  docs: { component: path.join(srcDir, "components/docs.cjs"), language: "html", defaults: {} },
};

export const { DocumentError } = require("./lib/errors.cjs");

/** Reads and parses a document; a missing file or bad JSON is a `DocumentError` naming the file. */
export async function readDocument(specPath) {
  let text;
  try {
    text = await readFile(specPath, "utf8");
  } catch (error) {
    throw new DocumentError(`cannot read ${specPath}: ${error.code === "ENOENT" ? "no such file" : error.message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DocumentError(`${specPath} is not JSON: ${error.message}`);
  }
}

/**
 * Validates against the OpenRPC meta-schema of @open-rpc/schema-utils-js 2 (which knows 1.0 to
 * 1.3.x). Throws a `DocumentError` listing each violation as `path: message`.
 */
export function validateDocument(document, name = "the document") {
  const { validateOpenRPCDocument } = require("@open-rpc/schema-utils-js");
  const result = validateOpenRPCDocument(document);
  if (result === true) return;
  // The library puts Ajv's errors in its message, as JSON after a sentence.
  const message = String(result.message || result);
  let found = [];
  try {
    found = JSON.parse(message.slice(message.indexOf("[")));
  } catch {
    found = [];
  }
  const lines = found
    .filter((e) => e.keyword !== "oneOf" || found.length === 1)
    .slice(0, 10)
    .map((e) => `  ${(e.instancePath || e.dataPath || "").replace(/^\./, "/").replace(/\[(\d+)\]/g, "/$1").replace(/\./g, "/") || "/"}: ${e.message}`);
  throw new DocumentError(`${name} is not a valid OpenRPC document:\n${lines.join("\n") || "  " + message}`);
}

/**
 * What the engine (@open-rpc/generator 1.22) is handed. It only runs our components, which render
 * from the document as written (the context), never from the engine's copy; and it validates with
 * a meta-schema that knows OpenRPC up to 1.2.6 only (where every method has a `result`) and
 * dereferences every schema (which never ends on a recursive one). So it gets the document's
 * skeleton: its info and method names, each with an empty result, and no schemas.
 */
function engineView(document) {
  const methods = (document.methods || []).map((method, i) => ({
    name: method && typeof method.name === "string" ? method.name : `method${i}`,
    params: [],
    result: { name: "result", schema: {} },
  }));
  return { openrpc: "1.2.6", info: { title: document.info.title, version: document.info.version }, methods };
}

/** The do-not-edit line at the top of every generated file. */
export const headerFor = (specName) => `generated — do not edit. Source: ${specName} via neutral-openrpc (regenerate instead).`;

/**
 * @param {object} options
 * @param {string} options.spec path of the OpenRPC document
 * @param {Record<string, {out: string, component?: string, language?: string, runtime?: string}>} options.targets
 *   target name → where it goes; a name other than client/server/docs needs `component` (a custom
 *   @open-rpc/generator component, e.g. one built with `@neutral/openrpc/component`)
 * @param {string} [options.specName] how the header names the spec (default: its file name)
 * @param {boolean} [options.bundle] resolve `$ref`s into other files first (bundle.mjs)
 */
export async function generate({ spec, targets, specName, bundle }) {
  const document = bundle ? await (await import("./bundle.mjs")).bundleDocument(spec) : await readDocument(spec);
  refuseExternalRefs(document, spec);
  validateDocument(document, spec);
  const model = buildModel(document);
  const resolved = Object.entries(targets).map(([name, options]) => {
    const builtIn = BUILT_IN_TARGETS[name];
    const component = options.component ?? builtIn?.component;
    if (!component) throw new DocumentError(`target ${name}: not a built-in target (client, server, docs) and no \`component\` given`);
    if (!options.out) throw new DocumentError(`target ${name}: no \`out\` directory`);
    return { name, out: options.out, component, language: options.language ?? builtIn?.language ?? "typescript", options: { ...builtIn?.defaults, ...options } };
  });
  const context = {
    document,
    model,
    header: headerFor(specName ?? path.basename(spec)),
    targets: Object.fromEntries(resolved.map((t) => [t.name, t.options])),
  };
  const { default: runEngine } = require("@open-rpc/generator");
  // Into a scratch folder first: a failure half-way leaves every target's folder as it was.
  const scratch = await mkdtemp(path.join(tmpdir(), "neutral-openrpc-"));
  try {
    const components = resolved.map((t) => ({
      type: "custom",
      name: t.name,
      language: t.language,
      customComponent: t.component,
      customType: t.name,
      openRPCPath: null,
      outPath: path.join(scratch, t.name),
    }));
    // As text: the engine dereferences a parsed object in place.
    await withContext(context, () => runEngine({ openrpcDocument: JSON.stringify(engineView(document)), components }));
    for (const target of resolved) {
      await rm(target.out, { recursive: true, force: true });
      await mkdir(path.dirname(target.out), { recursive: true });
      await cp(path.join(scratch, target.name), target.out, { recursive: true });
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return { model };
}

async function listFiles(root) {
  const out = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (entry.isFile()) out.push(path.relative(root, path.join(entry.parentPath ?? entry.path, entry.name)));
  }
  return out.sort();
}

/** Generates into a temp dir and lists the files of each target's `out` that differ (empty: up to date). */
export async function findStaleFiles({ spec, targets, specName, bundle }) {
  const scratch = await mkdtemp(path.join(tmpdir(), "neutral-openrpc-check-"));
  try {
    const fresh = Object.fromEntries(Object.entries(targets).map(([name, t]) => [name, { ...t, out: path.join(scratch, name) }]));
    await generate({ spec, targets: fresh, specName, bundle });
    const stale = [];
    for (const [name, t] of Object.entries(targets)) {
      const files = new Set([...(await listFiles(fresh[name].out)), ...(await listFiles(t.out))]);
      for (const file of files) {
        const a = await readFile(path.join(fresh[name].out, file)).catch(() => null);
        const b = await readFile(path.join(t.out, file)).catch(() => null);
        if (!a || !b || !a.equals(b)) stale.push(path.join(t.out, file));
      }
    }
    return stale;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * A config file (JSON): `{"spec": "openrpc.json", "targets": {"client": {"out": "…"}, …}}`, paths
 * relative to the file. Returns options for `generate`/`findStaleFiles` with absolute paths.
 */
export async function readConfig(configPath) {
  const file = path.resolve(configPath);
  const dir = path.dirname(file);
  const config = await readDocument(file);
  if (!config.spec || !config.targets || typeof config.targets !== "object") throw new DocumentError(`${configPath}: needs "spec" and "targets"`);
  const targets = {};
  for (const [name, t] of Object.entries(config.targets)) {
    targets[name] = { ...t, out: path.resolve(dir, t.out), ...(t.component && { component: path.resolve(dir, t.component) }) };
  }
  return { spec: path.resolve(dir, config.spec), targets, specName: config.specName, ...(config.bundle === true && { bundle: true }) };
}
