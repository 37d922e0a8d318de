// What a client sees from the node outside a plain 200: GET / saying what the node is, and the
// refusals (401, 413, 415, 429) carrying the CORS headers a browser needs to read them.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, startNode, type InProcessNode } from "../../testing/index.js";

let relay: InProcessNode;
/** A second node with a rate limit of 1 unit/s (burst 2). */
let limited: InProcessNode;

beforeAll(async () => {
  [relay, limited] = await Promise.all([startNode({ args: ["--max-body-bytes", "1024"] }), startNode({ args: ["--rate-limit", "1"] })]);
}, 60_000);
afterAll(async () => {
  await Promise.all([relay?.stop(), limited?.stop()]);
});

const ORIGIN = { origin: "http://app.example" };
const nodeInfo = { jsonrpc: "2.0", id: 1, method: "neutralService_nodeInfo", params: [] };

describe("GET /", () => {
  it("tells curl (any Accept) what the node is and where the docs, the spec and health are, as text", async () => {
    for (const accept of [undefined, "*/*", "text/plain"]) {
      const response = await fetch(`${relay.url}/`, { headers: accept === undefined ? {} : { accept } });
      expect(response.status, accept).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      const text = await response.text();
      expect(text).toMatch(/^neutralService node: neutral-relay \d+\.\d+\.\d+/);
      for (const where of ["POST /", "/docs/", "/openrpc.json", "/health"]) expect(text).toContain(where);
      expect(text).toContain(`neutralService_nodeInfo","params":[]}' ${relay.url}/`); // an example to paste, at the address the client used
    }
  });

  it("is what the README shows under `curl http://127.0.0.1:8645/`, line for line (at the README's address)", async () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const shown = /```text\n\$ curl http:\/\/127\.0\.0\.1:8645\/\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(shown).toBeDefined();
    const text = await (await fetch(`${relay.url}/`)).text();
    expect(text.replaceAll(relay.url, "http://127.0.0.1:8645")).toBe(shown);
  });

  it("answers JSON to a client that asks for it, HEAD without a body, and a browser is sent to the docs", async () => {
    const json = await fetch(`${relay.url}/`, { headers: { accept: "application/json" } });
    expect(json.status).toBe(200);
    expect(json.headers.get("vary")).toBe("accept");
    expect(await json.json()).toMatchObject({
      service: "neutralService",
      software: { name: "neutral-relay" },
      jsonRpc: { method: "POST", path: "/" },
      docs: "/docs/",
      openrpc: "/openrpc.json",
      health: "/health",
    });
    const head = await fetch(`${relay.url}/`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const browser = await fetch(`${relay.url}/`, { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" }, redirect: "manual" });
    expect(browser.status).toBe(302);
    expect(browser.headers.get("location")).toBe("/docs/");
  });

  it("keeps JSON-RPC on POST: other verbs are 405 with Allow", async () => {
    expect((await post(relay.url, nodeInfo)).status).toBe(200);
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      const response = await fetch(`${relay.url}/`, { method, body: method === "DELETE" ? null : "{}" });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("allow"), method).toBe("GET, HEAD, POST");
    }
  });
});

describe("refusals a browser can read", () => {
  const exposed = (response: { headers: Headers }) => (response.headers.get("access-control-expose-headers") ?? "").split(",").map((name) => name.trim().toLowerCase());
  const expectCors = (response: { status: number; headers: Headers }, names: string[]) => {
    expect(response.headers.get("access-control-allow-origin"), `${response.status}: allow-origin`).toBe("*");
    for (const name of names) expect(exposed(response), `${response.status} exposes ${name}`).toContain(name);
  };

  it("401 exposes WWW-Authenticate", async () => {
    const answer = await post(relay.url, { jsonrpc: "2.0", id: 1, method: "neutralService_getInbox", params: [] }, undefined, ORIGIN);
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toBe('Bearer realm="neutralService"');
    expectCors(answer, ["www-authenticate", "x-request-id"]);
  });

  it("413 and 415 carry them too", async () => {
    const tooLarge = await post(relay.url, JSON.stringify(nodeInfo).padEnd(2048, " "), undefined, ORIGIN);
    expect(tooLarge.status).toBe(413);
    expectCors(tooLarge, ["retry-after", "www-authenticate", "x-request-id"]);
    const notJson = await post(relay.url, "{}", undefined, { ...ORIGIN, "content-type": "text/plain" });
    expect(notJson.status).toBe(415);
    expectCors(notJson, ["retry-after", "www-authenticate", "x-request-id"]);
  });

  it("the rate limiter's 429 exposes Retry-After (and the request id), like every other refusal", async () => {
    let answer = await post(limited.url, nodeInfo, undefined, ORIGIN);
    for (let i = 0; i < 10 && answer.status !== 429; i++) answer = await post(limited.url, nodeInfo, undefined, ORIGIN);
    expect(answer.status).toBe(429);
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(answer.body).toMatchObject({ id: null, error: { code: -32029, data: { retryAfter: expect.any(Number) } } });
    expect(answer.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expectCors(answer, ["retry-after", "x-request-id"]);
    // And the access log has it, with its request id.
    const id = answer.headers.get("x-request-id");
    for (let i = 0; i < 50 && !limited.logs.some((log) => log.reqId === id); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(limited.logs.find((log) => log.reqId === id)).toMatchObject({ msg: "rpc", status: 429, errors: [-32029] });
  });
});
