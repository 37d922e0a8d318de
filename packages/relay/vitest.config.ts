import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Integration tests start real relay processes (dist/main.js): build first (turbo does).
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A throwaway PostgreSQL cluster for the run (skipped locally without PostgreSQL, never in CI).
    globalSetup: ["./src/storage/test-postgres-setup.ts"],
    // Kills relays a failed test left running (startRelay's are detached).
    setupFiles: ["./src/test-setup.ts"],
  },
});
