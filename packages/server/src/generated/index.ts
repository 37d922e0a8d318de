// generated — do not edit. Source: openrpc.json via neutral-openrpc (regenerate instead).
//
// The server stub of neutralService 3.3.0: implement `Handlers`, then serve it
// with `createDispatcher({ service, handlers })` from ../index.js.
export type * from "./types.js";
export type { Handlers } from "./handlers.js";
export { methodDescriptors, type MethodName } from "./methods.js";
export { errors, type ErrorName } from "./errors.js";
export { openrpcDocument } from "./openrpc.js";
export { examples, type ExamplePairing } from "./examples.js";
import { methodDescriptors } from "./methods.js";
import { openrpcDocument } from "./openrpc.js";
import { validators } from "./validators.js";

/** neutralService as the runtime serves it: `createDispatcher({ service, handlers })`. */
export const service = { methods: methodDescriptors, document: openrpcDocument, validators };
