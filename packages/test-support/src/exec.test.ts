import { describe, expect, it } from "vitest";
import { runAsync } from "./exec.js";

describe("runAsync", () => {
  it("gives a program's exit code and both outputs, without throwing on a failure", async () => {
    const ran = await runAsync(process.execPath, ["-e", 'process.stdout.write("out"); process.stderr.write("err"); process.exit(3)'], { cwd: process.cwd(), env: process.env, timeoutMs: 30_000 });
    expect(ran).toEqual({ status: 3, signal: null, stdout: "out", stderr: "err" });
  });

  it("ends a program past its time with SIGTERM, and lets the event loop run meanwhile", { timeout: 30_000 }, async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const ran = await runAsync(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { cwd: process.cwd(), env: process.env, timeoutMs: 500 });
    clearInterval(timer);
    expect(ran.signal).toBe("SIGTERM");
    expect(ticks).toBeGreaterThan(5);
  });
});
