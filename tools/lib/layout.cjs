// Where generated code lives, relative to the repository root. Everything else is hand-written
// and never touched by a regeneration.
module.exports = {
  generatedDirs: [
    "packages/protocol/src/generated",
    "packages/client/src/generated",
    "packages/server/src/generated",
    "packages/docs/src/generated",
  ],
  header: "generated — do not edit. Source: openrpc.json via tools/ (pnpm generate).",
};
