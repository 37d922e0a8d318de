// The HTTP conformance suite (test/http-conformance.ts) against a relay on SQLite in a temp data dir.
import { readFileSync } from "node:fs";
import { describeHttpConformance } from "../test/http-conformance.js";
import { startRelay } from "../testing/index.js";

describeHttpConformance("sqlite", async () => {
  const relay = await startRelay();
  return { relay, nodeKey: async () => readFileSync(`${relay.dataDir}/node.key`, "utf8").trim() };
});
