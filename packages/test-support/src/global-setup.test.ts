// Where a run makes its directory (runBase): inside the outer run when nested, where
// NEUTRAL_TEST_TMPDIR says when set, else on the machine's RAM file system when /dev/shm is one.
import { accessSync, constants, readFileSync } from "node:fs";
import os from "node:os";
import { describe, expect, it } from "vitest";
import { runBase } from "./global-setup.js";
import { RUN_DIR_VARIABLE } from "./run.js";

/** Whether /dev/shm is a writable tmpfs, read from the mount table rather than as runBase asks. */
function ramDirHere(): boolean {
  const mounted = readFileSync("/proc/mounts", "utf8")
    .split("\n")
    .some((line) => {
      const [, mountPoint, type] = line.split(" ");
      return mountPoint === "/dev/shm" && type === "tmpfs";
    });
  try {
    accessSync("/dev/shm", constants.W_OK);
    return mounted;
  } catch {
    return false;
  }
}

describe("where a run keeps its files", () => {
  it("a run inside another stays in the outer run's directory", () => {
    expect(runBase({ [RUN_DIR_VARIABLE]: "/outer/run", TMPDIR: "/outer/run", NEUTRAL_TEST_TMPDIR: "/elsewhere" })).toBe("/outer/run");
  });

  it("NEUTRAL_TEST_TMPDIR chooses the place", () => {
    expect(runBase({ NEUTRAL_TEST_TMPDIR: "/var/tmp" })).toBe("/var/tmp");
  });

  it("otherwise /dev/shm when it is a writable RAM file system, else the system temp dir", () => {
    expect(runBase({})).toBe(ramDirHere() ? "/dev/shm" : os.tmpdir());
  });
});
