#!/usr/bin/env node
// `pnpm test`: the workspace's type check (scripts/typecheck.mjs, one program for every package)
// and every package's test task through turbo, in two lanes that start together, once the builds
// they need are done (from turbo's cache when nothing changed):
//   - the relay's suite, the longest (its vitest runs three files at a time itself);
//   - the type check and every other package's suite, one task per core left beside it.
// Unbounded (turbo's default), a 2-core machine ran ~19 tasks at once, each suite stretched by all
// the others: 11 m 47 s and 18.6 min of CPU, where these two lanes took 9 m 22 s and 15.8 min
// (and three, the type checks in a lane of their own, 9 m 43 s and 17.0 min). Bounded in one turbo
// run instead, the relay's suite would wait behind the tasks turbo happens to start first.
// Arguments go to every turbo run (`pnpm test --force` runs everything again); with a filter
// (`pnpm test --filter=@neutral/client`) the packages are the caller's choice: one turbo run, with
// the type check of the whole workspace (one program; from turbo's cache when nothing changed).
import { availableParallelism, constants } from "node:os";
import { pathToFileURL } from "node:url";
import { spawnTurbo, stopOnSignals, turbo } from "./turbo.mjs";

const LONGEST = "@neutral/relay";
const TASKS = ["typecheck:workspace", "test"];

/** The turbo runs, after `turbo run build`, that start together: the longest suite's, and the rest on the cores left. */
export const lanes = (cores = availableParallelism()) => [
  [...TASKS, "--only", `--filter=${LONGEST}`],
  [...TASKS, "--only", `--filter=!${LONGEST}`, `--concurrency=${Math.max(1, cores - 1)}`],
];

/** Builds, then runs the lanes; resolves the exit code (the first failing run's, 128 + signal when interrupted). */
async function main(extra) {
  const running = new Set();
  let stopping;
  stopOnSignals(running, (signal) => {
    stopping = signal;
  });

  /** Runs turbo with `args`; resolves its exit code (128 + signal number when a signal ended it). */
  function runTurbo(args) {
    return new Promise((resolve) => {
      const child = spawnTurbo(["run", ...args, ...extra], { stdio: "inherit" });
      running.add(child);
      child.on("error", (error) => {
        process.stderr.write(`${turbo}: ${error.message}\n`);
        resolve(1);
      });
      child.on("exit", (code, signal) => {
        running.delete(child);
        resolve(code ?? 128 + (signal ? constants.signals[signal] : 0));
      });
    });
  }

  const exitCode = (status) => (stopping === undefined ? status : 128 + constants.signals[stopping]);
  // With a filter the caller chose the packages: one turbo run.
  if (extra.some((arg) => arg === "-F" || arg.startsWith("--filter"))) return exitCode(await runTurbo([...TASKS, "--filter=//"]));
  // The builds and generated code the tests need, once: two turbo runs building the same package at
  // the same time would write the same dist/ twice.
  let status = await runTurbo(["build"]);
  if (status === 0 && stopping === undefined) {
    const codes = await Promise.all(lanes().map(runTurbo));
    status = codes.find((code) => code !== 0) ?? 0;
  }
  return exitCode(status);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) process.exit(await main(process.argv.slice(2)));
