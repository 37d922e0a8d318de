// What a command is: `{ name, summary, options, help, run }`, one object per command in
// src/commands/<name>.ts, listed once in src/commands/index.ts. The dispatcher (cli.ts), `--help` and
// `<command> --help` (help.ts) all read that list; nothing branches on a command's name.
import type { HeadStore } from "@neutral/client";
import type { Session } from "./session.js";

/** Where a command writes: every line goes through the key redaction of cli.ts. */
export interface Io {
  /** One line (or several, joined by newlines) to stdout. */
  out(text: string): void;
  /** One line to stderr: notes for a person, never data. */
  note(text: string): void;
}

/** One option: what `node:util` parseArgs needs, and how the help shows it. */
export interface OptionSpec {
  readonly type: "string" | "boolean";
  readonly short?: string;
  /** As the help's first column shows it: `--limit N`. */
  readonly label: string;
  /** Its help: one line, or more (further lines are indented under the first). */
  readonly help: readonly string[];
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

type ValueOf<T> = T extends "string" ? string : boolean;

/** What parseArgs gives for `O`: each option's value, absent when not on the command line. */
export type OptionValues<O extends OptionSpecs> = { readonly [K in keyof O]?: ValueOf<O[K]["type"]> };

export interface CommandHelp {
  /** `neutral send <to> <text> [--expires DURATION] …` */
  readonly usage: string;
  /** What the command does: the lines between the usage and the options. */
  readonly details: readonly string[];
  /** Lines under "Options:" besides the options' own (serve: the relay's flags). */
  readonly notes?: readonly string[];
}

/** What a command is run with. */
export interface CommandInput<O extends OptionSpecs> {
  /** Its options' values (checked by parseArgs for type, not yet for range). */
  readonly values: OptionValues<O>;
  /** Its arguments, as many as `positionals` asks for (more with `repeatLast`). */
  readonly positionals: readonly string[];
  /** Everything after the command name, as given: what a `passThrough` command gets. */
  readonly args: readonly string[];
  readonly io: Io;
  /** Standard output as it is, not redacted: for keygen's key and export's lines. */
  readonly stdout: NodeJS.WritableStream;
  /** Where a usage error points: `neutral send --help`. */
  readonly helpHint: string;
  /** The command's whole `--help` text. */
  readonly helpText: string;
  /**
   * The node (--url, NEUTRAL_URL) and the account's key (--key, NEUTRAL_KEY), checked: the first
   * thing a command that talks to a node does, before its own arguments are checked.
   */
  signIn(): Session;
  /**
   * This device's verified mailbox heads per account and node (the state folder: --state,
   * NEUTRAL_STATE, the default), or undefined when no folder is known: for commands that check what
   * a node signed without talking to it (verify-export) or before they do (import).
   */
  deviceHeads(): HeadStore | undefined;
}

export interface Command<O extends OptionSpecs = OptionSpecs> {
  /** `neutral <name>` */
  readonly name: string;
  /** One line, for `neutral --help` and the first line of `neutral <name> --help`. */
  readonly summary: string;
  /** Its own options, in the order its help lists them (--url, --key and --help are everyone's). */
  readonly options: O;
  readonly help: CommandHelp;
  /** Its arguments, in order, as they show in the command list and in errors (`<to>`). */
  readonly positionals: readonly string[];
  /** The last positional may be repeated (`delete <id>…`). */
  readonly repeatLast?: boolean;
  /** Said after "too many arguments" (send: quote a text with spaces). */
  readonly tooManyHint?: string;
  /** Talks to a node as an account: its help lists --url and --key. */
  readonly account: boolean;
  /** Its arguments belong to someone else (serve: the relay's): not parsed, `--help` included. */
  readonly passThrough?: boolean;
  /** Does the work; resolves with the exit code, throws what errors.ts turns into one line. */
  run(input: CommandInput<O>): Promise<number>;
}

/** A command, its options' types inferred for `run` (`values.limit` is a string, `values.all` a boolean). */
export function defineCommand<const O extends OptionSpecs>(command: Command<O>): Command<O> {
  return command;
}
