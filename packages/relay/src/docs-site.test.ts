// The documentation site as a relay serves it (routes.ts), in Chromium driven by
// playwright-core: every file of the built site at /docs/ under a CSP that allows only the site's own
// script, styles and calls; the first load's size; and "Try it" against this real relay, signed in
// with a throwaway in-browser key (getInbox) and without a token (nodeInfo), and the event stream of
// neutralService_subscribe read live in the page (fetch + a stream reader), stopped, and ended by the node.
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { get } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { docsDir } from "@neutral/docs";
import { launchChromium } from "@neutral/test-support/browser";
import type { Browser, Locator, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startNode, type InProcessNode } from "../testing/index.js";
import { TEST_KEYS, wallet } from "../test/wallets.js";

const outputDir = fileURLToPath(new URL("../test-output/", import.meta.url));
const screenshotPath = path.join(outputDir, "docs-try-it.png");

interface Spec {
  methods: { name: string; "x-requires-auth"?: boolean; params: { required?: boolean }[] }[];
  components: { errors: Record<string, { code: number; message: string }> };
}
const spec = JSON.parse(readFileSync(new URL("../../../openrpc.json", import.meta.url), "utf8")) as Spec;
const unauthorized = Object.values(spec.components.errors).find((e) => e.message === "Unauthorized")!;
const authMethod = spec.methods.find((m) => m.name === "neutralService_getInbox")!;
const openMethod = spec.methods.find((m) => m.name === "neutralService_nodeInfo")!;
const streamMethod = spec.methods.find((m) => m.name === "neutralService_subscribe")!;

/** Every file of the built site, by its name under /docs/. */
const siteFiles = readdirSync(docsDir, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => path.relative(docsDir, path.join(entry.parentPath ?? entry.path, entry.name)).split(path.sep).join("/"));

let relay: InProcessNode;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const loaded: { url: string; type: string; bytes: number }[] = [];

beforeAll(async () => {
  relay = await startNode();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on("console", (message) => message.type() === "error" && problems.push(`console: ${message.text()}`));
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  await page.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`)),
  );
  const sizes: Promise<void>[] = [];
  page.on("requestfinished", (request) =>
    sizes.push(
      request.sizes().then(async (size) => {
        const response = await request.response();
        loaded.push({ url: request.url(), type: (await response?.headerValue("content-type")) ?? "", bytes: size.responseHeadersSize + size.responseBodySize });
      }),
    ),
  );
  await page.goto(`${relay.url}/docs/`, { waitUntil: "load" });
  await page.waitForSelector("html.js");
  await Promise.all(sizes);
}, 180_000); // unpacks and starts Chromium: past 60 s on a loaded 2-core CI machine

afterAll(async () => {
  await browser?.close();
  await relay?.stop();
});

/**
 * Writes the page's pixels in `element`'s box to `file`, scrolled to the element's end (a Try it
 * form's answer) and cut to the viewport. Not `locator.screenshot()`: that waits for the element
 * to keep one box over two animation frames and renders all of it, which took ~14 s for a Try it
 * form here and, for a streaming one under the whole suite on a slower 2-core machine (CI,
 * 2026-11-30), past its 30 s; a full-page capture of the box takes ~9 s.
 */
async function screenshotOf(element: Locator, file: string): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const clip = await element.evaluate((node) => {
    node.scrollIntoView({ block: "end", behavior: "instant" });
    const box = node.getBoundingClientRect();
    const top = Math.max(box.top, 0);
    return { x: box.left, y: top, width: box.width, height: Math.min(box.bottom, window.innerHeight) - top };
  });
  expect(clip.width * clip.height).toBeGreaterThan(0);
  await page.screenshot({ path: file, clip });
}

/** A raw GET: no URL normalization, so `/docs/../x` reaches the relay as written. */
const rawGet = (urlPath: string) =>
  new Promise<{ status: number; type: string; csp: string; body: Buffer }>((resolve, reject) => {
    const { hostname, port } = new URL(relay.url);
    get({ host: hostname, port, path: urlPath }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode!, type: String(res.headers["content-type"]), csp: String(res.headers["content-security-policy"]), body: Buffer.concat(chunks) }),
      );
    }).on("error", reject);
  });

/** Submits a method's Try it form and answers the request it sent and the response it shows. */
async function tryIt(method: string): Promise<{ request: Request; status: string; shown: string }> {
  const details = page.locator(`[id="try-${method}"]`);
  if (!(await details.evaluate((node) => (node as HTMLDetailsElement).open))) await details.locator("summary").click();
  const form = details.locator("form");
  await form.locator(".try-output").evaluate((node) => node.replaceChildren());
  const [request] = await Promise.all([page.waitForRequest((r) => r.method() === "POST" && r.url() === `${relay.url}/`), form.locator("button[type=submit]").click()]);
  const response = form.locator(".try-response");
  await response.waitFor();
  return { request, status: (await form.locator(".try-status").textContent()) ?? "", shown: (await response.textContent()) ?? "" };
}

/** Waits until the sign-in state names an account (the first sign-in loads the signing code first) and answers its address. */
async function signedInAs(text = "Signed in as 0x"): Promise<string> {
  await page.waitForFunction((expected) => document.querySelector("#signin-state")?.textContent?.includes(expected) === true, text, { timeout: 10_000 });
  return /0x[0-9a-fA-F]{40}/.exec((await page.textContent("#signin-state")) ?? "")![0];
}

describe("the relay serves the docs site", () => {
  it("serves every file of the built site with its type and the CSP, and nothing outside it", async () => {
    expect(siteFiles).toEqual(expect.arrayContaining(["index.html", "style.css", "try-it.js"]));
    const expectedType: Record<string, RegExp> = { ".html": /^text\/html/, ".css": /^text\/css/, ".js": /^text\/javascript/, ".svg": /^image\/svg\+xml/ };
    for (const name of siteFiles) {
      const answer = await rawGet(`/docs/${name}`);
      expect(answer.status, name).toBe(200);
      expect(answer.body.equals(readFileSync(path.join(docsDir, name))), name).toBe(true);
      expect(answer.type, name).toMatch(expectedType[path.extname(name)] ?? /./);
    }
    const index = await rawGet("/docs/");
    expect(index.body.equals(readFileSync(path.join(docsDir, "index.html")))).toBe(true);

    const directives = new Map(index.csp.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]));
    expect(directives.get("default-src")).toEqual(["'none'"]);
    expect(directives.get("script-src")).toEqual(["'self'"]);
    expect(directives.get("connect-src")).toEqual(["'self'"]);
    expect(directives.get("style-src")).toEqual(["'self'"]);
    expect(index.csp).not.toMatch(/unsafe-(inline|eval)/);

    for (const urlPath of ["/docs/../package.json", "/docs/%2e%2e/package.json", "/docs/..%2fpackage.json", "/docs//etc/passwd", "/docs/src/try-it.ts", "/docs/nope.js", "/docs/index.html/"]) {
      expect((await rawGet(urlPath)).status, urlPath).toBe(404);
    }
  });

  it("renders in Chromium with no console errors or CSP violations, its first load under 200 KB", async () => {
    expect(problems).toEqual([]);
    const types = loaded.map((l) => l.type);
    for (const type of [/^text\/html/, /^text\/css/, /^text\/javascript/]) expect(types.some((t) => type.test(t)), String(type)).toBe(true);
    expect(loaded.every((l) => l.url.startsWith(`${relay.url}/docs/`))).toBe(true);
    const total = loaded.reduce((sum, l) => sum + l.bytes, 0);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(200 * 1024);
  });
});

describe("Try it against the relay that serves the page", () => {
  it(`refuses ${authMethod.name} without a token (401), then a throwaway key signs in and reads a real inbox`, async () => {
    const refused = await tryIt(authMethod.name);
    expect(refused.request.headers().authorization).toBeUndefined();
    expect(refused.status).toContain("HTTP 401");
    expect((JSON.parse(refused.shown) as { error: { code: number } }).error.code).toBe(unauthorized.code);

    await page.click("#signin-throwaway");
    const address = await signedInAs();

    // Someone writes to the new address, so the inbox the form reads has a message in it.
    const alice = wallet(TEST_KEYS.alice);
    const sent = await call(relay.url, "neutralService_sendMessage", [await alice.sign({ to: address!, message: "c0ffee" })], await alice.token({ domain: relay.domain }));
    expect(sent.body.error).toBeUndefined();

    const answer = await tryIt(authMethod.name);
    const authorization = answer.request.headers().authorization ?? "";
    expect(authorization).toMatch(/^Bearer [A-Za-z0-9_-]+\.0x[0-9a-f]{130}$/);
    const siwe = Buffer.from(authorization.slice("Bearer ".length).split(".")[0]!, "base64url").toString("utf8");
    expect(siwe.split("\n")[0]).toBe(`${relay.domain} wants you to sign in with your Ethereum account:`);
    expect(siwe.split("\n")[1]).toBe(address);
    expect(answer.status).toContain("HTTP 200");
    expect(answer.shown).toContain('"result"');
    expect(answer.shown).toContain('"end"');
    const page0 = (JSON.parse(answer.shown) as { result: [{ address: string; data: { id: string; from: string; to: string }[]; end: boolean }] }).result[0];
    expect(page0.address).toBe(address!.toLowerCase());
    expect(page0.data.map((m) => [m.id, m.from, m.to])).toEqual([[sent.body.result[0].id, alice.address, address!.toLowerCase()]]);
    expect(page0.end).toBe(true);

    await screenshotOf(page.locator(`[id="method-${authMethod.name}"] .try-it`), screenshotPath);
    const png = readFileSync(screenshotPath);
    expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    expect(png.readUInt32BE(16)).toBeGreaterThan(200); // IHDR width
    expect(png.readUInt32BE(20)).toBeGreaterThan(200); // IHDR height
    expect(statSync(screenshotPath).size).toBeGreaterThan(10_000);
    expect(problems.filter((p) => !p.includes("401"))).toEqual([]);
  });

  it(`calls ${openMethod.name}, which needs no token, without one`, async () => {
    expect(openMethod["x-requires-auth"]).not.toBe(true);
    const answer = await tryIt(openMethod.name);
    expect(answer.request.headers().authorization).toBeUndefined();
    expect(answer.status).toContain("HTTP 200");
    const info = (JSON.parse(answer.shown) as { result: [{ address: string; domains: string[] }] }).result[0];
    expect(info.address).toBe(relay.address);
    expect(info.domains).toContain(relay.domain);
  });
});

describe(`Try it streams ${streamMethod.name} (an event stream) from the relay that serves the page`, () => {
  const alice = wallet(TEST_KEYS.alice);

  /** The stream's Try it form, opened, its `after` cleared: the stream starts at the mailbox's first message. */
  async function streamForm() {
    const details = page.locator(`[id="try-${streamMethod.name}"]`);
    if (!(await details.evaluate((node) => (node as HTMLDetailsElement).open))) await details.locator("summary").click();
    const form = details.locator("form");
    await form.locator('[name="after"]').fill("");
    return form;
  }
  type Form = Awaited<ReturnType<typeof streamForm>>;
  const subscribe = async (form: Form) => {
    const [request] = await Promise.all([page.waitForRequest((r) => r.method() === "POST" && r.url() === `${relay.url}/`), form.locator("button[type=submit]", { hasText: "Subscribe" }).click()]);
    return request;
  };
  const waitForState = async (form: Form, state: "streaming" | "ended" | "error", timeout = 15_000) => {
    await form.locator(`.try-stream-state[data-state="${state}"]`).waitFor({ timeout });
    return (await form.locator(".try-stream-state").textContent()) ?? "";
  };
  const shownEvents = (form: Form) =>
    form.locator(".try-events li").evaluateAll((items) => items.map((li) => ({ method: (li as HTMLElement).dataset.method, id: (li as HTMLElement).dataset.id, params: JSON.parse(li.querySelector(".try-event-params")!.textContent!) as Record<string, unknown> })));

  it("without a token the node refuses before any stream: the JSON-RPC error (HTTP 401) shows as the stream's error state", { timeout: 60_000 }, async () => {
    await page.click("#signin-clear");
    const form = await streamForm();
    const request = await subscribe(form);
    expect(request.headers().accept).toBe("text/event-stream");
    expect(request.headers().authorization).toBeUndefined();
    const state = await waitForState(form, "error");
    expect(state).toMatch(/^Refused: -32\d{3} .+ \(HTTP 401\)\.$/);
    expect(state.startsWith(`Refused: ${unauthorized.code} ${unauthorized.message}`)).toBe(true); // e.g. "Unauthorized: missing token"
    expect(await form.locator(".try-status").textContent()).toContain("HTTP 401");
    expect((JSON.parse((await form.locator(".try-response").textContent())!) as { error: { code: number } }).error.code).toBe(unauthorized.code);
    expect(await form.locator(".try-events li").count()).toBe(0);
    expect(await form.locator(".try-stop").isDisabled()).toBe(true);
    expect(await form.locator("button[type=submit]").isDisabled()).toBe(false);
  });

  it("signed in with a throwaway key, it shows the caught-up event, then a message sent to the account the moment it is stored, with its SSE id; Stop ends it", { timeout: 90_000 }, async () => {
    await page.click("#signin-throwaway");
    const address = await signedInAs();
    const form = await streamForm();
    const request = await subscribe(form);
    expect(request.headers().accept).toBe("text/event-stream");
    expect(request.headers().authorization ?? "").toMatch(/^Bearer [A-Za-z0-9_-]+\.0x[0-9a-f]{130}$/);
    expect(JSON.parse(request.postData()!)).toEqual({ jsonrpc: "2.0", id: 1, method: streamMethod.name, params: [{}] });

    // A new account's mailbox is empty: the stream opens with caught-up, and stays open.
    await form.locator('.try-events li[data-method="neutralService_caughtUp"]').waitFor({ timeout: 15_000 });
    expect(await waitForState(form, "streaming")).toMatch(/^Streaming: 1 event\b/);
    expect(await form.locator(".try-status").textContent()).toBe("HTTP 200 OK · text/event-stream");
    expect(await form.locator(".try-stop").isDisabled()).toBe(false);
    expect(await form.locator("button[type=submit]").isDisabled()).toBe(true);

    // Alice writes to the account over HTTP while the page holds the stream: it arrives live.
    const sent = await call(relay.url, "neutralService_sendMessage", [await alice.sign({ to: address, message: "c0ffee" })], await alice.token({ domain: relay.domain }));
    expect(sent.body.error).toBeUndefined();
    const id = (sent.body.result[0] as { id: string }).id;
    await form.locator(`.try-events li[data-method="neutralService_message"][data-id="${id}"]`).waitFor({ timeout: 15_000 });
    const events = await shownEvents(form);
    expect(events.map((e) => [e.method, e.id])).toEqual([
      ["neutralService_caughtUp", undefined],
      ["neutralService_message", id],
    ]);
    expect(events[1]!.params.message).toMatchObject({ id, from: alice.address, to: address.toLowerCase(), message: "c0ffee" });
    expect(await form.locator(".try-events li").nth(1).locator(".try-event-head").textContent()).toContain(`neutralService_message · id ${id}`);
    expect(await form.locator(".try-stream-state").textContent()).toMatch(new RegExp(`^Streaming: 2 events( · \\d+ keep-alives?)? · last id ${id}\\.$`));

    await screenshotOf(page.locator(`[id="method-${streamMethod.name}"] .try-it`), path.join(outputDir, "docs-try-it-stream.png"));
    expect(statSync(path.join(outputDir, "docs-try-it-stream.png")).size).toBeGreaterThan(10_000);

    // Stop aborts the fetch: the stream ends here, the events stay, Subscribe works again.
    await form.locator(".try-stop").click();
    expect(await waitForState(form, "ended")).toBe(`Ended: stopped (you pressed Stop) after 2 events. Resume after ${id}.`);
    expect(await form.locator(".try-stop").isDisabled()).toBe(true);
    expect(await form.locator("button[type=submit]").isDisabled()).toBe(false);
    expect(await form.locator(".try-events li").count()).toBe(2);
  });

  it("the node ends the stream when the token expires: the end event shows, and the state names its reason", { timeout: 60_000 }, async () => {
    const bob = wallet(TEST_KEYS.bob);
    const token = await bob.token({ domain: relay.domain, expirationTime: new Date(Date.now() + 8_000) });
    await page.fill("#signin-token", token);
    await page.click("#signin-use-token");
    await signedInAs(`${bob.account.address} (pasted token`);
    const form = await streamForm();
    await subscribe(form);
    await form.locator('.try-events li[data-method="neutralService_caughtUp"]').waitFor({ timeout: 15_000 });
    const state = await waitForState(form, "ended", 30_000);
    expect(state).toMatch(/^Ended by the node: token-expired \(.+\)\.$/);
    const events = await shownEvents(form);
    expect(events.map((e) => e.method)).toEqual(["neutralService_caughtUp", "neutralService_end"]);
    expect(events[1]!.params.reason).toBe("token-expired");
    expect(state).toContain(String(events[1]!.params.message));
    expect(await form.locator(".try-stop").isDisabled()).toBe(true);
    expect(problems.filter((p) => !p.includes("401"))).toEqual([]);
  });
});
