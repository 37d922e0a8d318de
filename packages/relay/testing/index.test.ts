// `@neutral/relay/testing`, as other packages get it: the built module through the package's
// exports, starting dist/main.js, with extra flags and variables, and cleaning up after itself.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { call, killRunningRelays, RELAY_MAIN, startRelay, tempDir } from "./index.js";
import { TEST_KEYS } from "../test/wallets.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const NODE_ADDRESS = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";

describe("@neutral/relay/testing", () => {
  it("is exported from dist (types too) and starts the built relay from there", async () => {
    const pkg = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")) as { exports: Record<string, { types: string; default: string }> };
    expect(pkg.exports["./testing"]).toEqual({ types: "./dist/testing/index.d.ts", default: "./dist/testing/index.js" });
    for (const entry of ["index", "store-conformance", "global-setup"]) {
      expect(existsSync(path.join(packageDir, `dist/testing/${entry}.d.ts`)), entry).toBe(true);
      expect(existsSync(path.join(packageDir, `dist/testing/${entry}.js`)), entry).toBe(true);
    }
    expect(RELAY_MAIN).toBe(path.join(packageDir, "dist/main.js"));
    // A consumer's import, resolved through the exports map (a package can import itself by name).
    const script = `
      import { startRelay, call } from "@neutral/relay/testing";
      import { existsSync } from "node:fs";
      const relay = await startRelay({ args: ["--node-key", "${TEST_KEYS.node}"] });
      const info = await call(relay.url, "neutralService_nodeInfo", []);
      const running = { url: relay.url, address: relay.address, domain: relay.domain, dataDir: existsSync(relay.dataDir), info: info.body.result[0].address };
      const { code } = await relay.stop();
      console.log(JSON.stringify({ ...running, code, removed: !existsSync(relay.dataDir) }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { cwd: packageDir, timeout: 25_000 });
    const seen = JSON.parse(stdout) as Record<string, unknown>;
    expect(seen).toMatchObject({ address: NODE_ADDRESS, info: NODE_ADDRESS, dataDir: true, code: 0, removed: true });
    expect(seen.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(seen.domain).toBe(new URL(seen.url as string).host);
  });

  it("keeps a data dir it was given, from the option, from --data-dir or from NEUTRAL_DATA_DIR", async () => {
    for (const options of [(dir: string) => ({ dataDir: dir }), (dir: string) => ({ args: ["--data-dir", dir] }), (dir: string) => ({ env: { NEUTRAL_DATA_DIR: dir } })]) {
      const dir = tempDir();
      const relay = await startRelay(options(dir));
      expect(relay.dataDir).toBe(dir);
      expect(existsSync(path.join(dir, "neutral.sqlite"))).toBe(true);
      await relay.stop();
      expect(existsSync(path.join(dir, "node.key"))).toBe(true);
    }
  });

  it("passes variables and flags through, flags winning over the defaults", async () => {
    const relay = await startRelay({ env: { NEUTRAL_NODE_KEY: TEST_KEYS.node }, args: ["--clock-skew-ms", "1234"] });
    expect(relay.address).toBe(NODE_ADDRESS);
    expect((await call(relay.url, "neutralService_nodeInfo", [])).body.result[0].limits.clockSkewMs).toBe(1234);
    await relay.stop();
  });

  it("killRunningRelays() kills the relays still running, workers too; so does the starting process's exit", async () => {
    // Running: a process that exists and is not a zombie (one whose parent died waits for init to reap it).
    const alive = (pid: number) => {
      try {
        return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]![0] !== "Z";
      } catch {
        return false;
      }
    };
    const relay = await startRelay({ workers: 2 });
    const { stdout } = await promisify(execFile)("pgrep", ["-P", String(relay.process.pid)]);
    const workers = stdout.split("\n").filter(Boolean).map(Number);
    expect(workers).toHaveLength(2);
    const exited = new Promise((resolve) => relay.process.once("exit", (_code, signal) => resolve(signal)));
    killRunningRelays();
    expect(await exited).toBe("SIGKILL");
    for (let i = 0; i < 100 && workers.some(alive); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(workers.filter(alive)).toEqual([]);

    // A consumer that exits without stop(): its relay goes with it.
    const script = `
      import { startRelay } from "@neutral/relay/testing";
      const relay = await startRelay();
      console.log(relay.process.pid);
      process.exit(0);
    `;
    const pid = Number((await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { cwd: packageDir, timeout: 25_000 })).stdout);
    expect(pid).toBeGreaterThan(0);
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(alive(pid)).toBe(false);
  });

  it("refuses a log level that would hide the listening line, before starting anything", async () => {
    await expect(startRelay({ args: ["--log-level", "warn"] })).rejects.toThrow(/log-level/);
    await expect(startRelay({ env: { NEUTRAL_LOG_LEVEL: "silent" } })).rejects.toThrow(/log-level/);
  });
});
