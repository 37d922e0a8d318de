// The help texts, made from the command objects: `neutral --help` lists the registry's commands,
// `neutral <command> --help` shows one command's summary, usage, details and options.
import type { Command, OptionSpecs } from "./command.js";
import { ACCOUNT_OPTIONS, GLOBAL_OPTIONS, HELP_OPTION } from "./options.js";
import { DEFAULT_URL } from "./session.js";

/** Options as help lines: the label in a column of its own, the text beside it, further lines under the text. */
export function optionLines(options: OptionSpecs): string[] {
  return Object.values(options).flatMap(({ label, help }) => help.map((line, i) => (i === 0 ? `  ${label.padEnd(13)}  ${line}` : `${" ".repeat(17)}${line}`)));
}

/** `send <to> <text>`, `delete <id>…`: the name and its arguments, as the command list shows them. */
export function commandSignature(command: Command): string {
  return [command.name, ...command.positionals.map((positional) => `<${positional}>`)].join(" ") + (command.repeatLast ? "…" : "");
}

/** `neutral --help`: every command of `commands`, in their order. */
export function globalHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((command) => commandSignature(command).length));
  return [
    "neutral: end-to-end-encrypted messages through a neutralService relay",
    "",
    "Usage: neutral <command> [options]",
    "",
    "Commands:",
    ...commands.map((command) => `  ${commandSignature(command).padEnd(width)}  ${command.summary}`),
    "",
    "Options (every command that talks to a node):",
    ...optionLines(GLOBAL_OPTIONS),
    "",
    "Environment:",
    "  NEUTRAL_KEY    your private key (from `neutral keygen`); never printed",
    "  NEUTRAL_URL    the node, default " + DEFAULT_URL,
    "  NEUTRAL_DEBUG  1: print stack traces on errors",
    "",
    "Getting started:",
    "  neutral keygen                      # prints a key: keep it secret",
    "  export NEUTRAL_KEY=0x…              # the key from keygen",
    "  neutral whoami                      # signs in and publishes your messaging key",
    "  neutral send 0x1234…abcd 'hello'    # to someone who did the same",
    "  neutral inbox",
    "",
    "`neutral <command> --help` for the options of one command.",
  ].join("\n");
}

/** `neutral <command> --help`. */
export function commandHelp(command: Command): string {
  return [
    `neutral ${command.name}: ${command.summary}`,
    "",
    `Usage: ${command.help.usage}`,
    "",
    ...command.help.details,
    "",
    "Options:",
    ...optionLines(command.options),
    ...(command.help.notes ?? []).map((line) => `  ${line}`),
    ...optionLines(command.account ? { ...ACCOUNT_OPTIONS, ...HELP_OPTION } : HELP_OPTION),
  ].join("\n");
}
