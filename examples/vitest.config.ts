import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // A worker runs its files one after another in one module graph (isolate: false): viem, the
    // workspace packages and vite's transforms load once per worker, not once per file. CPU of this
    // package's suite alone: 36 s → 28 s. No file relies on another's modules being fresh.
    isolate: false,
    // Runs the built CLI and SDK against a real relay: turbo builds them first.
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // The run's own temp dir, and every relay a test started killed at the end of the run, also
    // when it is interrupted (SIGINT/SIGTERM); the temp dir removed, a failed test's too.
    globalSetup: ["@neutral/test-support/global-setup"],
  },
});
