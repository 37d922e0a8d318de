import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The tests spawn the built CLI (dist/main.js) against a real relay: build first (turbo does).
    // A test runs the CLI up to ~10 times, each start 1 s alone and up to 8 s in a CI run where every
    // package's tests load the 2 cores ("pages" took 29 s in one such run and passed 60 s in another).
    testTimeout: 150_000,
    hookTimeout: 60_000,
    // The run's own temp dir, and every relay a test started killed at the end of the run, also
    // when it is interrupted (SIGINT/SIGTERM); the temp dir removed, a failed test's too.
    globalSetup: ["@neutral/test-support/global-setup"],
  },
});
