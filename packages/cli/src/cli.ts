// The command line: finds the command in the registry (src/commands/index.ts), parses its options
// and arguments, runs it, and reports a failure as one line on stderr (never the key, no stack trace
// unless NEUTRAL_DEBUG=1). It knows no command by name: everything it needs is in the command objects.
import { readFileSync } from "node:fs";
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { Io, OptionSpecs, OptionValues } from "./command.js";
import { COMMANDS, commandNamed } from "./commands/index.js";
import { debugDetails, describeError, redactor, UsageError, type ErrorContext } from "./errors.js";
import { commandHelp, globalHelp } from "./help.js";
import { GLOBAL_OPTIONS } from "./options.js";
import { fileHeadStore, stateDir } from "./head-store.js";
import { signIn } from "./session.js";

export const VERSION = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;

type ParseOptions = NonNullable<ParseArgsConfig["options"]>;

/** What parseArgs needs of option specs: their types (the labels and help texts are help.ts's). */
function parseConfig(options: OptionSpecs): ParseOptions {
  return Object.fromEntries(Object.entries(options).map(([name, { type, short }]) => [name, short === undefined ? { type } : { type, short }]));
}

/** Where the command name is: the first argument that is neither an option nor the value of --url/--key. */
function findCommand(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") return i + 1 < argv.length ? i + 1 : -1;
    if (arg === "--url" || arg === "--key") {
      i++;
      continue;
    }
    if (!arg.startsWith("-") || arg === "-") return i;
  }
  return -1;
}

/** What may be echoed back from a command line: a command name, an option name. Never a value (it could be a key). */
const WORD = /^[a-z][a-z0-9-]{0,31}$/i;
const OPTION = /^--?[a-z][a-z0-9-]{0,31}$/i;

/** parseArgs' messages, in fewer words (they mention its own options, e.g. `strict: false`). */
function usageMessage(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const quoted = /'([^']*)'/.exec(message)?.[1];
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return quoted !== undefined && OPTION.test(quoted) ? `unknown option ${quoted}` : "unknown option";
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
    {
      const option = quoted?.replace(" <value>", "");
      if (option === undefined || !OPTION.test(option)) return "bad option value";
      if (message.includes("does not take an argument")) return `${option} takes no value`;
      if (message.includes("ambiguous")) return `${option} needs a value (one that starts with - goes as ${option}=VALUE)`;
      return `${option} needs a value`;
    }
    default:
      return "bad arguments";
  }
}

export interface Streams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Runs one command line; resolves with the exit code. Never throws. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, streams: Streams = process): Promise<number> {
  // The key, once known, is blanked out of everything printed (keygen's own output aside).
  const secrets: string[] = [];
  const envKey = env.NEUTRAL_KEY?.trim();
  if (envKey) secrets.push(envKey);
  let redact = redactor(secrets);
  const io: Io = {
    out: (text) => void streams.stdout.write(`${redact(text)}\n`),
    note: (text) => void streams.stderr.write(`${redact(text)}\n`),
  };
  const context: ErrorContext = {};
  try {
    return await run(argv, env, io, streams, context, (key) => {
      secrets.push(key);
      redact = redactor(secrets);
    });
  } catch (error) {
    const { code, line } = describeError(error, context);
    streams.stderr.write(`${redact(`neutral: ${line}`)}\n`);
    if (env.NEUTRAL_DEBUG === "1") streams.stderr.write(`${redact(debugDetails(error))}\n`);
    return code;
  }
}

async function run(argv: readonly string[], env: NodeJS.ProcessEnv, io: Io, streams: Streams, context: ErrorContext, addSecret: (key: string) => void): Promise<number> {
  // A --key flag is a secret too, even on a command line that is wrong otherwise.
  argv.forEach((arg, i) => {
    if (arg === "--key" && argv[i + 1]) addSecret(argv[i + 1]!);
    else if (arg.startsWith("--key=") && arg.length > 6) addSecret(arg.slice(6));
  });

  const at = findCommand(argv);
  if (at === -1) {
    let parsed;
    try {
      parsed = parseArgs({ args: [...argv], options: parseConfig(GLOBAL_OPTIONS), strict: true, allowPositionals: false });
    } catch (error) {
      throw new UsageError(usageMessage(error));
    }
    if (parsed.values.version) {
      io.out(`neutral ${VERSION}`);
      return 0;
    }
    if (parsed.values.help) {
      io.out(globalHelp(COMMANDS));
      return 0;
    }
    io.note(globalHelp(COMMANDS));
    return 2;
  }

  const name = argv[at]!;
  const command = commandNamed(name);
  if (!command) {
    // Echoed only when it looks like a word: a pasted key must not end up on the screen.
    throw new UsageError(WORD.test(name) ? `unknown command ${JSON.stringify(name)}` : "unknown command");
  }
  const helpHint = `neutral ${name} --help`;
  const helpText = commandHelp(command);
  const before = argv.slice(0, at).filter((arg) => arg !== "--");
  const after = argv.slice(at + 1);
  const input = { args: after, io, stdout: streams.stdout, helpHint, helpText };
  const session = (flags: OptionValues<typeof GLOBAL_OPTIONS>) => () => signIn({ flags: { url: flags.url, key: flags.key, state: flags.state }, env, helpHint, context, addSecret });

  /** This device's verified heads (--state, NEUTRAL_STATE, the default folder), for commands that check what a node signed. */
  const deviceHeads = (flags: OptionValues<typeof GLOBAL_OPTIONS>) => () => {
    const dir = stateDir(flags.state, env);
    return dir === undefined ? undefined : fileHeadStore(dir);
  };

  if (command.passThrough) return command.run({ ...input, values: {}, positionals: [], signIn: session({}), deviceHeads: deviceHeads({}) });

  const endOfOptions = after.indexOf("--");
  const optionArgs = endOfOptions === -1 ? after : after.slice(0, endOfOptions);
  if (optionArgs.includes("--help") || optionArgs.includes("-h") || before.includes("--help") || before.includes("-h")) {
    io.out(helpText);
    return 0;
  }

  let parsed;
  try {
    parsed = parseArgs({
      args: [...before, ...after],
      options: parseConfig({ ...GLOBAL_OPTIONS, ...command.options }),
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError(usageMessage(error), helpHint);
  }
  // The options were declared without `multiple`: every value is a string or a boolean.
  const values = parsed.values as OptionValues<typeof GLOBAL_OPTIONS> & OptionValues<OptionSpecs>;
  const positionals = parsed.positionals;
  if (positionals.length < command.positionals.length) {
    throw new UsageError(`missing <${command.positionals[positionals.length]}>: usage: ${command.help.usage}`, helpHint);
  }
  if (positionals.length > command.positionals.length && !command.repeatLast) {
    const hint = command.tooManyHint === undefined ? "" : ` (${command.tooManyHint})`;
    throw new UsageError(`too many arguments${hint}: usage: ${command.help.usage}`, helpHint);
  }
  return command.run({ ...input, values, positionals, signIn: session(values), deviceHeads: deviceHeads(values) });
}
