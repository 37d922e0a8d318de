// The cluster channel between real processes: a primary and two workers (test/cluster-channel.fixture.mjs).
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const FIXTURE = fileURLToPath(new URL("../../test/cluster-channel.fixture.mjs", import.meta.url));

it("answers requests (and the errors their handlers throw), passes notices and broadcasts, and settles a request to a worker that died", { timeout: 60_000 }, async () => {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [FIXTURE], { timeout: 45_000 });
  expect(stdout, `the primary printed no report; stderr: ${stderr}`).toMatch(/^\{.*\}\n$/);
  const seen = JSON.parse(stdout) as {
    opened: string[];
    closed: string[];
    kicks: number;
    exits: number[];
    answers: { registry: unknown; dead: unknown; deadWithinMs: boolean };
    worker: { heard: string[]; answers: unknown[] };
  };
  expect(seen.opened.sort()).toEqual(["admit", "admit", "refuse", "refuse", "throw", "throw"]);
  expect(seen.closed).toEqual(["admit", "admit"]);
  expect(seen.kicks).toBe(2);
  expect(seen.exits).toHaveLength(2);
  // The second worker's view: its answers, in order, and what it heard (the broadcast only: the notice was for the first).
  expect(seen.worker.answers).toEqual([{}, { refused: "client" }, "Error: the handler failed"]);
  expect(seen.worker.heard).toEqual(["broadcast"]);
  expect(seen.answers.registry).toEqual([{ name: "from-2" }]);
  expect(seen.answers.dead).toBeNull();
  expect(seen.answers.deadWithinMs).toBe(true);
});
