// A log sink that fails must not hold the node (issue 19, finding 10): stdout's reader stops
// reading, then dies; SIGTERM still ends the node within its grace period. And `--log-format`:
// pretty for a person, JSON for collectors.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { PassThrough } from "node:stream";
import { trackProcessGroup } from "@neutral/test-support/run";
import { describe, expect, it } from "vitest";
import { createStdoutSink, logFormatFor, MAX_QUEUED_LOG_BYTES, prettyLines } from "./log.js";
import { RELAY_MAIN, startRelay, tempDir, type RunningRelay } from "../testing/index.js";

async function traffic(relay: RunningRelay, requests: number): Promise<void> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_nodeInfo", params: [] });
  for (let i = 0; i < requests; i++) await fetch(relay.url, { method: "POST", headers: { "content-type": "application/json" }, body });
}

/** SIGTERM, then the time to exit, or undefined if the relay is still up after `timeoutMs`. */
async function stopWithin(relay: RunningRelay, timeoutMs: number): Promise<{ ms: number; code: number | null } | undefined> {
  const started = Date.now();
  const exited = relay.stop().then(({ code }) => ({ ms: Date.now() - started, code }));
  return Promise.race([exited, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), timeoutMs))]);
}

describe("logs on a failing stdout", () => {
  for (const workers of [1, 2]) {
    it(`--workers ${workers}: exits on SIGTERM after stdout's reader stopped reading and then died`, { timeout: 90_000 }, async () => {
      const relay = await startRelay({ workers });
      try {
        relay.process.stdout!.pause(); // the reader stops reading: the pipe fills with access-log lines
        await traffic(relay, 1500);
        const stopping = stopWithin(relay, 15_000);
        await new Promise((resolve) => setTimeout(resolve, 500));
        relay.process.stdout!.destroy(); // ... and dies
        const stopped = await stopping;
        expect(stopped, "the relay exits").toBeDefined();
        expect(stopped!.ms).toBeLessThan(12_000); // the 10 s grace of in-flight requests, and a bounded log flush
      } finally {
        await relay.crash();
      }
    });
  }

  it("exits at once on SIGTERM when stdout's reader died first", { timeout: 60_000 }, async () => {
    const relay = await startRelay({ workers: 2 });
    try {
      relay.process.stdout!.destroy();
      await traffic(relay, 200);
      const stopped = await stopWithin(relay, 15_000);
      expect(stopped).toBeDefined();
      expect(stopped!.ms).toBeLessThan(5000);
      expect(stopped!.code).toBe(0);
    } finally {
      await relay.crash();
    }
  });
});

describe("createStdoutSink", () => {
  it("queues at most its bound when stdout does not take lines, and says how many it dropped", async () => {
    const out = new PassThrough();
    const sink = createStdoutSink(out, 1000);
    const line = `${"x".repeat(99)}\n`;
    for (let i = 0; i < 50; i++) sink.write(line);
    await new Promise((resolve) => setImmediate(resolve));
    const lines = (out.read() as Buffer).toString().split("\n").filter(Boolean);
    expect(lines).toHaveLength(11); // the 10 lines that fit, and the report of the 40 that did not
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: "warn", dropped: 40 });
    expect(MAX_QUEUED_LOG_BYTES).toBeGreaterThanOrEqual(1024 * 1024);
  });

  it("stops writing for good once stdout's reader is gone (EPIPE), and flush does not wait for it", async () => {
    const out = new PassThrough();
    const sink = createStdoutSink(out, 1000);
    out.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    sink.write("after\n");
    let flushed = false;
    sink.flush(() => (flushed = true));
    expect(flushed).toBe(true);
    expect(out.read()).toBeNull();
  });
});

describe("--log-format", () => {
  it("auto is pretty on a terminal and JSON otherwise; json and pretty are what they say", () => {
    expect(logFormatFor("auto", { isTTY: true })).toBe("pretty");
    expect(logFormatFor("auto", { isTTY: false })).toBe("json");
    expect(logFormatFor("auto", {})).toBe("json");
    expect(logFormatFor("json", { isTTY: true })).toBe("json");
    expect(logFormatFor("pretty", { isTTY: false })).toBe("pretty");
  });

  it("pretty: a line a person reads, the message after the time and level, then the fields", () => {
    const line = prettyLines(false)(`${JSON.stringify({ level: "info", time: "2026-11-29T16:18:20.361Z", pid: 7, url: "http://127.0.0.1:8645", msg: "listening" })}\n`);
    expect(line).toMatch(/^\[2026-11-29 \d\d:\d\d:20\.361 [+-]\d{4}\] INFO: listening \{"url":"http:\/\/127\.0\.0\.1:8645"\}\n$/);
    expect(line).not.toContain("\u001b["); // no colour unless on a terminal
  });

  it("a relay started with --log-format pretty writes pretty lines, the request log too, and no JSON line", { timeout: 60_000 }, async () => {
    const dataDir = tempDir("neutral-pretty-");
    const child = spawn(process.execPath, [RELAY_MAIN, "--port", "0", "--data-dir", dataDir, "--workers", "1", "--log-format", "pretty"], { stdio: ["ignore", "pipe", "pipe"], detached: true });
    const forget = trackProcessGroup(child.pid!);
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 30_000);
        child.stdout!.on("data", () => {
          const match = / INFO: listening \{.*"url":"(http:\/\/[^"]+)"/.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
      });
      await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"neutralService_nodeInfo","params":[]}' });
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      const lines = out.trim().split("\n");
      expect(lines.find((line) => / INFO: rpc \{/.test(line))).toMatch(/"client":"127\.0\.0\.1".*"method":"neutralService_nodeInfo"/);
      expect(lines.filter((line) => line.startsWith("{"))).toEqual([]);
      expect(lines.every((line) => /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} [+-]\d{4}\] (INFO|WARN): /.test(line)), out).toBe(true);
    } finally {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // gone
      }
      forget();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
