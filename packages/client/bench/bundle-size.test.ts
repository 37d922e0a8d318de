import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bundleSize, RUNTIME_BUDGET_BYTES, SDK_BUDGET_BYTES } from "./bundle-size.mjs";

const src = fileURLToPath(new URL("../src", import.meta.url));

describe("browser bundle size", () => {
  it("keeps the runtime within 5 KB min+gzip", async () => {
    const runtime = await bundleSize(`export * from "./rpc.ts";`, src);
    expect(runtime.gzipped).toBeGreaterThan(500); // it measured something real
    expect(runtime.gzipped).toBeLessThanOrEqual(RUNTIME_BUDGET_BYTES);
  });

  it("keeps the typed client (runtime + every generated method) within the same budget, crypto left out", async () => {
    const typed = await bundleSize(`export { createNeutralServiceClient, createRpcClient, RpcError } from "./index.ts";`, src);
    expect(typed.gzipped).toBeLessThanOrEqual(RUNTIME_BUDGET_BYTES);
  });

  it("keeps the whole SDK within its budget (SDK_BUDGET_BYTES: 44 KB) min+gzip", async () => {
    const sdk = await bundleSize(`export * from "./index.ts";`, src);
    expect(sdk.gzipped).toBeGreaterThan(RUNTIME_BUDGET_BYTES); // the crypto is really in it
    expect(sdk.gzipped).toBeLessThanOrEqual(SDK_BUDGET_BYTES);
  });

  it("tree-shakes: one method costs less than all of them", async () => {
    const one = await bundleSize(`export { getInbox, createRpcClient } from "./index.ts";`, src);
    const all = await bundleSize(`export * from "./index.ts";`, src);
    expect(one.minified).toBeLessThan(all.minified);
  });
});
