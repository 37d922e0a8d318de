// A program's exit and output, run without blocking the test's event loop: vitest's worker fails
// the whole run ("Timeout calling onTaskUpdate") when its loop is blocked for 60 s, which a few
// spawnSync calls in a row can take on a loaded 2-core machine (a CI run: every package at once).
import { spawn } from "node:child_process";

export interface Ran {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runAsync(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"], timeout: options.timeoutMs });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}

/**
 * This process's environment without what pnpm (running the tests) adds for the scripts it runs
 * (`npm_*`, `pnpm_*`), which would configure a plain npm or pnpm a test runs, plus `extra`.
 */
export const plainEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm|pnpm)_/i.test(name))),
  ...extra,
});
