// Vitest setup of every relay test file: no relay a test started outlives its file, in a process
// of its own (startRelay) or in this one (startNode).
import { afterAll } from "vitest";
import { killRunningRelays, stopRunningNodes } from "../testing/index.js";

afterAll(async () => {
  killRunningRelays();
  await stopRunningNodes();
});
