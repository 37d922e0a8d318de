// `neutral serve [relay flags…]`: the relay of @neutral/relay, run as a child process with the same
// flags as `pnpm start`. stdio is inherited (its JSON logs go to stdout as they are), SIGINT,
// SIGTERM and SIGHUP are passed on, and the CLI exits with the relay's code.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { constants } from "node:os";
import path from "node:path";
import { defineCommand } from "../command.js";
import { CliError } from "../errors.js";

export const serve = defineCommand({
  name: "serve",
  summary: "run a relay node (the flags of `pnpm start`)",
  options: {},
  help: {
    usage: "neutral serve [relay flags…]",
    details: ["Runs @neutral/relay in a child process: its JSON logs go to stdout; SIGINT/SIGTERM stop it and neutral exits with its code."],
    notes: ["every flag is the relay's: --host --port --data-dir --domain --node-key --log-level --workers --rate-limit …"],
  },
  positionals: [],
  account: false,
  passThrough: true,
  async run({ args, io, helpText }) {
    // The relay prints its own help after ours.
    if (args.includes("--help") || args.includes("-h")) io.out(`${helpText}\n\nThe relay's own help follows.\n`);
    return runRelay(args);
  },
});

/** The relay's entry point (its `bin`), found through the package, not through a path in this repo. */
export function relayMain(): string {
  let manifestPath: string;
  try {
    manifestPath = createRequire(import.meta.url).resolve("@neutral/relay/package.json");
  } catch {
    throw new CliError("the relay package (@neutral/relay) is not installed next to the CLI: run pnpm install");
  }
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : (manifest.bin?.["neutral-relay"] ?? "dist/main.js");
  const main = path.resolve(path.dirname(manifestPath), bin);
  if (!existsSync(main)) throw new CliError(`the relay is not built (${main} is missing): run pnpm build`);
  return main;
}

const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** Runs the relay until it exits; resolves with the exit code to use. */
export function runRelay(args: readonly string[]): Promise<number> {
  const main = relayMain();
  const child = spawn(process.execPath, [main, ...args], { stdio: "inherit" });
  const forward = (signal: NodeJS.Signals) => () => {
    child.kill(signal);
  };
  const handlers = FORWARDED.map((signal) => [signal, forward(signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  return new Promise((resolve, reject) => {
    child.on("error", (error) => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
      reject(new CliError(`could not start the relay: ${error.message}`));
    });
    child.on("exit", (code, signal) => {
      for (const [name, handler] of handlers) process.off(name, handler);
      resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
    });
  });
}
