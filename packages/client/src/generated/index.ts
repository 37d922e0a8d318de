// generated — do not edit. Source: openrpc.json via neutral-openrpc (regenerate instead).
//
// The typed client of neutralService 3.3.0: `createNeutralServiceClient({ url })`.
export type * from "./types.js";
export * from "./methods.js";
export { errors, type ErrorName } from "./errors.js";
