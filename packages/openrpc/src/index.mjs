// @neutral/openrpc: generate a typed client, a server stub and docs from any OpenRPC document, and
// scaffold a server project from one. The CLI (bin/neutral-openrpc.mjs) is a thin layer over these.
export { BUILT_IN_TARGETS, DocumentError, findStaleFiles, generate, headerFor, readConfig, readDocument, validateDocument } from "./generate.mjs";
export { create } from "./create.mjs";
export { bundle, bundleDocument, hasExternalRefs } from "./bundle.mjs";
export { mockService, startMock } from "./mock.mjs";
