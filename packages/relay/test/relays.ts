// Test support (not built): relays a test file starts, each stopped after the test that started it.
import { afterEach } from "vitest";
import { startNode, startRelay, type InProcessNode, type InProcessOptions, type RunningRelay, type StartOptions } from "../testing/index.js";

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

/** The same for nodes in this process (startNode): for protocol tests, which need no process of their own. */
export function nodesPerTest(): (options?: InProcessOptions) => Promise<InProcessNode> {
  let running: InProcessNode[] = [];
  afterEach(async () => {
    await Promise.all(running.map((node) => node.stop()));
    running = [];
  });
  return async (options = {}) => {
    const node = await startNode(options);
    running.push(node);
    return node;
  };
}
