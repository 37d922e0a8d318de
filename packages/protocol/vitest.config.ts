import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Pure functions, but the spec test reads openrpc.json and viem loads slowly on 2 cores.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
