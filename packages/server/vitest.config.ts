import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The property tests run thousands of cases; on a loaded 2-core CI machine 5 s is not enough.
    testTimeout: 60_000,
  },
});
