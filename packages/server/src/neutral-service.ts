// neutralService's stub, for `@neutral/server/neutral-service`: its `service` (for
// `createDispatcher({ service, handlers })`), `Handlers`, types, errors and document.
export * from "./generated/index.js";
