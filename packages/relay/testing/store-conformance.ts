// The published entry point `@neutral/relay/testing/store-conformance` (package.json "exports"): the suite lives in store-conformance/.
export { BASE_TIMESTAMP, CONFORMANCE_NODE_KEY, describeStoreConformance, everyStoreCall, randomAddress, randomDigest, randomSignature, testKeyBundle, testMessage, type OpenedStore, type TestMessage } from "./store-conformance/index.js";
