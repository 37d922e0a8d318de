// What the param validators a stub carries (compiled at generation time by @neutral/openrpc: Ajv's
// standalone code) call at run time: Ajv's runtime helpers and ajv-formats' formats, from this
// package's own copies of both (as `validationRuntime`), so a project needs neither as a dependency of its own.
import equalModule from "ajv/dist/runtime/equal.js";
import ucs2lengthModule from "ajv/dist/runtime/ucs2length.js";
import uriModule from "ajv/dist/runtime/uri.js";
import validationErrorModule from "ajv/dist/runtime/validation_error.js";
import formats from "ajv-formats/dist/formats.js";

/** A CommonJS module's `exports.default` (Node hands ES modules the whole `module.exports`). */
const defaultOf = <T>(module: T): T => (module as { default?: T }).default ?? module;

export const equal = defaultOf(equalModule);
export const ucs2length = defaultOf(ucs2lengthModule);
export const uri = defaultOf(uriModule);
export const validation_error = defaultOf(validationErrorModule);
export const fullFormats = formats.fullFormats;
