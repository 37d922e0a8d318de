// Behind a reverse proxy the operator trusts (`--trust-proxy`), a request's client is the address
// X-Forwarded-For names; from anyone else the header is ignored. Rate limits, connection bounds and
// the request log follow.
import type { IncomingMessage } from "node:http";
import { connect } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { startNode, stopRunningNodes } from "../../testing/in-process.js";
import { clientAddress, parseProxyBlock, trustedProxies } from "./client-address.js";

afterAll(stopRunningNodes);

/** A request as clientAddress reads it: its connection's address and its X-Forwarded-For. */
const request = (remoteAddress: string, forwardedFor?: string) =>
  ({ socket: { remoteAddress }, headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor } }) as unknown as IncomingMessage;

describe("parseProxyBlock", () => {
  it("takes an address or a CIDR block, IPv4 or IPv6", () => {
    expect(["127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8", "192.168.1.0/024"].map(parseProxyBlock)).toEqual(["127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8", "192.168.1.0/24"]);
  });

  it("refuses what is neither, and a prefix past the address's length", () => {
    for (const text of ["localhost", "10.0.0.0/33", "::1/129", "10.0.0.0/8/1", "10.0.0.0/", "10.0.0.0/x", ""]) expect(() => parseProxyBlock(text), text).toThrow();
  });
});

describe("clientAddress", () => {
  const loopback = trustedProxies(["127.0.0.1", "::1"]);
  const chain = trustedProxies(["127.0.0.1", "10.0.0.0/8"]);

  it("ignores X-Forwarded-For without trusted proxies, and from a connection that is not one", () => {
    expect(clientAddress(request("127.0.0.1", "203.0.113.7"), undefined)).toBe("127.0.0.1");
    expect(clientAddress(request("198.51.100.9", "203.0.113.7"), loopback)).toBe("198.51.100.9");
  });

  it("takes the client a trusted proxy names, never what the client wrote before it", () => {
    expect(clientAddress(request("127.0.0.1", "203.0.113.7"), loopback)).toBe("203.0.113.7");
    expect(clientAddress(request("::ffff:127.0.0.1", "203.0.113.7"), loopback)).toBe("203.0.113.7");
    expect(clientAddress(request("::1", "2001:db8::5"), loopback)).toBe("2001:db8::5");
    // The client sent "X-Forwarded-For: 198.51.100.1"; the proxy appended the address it saw.
    expect(clientAddress(request("127.0.0.1", "198.51.100.1, 203.0.113.7"), loopback)).toBe("203.0.113.7");
  });

  it("walks back through a chain of trusted proxies to the first address that is not one", () => {
    expect(clientAddress(request("127.0.0.1", "203.0.113.7, 10.1.2.3"), chain)).toBe("203.0.113.7");
    expect(clientAddress(request("127.0.0.1", "198.51.100.1,203.0.113.7,10.1.2.3,10.0.0.1"), chain)).toBe("203.0.113.7");
    // Every hop a trusted proxy: the leftmost is as far as the header goes.
    expect(clientAddress(request("127.0.0.1", "10.0.0.5, 10.0.0.1"), chain)).toBe("10.0.0.5");
  });

  it("reads hops with a port, and stops at the proxy that passed a hop that is no address", () => {
    expect(clientAddress(request("127.0.0.1", "203.0.113.7:51234"), loopback)).toBe("203.0.113.7");
    expect(clientAddress(request("127.0.0.1", "[2001:db8::5]:443"), loopback)).toBe("2001:db8::5");
    expect(clientAddress(request("127.0.0.1", "unknown"), loopback)).toBe("127.0.0.1");
    expect(clientAddress(request("127.0.0.1", "203.0.113.7, <script>"), loopback)).toBe("127.0.0.1");
    expect(clientAddress(request("127.0.0.1", ""), loopback)).toBe("127.0.0.1");
  });
});

describe("a node behind a trusted proxy (--trust-proxy 127.0.0.1)", () => {
  const nodeInfo = '{"jsonrpc":"2.0","id":1,"method":"neutralService_nodeInfo","params":[]}';
  const ask = (url: string, forwardedFor: string) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor }, body: nodeInfo }).then((response) => response.status);
  /** Asks as `forwardedFor` until the node answers 429; how many it answered before. */
  async function exhaust(url: string, forwardedFor: string): Promise<number> {
    for (let answered = 0; answered < 50; answered++) if ((await ask(url, forwardedFor)) === 429) return answered;
    throw new Error("never rate limited");
  }

  it("rate-limits each client X-Forwarded-For names, and logs it; without the flag, the header counts for nothing", { timeout: 30_000 }, async () => {
    const behind = await startNode({ args: ["--rate-limit", "1", "--trust-proxy", "127.0.0.1,::1"] });
    expect(await exhaust(behind.url, "203.0.113.7")).toBeGreaterThan(0);
    expect(await ask(behind.url, "203.0.113.8")).toBe(200); // another client, its own budget
    expect(await ask(behind.url, "198.51.100.1, 203.0.113.7")).toBe(429); // what a client writes first changes nothing
    const logged = behind.logs.filter((line) => line.msg === "rpc").map((line) => line.client);
    expect(logged).toContain("203.0.113.7");
    expect(logged).toContain("203.0.113.8");

    const direct = await startNode({ args: ["--rate-limit", "1"] });
    await exhaust(direct.url, "203.0.113.7");
    expect(await ask(direct.url, "203.0.113.8")).toBe(429); // one client: the connection's address
    expect(direct.logs.filter((line) => line.msg === "rpc").map((line) => line.client)).toContain("127.0.0.1");
  });

  it("counts a trusted proxy's connections in the node's total only, not against the per-client bound", { timeout: 30_000 }, async () => {
    /** Opens `count` connections at once; how many the node answered /health on. */
    async function answered(url: string, count: number): Promise<number> {
      const { hostname, port } = new URL(url);
      const sockets = Array.from({ length: count }, () => connect(Number(port), hostname));
      try {
        await Promise.all(sockets.map((socket) => new Promise((resolve) => socket.once("connect", resolve))));
        const results = await Promise.all(
          sockets.map(
            (socket) =>
              new Promise<boolean>((resolve) => {
                let text = "";
                socket.on("data", (chunk: Buffer) => {
                  text += chunk.toString();
                  if (text.includes("\r\n\r\n")) resolve(text.startsWith("HTTP/1.1 200"));
                });
                socket.once("error", () => resolve(false));
                socket.once("close", () => resolve(text.startsWith("HTTP/1.1 200")));
                socket.write(`GET /health HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
              }),
          ),
        );
        return results.filter(Boolean).length;
      } finally {
        for (const socket of sockets) socket.destroy();
      }
    }
    const behind = await startNode({ args: ["--max-connections-per-ip", "2", "--trust-proxy", "127.0.0.1"] });
    expect(await answered(behind.url, 4)).toBe(4);
    const direct = await startNode({ args: ["--max-connections-per-ip", "2"] });
    expect(await answered(direct.url, 4)).toBe(2);
  });

  it("refuses a --trust-proxy that is not an address or a block, naming it", async () => {
    await expect(startNode({ args: ["--trust-proxy", "10.0.0.0/40"] })).rejects.toThrow('--trust-proxy: "10.0.0.0/40": the prefix length must be 0..32');
  });
});
