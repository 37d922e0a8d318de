// Before a node makes anything on disk it checks its port is free and that no other node runs on
// its data directory; each refusal is one line naming what to do.
import { existsSync, readdirSync } from "node:fs";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killRunningRelays, startRelay, tempDir } from "../../testing/index.js";
import { checkPortFree, LOCK_FILE, lockDataDir, StartupError } from "./startup-checks.js";

afterAll(killRunningRelays);

async function listening(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as { port: number }).port };
}

describe("checkPortFree", () => {
  it("refuses a port another program listens on, and passes a free one and port 0", async () => {
    const { server, port } = await listening();
    try {
      await expect(checkPortFree("127.0.0.1", port)).rejects.toThrow(new StartupError(`port ${port} on 127.0.0.1 is in use: another program listens there; stop it, or give this node another --port`));
    } finally {
      server.close();
    }
    await expect(checkPortFree("127.0.0.1", port)).resolves.toBeUndefined();
    await expect(checkPortFree("127.0.0.1", 0)).resolves.toBeUndefined();
  });
});

describe("lockDataDir", () => {
  it("lets one holder at a time have a data directory, until it releases it", () => {
    const dir = tempDir("neutral-lock-");
    const first = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(StartupError);
    expect(() => lockDataDir(dir)).toThrow(`another node is running on the data directory ${dir} (it holds ${LOCK_FILE})`);
    first.release();
    lockDataDir(dir).release();
  });
});

describe("starting a node", () => {
  it("on a data directory a running node (of two workers) holds: refused in one line, the running node untouched; once it is killed, the directory is free", { timeout: 90_000 }, async () => {
    const dataDir = tempDir("neutral-shared-dir-");
    const running = await startRelay({ dataDir, workers: 2, startTimeoutMs: 60_000 });
    const refused = await startRelay({ dataDir, startTimeoutMs: 60_000 }).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/^relay exited \(1\) before listening/);
    expect(refused).toContain(`could not start: another node is running on the data directory ${dataDir} (it holds neutral.lock): stop it first, or give this one another --data-dir`);
    expect(refused).not.toMatch(/\n\s+at /); // no stack trace
    expect((await fetch(new URL("/health", running.url))).status).toBe(200);
    // SIGKILL: the operating system drops the lock with the process.
    await running.crash();
    const next = await startRelay({ dataDir, startTimeoutMs: 60_000 });
    expect((await fetch(new URL("/health", next.url))).status).toBe(200);
    await next.stop();
  });

  it("on a port in use: refused in one line before the data directory, the node key or the database is made", { timeout: 60_000 }, async () => {
    const { server, port } = await listening();
    const dataDir = path.join(tempDir("neutral-port-"), "data");
    try {
      for (const workers of [1, 2]) {
        const refused = await startRelay({ dataDir, args: ["--port", String(port)], workers, startTimeoutMs: 30_000 }).then(
          () => undefined,
          (error: Error) => error.message,
        );
        expect(refused).toContain(`could not start: port ${port} on 127.0.0.1 is in use: another program listens there; stop it, or give this node another --port`);
        expect(refused).not.toMatch(/\n\s+at /);
        expect(existsSync(dataDir) ? readdirSync(dataDir) : []).toEqual([]);
      }
    } finally {
      server.close();
    }
  });
});
