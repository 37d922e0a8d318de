// Connection exhaustion (issue 19, finding 3): each client address gets a bounded share of the
// node's connections, and idle or slow connections are timed out (the flood itself is a soak:
// connections.soak.test.ts). Real relays
// on loopback; each client speaks from an address of its own in 127.0.0.0/8. Limits are given as
// variables, so that a relay without them starts all the same and the assertions tell.
import { describe, expect, it } from "vitest";
import { closedWithin, connectFrom, connectionsHeldBy, NODE_INFO, serves, sleep } from "../test/clients.js";
import { startRelay } from "../testing/index.js";

const addresses = (from: number, count: number) => Array.from({ length: count }, (_, i) => `127.0.0.${from + i}`);

describe("connection exhaustion", () => {
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
