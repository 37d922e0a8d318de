// A throwaway PostgreSQL cluster leaves nothing behind, even killed outright: its files are in its own
// directory, which goes with the run, and none are in /dev/shm (POSIX shared memory outlives a
// postmaster killed with SIGKILL: 132 such segments had piled up on the project machine).
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { killProcessGroup, waitForGroupsGone } from "@neutral/test-support/run";
import { startThrowawayPostgres } from "./postgres.js";

const SHM = "/dev/shm";
const segments = () => (existsSync(SHM) ? readdirSync(SHM).filter((name) => name.startsWith("PostgreSQL.")) : []);

describe("a throwaway PostgreSQL cluster", () => {
  it("keeps its dynamic shared memory in its own directory: killed with SIGKILL, it leaves no segment in /dev/shm", { timeout: 120_000 }, async () => {
    const before = new Set(segments());
    const cluster = await startThrowawayPostgres();
    try {
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ dynamic_shared_memory_type: string }>("SHOW dynamic_shared_memory_type");
        expect(rows[0]?.dynamic_shared_memory_type).toBe("mmap");
      } finally {
        await client.end();
      }
      expect(existsSync(path.join(cluster.dir, "data", "pg_dynshmem"))).toBe(true);
    } finally {
      killProcessGroup(cluster.pid, "SIGKILL");
      waitForGroupsGone([cluster.pid], 5_000);
      await cluster.stop();
    }
    // Only a segment that stays is left behind: another suite's initdb, running meanwhile, probes
    // POSIX shared memory with a segment of this name that it removes at once (initdb's
    // choose_dsm_implementation), which a single look can catch.
    const appeared = segments().filter((name) => !before.has(name));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = new Set(segments());
    expect(appeared.filter((name) => now.has(name))).toEqual([]);
  });
});
