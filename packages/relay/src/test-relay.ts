// Test support (not built): the relay's own tests use the same helpers other packages get from
// `@neutral/relay/testing` (src/testing.ts).
export * from "./testing.js";
