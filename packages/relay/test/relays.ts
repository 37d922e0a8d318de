// Test support (not built): relays a test file starts, each stopped after the test that started it.
import { afterEach } from "vitest";
import { startRelay, type RunningRelay, type StartOptions } from "../testing/index.js";

/** Registers the `afterEach` that stops them; returns the function that starts one. */
export function relaysPerTest(): (options?: StartOptions) => Promise<RunningRelay> {
  let running: RunningRelay[] = [];
  afterEach(async () => {
    await Promise.all(running.map((relay) => relay.stop()));
    running = [];
  });
  return async (options = {}) => {
    const relay = await startRelay(options);
    running.push(relay);
    return relay;
  };
}
