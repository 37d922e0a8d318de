import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Runs the built CLI and SDK against a real relay: turbo builds them first.
    testTimeout: 90_000,
    hookTimeout: 60_000,
  },
});
