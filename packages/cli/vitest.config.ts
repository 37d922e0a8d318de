import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The tests spawn the built CLI (dist/main.js) against a real relay: build first (turbo does).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The run's own temp dir, and every relay a test started killed at the end of the run, also
    // when it is interrupted (SIGINT/SIGTERM); the temp dir removed, a failed test's too.
    globalSetup: ["@neutral/test-support/global-setup"],
  },
});
