// The docs site is served gzipped to clients that take it (its page is mostly HTML tables: ~190 KB,
// ~35 KB gzipped), and as is to the others.
import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNode, type InProcessNode } from "../../testing/index.js";
import { acceptsGzip } from "./routes.js";

describe("acceptsGzip", () => {
  it.each([
    ["gzip, deflate, br", true],
    ["br;q=1.0, gzip;q=0.8", true],
    ["*", true],
    ["GZIP", true],
    ["gzip;q=0", false],
    ["deflate, gzip; q=0.0", false],
    ["identity", false],
    [undefined, false],
  ])("%j → %s", (header, expected) => expect(acceptsGzip(header)).toBe(expected));
});

describe("GET /docs/ on a real relay", () => {
  let relay: InProcessNode;
  beforeAll(async () => {
    relay = await startNode();
  }, 30_000);
  afterAll(() => relay?.stop());

  /** A raw GET (fetch would decompress and hide the encoding). */
  const get = (path: string, headers: Record<string, string>) =>
    new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const req = request(`${relay.url}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end();
    });

  it("answers gzip to a client that takes it, the same bytes once unzipped, and plain to one that does not", { timeout: 30_000 }, async () => {
    const plain = await get("/docs/", {});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toContain("<!doctype html>");
    const zipped = await get("/docs/", { "accept-encoding": "gzip, deflate, br" });
    expect(zipped.headers).toMatchObject({ "content-encoding": "gzip", vary: "accept-encoding", "content-security-policy": expect.any(String) });
    expect(Number(zipped.headers["content-length"])).toBe(zipped.body.length);
    expect(zipped.body.length).toBeLessThan(plain.body.length / 3);
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect((await get("/docs/", { "accept-encoding": "gzip;q=0" })).headers["content-encoding"]).toBeUndefined();
  });
});
