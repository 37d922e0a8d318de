/**
 * V8 flags of each cluster worker, unless the operator's own flags set them (either way):
 * `--max-semi-space-size=2`: V8's default young generation (16 MiB semi-spaces) costs tens of MB
 * of RSS per process for no measurable gain on this workload.
 * `--heap-growing-percent=20`: after a full collection the old space may grow by 20 %, not by
 * V8's own factor, so a worker caught before its next full collection holds ~10–15 MB less
 * (and no 40 MB outliers) at no measured cost in throughput.
 * (`--single-threaded-gc` was tried here too and measured no gain: bench/HISTORY.md.)
 */
export const WORKER_V8_FLAGS: readonly string[] = ["--max-semi-space-size=2", "--heap-growing-percent=20"];

/** A flag's name as V8 matches it: `--no-x` sets `--x`, and `_` is the same as `-`. */
const flagName = (flag: string) => flag.split("=", 1)[0]!.replace(/^--no-/, "--").replaceAll("_", "-");

/** The {@link WORKER_V8_FLAGS} that the operator's flags (`process.execArgv`, `NODE_OPTIONS`) leave unset. */
export function workerFlags(operatorFlags: readonly string[]): string[] {
  const set = new Set(operatorFlags.map(flagName));
  return WORKER_V8_FLAGS.filter((flag) => !set.has(flagName(flag)));
}
