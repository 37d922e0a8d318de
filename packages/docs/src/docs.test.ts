import { execFile, spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { afterAll, describe, expect, it } from "vitest";
import { trackProcessGroup } from "@neutral/test-support/run";
import { generate } from "../../../tools/generate.mjs";
import { MAX_TOKEN_LIFETIME_MS } from "@neutral/protocol";

const docsRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = path.resolve(docsRoot, "../..");
const specPath = path.join(repoRoot, "openrpc.json");
const generatedPath = path.join(docsRoot, "src/generated/index.html");
const run = promisify(execFile);

interface Param { name: string; description?: string; required?: boolean; schema?: { $ref?: string; type?: string; enum?: unknown[] } }
interface ErrorObject { code?: number; message?: string; $ref?: string }
interface StreamEvent { id?: string; method: string; params: unknown }
interface Example { name: string; params: { name: string; value: unknown }[]; result?: { value: unknown }; "x-events"?: StreamEvent[] }
interface Notification { name: string; summary?: string; description?: string; eventId?: string; params: Param[] }
interface Method {
  name: string;
  summary?: string;
  description?: string;
  params: Param[];
  errors?: ErrorObject[];
  examples?: Example[];
  "x-requires-auth"?: boolean | "node";
  "x-subscription"?: { description?: string; notifications: Notification[] };
}
interface Spec {
  info: { title: string; version: string; description: string };
  servers?: { url: string }[];
  methods: Method[];
  components: { schemas: Record<string, unknown>; errors: Record<string, ErrorObject> };
}

const spec = JSON.parse(await readFile(specPath, "utf8")) as Spec;
const page = await readFile(generatedPath, "utf8");

const text = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const unescape = (s: string) => s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** The HTML of the `<tag>` element that carries `id`, up to its closing tag (articles do not nest). */
function block(id: string, tag: string, html = page): string {
  const at = html.indexOf(`id="${id}"`);
  expect(at, `element #${id}`).toBeGreaterThan(-1);
  return html.slice(html.lastIndexOf(`<${tag}`, at), html.indexOf(`</${tag}>`, at));
}

/** Events as an event stream carries them (what the page shows for a stream's example): `id:` when the event has one, one `data:` line. */
const sseText = (events: StreamEvent[]) =>
  events.map((e) => `${e.id !== undefined ? `id: ${e.id}\n` : ""}data: ${JSON.stringify({ jsonrpc: "2.0", method: e.method, params: e.params })}`).join("\n\n");

const streamMethods = spec.methods.filter((m) => m["x-subscription"] !== undefined);

const errorCode = (e: ErrorObject): number =>
  e.$ref ? (spec.components.errors[e.$ref.split("/").pop()!]!.code as number) : (e.code as number);

describe("generated index.html", () => {
  it("starts with the generated header and stays in standards mode", () => {
    const [first, second] = page.split("\n");
    expect(first).toMatch(/^<!-- generated — do not edit\..* -->$/);
    expect(second).toBe("<!doctype html>");
  });

  it("loads only the site's own files: no inline script or style, nothing from elsewhere", () => {
    // The relay's CSP allows scripts, styles and images from the same origin only, nothing inline.
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.map(([, attrs]) => /\ssrc="([^"]+)"/.exec(attrs!)?.[1])).toEqual(["theme.js", "try-it.js"]);
    for (const [, , body] of scripts) expect(body).toBe("");
    expect(page).toContain('<link rel="stylesheet" href="style.css">');
    expect(page).not.toMatch(/<(style|img|iframe|object|embed|audio|video|source)\b/i);
    expect(page).not.toMatch(/\s(style|on[a-z]+)=/i);
    for (const [, href] of page.matchAll(/\shref="([^"]*)"/g)) expect(href).toMatch(/^(#.+|style\.css|favicon\.svg)$/);
    // Where build.mjs puts the hand-written guides.
    for (const marker of ["<!-- docs:guide-nav -->", "<!-- docs:guide -->"]) expect(page.split(marker)).toHaveLength(2);
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
      expect(html).toContain(method["x-requires-auth"] === "node" ? "node to node" : method["x-requires-auth"] === true ? "needs token" : "no token");
      for (const error of method.errors ?? []) expect(html).toContain(`<code>${errorCode(error)}</code>`);

      // Every example appears as the exact wire request and response, params by position; an event
      // stream's response as the events it opens with (x-events), each as the node sends it.
      const blocks = [...html.matchAll(/<pre><code class="json">([\s\S]*?)<\/code><\/pre>/g)].map((m) => JSON.parse(unescape(m[1]!)));
      const streams = [...html.matchAll(/<pre class="wrap"><code class="sse">([\s\S]*?)<\/code><\/pre>/g)].map((m) => unescape(m[1]!));
      for (const example of method.examples ?? []) {
        const byName = new Map(example.params.map((p) => [p.name, p.value]));
        const params = method.params.map((p) => (byName.has(p.name) ? byName.get(p.name) : null));
        while (params.length > 0 && !byName.has(method.params[params.length - 1]!.name)) params.pop();
        expect(blocks).toContainEqual({ jsonrpc: "2.0", id: 1, method: method.name, params });
        if (method["x-subscription"]) {
          expect(blocks).not.toContainEqual(expect.objectContaining({ result: expect.anything() }));
          expect(streams).toContain(sseText(example["x-events"] ?? []));
        } else {
          expect(blocks).toContainEqual({ jsonrpc: "2.0", id: 1, result: example.result?.value });
        }
      }
    }
  });

  it("documents each event-stream method (x-subscription) as one: the Accept header, and every notification with its summary, params, types and SSE id", () => {
    expect(streamMethods.map((m) => m.name)).toContain("neutralService_subscribe");
    const subscribe = streamMethods.find((m) => m.name === "neutralService_subscribe")!;
    expect(subscribe["x-subscription"]!.notifications.map((n) => n.name)).toEqual(["neutralService_message", "neutralService_caughtUp", "neutralService_status", "neutralService_end"]);
    for (const method of streamMethods) {
      const html = block(`method-${method.name}`, "article");
      expect(html).toContain(`<a class="badge stream" href="#method-${method.name}-events"`);
      expect(html).toContain(`<h4 id="method-${method.name}-events">Events</h4>`);
      expect(textOf(html)).toContain("Answered as an event stream, not one JSON response: send the request with Accept: text/event-stream.");
      expect(html).not.toContain('<p class="meta">Type: <code>null</code></p>'); // no JSON result type for a stream
      const notifications = method["x-subscription"]!.notifications;
      // The overview table: one row per notification, in order, with its SSE id.
      const overview = html.slice(html.indexOf('<table class="events">'), html.indexOf("</table>", html.indexOf('<table class="events">')));
      const rows = [...overview.matchAll(/<tr><td>([\s\S]*?)<\/td><td>([\s\S]*?)<\/td>/g)].map(([, name, id]) => [textOf(name!), textOf(id!)]);
      expect(rows).toEqual(notifications.map((n) => [n.name, n.eventId ? `params${n.eventId.replace(/\//g, ".")}` : "none"]));
      for (const n of notifications) {
        const section = block(`notification-${n.name}`, "div", html);
        expect(section).toContain(`<h5><a class="anchor" href="#notification-${n.name}"><code>${n.name}</code></a></h5>`);
        if (n.summary) expect(textOf(section)).toContain(n.summary.replace(/`/g, ""));
        expect(textOf(section)).toContain(n.eventId ? `Carries the SSE id: its value is params${n.eventId.replace(/\//g, ".")}` : "No SSE id.");
        // Its params: one row each, in order, typed (a $ref links to the schema), required or not.
        const table = section.slice(section.indexOf('<table class="event-params">'));
        const params = [...table.matchAll(/<tr><td><code>([^<]+)<\/code><\/td><td>([\s\S]*?)<\/td><td>([\s\S]*?)<\/td>/g)];
        expect(params.map(([, name]) => name)).toEqual(n.params.map((p) => p.name));
        n.params.forEach((p, i) => {
          const [, , type, required] = params[i]!;
          const ref = p.schema?.$ref?.split("/").pop();
          expect(type, `${n.name} ${p.name}`).toBe(ref ? `<a href="#schema-${ref}"><code>${ref}</code></a>` : `<code>${p.schema?.type}</code>`);
          expect(textOf(required!), `${n.name} ${p.name}`).toBe(p.required ? "yes" : "no");
          if (p.description) expect(textOf(section)).toContain(p.description.replace(/`/g, ""));
          if (p.schema?.enum) for (const value of p.schema.enum) expect(section).toContain(`<code>${text(JSON.stringify(value))}</code>`);
        });
      }
    }
    // The enum of a referenced schema shows as its constraint, as for a method's params.
    const end = block("notification-neutralService_end", "div");
    for (const reason of ["token-expired", "shutdown", "slow-consumer", "limit"]) expect(end).toContain(`<code>"${reason}"</code>`);
  });

  it("gives every method a Try it form (node-to-node methods none: only peers call them): a field per param, in order, and the first example as the request", () => {
    for (const method of spec.methods) {
      const html = block(`method-${method.name}`, "article");
      if (method["x-requires-auth"] === "node") {
        expect(html).not.toContain('<form class="try"');
        continue;
      }
      const form = html.slice(html.indexOf('<form class="try"'));
      expect(form).toContain(`data-method="${method.name}"`);
      expect(form).toContain(`data-auth="${method["x-requires-auth"] === true}"`);
      expect([...form.matchAll(/\sname="([^"]+)" data-kind=/g)].map((m) => m[1])).toEqual(method.params.map((p) => p.name));
      const request = /<code class="try-request">([\s\S]*?)<\/code>/.exec(form);
      expect(request).not.toBeNull();
      const example = method.examples?.[0];
      const byName = new Map((example?.params ?? []).map((p) => [p.name, p.value]));
      const params = method.params.map((p) => (byName.has(p.name) ? byName.get(p.name) : null));
      while (params.length > 0 && !byName.has(method.params[params.length - 1]!.name)) params.pop();
      expect(JSON.parse(unescape(request![1]!))).toEqual({ jsonrpc: "2.0", id: 1, method: method.name, params });
      // An event stream subscribes (with a Stop button, its state and the list of events); any other method sends.
      if (method["x-subscription"]) {
        expect(form).toContain('data-stream="true"');
        expect(form).toContain('<button type="submit">Subscribe</button> <button type="button" class="try-stop" disabled>Stop</button>');
        expect(form).toContain('<p class="try-stream-state" data-state="idle" aria-live="polite">');
        expect(form).toContain('<ol class="try-events"></ol>');
      } else {
        expect(form).not.toMatch(/data-stream|try-stop|try-events/);
        expect(form).toContain('<p><button type="submit">Send</button></p>\n<div class="try-output" aria-live="polite"></div>\n</form>');
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

const tmpDirs: string[] = [];
afterAll(async () => {
  for (const dir of tmpDirs) await rm(dir, { recursive: true, force: true });
});
const tempDir = async (prefix = "neutral-docs-") => {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  tmpDirs.push(dir);
  return dir;
};

/** Runs build.mjs into a new temp dir (never the package's dist/, which a relay may be serving). */
async function buildSite(options: { page?: string; spec?: string } = {}): Promise<string> {
  const out = await tempDir("neutral-docs-site-");
  const args = ["build.mjs", "--out", out];
  if (options.page) args.push("--page", options.page);
  if (options.spec) args.push("--spec", options.spec);
  await run(process.execPath, args, { cwd: docsRoot });
  return out;
}

/** The site built from the repository's page and spec, once for the tests that read it. */
let builtSite: Promise<{ out: string; site: string }> | undefined;
const built = () =>
  (builtSite ??= buildSite().then(async (out) => ({ out, site: await readFile(path.join(out, "index.html"), "utf8") })));

const textOf = (html: string) => unescape(html.replace(/<[^>]*>/g, ""));

describe("regeneration", () => {
  it("renders a changed spec into the site, leaving the repository's page untouched", async () => {
    const before = await readFile(generatedPath);
    const outRoot = await tempDir();
    const changed = JSON.parse(await readFile(specPath, "utf8")) as Spec;
    const stamp = `${process.pid}-${Date.now()}`;
    const marker = (what: string) => `Docs regeneration marker: ${what} ${stamp}`;
    const method = changed.methods[changed.methods.length - 1]!;
    method.summary = marker("summary");
    method.description = marker("method description");
    const [schemaName, schema] = Object.entries(changed.components.schemas)[0]! as [string, { description?: string }];
    schema.description = marker("schema description");
    changed.info.description = changed.info.description.replace("## Authentication\n", `## Authentication\n${marker("auth section")}\n\n`);
    const inbox = changed.methods.find((m) => m.params.length > 0)!;
    inbox.params[0]!.description = marker("param description");
    // A notification added to a stream's x-subscription: its param's $ref stays as written (the engine does not dereference extensions).
    const stream = changed.methods.find((m) => m["x-subscription"] !== undefined)!;
    stream["x-subscription"]!.notifications.push({
      name: "neutralService_regenerationMarker",
      summary: marker("notification summary"),
      eventId: "/at",
      params: [{ name: "at", required: true, description: marker("notification param"), schema: { $ref: "#/components/schemas/MessageId" } }],
    });
    const changedSpec = path.join(outRoot, "openrpc.json");
    await writeFile(changedSpec, JSON.stringify(changed, null, 2));

    await generate({ specPath: changedSpec, outRoot });
    const freshPage = path.join(outRoot, "packages/docs/src/generated/index.html");
    const site = await readFile(path.join(await buildSite({ page: freshPage, spec: changedSpec }), "index.html"), "utf8");

    expect(textOf(block(`method-${method.name}`, "article", site))).toContain(marker("method description"));
    const added = block("notification-neutralService_regenerationMarker", "div", site);
    expect(textOf(added)).toContain(marker("notification summary"));
    expect(textOf(added)).toContain(marker("notification param"));
    expect(textOf(added)).toContain("Carries the SSE id: its value is params.at");
    expect(added).toContain('<a href="#schema-MessageId"><code>MessageId</code></a>');
    for (const what of ["summary", "method description", "schema description", "auth section", "param description", "notification summary", "notification param"]) {
      expect(site).toContain(marker(what));
      expect(page).not.toContain(marker(what));
    }
    expect(textOf(block(`schema-${schemaName}`, "article", site))).toContain(marker("schema description"));
    expect(textOf(block(`method-${inbox.name}`, "article", site))).toContain(marker("param description"));
    expect((await readFile(generatedPath)).equals(before)).toBe(true);
  });

  it("is deterministic: the same spec gives the same bytes", async () => {
    const pages: Buffer[] = [];
    for (let i = 0; i < 2; i++) {
      const outRoot = await tempDir();
      await generate({ specPath, outRoot });
      pages.push(await readFile(path.join(outRoot, "packages/docs/src/generated/index.html")));
    }
    expect(pages[0]!.equals(pages[1]!)).toBe(true);
  });
});

describe("build.mjs", () => {

  it("puts the guides into the generated page, listed in the contents, with every in-page link landing", async () => {
    const { site } = await built();
    const guide = (await readFile(path.join(docsRoot, "src/guide.html"), "utf8")).replace(/^<!--[\s\S]*?-->\n/, "");
    expect(site).not.toContain("<!-- docs:guide");
    expect(site).not.toMatch(/\{\{[a-zA-Z.]+\}\}/);
    // The page outside the guides is the generated one, unchanged.
    const [head, tail] = page.split("<!-- docs:guide -->") as [string, string];
    const [navHead, navTail] = head.split("<!-- docs:guide-nav -->") as [string, string];
    expect(site.startsWith(navHead)).toBe(true);
    expect(site.endsWith(tail)).toBe(true);
    expect(site).toContain(navTail);
    for (const [, id, title] of guide.matchAll(/<section id="([^"]+)">\s*<h3>([\s\S]*?)<\/h3>/g)) {
      expect(site).toContain(`<li><a href="#${id}">${title}</a></li>`);
      expect(site).toContain(`<section id="${id}">`);
    }
    const ids = new Set([...site.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
    for (const [, id] of site.matchAll(/\shref="#([^"]*)"/g)) expect(ids.has(id), `#${id}`).toBe(true);
    for (const section of ["Running a relay", "PostgreSQL", "Pagination", "Encryption and receipts", "Try it", "worked example"]) {
      expect(site).toContain(section);
    }
    expect(site).toContain("--database-url postgres://");
    expect(site).toContain("NEUTRAL_DATABASE_URL");
  });

  it("shows a worked sign-in example whose token is real: it decodes to the message and recovers the address", async () => {
    const { site } = await built();
    const field = (id: string) => {
      const m = new RegExp(`<code id="${id}"[^>]*>([\\s\\S]*?)</code>`).exec(site);
      expect(m, id).not.toBeNull();
      return unescape(m![1]!);
    };
    const address = field("auth-example-address");
    const message = field("auth-example-message");
    const signature = field("auth-example-signature");
    const token = field("auth-example-token");
    expect(token).toBe(`${Buffer.from(message, "utf8").toString("base64url")}.${signature}`);
    const digest = keccak_256(Buffer.concat([Buffer.from(`\x19Ethereum Signed Message:\n${Buffer.byteLength(message)}`), Buffer.from(message)]));
    const sig = Buffer.from(signature.slice(2), "hex");
    const recovered = new Uint8Array(65);
    recovered[0] = sig[64]! - 27;
    recovered.set(sig.subarray(0, 64), 1);
    const publicKey = secp256k1.Point.fromBytes(secp256k1.recoverPublicKey(recovered, digest, { prehash: false })).toBytes(false);
    expect(`0x${Buffer.from(keccak_256(publicKey.subarray(1)).subarray(12)).toString("hex")}`).toBe(address.toLowerCase());

    // What seeds/README.md §6 has the node check, for a node at the spec's first server.
    const server = new URL(spec.servers![0]!.url);
    const lines = message.split("\n");
    expect(lines[0]).toBe(`${server.host} wants you to sign in with your Ethereum account:`);
    expect(lines[1]).toBe(address);
    const value = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
    expect(value("URI")).toBe(server.origin);
    expect(value("Version")).toBe("1");
    expect(value("Nonce")).toMatch(/^[A-Za-z0-9]{8,}$/);
    const lifetime = Date.parse(value("Expiration Time")!) - Date.parse(value("Issued At")!);
    expect(lifetime).toBeGreaterThan(0);
    expect(lifetime).toBeLessThanOrEqual(MAX_TOKEN_LIFETIME_MS);
    const curl = field("auth-example-curl");
    expect(curl).toContain(`Authorization: Bearer ${token}`);
    expect(curl).toContain(server.origin);
  });

  it("writes the page, the stylesheet, the favicon and the minified scripts", async () => {
    const { out } = await built();
    const files = (await readdir(out)).sort();
    expect(files).toEqual(["favicon.svg", "index.html", "sign-in.js", "style.css", "theme.js", "try-it.js"]);
    // The signing code (secp256k1, keccak-256) is sign-in.js, loaded when someone signs in: not in the first load.
    const signIn = await readFile(path.join(out, "sign-in.js"), "utf8");
    expect(signIn).toContain("neutralDocsSignIn");
    expect(signIn).not.toMatch(/\bimport\s*[{*]|\bexport\s*[{*]/);
    expect((await readFile(path.join(out, "try-it.js"), "utf8")).length).toBeLessThan(24 * 1024);
    expect(await readFile(path.join(out, "style.css"), "utf8")).toBe(await readFile(path.join(docsRoot, "src/style.css"), "utf8"));
    const script = await readFile(path.join(out, "try-it.js"), "utf8");
    expect(script).not.toMatch(/setupSearch|signInWithThrowawayKey|\/\/ ----/); // minified: names mangled, comments gone
    expect(script).not.toMatch(/\bimport\s*[{*]|\bexport\s*[{*]/); // a classic script: it also runs from file://
    expect(script.length).toBeLessThan(100 * 1024);
  });

  it("fails with a clear message when the page has not been generated", async () => {
    const dir = await tempDir("neutral-docs-build-");
    await mkdir(path.join(dir, "src"));
    await copyFile(path.join(docsRoot, "build.mjs"), path.join(dir, "build.mjs"));
    await copyFile(path.join(docsRoot, "src/style.css"), path.join(dir, "src/style.css"));
    const failure = await run(process.execPath, ["build.mjs"], { cwd: dir }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain("run pnpm generate");
  });

  it("fails when a guide links to a method the spec does not have", async () => {
    const outRoot = await tempDir();
    const changed = JSON.parse(await readFile(specPath, "utf8")) as Spec;
    // Rename the methods the guides link to: their anchors change, the hand-written links do not.
    for (const method of changed.methods) method.name = `${method.name}Renamed`;
    const changedSpec = path.join(outRoot, "openrpc.json");
    await writeFile(changedSpec, JSON.stringify(changed, null, 2));
    await generate({ specPath: changedSpec, outRoot });
    const failure = await run(process.execPath, ["build.mjs", "--out", path.join(outRoot, "site"), "--page", path.join(outRoot, "packages/docs/src/generated/index.html"), "--spec", changedSpec], { cwd: docsRoot }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(/links to missing anchors: .*#method-/);
  });
});

describe("serve.mjs", () => {
  /** A raw GET (no URL normalization, so `/../x` reaches the server as written). */
  const request = (port: number, urlPath: string, method = "GET") =>
    new Promise<{ status: number; type: string; csp: string; body: Buffer }>((resolve, reject) => {
      httpRequest({ host: "127.0.0.1", port, path: urlPath, method }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode!, type: String(res.headers["content-type"]), csp: String(res.headers["content-security-policy"]), body: Buffer.concat(chunks) }));
      })
        .on("error", reject)
        .end();
    });

  it("serves every file of the site, nothing else, and stops on SIGTERM", async () => {
    const { out } = await built();
    const child = spawn(process.execPath, ["serve.mjs", "--host", "127.0.0.1", "--port", "0", "--dir", out], { cwd: docsRoot, detached: true });
    child.on("exit", trackProcessGroup(child.pid!));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        let text = "";
        child.stdout.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          const m = /docs listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
          if (m) resolve(Number(m[1]));
        });
        child.on("exit", (code) => reject(new Error(`serve.mjs exited with ${code}`)));
      });

      const index = await request(port, "/");
      expect(index.status).toBe(200);
      expect(index.type).toMatch(/^text\/html/);
      expect(index.body.toString()).toContain(`<title>${text(spec.info.title)}`);
      expect(index.csp).toContain("script-src 'self'");
      expect(index.csp).not.toContain("unsafe-inline");

      const types: Record<string, RegExp> = { ".html": /^text\/html/, ".css": /^text\/css/, ".js": /^text\/javascript/, ".svg": /^image\/svg\+xml/ };
      for (const name of await readdir(out)) {
        const file = await request(port, `/${name}`);
        expect(file.status, name).toBe(200);
        expect(file.type, name).toMatch(types[path.extname(name)]!);
        expect(file.body.equals(await readFile(path.join(out, name))), name).toBe(true);
      }

      for (const urlPath of ["/../package.json", "/%2e%2e/package.json", "/package.json", "/generated/index.html", "/src/try-it.ts"]) {
        expect((await request(port, urlPath)).status, urlPath).toBe(404);
      }
      expect((await request(port, "/", "POST")).status).toBe(405);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});
