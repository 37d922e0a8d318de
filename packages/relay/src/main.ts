#!/usr/bin/env node
// The relay's command line: `neutral-relay [--config FILE] [flags]`, or a command (backup,
// restore). Flags, variables and the file → config (config.ts) → the node in this process as its
// role says (topology/run.ts). See `--help`, and the README's "Running a relay".
import { commandsHelp, isCommand } from "./commands/args.js";
import { ConfigError, helpText, parseConfig, type RelayConfig } from "./config.js";
import { createLogger, logFormatFor } from "./log.js";
import { processRole, runNode } from "./topology/run.js";
import { SOFTWARE } from "./version.js";

function readConfig(): RelayConfig {
  try {
    const parsed = parseConfig(process.argv.slice(2));
    if (parsed.help) {
      process.stdout.write(`${helpText()}\n\n${commandsHelp().join("\n")}\n`);
      process.exit(0);
    }
    return parsed.config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`neutral-relay: ${error.message}\n`);
    process.exit(2);
  }
}

const command = process.argv[2];
const role = processRole();
if (role.kind === "first" && isCommand(command)) {
  // Loaded only for a command: the serving node never needs it.
  void import("./commands/run.js").then(({ runCommand }) => runCommand(command, process.argv.slice(3)));
} else {
  const config = readConfig();
  const logger = createLogger(config.logLevel, role.kind === "worker" ? { worker: role.id } : { software: `${SOFTWARE.name}/${SOFTWARE.version}` }, undefined, logFormatFor(config.logFormat));
  runNode(config, logger);
}
