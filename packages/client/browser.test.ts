// The SDK in a real browser (Chromium, driven by playwright-core): bundled for the
// browser by esbuild, loaded from a page on loopback whose server forwards JSON-RPC to a real
// relay, two in-browser accounts exchange a message and verify it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startRelay, type RunningRelay } from "@neutral/relay/testing";
import { launchChromium } from "@neutral/test-support/browser";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const packageDir = path.dirname(fileURLToPath(import.meta.url));

let relay: RunningRelay;
let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  const bundle = await build({
    stdin: { contents: `export { createNeutral, generatePrivateKey, addressOfKey } from "./src/index.ts";`, resolveDir: packageDir, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const sdk = bundle.outputFiles[0]!.text;
  relay = await startRelay();
  server = createServer(async (request, response) => {
    if (request.method === "GET" && request.url === "/") {
      response.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><link rel="icon" href="data:,"><title>sdk</title><script type="module">import * as sdk from "/sdk.js"; window.sdk = sdk; document.title = "ready";</script>`);
    } else if (request.method === "GET" && request.url === "/sdk.js") {
      response.writeHead(200, { "content-type": "text/javascript" }).end(sdk);
    } else if (request.method === "POST" && request.url === "/") {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const upstream = await fetch(relay.url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(request.headers.authorization && { authorization: request.headers.authorization }) },
        body: Buffer.concat(chunks),
      });
      response.writeHead(upstream.status, { "content-type": "application/json" }).end(await upstream.text());
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 180_000); // unpacks and starts Chromium: past 60 s on a loaded 2-core CI machine

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await relay?.stop();
});

describe("the SDK in Chromium", () => {
  it("signs in, publishes keys, encrypts, sends, reads and verifies, with no console errors", async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(origin);
    await page.waitForFunction(() => document.title === "ready");

    const result = await page.evaluate(async (domain) => {
      type Sdk = typeof import("./src/index.js");
      const { createNeutral, generatePrivateKey } = (window as unknown as { sdk: Sdk }).sdk;
      const url = location.origin;
      const alice = createNeutral({ url, account: generatePrivateKey(), domain });
      const bob = createNeutral({ url, account: generatePrivateKey(), domain });
      await bob.ready();
      const sent = await alice.send(await bob.getAddress(), "hello from the browser ✓");
      const read: [string | undefined, boolean][] = [];
      for await (const message of bob.inbox().messages()) read.push([message.text, message.verified]);
      return { sent: sent.verified, read, hasBuffer: "Buffer" in globalThis };
    }, relay.domain);

    expect(result).toEqual({ sent: true, read: [["hello from the browser ✓", true]], hasBuffer: false });
    expect(problems).toEqual([]);
    await page.close();
  });
});
