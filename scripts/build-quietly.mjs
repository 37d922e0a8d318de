#!/usr/bin/env node
// `turbo run build [args…]` for `pnpm start` and `pnpm -s neutral`, so that what they print is the
// program's own output: nothing from turbo when everything comes from its cache, one line on stderr
// per task it has to run, and turbo's whole output on stderr when the build fails.
//
//   node scripts/build-quietly.mjs --filter=@neutral/cli...
import { constants } from "node:os";
import { spawnTurbo, stopOnSignals, turbo } from "./turbo.mjs";

const child = spawnTurbo(["run", "build", "--output-logs=new-only", "--log-order=stream", ...process.argv.slice(2)], {
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", FORCE_COLOR: "0", NO_COLOR: "1" },
  stdio: ["ignore", "pipe", "pipe"],
});

const output = [];
let pending = "";
child.stdout.on("data", (chunk) => {
  output.push(chunk);
  pending += chunk.toString("utf8");
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) {
    // "@neutral/cli:build: cache miss, executing 54b01a8920588d3c"
    const miss = /^(\S+): cache miss, executing/.exec(line);
    if (miss) process.stderr.write(`building ${miss[1]}\n`);
  }
});
child.stderr.on("data", (chunk) => output.push(chunk));

stopOnSignals([child]);

child.on("error", (error) => {
  process.stderr.write(`${turbo}: ${error.message}\n`);
  process.exit(1);
});
child.on("close", (code, signal) => {
  if (code === 0) return;
  process.stderr.write(Buffer.concat(output));
  process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
});
