import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // `pnpm pack` once per package, each a child process (~1 s alone, several on a loaded 2-core
    // machine while the other packages' suites run beside it).
    testTimeout: 120_000,
  },
});
