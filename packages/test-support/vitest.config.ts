import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Extracting Chromium (~190 MB) and starting it, on a 2-core machine beside other suites.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The run's own temp dir (vitest's too), removed at the end of the run and when it is interrupted
    // or killed (see @neutral/test-support/global-setup).
    globalSetup: ["./dist/global-setup.js"],
  },
});
