import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // A worker runs its files one after another in one module graph (isolate: false): viem, the
    // workspace packages and vite's transforms load once per worker, not once per file. CPU of this
    // package's suite alone: 24 s → 17 s. No file relies on another's modules being fresh.
    isolate: false,
    // `pnpm pack` once per package, each a child process (~1 s alone, several on a loaded 2-core
    // machine while the other packages' suites run beside it).
    testTimeout: 120_000,
    // The run's own temp dir (vitest's too), removed at the end of the run and when it is interrupted
    // or killed (see @neutral/test-support/global-setup).
    globalSetup: ["@neutral/test-support/global-setup"],
  },
});
