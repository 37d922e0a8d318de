import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The tests spawn the built CLI (dist/main.js) against a real relay: build first (turbo does).
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
