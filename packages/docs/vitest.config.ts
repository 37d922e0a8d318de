import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The browser tests build the site, start serve.mjs and Chromium once per file.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The run's own temp dir (the built sites, Chromium's extracted build), and every serve.mjs a
    // test started killed at the end of the run, also when it is interrupted (SIGINT/SIGTERM).
    globalSetup: ["@neutral/test-support/global-setup"],
  },
});
