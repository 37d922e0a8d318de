// Test support (not built): relays a test file starts, each stopped after the test that started it.
import { afterEach } from "vitest";
import { startNode, startRelay, type InProcessNode, type InProcessOptions, type RunningRelay, type StartOptions } from "../testing/index.js";

/** Registers the `afterEach` that stops what `start` started in the test; returns the function that starts one. */
function stoppedAfterEach<Options, Started extends { stop(): Promise<unknown> }>(start: (options: Options) => Promise<Started>): (options?: Options) => Promise<Started> {
  let running: Started[] = [];
  afterEach(async () => {
    await Promise.all(running.map((started) => started.stop()));
    running = [];
  });
  return async (options = {} as Options) => {
    const started = await start(options);
    running.push(started);
    return started;
  };
}

/** Relays in processes of their own (startRelay). */
export const relaysPerTest = (): ((options?: StartOptions) => Promise<RunningRelay>) => stoppedAfterEach(startRelay);

/** The same for nodes in this process (startNode): for protocol tests, which need no process of their own. */
export const nodesPerTest = (): ((options?: InProcessOptions) => Promise<InProcessNode>) => stoppedAfterEach(startNode);
