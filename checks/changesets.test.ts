// The pending changesets make a release plan: each names only packages that are released (a private
// package such as @neutral/test-support, ignored by changesets, in a changeset with released ones
// makes `changeset version` and `changeset status` fail), and each parses. That the plan publishes
// and installs is release/'s test.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("pending changesets", () => {
  it("make a release plan (`changeset status` succeeds)", { timeout: 60_000 }, async () => {
    const result = await promisify(execFile)("pnpm", ["-s", "changeset", "status", "--verbose"], { cwd: root, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
    );
    expect(result.output).not.toMatch(/error/i);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/@neutral\/client/);
  });
});
