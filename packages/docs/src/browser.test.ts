// The built site in Chromium (playwright-core), served by serve.mjs with the relay's CSP, and
// opened from file://. Everything expected is computed from openrpc.json. "Try it" against a real
// relay is tested in packages/relay (src/docs-site.test.ts): the relay depends on this package.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { launchChromium } from "@neutral/test-support/browser";
import { trackProcessGroup } from "@neutral/test-support/run";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_TOKEN_LIFETIME_MS } from "@neutral/protocol";

const docsRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outputDir = path.join(docsRoot, "test-output");
const run = promisify(execFile);

type Schema = { $ref?: string; type?: string; enum?: unknown[]; properties?: Record<string, Schema>; [key: string]: unknown };
interface Example { name: string; params: { name: string; value: unknown }[] }
interface Method {
  name: string;
  summary?: string;
  paramStructure?: string;
  params: { name: string; required?: boolean; schema: Schema }[];
  errors?: { $ref?: string; code?: number }[];
  examples?: Example[];
  "x-requires-auth"?: boolean | "node";
  "x-subscription"?: { notifications: { name: string; summary?: string; eventId?: string; params: { name: string }[] }[] };
}
interface Spec {
  info: { description: string };
  methods: Method[];
  components: { schemas: Record<string, Schema>; errors: Record<string, { code: number }> };
}
const spec = JSON.parse(await readFile(path.resolve(docsRoot, "../../openrpc.json"), "utf8")) as Spec;

/** A schema with its `$ref` followed (sibling keywords such as `default` kept). */
function resolve(schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const { $ref, ...rest } = schema;
  return { ...resolve(spec.components.schemas[$ref.split("/").pop()!]!), ...rest };
}
const errorCode = (e: { $ref?: string; code?: number }) => (e.$ref ? spec.components.errors[e.$ref.split("/").pop()!]!.code : e.code!);

/** What the Try it form should send for an example: by position, trailing absent params dropped, gaps null. */
function exampleRequest(method: Method, example?: Example) {
  const byName = new Map((example?.params ?? []).map((p) => [p.name, p.value]));
  const params = method.params.map((p) => (byName.has(p.name) ? byName.get(p.name) : null));
  while (params.length > 0 && !byName.has(method.params[params.length - 1]!.name)) params.pop();
  return { jsonrpc: "2.0", id: 1, method: method.name, params };
}

/** Relative luminance (WCAG) of a computed `rgb(…)` colour. */
function luminance(color: string): number {
  const [r, g, b] = color.match(/[\d.]+/g)!.slice(0, 3).map((c) => {
    const v = Number(c) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

async function expectPng(file: string) {
  const png = await readFile(file);
  expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), file).toBe(true);
  expect(png.readUInt32BE(16)).toBeGreaterThan(300); // IHDR width
  expect(png.readUInt32BE(20)).toBeGreaterThan(300); // IHDR height
  expect((await stat(file)).size).toBeGreaterThan(10_000);
}

let site: string;
let server: ChildProcess;
let origin: string;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const loaded: { url: string; type: string; bytes: number }[] = [];

/** Console errors, uncaught exceptions and CSP violations of a page, into `sink`. */
async function watch(target: Page, sink: string[]) {
  target.on("console", (message) => message.type() === "error" && sink.push(`console: ${message.text()}`));
  target.on("pageerror", (error) => sink.push(`page error: ${error.message}`));
  await target.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`)),
  );
}

beforeAll(async () => {
  site = await mkdtemp(path.join(tmpdir(), "neutral-docs-browser-"));
  await run(process.execPath, ["build.mjs", "--out", site], { cwd: docsRoot });
  // A process group of its own, killed if this file's worker exits or is interrupted first.
  server = spawn(process.execPath, ["serve.mjs", "--host", "127.0.0.1", "--port", "0", "--dir", site], { cwd: docsRoot, stdio: ["ignore", "pipe", "inherit"], detached: true });
  server.on("exit", trackProcessGroup(server.pid!));
  const port = await new Promise<number>((resolve, reject) => {
    let text = "";
    server.stdout!.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const m = /docs listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
      if (m) resolve(Number(m[1]));
    });
    server.on("exit", (code) => reject(new Error(`serve.mjs exited with ${code}`)));
  });
  origin = `http://127.0.0.1:${port}`;
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await watch(page, problems);
  const sizes: Promise<void>[] = [];
  page.on("requestfinished", (request) =>
    sizes.push(
      request.sizes().then(async (size) => {
        const response = await request.response();
        loaded.push({ url: request.url(), type: (await response?.headerValue("content-type")) ?? "", bytes: size.responseHeadersSize + size.responseBodySize });
      }),
    ),
  );
  await page.goto(`${origin}/`, { waitUntil: "load" });
  await page.waitForSelector("html.js");
  await Promise.all(sizes);
  mkdirSync(outputDir, { recursive: true });
}, 180_000); // builds the site, then unpacks and starts Chromium: past 60 s on a loaded 2-core CI machine

afterAll(async () => {
  await browser?.close();
  server?.kill("SIGTERM");
  if (site) await rm(site, { recursive: true, force: true });
});

describe("the docs site in Chromium", () => {
  it("renders with no console errors or CSP violations, its first load under 200 KB", async () => {
    expect(problems).toEqual([]);
    const types = loaded.map((l) => l.type);
    for (const type of [/^text\/html/, /^text\/css/, /^text\/javascript/]) expect(types.some((t) => type.test(t)), String(type)).toBe(true);
    const total = loaded.reduce((sum, l) => sum + l.bytes, 0);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(200 * 1024);
  });

  it("shows every method with its params and errors, every schema with its fields, and every error code", async () => {
    const shown = await page.evaluate(() => {
      const text = (node: Element | null | undefined) => node?.textContent?.trim() ?? "";
      const articles = Object.fromEntries(
        Array.from(document.querySelectorAll("main article[id]"), (article) => [
          article.id,
          {
            visible: (article as HTMLElement).offsetHeight > 0,
            heading: text(article.querySelector("h3")),
            params: Array.from(article.querySelectorAll("table.params tbody tr"), (tr) => text(tr.children[1])),
            fields: Array.from(article.querySelectorAll(":scope > .table-wrap > table.fields tbody tr"), (tr) => text(tr.children[0])),
            alternativeFields: Array.from(article.querySelectorAll("ol.alternatives table.fields tbody tr"), (tr) => text(tr.children[0])),
            errors: Array.from(article.querySelectorAll("table.errors tbody tr"), (tr) => text(tr.children[0])),
            notifications: Array.from(article.querySelectorAll(".notification[id]"), (n) => ({
              id: n.id,
              visible: (n as HTMLElement).offsetHeight > 0,
              heading: text(n.querySelector("h5")),
              params: Array.from(n.querySelectorAll("table.event-params tbody tr"), (tr) => text(tr.children[0])),
            })),
            form: Array.from(article.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>("form.try [data-kind]"), (field) => ({
              name: field.name,
              tag: field.tagName.toLowerCase(),
              type: field.type,
              options: field instanceof HTMLSelectElement ? Array.from(field.options, (o) => o.value) : [],
            })),
          },
        ]),
      );
      const errorTable = Array.from(document.querySelectorAll("#error-codes tbody tr"), (tr) => text(tr.children[1]));
      return { articles, errorTable, overview: text(document.querySelector("#overview")) };
    });

    for (const method of spec.methods) {
      const article = shown.articles[`method-${method.name}`];
      expect(article, method.name).toBeDefined();
      expect(article!.visible).toBe(true);
      expect(article!.heading).toBe(method.name);
      expect(article!.params).toEqual(method.params.map((p) => p.name));
      expect(article!.errors).toEqual((method.errors ?? []).map((e) => String(errorCode(e))));
      // An event stream's notifications, each under its own anchor with its params.
      expect(article!.notifications).toEqual(
        (method["x-subscription"]?.notifications ?? []).map((n) => ({ id: `notification-${n.name}`, visible: true, heading: n.name, params: n.params.map((p) => p.name) })),
      );
      // The Try it fields, one per param, each the kind of input its schema calls for (node-to-node methods have no Try it).
      if (method["x-requires-auth"] === "node") {
        expect(article!.form).toEqual([]);
        continue;
      }
      expect(article!.form.map((f) => f.name)).toEqual(method.params.map((p) => p.name));
      method.params.forEach((param, i) => {
        const schema = resolve(param.schema);
        const field = article!.form[i]!;
        if (schema.type === "integer" || schema.type === "number") expect([field.tag, field.type], param.name).toEqual(["input", "number"]);
        else if (schema.type === "string" && schema.enum) expect([field.tag, field.options], param.name).toEqual(["select", ["", ...schema.enum.map(String)]]);
        else if (schema.type === "string") expect([field.tag, field.type], param.name).toEqual(["input", "text"]);
        else if (schema.type === "boolean") expect([field.tag, field.options], param.name).toEqual(["select", ["", "true", "false"]]);
        else expect(field.tag, param.name).toBe("textarea");
      });
    }
    for (const [name, schema] of Object.entries(spec.components.schemas)) {
      const article = shown.articles[`schema-${name}`];
      expect(article, name).toBeDefined();
      expect(article!.visible).toBe(true);
      expect(article!.heading).toBe(name);
      expect(article!.fields).toEqual(Object.keys(schema.properties ?? {}));
      // Each inline alternative of a oneOf/anyOf shows its own members.
      const alternatives = [schema.oneOf, schema.anyOf].flatMap((list) => (Array.isArray(list) ? (list as Schema[]) : []));
      const inline = alternatives.flatMap((alternative) => Object.keys(alternative.properties ?? {}));
      expect(article!.alternativeFields).toEqual(expect.arrayContaining(inline));
    }
    expect(shown.errorTable).toEqual(Object.values(spec.components.errors).map((e) => String(e.code)));
    for (const [, code] of spec.info.description.matchAll(/^\|\s*(-32\d{3})\s*\|/gm)) expect(shown.overview).toContain(code);
  });

  it("Try it builds each documented example as the exact JSON-RPC request, and says when a field is not JSON", async () => {
    await page.evaluate(() => document.querySelectorAll("details.try-it").forEach((d) => ((d as HTMLDetailsElement).open = true)));
    for (const method of spec.methods.filter((m) => m["x-requires-auth"] !== "node")) {
      const form = page.locator(`form.try[data-method="${method.name}"]`);
      const request = form.locator(".try-request");
      const examples = method.examples ?? [];
      expect(JSON.parse((await request.textContent())!), method.name).toEqual(exampleRequest(method, examples[0]));
      if (examples.length > 1) {
        for (let i = examples.length - 1; i >= 0; i--) {
          await form.locator(".try-preset").selectOption(String(i));
          expect(JSON.parse((await request.textContent())!), `${method.name} example ${i}`).toEqual(exampleRequest(method, examples[i]));
        }
      }
    }
    // An edit shows in the request; a JSON field that is not JSON is named.
    const method = spec.methods.find((m) => m.params.some((p) => resolve(p.schema).type === "integer") && m.params.some((p) => !resolve(p.schema).type || resolve(p.schema).type === "object"))!;
    const number = method.params.find((p) => resolve(p.schema).type === "integer")!;
    const object = method.params.find((p) => resolve(p.schema).type === "object")!;
    const form = page.locator(`form.try[data-method="${method.name}"]`);
    await form.locator(`[name="${number.name}"]`).fill("7");
    const edited = JSON.parse((await form.locator(".try-request").textContent())!) as { params: unknown[] };
    expect(edited.params[method.params.indexOf(number)]).toBe(7);
    await form.locator(`[name="${object.name}"]`).fill("{not json");
    expect(await form.locator(".try-request").textContent()).toBe(`${object.name}: not valid JSON`);
    await form.locator("button[type=submit]").click();
    expect(await form.locator(".try-error").textContent()).toBe(`${object.name}: not valid JSON`);
    await form.locator(`[name="${object.name}"]`).fill("");
    await form.locator(`[name="${number.name}"]`).fill("");
    await page.evaluate(() => document.querySelectorAll("details.try-it").forEach((d) => ((d as HTMLDetailsElement).open = false)));
    expect(problems).toEqual([]);
  });

  it("an event stream's Try it subscribes instead of sending, and shows a refusal as an error state (serve.mjs is no relay: 405)", async () => {
    const method = spec.methods.find((m) => m["x-subscription"] !== undefined && m["x-requires-auth"] !== "node")!;
    const details = page.locator(`[id="try-${method.name}"]`);
    await details.locator("summary").click();
    try {
      const form = details.locator("form");
      const state = form.locator(".try-stream-state");
      expect(await state.getAttribute("data-state")).toBe("idle");
      expect(await form.locator(".try-stop").isDisabled()).toBe(true);
      const [request] = await Promise.all([page.waitForRequest((r) => r.method() === "POST"), form.locator("button[type=submit]", { hasText: "Subscribe" }).click()]);
      expect(request.headers().accept).toBe("text/event-stream");
      expect(JSON.parse(request.postData()!)).toEqual(exampleRequest(method, method.examples?.[0]));
      await form.locator('.try-stream-state[data-state="error"]').waitFor({ timeout: 10_000 });
      expect(await state.textContent()).toContain("HTTP 405");
      expect(await form.locator(".try-status").textContent()).toContain("HTTP 405");
      expect(await form.locator(".try-stop").isDisabled()).toBe(true);
      expect(await form.locator("button[type=submit]").isDisabled()).toBe(false);
      expect(await form.locator(".try-events li").count()).toBe(0);
      // Any other method's form still sends.
      const other = spec.methods.find((m) => m["x-subscription"] === undefined && m["x-requires-auth"] !== "node")!;
      expect(await page.locator(`form.try[data-method="${other.name}"] button[type=submit]`).textContent()).toBe("Send");
      expect(await page.locator(`form.try[data-method="${other.name}"] .try-stop`).count()).toBe(0);
      expect(problems.filter((p) => !p.includes("405"))).toEqual([]);
      problems.length = 0; // the browser logs the refused POST
    } finally {
      await details.evaluate((node) => ((node as HTMLDetailsElement).open = false));
    }
  });

  it("search finds every method and schema, and Enter goes to the first hit", async () => {
    const search = page.locator("#search");
    const firstHit = async (query: string) => {
      await search.fill(query);
      return page.locator("#search-results a").first().getAttribute("href");
    };
    for (const method of spec.methods) {
      expect(await firstHit(method.name)).toBe(`#method-${method.name}`);
      // By its short name too, among the hits.
      await search.fill(method.name.split(/[._]/).pop()!);
      expect(await page.locator("#search-results a").evaluateAll((links) => links.map((a) => a.getAttribute("href")))).toContain(`#method-${method.name}`);
    }
    for (const name of Object.keys(spec.components.schemas)) expect(await firstHit(name), name).toBe(`#schema-${name}`);
    // The notifications of event streams, by name, and by a word of their summary among the hits.
    const notifications = spec.methods.flatMap((m) => m["x-subscription"]?.notifications ?? []);
    expect(notifications.length).toBeGreaterThan(0);
    for (const n of notifications) {
      expect(await firstHit(n.name), n.name).toBe(`#notification-${n.name}`);
      expect(await page.locator("#search-results a").first().textContent()).toContain("notification");
    }
    await search.fill("caught up");
    expect(await page.locator("#search-results a").evaluateAll((links) => links.map((a) => a.getAttribute("href")))).toContain("#notification-neutralService_caughtUp");

    // The guides' sections too (hand-written: their titles come from src/guide.html).
    const guide = await readFile(path.join(docsRoot, "src/guide.html"), "utf8");
    const sections = [...guide.matchAll(/<section id="([^"]+)">\s*<h3>([^<]+)<\/h3>/g)];
    expect(sections.length).toBeGreaterThan(0);
    for (const [, id, title] of sections) expect(await firstHit(title!), title).toBe(`#${id}`);

    const target = spec.methods[spec.methods.length - 1]!;
    await search.fill(target.name);
    await search.press("Enter");
    expect(await page.evaluate(() => location.hash)).toBe(`#method-${target.name}`);

    await search.fill("zzqx nothing like this");
    expect(await page.locator("#search-results").textContent()).toBe("No match.");
    await search.fill("");
  });

  it("the throwaway key signs a Sign-In with Ethereum message for this host; a pasted token is read back", async () => {
    // The first sign-in loads the signing code (sign-in.js), so the state changes a moment later.
    const signedIn = async (not?: string) => {
      await page.waitForFunction((before) => /Signed in as 0x/.test(document.querySelector("#signin-state")?.textContent ?? "") && !document.querySelector("#signin-state")!.textContent!.includes(before), not ?? "\u0000", { timeout: 10_000 });
      return (await page.textContent("#signin-state"))!;
    };
    await page.click("#signin-throwaway");
    const state = await signedIn();
    const address = /0x[0-9a-fA-F]{40}/.exec(state)?.[0];
    expect(address, state).toBeDefined();
    const lines = (await page.locator("#signin-message").textContent())!.split("\n");
    const { host } = new URL(origin);
    expect(lines[0]).toBe(`${host} wants you to sign in with your Ethereum account:`);
    expect(lines[1]).toBe(address);
    const value = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
    expect(value("URI")).toBe(origin);
    expect(value("Version")).toBe("1");
    expect(value("Nonce")).toMatch(/^[A-Za-z0-9]{8,}$/);
    const issued = Date.parse(value("Issued At")!);
    const expires = Date.parse(value("Expiration Time")!);
    expect(expires).toBeGreaterThan(Date.now());
    expect(expires - issued).toBeLessThanOrEqual(MAX_TOKEN_LIFETIME_MS);
    // Each throwaway sign-in is a new key.
    await page.click("#signin-throwaway");
    expect(await signedIn(address)).not.toContain(address);

    const exampleToken = (await page.locator("#auth-example-token").textContent())!;
    const exampleAddress = (await page.locator("#auth-example-address").textContent())!;
    await page.fill("#signin-token", exampleToken);
    await page.click("#signin-use-token");
    await page.waitForFunction((text) => document.querySelector("#signin-state")?.textContent?.includes(text), `${exampleAddress} (pasted token`, { timeout: 10_000 });
    await page.fill("#signin-token", "not a token");
    await page.click("#signin-use-token");
    await page.waitForFunction(() => document.querySelector("#signin-token-status")?.textContent?.includes("not a bearer token"), undefined, { timeout: 10_000 });
    await page.click("#signin-clear");
    expect(await page.textContent("#signin-state")).toMatch(/^Not signed in/);
    expect(problems).toEqual([]);
  });

  it("at phone width (375 px) nothing scrolls the page sideways, every Try it open", async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    try {
      await page.evaluate(() => document.querySelectorAll("details").forEach((d) => (d.open = true)));
      const widths = await page.evaluate(() => ({
        client: document.documentElement.clientWidth,
        scroll: document.documentElement.scrollWidth,
        body: document.body.scrollWidth,
      }));
      expect(widths.client).toBeLessThanOrEqual(375);
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
      expect(widths.body).toBeLessThanOrEqual(widths.client);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(outputDir, "docs-site-phone.png") });
      await expectPng(path.join(outputDir, "docs-site-phone.png"));
    } finally {
      await page.evaluate(() => document.querySelectorAll("details").forEach((d) => (d.open = false)));
      await page.setViewportSize({ width: 1200, height: 900 });
    }
  });

  it("follows prefers-color-scheme, light and dark, and the toggle overrides it (kept across a reload)", async () => {
    const colours = () =>
      page.evaluate(() => {
        const style = getComputedStyle(document.body);
        return { bg: style.backgroundColor, fg: style.color, theme: document.documentElement.dataset.theme ?? "auto" };
      });
    const lightness = async () => {
      const { bg, fg } = await colours();
      const [b, f] = [luminance(bg), luminance(fg)];
      expect(contrast(b, f)).toBeGreaterThan(7);
      return b > f ? "light" : "dark";
    };
    try {
      await page.emulateMedia({ colorScheme: "light" });
      expect(await lightness()).toBe("light");
      await page.screenshot({ path: path.join(outputDir, "docs-site.png") });
      await expectPng(path.join(outputDir, "docs-site.png"));
      await page.emulateMedia({ colorScheme: "dark" });
      expect(await lightness()).toBe("dark");
      await page.screenshot({ path: path.join(outputDir, "docs-site-dark.png") });

      // The toggle: auto → light → dark → auto, whatever the system says.
      const toggle = page.locator("#theme-toggle");
      expect(await toggle.textContent()).toBe("Theme: auto");
      await toggle.click();
      expect(await toggle.textContent()).toBe("Theme: light");
      expect(await lightness()).toBe("light");
      await page.emulateMedia({ colorScheme: "light" });
      await toggle.click();
      expect(await toggle.textContent()).toBe("Theme: dark");
      expect(await lightness()).toBe("dark");
      await page.reload({ waitUntil: "load" });
      await page.waitForSelector("html.js");
      expect((await colours()).theme).toBe("dark");
      expect(await lightness()).toBe("dark");
      await toggle.click();
      expect(await toggle.textContent()).toBe("Theme: auto");
      expect(await lightness()).toBe("light");
      expect(problems).toEqual([]);
    } finally {
      await page.evaluate(() => localStorage.clear());
      await page.emulateMedia({ colorScheme: null });
    }
  });

  it("opened from file://, it works offline and Try it says it needs a relay", async () => {
    const offline = await browser.newPage();
    const offlineProblems: string[] = [];
    await watch(offline, offlineProblems);
    const requests: string[] = [];
    offline.on("request", (request) => requests.push(request.url()));
    try {
      await offline.goto(`file://${site}/index.html`);
      await offline.waitForSelector("html.js");
      expect(await offline.locator("#try-offline").isVisible()).toBe(true);
      expect(await offline.locator("#signin-throwaway").isDisabled()).toBe(true);
      const method = spec.methods.find((m) => m["x-requires-auth"] !== true)!;
      await offline.locator(`[id="try-${method.name}"] summary`).click();
      await offline.locator(`form.try[data-method="${method.name}"] button[type=submit]`).click();
      expect(await offline.locator(`form.try[data-method="${method.name}"] .try-error`).textContent()).toContain("served by a relay");
      const stream = spec.methods.find((m) => m["x-subscription"] !== undefined)!;
      await offline.locator(`[id="try-${stream.name}"] summary`).click();
      await offline.locator(`form.try[data-method="${stream.name}"] button[type=submit]`).click();
      expect(await offline.locator(`form.try[data-method="${stream.name}"] .try-error`).textContent()).toContain("served by a relay");
      expect(await offline.locator(`form.try[data-method="${stream.name}"] .try-stop`).isDisabled()).toBe(true);
      await offline.fill("#search", method.name);
      expect(await offline.locator("#search-results a").first().getAttribute("href")).toBe(`#method-${method.name}`);
      expect(requests.every((url) => url.startsWith("file://"))).toBe(true);
      expect(offlineProblems).toEqual([]);
    } finally {
      await offline.close();
    }
  });
});
