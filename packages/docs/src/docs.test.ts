import { execFile, spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { get } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../../../tools/generate.mjs";

const docsRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = path.resolve(docsRoot, "../..");
const specPath = path.join(repoRoot, "openrpc.json");
const generatedPath = path.join(docsRoot, "src/generated/index.html");
const run = promisify(execFile);

interface Param { name: string }
interface ErrorObject { code?: number; message?: string; $ref?: string }
interface Example { name: string; params: { name: string; value: unknown }[]; result?: { value: unknown } }
interface Method {
  name: string;
  summary?: string;
  params: Param[];
  errors?: ErrorObject[];
  examples?: Example[];
  "x-requires-auth"?: boolean;
}
interface Spec {
  info: { title: string; version: string; description: string };
  methods: Method[];
  components: { schemas: Record<string, unknown>; errors: Record<string, ErrorObject> };
}

const spec = JSON.parse(await readFile(specPath, "utf8")) as Spec;
const page = await readFile(generatedPath, "utf8");

const text = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const unescape = (s: string) => s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** The HTML of the `<tag>` element that carries `id`, up to its closing tag (articles do not nest). */
function block(id: string, tag: string): string {
  const at = page.indexOf(`id="${id}"`);
  expect(at, `element #${id}`).toBeGreaterThan(-1);
  return page.slice(page.lastIndexOf(`<${tag}`, at), page.indexOf(`</${tag}>`, at));
}

const errorCode = (e: ErrorObject): number =>
  e.$ref ? (spec.components.errors[e.$ref.split("/").pop()!]!.code as number) : (e.code as number);

describe("generated index.html", () => {
  it("starts with the generated header and stays in standards mode", () => {
    const [first, second] = page.split("\n");
    expect(first).toMatch(/^<!-- generated — do not edit\..* -->$/);
    expect(second).toBe("<!doctype html>");
    // Opens offline: no scripts, no embedded resources, links only within the page or to style.css.
    expect(page).toContain('<link rel="stylesheet" href="style.css">');
    expect(page).not.toMatch(/<(script|style|img|iframe|object|embed|audio|video|source)\b/i);
    for (const [, href] of page.matchAll(/\shref="([^"]*)"/g)) expect(href).toMatch(/^(#.+|style\.css)$/);
  });

  it("has the title, version and every overview section of info.description", () => {
    expect(page).toContain(`<title>${text(spec.info.title)} ${text(spec.info.version)}`);
    for (const [, heading] of spec.info.description.matchAll(/^#{1,6}\s+(.*)$/gm)) {
      expect(page).toContain(`>${text(heading!)}</h`);
    }
  });

  it("documents every method with its params, token requirement, errors and examples", () => {
    for (const method of spec.methods) {
      const html = block(`method-${method.name}`, "article");
      expect(page).toContain(`href="#method-${method.name}"`);
      expect(html).toContain(`<code>${method.name}</code>`);
      if (method.summary) expect(html).toContain(text(method.summary));
      for (const param of method.params) expect(html).toContain(`<code>${param.name}</code>`);
      expect(html).toContain(method["x-requires-auth"] === true ? "needs token" : "no token");
      for (const error of method.errors ?? []) expect(html).toContain(`<code>${errorCode(error)}</code>`);

      // Every example appears as the exact wire request and response, params by position.
      const blocks = [...html.matchAll(/<pre><code class="json">([\s\S]*?)<\/code><\/pre>/g)].map((m) => JSON.parse(unescape(m[1]!)));
      for (const example of method.examples ?? []) {
        const byName = new Map(example.params.map((p) => [p.name, p.value]));
        const params = method.params.map((p) => (byName.has(p.name) ? byName.get(p.name) : null));
        while (params.length > 0 && !byName.has(method.params[params.length - 1]!.name)) params.pop();
        expect(blocks).toContainEqual({ jsonrpc: "2.0", id: 1, method: method.name, params });
        expect(blocks).toContainEqual({ jsonrpc: "2.0", id: 1, result: example.result?.value });
      }
    }
  });

  it("documents every component schema and its fields", () => {
    for (const [name, schema] of Object.entries(spec.components.schemas)) {
      const html = block(`schema-${name}`, "article");
      expect(html).toContain(`<code>${name}</code>`);
      const properties = (schema as { properties?: Record<string, unknown> }).properties ?? {};
      for (const field of Object.keys(properties)) expect(html).toContain(`<code>${field}</code>`);
    }
  });

  it("lists every error code, from components.errors and from the description's table", () => {
    const codes = new Set<number>(Object.values(spec.components.errors).map((e) => e.code as number));
    for (const method of spec.methods) for (const error of method.errors ?? []) codes.add(errorCode(error));
    for (const [code] of spec.info.description.matchAll(/-32\d{3}/g)) codes.add(Number(code));
    const table = page.slice(page.indexOf('<section id="error-codes">'));
    for (const [name, error] of Object.entries(spec.components.errors)) {
      expect(table).toContain(`id="error-${name}"`);
      expect(table).toContain(`<code>${error.code}</code>`);
    }
    for (const code of codes) expect(page).toContain(String(code));
  });

  it("has the authentication section from info.description", () => {
    const section = /## Authentication\n([^\n]+)/.exec(spec.info.description);
    expect(section).not.toBeNull();
    const html = page.slice(page.indexOf('id="overview-authentication"'));
    expect(html).toMatch(/^id="overview-authentication">Authentication<\/h3>/);
    // The section's first words, with code spans as the page renders them.
    const words = section![1]!.split("`")[0]!;
    expect(html).toContain(text(words));
    expect(html).toContain("Authorization: Bearer &lt;token&gt;");
  });
});

describe("regeneration", () => {
  const tmpDirs: string[] = [];
  afterAll(async () => {
    for (const dir of tmpDirs) await rm(dir, { recursive: true, force: true });
  });

  it("renders a changed spec into the page, leaving the repository's page untouched", async () => {
    const before = await readFile(generatedPath);
    const outRoot = await mkdtemp(path.join(tmpdir(), "neutral-docs-"));
    tmpDirs.push(outRoot);
    const changed = JSON.parse(await readFile(specPath, "utf8")) as Spec;
    const marker = `Docs regeneration marker ${process.pid}-${Date.now()}`;
    changed.methods[changed.methods.length - 1]!.summary = marker;
    const changedSpec = path.join(outRoot, "openrpc.json");
    await writeFile(changedSpec, JSON.stringify(changed, null, 2));

    await generate({ specPath: changedSpec, outRoot });

    const fresh = await readFile(path.join(outRoot, "packages/docs/src/generated/index.html"), "utf8");
    expect(fresh).toContain(marker);
    expect(page).not.toContain(marker);
    expect((await readFile(generatedPath)).equals(before)).toBe(true);
  });

  it("is deterministic: the same spec gives the same bytes", async () => {
    const pages: Buffer[] = [];
    for (let i = 0; i < 2; i++) {
      const outRoot = await mkdtemp(path.join(tmpdir(), "neutral-docs-"));
      tmpDirs.push(outRoot);
      await generate({ specPath, outRoot });
      pages.push(await readFile(path.join(outRoot, "packages/docs/src/generated/index.html")));
    }
    expect(pages[0]!.equals(pages[1]!)).toBe(true);
  });
});

describe("build.mjs", () => {
  it("copies the page and the stylesheet into dist/", async () => {
    await run(process.execPath, ["build.mjs"], { cwd: docsRoot });
    expect(await readFile(path.join(docsRoot, "dist/index.html"), "utf8")).toBe(page);
    expect(await readFile(path.join(docsRoot, "dist/style.css"), "utf8")).toBe(await readFile(path.join(docsRoot, "src/style.css"), "utf8"));
  });

  it("fails with a clear message when the page has not been generated", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "neutral-docs-build-"));
    try {
      await mkdir(path.join(dir, "src"));
      await copyFile(path.join(docsRoot, "build.mjs"), path.join(dir, "build.mjs"));
      await copyFile(path.join(docsRoot, "src/style.css"), path.join(dir, "src/style.css"));
      const failure = await run(process.execPath, ["build.mjs"], { cwd: dir }).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain("run pnpm generate");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("serve.mjs", () => {
  /** A raw GET (no URL normalization, so `/../x` reaches the server as written). */
  const request = (port: number, urlPath: string) =>
    new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      get({ host: "127.0.0.1", port, path: urlPath }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, type: String(res.headers["content-type"]), body }));
      }).on("error", reject);
    });

  it("serves the page and the stylesheet, nothing else, and stops on SIGTERM", async () => {
    await run(process.execPath, ["build.mjs"], { cwd: docsRoot });
    const child = spawn(process.execPath, ["serve.mjs", "--host", "127.0.0.1", "--port", "0"], { cwd: docsRoot });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const m = /docs listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
          if (m) resolve(Number(m[1]));
        });
        child.on("exit", (code) => reject(new Error(`serve.mjs exited with ${code}`)));
      });

      const index = await request(port, "/");
      expect(index.status).toBe(200);
      expect(index.type).toMatch(/^text\/html/);
      expect(index.body).toContain(`<title>${text(spec.info.title)}`);

      const css = await request(port, "/style.css");
      expect(css.status).toBe(200);
      expect(css.type).toMatch(/^text\/css/);

      for (const urlPath of ["/../package.json", "/%2e%2e/package.json", "/package.json", "/generated/index.html"]) {
        expect((await request(port, urlPath)).status, urlPath).toBe(404);
      }
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});
