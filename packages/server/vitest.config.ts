import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The property tests run thousands of cases; on a loaded 2-core CI machine 5 s is not enough.
    testTimeout: 60_000,
    // The run's own temp dir (vitest's too), removed at the end of the run and when it is interrupted
    // or killed (see @neutral/test-support/global-setup).
    globalSetup: ["@neutral/test-support/global-setup"],
  },
});
