// The run `testing/interrupt.test.ts` starts and interrupts: the relay's own global setups (the
// run's temp dir and reaper, a PostgreSQL cluster) around one test that holds relays up.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    include: ["test/interrupt/hold.fixture.ts"],
    globalSetup: ["@neutral/test-support/global-setup", "./test/postgres-setup.ts"],
    setupFiles: ["./test/setup.ts"],
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
