import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // A worker runs its files one after another in one module graph (isolate: false): viem, the
    // workspace packages and vite's transforms load once per worker, not once per file. CPU of this
    // package's suite alone: 34 s → 24 s. No file relies on another's modules being fresh.
    isolate: false,
    // The property tests run thousands of cases; on a loaded 2-core CI machine 5 s is not enough.
    testTimeout: 60_000,
    // The run's own temp dir (vitest's too), removed at the end of the run and when it is interrupted
    // or killed (see @neutral/test-support/global-setup).
    globalSetup: ["@neutral/test-support/global-setup"],
  },
});
