import { describe, expect, it } from "vitest";
import { WORKER_V8_FLAGS, workerFlags } from "./worker-flags.js";

describe("workerFlags", () => {
  it("adds every worker flag when the operator set none", () => {
    expect(workerFlags([])).toEqual([...WORKER_V8_FLAGS]);
    expect(workerFlags(["--enable-source-maps", ""])).toEqual(["--max-semi-space-size=2", "--heap-growing-percent=20"]);
  });

  it("leaves out a flag the operator set, with any value or spelling, and keeps the others", () => {
    expect(workerFlags(["--max-semi-space-size=8"])).toEqual(["--heap-growing-percent=20"]);
    expect(workerFlags(["--max_semi_space_size=8"])).toEqual(["--heap-growing-percent=20"]);
    expect(workerFlags(["--heap_growing_percent=50"])).toEqual(["--max-semi-space-size=2"]);
    expect(workerFlags(["--max-semi-space-size=8", "--heap-growing-percent=50"])).toEqual([]);
    expect(workerFlags(["--max-semi-space-size-other=8", "--max-semi"])).toEqual([...WORKER_V8_FLAGS]);
  });

  it("treats --no-x as the operator's choice for --x", () => {
    expect(workerFlags(["--no-max-semi-space-size"])).toEqual(["--heap-growing-percent=20"]);
  });
});
