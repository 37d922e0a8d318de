// Run by `testing/interrupt.test.ts` in a vitest run of its own: brings up what a real test run
// has (relays, one of them with two workers and one on the run's PostgreSQL cluster, and a temp
// dir), writes down where everything is, and waits to be interrupted.
import { renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { inject, it } from "vitest";
import { startRelay, tempDir } from "../../testing/index.js";

it("holds relays, a temp dir and a PostgreSQL cluster until the run is interrupted", async () => {
  const postgres = inject("postgres");
  const relays = [await startRelay({ workers: 2 }), await startRelay(), await startRelay({ env: { NEUTRAL_DATABASE_URL: postgres.url } })];
  const dir = tempDir("neutral-held-");
  writeFileSync(path.join(dir, "held"), "a test's own temp file\n");
  const report = {
    worker: process.pid,
    runDir: process.env.NEUTRAL_TEST_RUN_DIR,
    dir,
    relays: relays.map((relay) => ({ pid: relay.process.pid, dataDir: relay.dataDir })),
    postgres: postgres.cluster,
  };
  const file = process.env.NEUTRAL_HOLD_REPORT!;
  writeFileSync(`${file}.partial`, JSON.stringify(report));
  renameSync(`${file}.partial`, file);
  await new Promise(() => {}); // until interrupted
});
