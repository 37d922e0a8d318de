// Soak (pnpm test:soak): a flood of idle connections past what the node's processes can hold, on a
// real clustered relay on loopback; each client speaks from an address of its own in 127.0.0.0/8.
// The per-address and idle-time limits are tested at the limit in connections.test.ts.
import { describe, expect, it } from "vitest";
import { childPids, flood, httpFrom, limitOpenFiles, NODE_INFO, serves, sleep } from "../test/clients.js";
import { startRelay } from "../testing/index.js";

const addresses = (from: number, count: number) => Array.from({ length: count }, (_, i) => `127.0.0.${from + i}`);

async function twoWorkers(pid: number): Promise<number[]> {
  for (let i = 0; i < 100; i++) {
    const workers = await childPids(pid);
    if (workers.length === 2) return workers;
    await sleep(100);
  }
  throw new Error("the relay did not fork its two workers");
}

describe("connection exhaustion", () => {
  it("a flood of idle connections past the workers' open-file limit leaves the clustered node serving as soon as it stops", { timeout: 120_000 }, async () => {
    const relay = await startRelay({ workers: 2, env: { NEUTRAL_MAX_CONNECTIONS: "600", NEUTRAL_MAX_CONNECTIONS_PER_IP: "0" } });
    try {
      // 1024 descriptors per process: 3,000 idle connections would take more than both workers hold.
      const workers = await twoWorkers(relay.process.pid!);
      await limitOpenFiles([relay.process.pid!, ...workers], 1024);
      expect(await serves(relay.url)).toBe(true);

      const attack = await flood(relay.url, 3000, addresses(30, 3), { inFlight: 200, connectTimeoutMs: 3000 });
      await sleep(1000);
      attack.end();

      const stopped = Date.now();
      let servedAfterMs: number | undefined;
      for (let i = 0; i < 20 && servedAfterMs === undefined; i++) {
        if (await serves(relay.url, "127.0.0.1", 2000)) servedAfterMs = Date.now() - stopped;
        else await sleep(250);
      }
      expect(servedAfterMs, "the node serves again once the flood stops").toBeDefined();
      expect(servedAfterMs!).toBeLessThan(5000);
      // Fresh connections land on both workers (round-robin): every one is served.
      for (let i = 0; i < 6; i++) expect((await httpFrom(relay.url, "127.0.0.1", { body: NODE_INFO, timeoutMs: 3000 })).status).toBe(200);
      expect(relay.process.exitCode).toBeNull();
    } finally {
      await relay.crash();
    }
  });
});
