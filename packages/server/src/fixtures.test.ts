// Replays every seeds/exchanges fixture through the real stub over HTTP and requires the exact
// response and status: the code cannot drift from the fixtures (which the spec tests tie to openrpc.json).
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDispatcher } from "./dispatcher.js";
import { service, type Handlers } from "./neutral-service.js";
import { RpcError } from "./errors.js";
import { createHttpHandler } from "./http.js";
import type { TestContext } from "../test/handlers.js";

interface Fixture {
  description: string;
  request?: unknown;
  rawRequest?: string;
  requestHeaders?: Record<string, string>;
  response: unknown;
  responseHeaders?: Record<string, string>;
  httpStatus: number;
}

const dir = fileURLToPath(new URL("../../../seeds/exchanges/", import.meta.url));
const fixtures = readdirSync(dir)
  .filter((name) => name.endsWith(".json"))
  .sort()
  .map((name) => [name, JSON.parse(readFileSync(dir + name, "utf8")) as Fixture] as const);

// Each handler answers the payload the fixture expects for its method.
let payloads = new Map<string, unknown>();
const answer = (method: string) => {
  if (!payloads.has(method)) throw new Error(`fixture has no payload for ${method}`);
  return payloads.get(method) as never;
};
const handlers: Handlers<TestContext> = {
  neutralService_getInbox: () => answer("neutralService_getInbox"),
  neutralService_getChat: () => answer("neutralService_getChat"),
  neutralService_sendMessage: () => answer("neutralService_sendMessage"),
  neutralService_publishKey: () => answer("neutralService_publishKey"),
  neutralService_getKey: () => answer("neutralService_getKey"),
  neutralService_nodeInfo: () => answer("neutralService_nodeInfo"),
  neutralService_publishHome: () => answer("neutralService_publishHome"),
  neutralService_getHome: () => answer("neutralService_getHome"),
  neutralService_deliver: () => answer("neutralService_deliver"),
  neutralService_lookup: () => answer("neutralService_lookup"),
  neutralService_subscribe: () => answer("neutralService_subscribe"),
  neutralService_deleteMessages: () => answer("neutralService_deleteMessages"),
  neutralService_setConsent: () => answer("neutralService_setConsent"),
  neutralService_getConsent: () => answer("neutralService_getConsent"),
  neutralService_importMessages: () => answer("neutralService_importMessages"),
  neutralService_getProof: () => answer("neutralService_getProof"),
  neutralService_getLog: () => answer("neutralService_getLog"),
  neutralService_proveDelivery: () => answer("neutralService_proveDelivery"),
  neutralService_provePositions: () => answer("neutralService_provePositions"),
};

function expectedPayloads(fixture: Fixture): Map<string, unknown> {
  const requests = [fixture.request].flat() as { id?: unknown; method?: string }[];
  const responses = [fixture.response ?? []].flat() as { id?: unknown; result?: unknown[] }[];
  const map = new Map<string, unknown>();
  for (const response of responses) {
    const request = requests.find((r) => r && r.id === response?.id);
    if (request?.method && response.result) {
      expect(map.has(request.method), "one payload per method in a fixture").toBe(false);
      map.set(request.method, response.result[0]);
    }
  }
  return map;
}

let server: Server;
let url: string;

beforeAll(async () => {
  const dispatcher = createDispatcher<TestContext>({ service, handlers });
  const handler = createHttpHandler<TestContext>({
    dispatcher,
    realm: "neutralService", // the exchanges show neutralService's WWW-Authenticate header
    authenticate(authorization) {
      if (!authorization) throw RpcError.unauthorized("missing token");
      return { auth: { address: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8" } };
    },
  });
  server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("seeds/exchanges replayed against the stub", () => {
  it("has fixtures", () => expect(fixtures.length).toBeGreaterThanOrEqual(10));

  it.each(fixtures)("%s", async (_name, fixture) => {
    payloads = expectedPayloads(fixture);
    const headers = new Headers({ "content-type": "application/json" });
    for (const [name, value] of Object.entries(fixture.requestHeaders ?? {})) headers.set(name, value);
    const response = await fetch(url, {
      method: "POST",
      headers,
      body: fixture.rawRequest ?? JSON.stringify(fixture.request),
    });
    expect(response.status).toBe(fixture.httpStatus);
    const text = await response.text();
    expect(text === "" ? null : JSON.parse(text)).toEqual(fixture.response);
    for (const [name, value] of Object.entries(fixture.responseHeaders ?? {})) {
      expect(response.headers.get(name)).toBe(value);
    }
  });
});
