// startFederation lists every node's port to the others before any node listens: a port taken
// meanwhile (a listener elsewhere, or an outgoing connection's local port: one ephemeral range) is
// worth new ports for the whole federation, not a failed test.
import { createServer, type Server } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_KEYS } from "../test/wallets.js";
import { freePorts, startFederation, stopRunningNodes } from "./index.js";

afterAll(stopRunningNodes);

async function holding(port: number): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return server;
}

describe("startFederation", () => {
  it("builds the federation again on fresh ports when one of its ports was taken before its node listened", { timeout: 60_000 }, async () => {
    const [taken, other] = await freePorts(2);
    const thief = await holding(taken!);
    try {
      const federation = await startFederation({ keys: [TEST_KEYS.node, TEST_KEYS.peer], inProcess: true, ports: [taken!, other!] });
      try {
        expect(federation.nodes.map((node) => node.port)).not.toContain(taken);
        const [a, b] = federation.nodes;
        expect((await fetch(new URL("/health", a!.url))).status).toBe(200);
        expect((await fetch(new URL("/health", b!.url))).status).toBe(200);
      } finally {
        await federation.close();
      }
    } finally {
      thief.close();
    }
  });

  it("does not retry what new ports cannot mend", { timeout: 60_000 }, async () => {
    await expect(startFederation({ keys: [TEST_KEYS.node, TEST_KEYS.peer], inProcess: true, args: ["--max-batch", "0"] })).rejects.toThrow(/--max-batch/);
  });
});
