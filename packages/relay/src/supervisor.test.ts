// The supervising primary (issue 19, finding 8): workers that keep dying are replaced, later each
// time, while the workers alive keep serving; the node never gives up while its database answers.
import net, { type AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { childPids, serves, sleep } from "../test/clients.js";
import { startRelay } from "../testing/index.js";

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The relay's workers once there are `count` of them (waits up to `timeoutMs`). */
async function workers(pid: number, count: number, timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pids = await childPids(pid);
    if (pids.length >= count || Date.now() > deadline) return pids;
    await sleep(25);
  }
}

describe("worker supervision", () => {
  it("keeps serving while a worker is killed eight times in a row, backs off, and restores every worker", { timeout: 120_000 }, async () => {
    // A fixed port: with none left the primary closes its listening socket, and a new one on port 0 would get another port.
    const port = await freePort();
    const relay = await startRelay({ workers: 2, args: ["--port", String(port)] });
    try {
      const primary = relay.process.pid!;
      const deaths = () => relay.logs.filter((log) => log.msg === "worker exited unexpectedly").length;
      const [keeper] = await workers(primary, 2, 10_000);
      expect(keeper).toBeDefined();
      // The other worker is killed as soon as it exists, eight times: more than the six deaths in ten
      // seconds that used to stop the node. The keeper serves throughout.
      for (let kill = 0; kill < 8; kill++) {
        const victim = (await workers(primary, 2, 15_000)).find((pid) => pid !== keeper);
        expect(victim, `a replacement worker after ${kill} deaths`).toBeDefined();
        process.kill(victim!, "SIGKILL");
        // Once the primary has seen the death (a connection handed to a worker that just died is lost).
        for (let i = 0; i < 100 && deaths() <= kill; i++) await sleep(25);
        // Served within a few seconds (the next request may meet a worker that is only starting).
        let served = false;
        for (let i = 0; i < 12 && !served; i++) {
          served = await serves(relay.url);
          if (!served) await sleep(250);
        }
        expect(served, `served after ${kill + 1} deaths`).toBe(true);
      }
      expect(relay.process.exitCode).toBeNull();
      const restarts = relay.logs.filter((log) => log.msg === "worker exited unexpectedly").map((log) => log.restartInMs as number);
      expect(restarts).toHaveLength(8);
      expect(restarts[0]).toBe(0); // the first is replaced at once
      for (let i = 2; i < restarts.length; i++) expect(restarts[i]!).toBeGreaterThanOrEqual(restarts[i - 1]!); // then later each time
      expect(Math.max(...restarts)).toBeLessThanOrEqual(5000);

      // Both workers die at once: the node is down only until the (capped) restarts, then serves again.
      const both = await workers(primary, 2, 15_000);
      expect(both).toHaveLength(2);
      for (const pid of both) process.kill(pid, "SIGKILL");
      let served = false;
      for (let i = 0; i < 80 && !served; i++) {
        served = await serves(relay.url, "127.0.0.1", 1000);
        if (!served) await sleep(250);
      }
      expect(served).toBe(true);
      expect(await workers(primary, 2, 15_000)).toHaveLength(2);
      expect(relay.process.exitCode).toBeNull();
      expect((await relay.stop()).code).toBe(0);
    } finally {
      await relay.crash();
    }
  });
});
