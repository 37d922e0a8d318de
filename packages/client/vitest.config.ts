import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // A worker runs its files one after another in one module graph (isolate: false): viem, the
    // workspace packages and vite's transforms load once per worker, not once per file. CPU of this
    // package's suite alone: 97 s → 68 s. No file relies on another's modules being fresh.
    isolate: false,
    // The SDK tests talk to real relays (sign-in, encryption, tens of sends per test): on a loaded
    // 2-core machine, with the other packages' suites beside them, 5 s is not enough.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The run's own temp dir, and every relay a test started killed at the end of the run, also
    // when it is interrupted (SIGINT/SIGTERM); the temp dir removed, a failed test's too.
    globalSetup: ["@neutral/test-support/global-setup"],
    // Nodes built in the test's process (startNode) are the relay's built JavaScript (dist/): loaded
    // by Node as it is, not each module through vite's transform (seconds per test file on a loaded
    // 2-core machine).
    server: { deps: { external: [/\/packages\/[^/]+\/dist\//] } },
  },
});
