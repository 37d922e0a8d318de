import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // A worker runs its files one after another in one module graph (isolate: false): viem, the
    // workspace packages and vite's transforms load once per worker, not once per file. CPU of this
    // package's suite alone: 39 s → 32 s. No file relies on another's modules being fresh.
    isolate: false,
    // Most tests run the CLI's `main` in the test's process against nodes built in it too (startNode);
    // what is process behaviour spawns the built CLI (dist/main.js) and relays: build first (turbo
    // does). Each test file sizes its tests' time limits for a loaded 2-core machine (a CI run where
    // every package's tests share the 2 cores); this is the limit of a test that gives none.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The run's own temp dir, and every relay a test started killed at the end of the run, also
    // when it is interrupted (SIGINT/SIGTERM); the temp dir removed, a failed test's too.
    globalSetup: ["@neutral/test-support/global-setup"],
    // The workspace packages the tests load in process (the relay for startNode, the SDK under the
    // CLI) are built JavaScript (dist/): loaded by Node as they are, not each module through vite's
    // transform (a test file's first node took 6 s to load that way on a loaded 2-core machine, 2 s without).
    server: { deps: { external: [/\/packages\/[^/]+\/dist\//] } },
  },
});
