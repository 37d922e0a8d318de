// Connection exhaustion (issue 19, finding 3): a flood of idle connections must not stop the node,
// each client address gets a bounded share, and idle or slow connections are timed out. Real relays
// on loopback; each client speaks from an address of its own in 127.0.0.0/8. Limits are given as
// variables, so that a relay without them starts all the same and the assertions tell.
import { describe, expect, it } from "vitest";
import { childPids, closedWithin, connectFrom, connectionsHeldBy, flood, httpFrom, limitOpenFiles, NODE_INFO, serves, sleep } from "../test/clients.js";
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

  it("past --max-connections-per-ip a client's new connection is reset at once, across workers; other addresses are served", { timeout: 60_000 }, async () => {
    const relay = await startRelay({ workers: 2, env: { NEUTRAL_MAX_CONNECTIONS_PER_IP: "20" } });
    try {
      const sockets = await Promise.all(Array.from({ length: 40 }, () => connectFrom(relay.url, "127.0.0.40")));
      const closes = await Promise.all(sockets.map((socket) => closedWithin(socket, 1500)));
      expect(closes.filter((close) => close !== undefined)).toHaveLength(20);
      expect(await serves(relay.url, "127.0.0.41")).toBe(true);
      // A place given back is taken again.
      sockets[closes.findIndex((close) => close === undefined)]!.destroy();
      await sleep(300);
      const again = await connectFrom(relay.url, "127.0.0.40");
      expect(await closedWithin(again, 1000)).toBeUndefined();
      for (const socket of [...sockets, again]) socket.destroy();
    } finally {
      await relay.stop();
    }
  });

  it("a worker's connections stop counting when it dies", { timeout: 60_000 }, async () => {
    const relay = await startRelay({ workers: 2, args: ["--log-level", "debug"], env: { NEUTRAL_MAX_CONNECTIONS_PER_IP: "10" } });
    try {
      const deaths = () => relay.logs.filter((log) => log.msg === "worker exited unexpectedly").length;
      // Both workers listening (each says so at debug level), so that round-robin gives each some connections.
      const listening = () => [...new Set(relay.logs.filter((log) => log.msg === "worker listening").map((log) => log.pid as number))];
      for (let i = 0; i < 200 && listening().length < 2; i++) await sleep(50);
      const workers = listening();
      expect(workers).toHaveLength(2);
      const sockets = await Promise.all(Array.from({ length: 11 }, () => connectFrom(relay.url, "127.0.0.60")));
      const first = await Promise.all(sockets.map((socket) => closedWithin(socket, 1000)));
      expect(first.filter((close) => close !== undefined), "one of 11 is refused").toHaveLength(1);
      const closes = sockets.filter((_, i) => first[i] === undefined).map((socket) => closedWithin(socket, 5000));
      // The victim: a worker holding some of them (round-robin may give a busy worker none).
      const port = Number(new URL(relay.url).port);
      let held = workers.map((pid) => connectionsHeldBy(pid, port, "127.0.0.60"));
      for (let i = 0; i < 100 && held[0]! + held[1]! < 10; i++) {
        await sleep(50); // the primary may still be handing some over, on a busy machine
        held = workers.map((pid) => connectionsHeldBy(pid, port, "127.0.0.60"));
      }
      expect(held[0]! + held[1]!, "the workers hold the 10 admitted connections").toBe(10);
      const victim = workers[held[0]! > 0 ? 0 : 1]!;
      process.kill(victim, "SIGKILL");
      for (let i = 0; i < 100 && deaths() === 0; i++) await sleep(25);
      const lost = (await Promise.all(closes)).filter((close) => close !== undefined).length;
      expect(lost).toBe(held[workers.indexOf(victim)]); // exactly the dead worker's
      // As many new connections as died are admitted, and no more.
      const fresh = await Promise.all(Array.from({ length: lost }, () => connectFrom(relay.url, "127.0.0.60")));
      expect((await Promise.all(fresh.map((socket) => closedWithin(socket, 1000)))).filter((close) => close !== undefined)).toHaveLength(0);
      expect(await closedWithin(await connectFrom(relay.url, "127.0.0.60"), 1000), "one more is refused").toBeDefined();
      for (const socket of [...sockets, ...fresh]) socket.destroy();
    } finally {
      await relay.crash();
    }
  });

  it("closes a connection that sends no request within --headers-timeout-ms, and one whose body stalls past --request-timeout-ms (408)", { timeout: 60_000 }, async () => {
    const relay = await startRelay({ workers: 2, env: { NEUTRAL_HEADERS_TIMEOUT_MS: "1000", NEUTRAL_REQUEST_TIMEOUT_MS: "2000" } });
    try {
      const idle = await connectFrom(relay.url, "127.0.0.50");
      const stalled = await connectFrom(relay.url, "127.0.0.50");
      stalled.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${NODE_INFO.length}\r\n\r\n${NODE_INFO.slice(0, 10)}`);
      const [idleClose, stalledClose] = await Promise.all([closedWithin(idle, 5000), closedWithin(stalled, 6000)]);
      expect(idleClose, "the idle connection is closed").toBeDefined();
      expect(idleClose!.ms).toBeLessThan(3500);
      expect(stalledClose, "the stalled request is closed").toBeDefined();
      expect(stalledClose!.ms).toBeGreaterThanOrEqual(1500);
      expect(stalledClose!.received).toMatch(/^HTTP\/1.1 408/);
      expect(await serves(relay.url)).toBe(true);
    } finally {
      await relay.stop();
    }
  });
});
