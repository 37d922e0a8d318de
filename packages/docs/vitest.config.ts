import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The browser tests build the site, start serve.mjs and Chromium once per file.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
