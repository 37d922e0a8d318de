import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Runs the built CLI and SDK against a real relay: turbo builds them first.
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // The run's own temp dir, and every relay a test started killed at the end of the run, also
    // when it is interrupted (SIGINT/SIGTERM); the temp dir removed, a failed test's too.
    globalSetup: ["@neutral/test-support/global-setup"],
  },
});
