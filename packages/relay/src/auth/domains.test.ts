// The SIWE domains a node accepts: loopback names of one machine are one, and a token for a domain
// the node does not serve is refused with the ones it does.
import { fixtureSigner } from "@neutral/protocol/testing";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_KEYS } from "@neutral/protocol/testing";
import { startNode, stopRunningNodes } from "../../testing/in-process.js";
import { describeServedDomains, servedDomains } from "./domains.js";

afterAll(stopRunningNodes);

describe("servedDomains", () => {
  it("adds the machine's other loopback names, at the same port, to a loopback or wildcard domain", () => {
    expect(servedDomains(["127.0.0.1:8645"])).toEqual(["127.0.0.1:8645", "localhost:8645", "[::1]:8645"]);
    expect(servedDomains(["localhost:9000"])).toEqual(["localhost:9000", "127.0.0.1:9000", "[::1]:9000"]);
    expect(servedDomains(["[::1]:1"])).toEqual(["[::1]:1", "127.0.0.1:1", "localhost:1"]);
    expect(servedDomains(["127.0.0.2:8645"])).toEqual(["127.0.0.2:8645", "127.0.0.1:8645", "localhost:8645", "[::1]:8645"]);
    expect(servedDomains(["0.0.0.0:8645"])).toEqual(["0.0.0.0:8645", "127.0.0.1:8645", "localhost:8645", "[::1]:8645"]);
    expect(servedDomains(["[::]:8645"])).toEqual(["[::]:8645", "127.0.0.1:8645", "localhost:8645", "[::1]:8645"]);
    expect(servedDomains(["localhost"])).toEqual(["localhost", "127.0.0.1", "[::1]"]);
  });

  it("leaves other domains as they are, each once", () => {
    expect(servedDomains(["chat.example.org", "relay.example.net:8443", "chat.example.org"])).toEqual(["chat.example.org", "relay.example.net:8443"]);
    expect(servedDomains(["10.0.0.5:8645", "localhost.example.org"])).toEqual(["10.0.0.5:8645", "localhost.example.org"]);
    expect(servedDomains([])).toEqual([]);
  });

  it("lists at most ten domains in a refusal", () => {
    expect(describeServedDomains(["a", "b"])).toBe("a, b");
    const many = Array.from({ length: 12 }, (_, i) => `d${i}.example`);
    expect(describeServedDomains(many)).toBe(`${many.slice(0, 10).join(", ")} and 2 more`);
  });
});

describe("a node listening on 127.0.0.1", () => {
  const alice = fixtureSigner(TEST_KEYS.alice);
  const inbox = async (url: string, domain: string) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${alice.bearerToken({ domain }).token}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_getInbox", params: [] }),
    });
    return { status: response.status, body: (await response.json()) as { result?: unknown; error?: { code: number; message: string; data?: { reason?: string } } } };
  };

  it("accepts a token for localhost or [::1] at its port as one for 127.0.0.1, and says so in nodeInfo", { timeout: 30_000 }, async () => {
    const node = await startNode();
    const port = new URL(node.url).port;
    for (const domain of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const answer = await inbox(node.url, domain);
      expect({ domain, status: answer.status, error: answer.body.error }).toEqual({ domain, status: 200, error: undefined });
    }
    const info = (await (await fetch(node.url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"neutralService_nodeInfo","params":[]}' })).json()) as {
      result: [{ domains: string[] }];
    };
    expect(info.result[0].domains).toEqual([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  });

  it("refuses a token for another domain or another port with 401, naming the domains it serves", { timeout: 30_000 }, async () => {
    const node = await startNode();
    const port = Number(new URL(node.url).port);
    for (const domain of ["chat.example.org", `localhost:${port + 1}`]) {
      const answer = await inbox(node.url, domain);
      expect(answer.status).toBe(401);
      expect(answer.body.error?.code).toBe(-32001);
      expect(answer.body.error?.data?.reason).toBe(`domain "${domain}" is not served by this node (it serves 127.0.0.1:${port}, localhost:${port}, [::1]:${port}: sign in to one of those)`);
    }
  });

  it("with --domain, serves that domain, and loopback names only for a loopback one", { timeout: 30_000 }, async () => {
    const node = await startNode({ args: ["--domain", "chat.example.org,localhost:7000"] });
    expect((await inbox(node.url, "chat.example.org")).status).toBe(200);
    expect((await inbox(node.url, "127.0.0.1:7000")).status).toBe(200);
    const refused = await inbox(node.url, node.domain);
    expect(refused.status).toBe(401);
    expect(refused.body.error?.data?.reason).toContain("(it serves chat.example.org, localhost:7000, 127.0.0.1:7000, [::1]:7000:");
  });
});
