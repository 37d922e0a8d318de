// pnpm bench: the client's browser cost, each figure with its ratio to a baseline bundled the same
// way in the same run — the stock @open-rpc/client-js, alone and with the schema validator the
// stock generated client imports.
import { fileURLToPath } from "node:url";
import { bundleSize, RUNTIME_BUDGET_BYTES, SDK_BUDGET_BYTES } from "./bundle-size.mjs";

const src = fileURLToPath(new URL("../src", import.meta.url));
const kb = (n) => `${(n / 1024).toFixed(2)} KB`;

const stockClient = await bundleSize(`export { Client, RequestManager, HTTPTransport } from "@open-rpc/client-js";`, src);
const stockGenerated = await bundleSize(
  `export { Client, RequestManager, HTTPTransport, WebSocketTransport, PostMessageWindowTransport, PostMessageIframeTransport } from "@open-rpc/client-js";
   export { MethodCallValidator, parseOpenRPCDocument } from "@open-rpc/schema-utils-js/build/index-web.js";`,
  src,
);
const figures = {
  "client runtime (rpc.ts)": await bundleSize(`export * from "./rpc.ts";`, src),
  "typed client (runtime + generated methods)": await bundleSize(`export { createNeutralServiceClient, createRpcClient, RpcError } from "./index.ts";`, src),
  "one method (getInbox + runtime)": await bundleSize(`export { getInbox, createRpcClient } from "./index.ts";`, src),
};

console.log(`baseline @open-rpc/client-js (HTTP client only): ${kb(stockClient.gzipped)} min+gzip`);
console.log(`baseline stock generated client imports (client-js + MethodCallValidator): ${kb(stockGenerated.gzipped)} min+gzip`);
for (const [name, size] of Object.entries(figures)) {
  console.log(
    `${name}: ${kb(size.gzipped)} min+gzip (${kb(size.minified)} min) · ${(size.gzipped / stockClient.gzipped).toFixed(2)}× client-js · ${(size.gzipped / stockGenerated.gzipped).toFixed(3)}× stock generated · budget ${kb(RUNTIME_BUDGET_BYTES)}`,
  );
}
const sdk = await bundleSize(`export * from "./index.ts";`, src);
console.log(
  `whole SDK (createNeutral: sign-in, NIP-44, EIP-712, secp256k1 + the typed client): ${kb(sdk.gzipped)} min+gzip (${kb(sdk.minified)} min) · ${(sdk.gzipped / stockGenerated.gzipped).toFixed(3)}× stock generated · budget ${kb(SDK_BUDGET_BYTES)}`,
);
// @neutral/client/export stays out of the main entry (which it would push over its budget).
const withExport = await bundleSize(`export * from "./index.ts"; export * from "./export.ts";`, src);
const verifyAlone = await bundleSize(`export { verifyMailboxExport } from "./export.ts";`, src);
console.log(`@neutral/client/export: +${kb(withExport.gzipped - sdk.gzipped)} min+gzip on top of the whole SDK; verifyMailboxExport alone ${kb(verifyAlone.gzipped)} min+gzip`);
if (sdk.gzipped > SDK_BUDGET_BYTES) {
  console.error("the SDK is over its budget");
  process.exit(1);
}
if (figures["client runtime (rpc.ts)"].gzipped > RUNTIME_BUDGET_BYTES) {
  console.error("client runtime is over its budget");
  process.exit(1);
}
