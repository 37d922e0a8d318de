import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // A worker runs its files one after another in one module graph (isolate: false): viem, the
    // workspace packages and vite's transforms load once per worker, not once per file. CPU of this
    // package's suite alone: 121 s → 67 s. No file relies on another's modules being fresh.
    isolate: false,
    // spec.test.ts validates the spec and its examples and runs the generator in-process (the
    // generator runs and the tsc child set 60 s themselves): seconds on a loaded 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The run's own temp dir (the generator's scratch output, the tests' copies of the spec),
    // removed at the end of the run, also when it is interrupted (SIGINT/SIGTERM).
    globalSetup: ["@neutral/test-support/global-setup"],
  },
});
