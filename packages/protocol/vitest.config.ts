import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Pure functions, but the spec test reads openrpc.json and viem loads slowly on 2 cores.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The run's own temp dir (vitest's too), removed at the end of the run and when it is interrupted
    // or killed (see @neutral/test-support/global-setup).
    globalSetup: ["@neutral/test-support/global-setup"],
  },
});
