// Keeps the repository README's quick start true: its SDK snippet and its CLI session run, exactly
// as written, against a fresh relay (only NEUTRAL_URL points them at it).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runAsync } from "@neutral/test-support/exec";
import { startRelay, type RunningRelay } from "@neutral/relay/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const examples = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(examples);
const readme = readFileSync(path.join(root, "README.md"), "utf8");

/** The fenced block right after `<!-- quickstart:NAME -->` in the README. */
function snippet(name: string): string {
  const match = new RegExp(`<!-- quickstart:${name} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!match) throw new Error(`README.md has no quickstart:${name} block`);
  return match[1]!;
}

let relay: RunningRelay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay?.stop();
});

// A login-less, rc-less shell: what a pasted session needs, nothing a CI image adds (BASH_ENV).
const env = () => ({ ...process.env, NEUTRAL_URL: relay.url, NEUTRAL_KEY: "", BASH_ENV: "" });

describe("the README's quick start", () => {
  it("shows examples/hello.mjs as it is", () => {
    expect(snippet("sdk")).toBe(readFileSync(path.join(examples, "hello.mjs"), "utf8"));
  });

  it("SDK: node examples/hello.mjs prints Bob's decrypted, verified message", async () => {
    const run = await runAsync(process.execPath, ["examples/hello.mjs"], { cwd: root, env: env(), timeoutMs: 30_000 });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toMatch(/^0x[0-9a-f]{40} Hello, Bob! ✓ verified$/);
  });

  it("CLI: the shell session ends with Bob's inbox showing the message, verified", async () => {
    const run = await runAsync("bash", ["--norc", "--noprofile", "-euo", "pipefail", "-c", snippet("cli")], { cwd: root, env: env(), timeoutMs: 60_000 });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines.at(-1)).toMatch(/✓\s+Hello, Bob!$/);
    expect(run.stdout).toMatch(/messaging key\s+✓ published/);
  });
});
