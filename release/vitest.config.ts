import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Each step spawns npm, pnpm or tsc on a 2-core machine that runs the other suites beside it:
    // the hooks and tests give their own, larger bounds; this is the floor for the rest.
    testTimeout: 120_000,
    hookTimeout: 600_000,
    // The run's own temp dir, removed at the end of the run and when it is interrupted or killed
    // (see @neutral/test-support/global-setup); the registry and every relay go with it.
    globalSetup: ["@neutral/test-support/global-setup"],
  },
});
