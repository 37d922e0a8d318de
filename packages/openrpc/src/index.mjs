// @neutral/openrpc: generate a typed client, a server stub and docs from any OpenRPC document, and
// scaffold a server project from one. The CLI (bin/neutral-openrpc.mjs) is a thin layer over these.
export { BUILT_IN_TARGETS, DocumentError, findStaleFiles, generate, headerFor, readConfig, readDocument, validateDocument } from "./generate.mjs";
export { create } from "./create.mjs";
export { bundle, bundleDocument, hasExternalRefs } from "./bundle.mjs";

// The mock runs on @neutral/server's built runtime: loaded at the first call, so that generating
// (that runtime's own stub among others) never needs it built.
/** @param {object} document @param {{ port?: number, host?: string }} [options] */
export const startMock = async (document, options) => (await import("./mock.mjs")).startMock(document, options);
/** @param {object} document */
export const mockService = async (document) => (await import("./mock.mjs")).mockService(document);

/** @param {object} document @param {{ url: string, headers?: Record<string, string>, timeoutMs?: number }} options */
export const runConformance = async (document, options) => (await import("./conformance.mjs")).runConformance(document, options);
/** @param {Awaited<ReturnType<typeof runConformance>>} report @param {"table" | "tap" | "junit"} [reporter] */
export const formatReport = async (report, reporter) => (await import("./conformance.mjs")).formatReport(report, reporter);
