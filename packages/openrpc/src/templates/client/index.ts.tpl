// <%= header %>
//
// The typed client of <%= model.title %> <%= model.version %>: `create<%= className %>Client({ url })`.
export type * from "./types.js";
export * from "./methods.js";
export { errors, type ErrorName } from "./errors.js";
