// The command line: which command, which options, where the key and the node come from, help
// texts, and how a failure is reported (one line on stderr, never the key, no stack trace unless
// NEUTRAL_DEBUG=1).
import { readFileSync } from "node:fs";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { createNeutral, type Neutral } from "@neutral/client";
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, MESSAGE_ID_PATTERN } from "@neutral/protocol";
import * as commands from "./commands.js";
import { CliError, debugDetails, describeError, EXIT_FAILURE, redactor, UsageError, type ErrorContext } from "./errors.js";
import { exportCommand, importCommand, verifyExportCommand } from "./export.js";
import { serve } from "./serve.js";

export const DEFAULT_URL = "http://127.0.0.1:8645";

export const VERSION = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;

type Options = NonNullable<ParseArgsConfig["options"]>;

const GLOBAL_OPTIONS = {
  url: { type: "string" },
  key: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} satisfies Options;

const JSON_OPTION = { json: { type: "boolean" } } satisfies Options;

const GLOBAL_HELP = [
  "  --url URL      the node (default: $NEUTRAL_URL, else " + DEFAULT_URL + ")",
  "  --key KEY      the account's private key (default: $NEUTRAL_KEY). Prefer the variable:",
  "                 a flag shows up in `ps` and in your shell history",
  "  -h, --help     this help",
];

interface Command {
  summary: string;
  usage: string;
  options: Options;
  optionHelp: string[];
  positionals: string[];
  /** The last positional may be repeated (`delete <id>…`). */
  repeatLast?: boolean;
  /** Talks to a node with an account. */
  account: boolean;
  details: string[];
}

const COMMANDS: Record<string, Command> = {
  keygen: {
    summary: "create a new account: a random private key and its address",
    usage: "neutral keygen [--json]",
    options: JSON_OPTION,
    optionHelp: ['  --json         print exactly {"address":"0x…","privateKey":"0x…"} on one line'],
    positionals: [],
    account: false,
    details: [
      "The only command that prints a private key. Keep it secret and pass it to the other",
      "commands through the environment:  export NEUTRAL_KEY=0x…",
      "Nothing is sent anywhere: the key is made locally.",
    ],
  },
  whoami: {
    summary: "your address, the node, and whether your messaging key is published",
    usage: "neutral whoami [--json]",
    options: JSON_OPTION,
    optionHelp: ['  --json         {"address","url","node":{"address","software","version"},"keyPublished","publishedNow","home"}'],
    positionals: [],
    account: true,
    details: [
      "Signs in to the node, makes it your home node and publishes your messaging key if the node",
      "does not have them yet (every command that talks to the node does this): until then nobody",
      "can send to you. Your home node keeps your mailbox; messages from other nodes arrive there.",
    ],
  },
  send: {
    summary: "encrypt, sign and send a message",
    usage: "neutral send <to> <text> [--expires DURATION] [--wait SECONDS] [--json]",
    options: { ...JSON_OPTION, wait: { type: "string" }, expires: { type: "string" } },
    optionHelp: [
      "  --expires D    give the message an end, D after now (30s, 10m, 2h, 7d; at most 365d):",
      "                 signed with it, so no node serves it after, and each deletes it",
      "  --wait S       if the message is pending, wait up to S seconds for it to be delivered",
      "                 (default 0: answer at once; Ctrl-C stops waiting, the message stays sent)",
      "  --json         the stored message as JSON (see the README for the shape)",
    ],
    positionals: ["to", "text"],
    account: true,
    details: [
      "<to> is the recipient's address (0x + 40 hex digits); they must have used neutral",
      "(any command) once, on this node or on a node it federates with, so that their messaging",
      "key is published.",
      "<text> is the message; quote it. `-` reads it from standard input. A text that starts",
      "with - goes after --:  neutral send 0x… -- '-5 degrees outside'",
      "Prints the id the node stored the message under, and ✓ once delivered and verified. To",
      "someone homed on another node whose node does not answer yet, the message is pending:",
      "your node keeps trying, and `neutral inbox --direction sent` shows when it is delivered",
      "or that it failed, and why. The exit code is 0 either way: the message is stored.",
    ],
  },
  inbox: {
    summary: "read your mailbox, newest first",
    usage: "neutral inbox [--limit N] [--all] [--from ADDR] [--direction received|sent|all] [--requests] [--json]",
    options: {
      ...JSON_OPTION,
      limit: { type: "string" },
      all: { type: "boolean" },
      from: { type: "string" },
      direction: { type: "string" },
      requests: { type: "boolean" },
    },
    optionHelp: [
      `  --limit N      messages per page, 1..${MAX_PAGE_LIMIT} (default ${DEFAULT_PAGE_LIMIT})`,
      `  --all          every page, not only the newest one (${MAX_PAGE_LIMIT} per page unless --limit)`,
      "  --from ADDR    only messages from this sender",
      "  --direction D  received (default), sent, or all",
      "  --requests     the requests folder: first messages from senders you have not allowed, under",
      "                 `neutral consent --mode allowed-only` (see `neutral allow`)",
      '  --json         {"messages":[…],"end":true|false} (end: no older message)',
    ],
    positionals: [],
    account: true,
    details: [
      "Each message is decrypted and verified: ✓ when the signature and both receipts check out, ✗ and why otherwise.",
      "A message you sent to someone homed on another node is … pending until their node has it,",
      "or ✗ failed (with the reason) when your node gave up.",
    ],
  },
  chat: {
    summary: "the conversation with one peer, both directions, newest first",
    usage: "neutral chat <peer> [--limit N] [--all] [--json]",
    options: { ...JSON_OPTION, limit: { type: "string" }, all: { type: "boolean" } },
    optionHelp: [
      `  --limit N      messages per page, 1..${MAX_PAGE_LIMIT} (default ${DEFAULT_PAGE_LIMIT})`,
      `  --all          every page, not only the newest one (${MAX_PAGE_LIMIT} per page unless --limit)`,
      '  --json         {"messages":[…],"end":true|false}',
    ],
    positionals: ["peer"],
    account: true,
    details: ["← marks a message from the peer, → one you sent; … a sent one still pending, ✗ failed: one that could not be delivered."],
  },
  watch: {
    summary: "print new messages as they arrive, until Ctrl-C",
    usage: "neutral watch [--from ADDR] [--direction received|sent|all] [--interval MS] [--json]",
    options: { ...JSON_OPTION, interval: { type: "string" }, from: { type: "string" }, direction: { type: "string" } },
    optionHelp: [
      "  --interval MS  how often to poll a node without live delivery, in ms (default 2000, at least 50)",
      "  --from ADDR    only messages from this sender",
      "  --direction D  received (default), sent, or all",
      "  --json         one message object per line",
    ],
    positionals: [],
    account: true,
    details: [
      "Prints only what arrives after it started, each message the moment the node stores it (live",
      "delivery: the node pushes it). A node without live delivery is polled every --interval instead;",
      "stderr says which. If the connection drops or the node restarts, watch says so once, reconnects",
      "and goes on where it left off. Stops on SIGINT (Ctrl-C) or SIGTERM and exits 0.",
    ],
  },
  export: {
    summary: "write your whole mailbox, sent and received, as a file you can verify offline",
    usage: "neutral export [--out FILE] [--json]",
    options: { ...JSON_OPTION, out: { type: "string" } },
    optionHelp: [
      "  --out FILE     write to FILE (default: standard output); FILE must not exist yet",
      '  --json         with --out, print {"out","account","messages"} when done',
    ],
    positionals: [],
    account: true,
    details: [
      "JSON Lines (format neutral-mailbox, version 1): a header (your account, your home node, your",
      "home record and key bundle, your correspondents' home records), then every message as the",
      "node serves it, encrypted and signed, in id order. `neutral verify-export FILE` checks it",
      "without a node or a key. The file holds ciphertext only: never your key nor a plaintext.",
    ],
  },
  "verify-export": {
    summary: "verify an export offline: every signature and receipt, id order, no duplicates",
    usage: "neutral verify-export <file> [--json]",
    options: JSON_OPTION,
    optionHelp: ['  --json         {"ok","account","node","exportedAt","messages","verified","problems":[{"line","id","problem"}]}'],
    positionals: ["file"],
    account: false,
    details: [
      "<file> is what `neutral export` wrote (`-` reads standard input). Needs no node and no key:",
      "each message's sender signature, and its receipts against the home nodes the header's home",
      "records name, as `inbox` checks them. Prints each problem (line, message id, what) and a",
      "summary. Exit 0 when every message verifies, 1 otherwise (also for a message still pending).",
    ],
  },
  import: {
    summary: "import an export of your mailbox at your new home node, receipts and all",
    usage: "neutral import <file> [--json]",
    options: JSON_OPTION,
    optionHelp: ['  --json         {"account","imported","skipped":[{"line","id","problem"}]}'],
    positionals: ["file"],
    account: true,
    details: [
      "After moving home (any command at the new node publishes your home record there): <file> is",
      "what `neutral export` wrote at your former home (`-` reads standard input). Every delivered",
      "message is stored in your mailbox here with its original signatures and receipts; pending",
      "and failed ones are skipped and listed. Run it again safely: nothing is stored twice.",
      "Check the file first with `neutral verify-export`.",
    ],
  },
  consent: {
    summary: "who reaches your inbox: your policy and the peers you allowed or blocked",
    usage: "neutral consent [--mode open|allowed-only] [--json]",
    options: { ...JSON_OPTION, mode: { type: "string" } },
    optionHelp: [
      "  --mode M       open (everyone you have not blocked) or allowed-only (everyone else's first",
      "                 messages land in `neutral inbox --requests`); signed and kept by your home node",
      '  --json         {"account","policy":{"mode",…}|null,"records":[{"peer","state",…}],"end"}',
    ],
    positionals: [],
    account: true,
    details: ["Without --mode, prints what your home node keeps. Senders you have written to count as allowed."],
  },
  allow: {
    summary: "let an address reach your inbox, even under the allowed-only policy",
    usage: "neutral allow <address> [--json]",
    options: JSON_OPTION,
    optionHelp: ["  --json         your consent as your node now keeps it"],
    positionals: ["address"],
    account: true,
    details: ["Signed with your key and kept by your home node. Messages already in the requests folder stay there."],
  },
  block: {
    summary: "refuse an address's messages from now on (they are told no more than 'not accepted')",
    usage: "neutral block <address> [--json]",
    options: JSON_OPTION,
    optionHelp: ["  --json         your consent as your node now keeps it"],
    positionals: ["address"],
    account: true,
    details: ["Signed with your key and kept by your home node, which refuses the address's messages, also from other nodes."],
  },
  unblock: {
    summary: "neither allowed nor blocked any more",
    usage: "neutral unblock <address> [--json]",
    options: JSON_OPTION,
    optionHelp: ["  --json         your consent as your node now keeps it"],
    positionals: ["address"],
    account: true,
    details: ["Undoes `neutral allow` or `neutral block` (a newer signed record saying neither)."],
  },
  delete: {
    summary: "delete messages from your mailbox by id (the other party keeps its copy)",
    usage: "neutral delete <id>… [--json]",
    options: JSON_OPTION,
    optionHelp: ['  --json         the node\'s receipt: {"node","account","ids","request","signature"}'],
    positionals: ["id"],
    repeatLast: true,
    account: true,
    details: [
      "<id> is a message id as inbox, chat and watch show it; up to 100 at once. Deletes your copy",
      "on your home node: a message you received from your inbox, one you sent from your sent",
      "messages. The other party's copy stays. The request is signed with your key, and the node",
      "answers a receipt it signs; ✓ when the receipt is the node's. A message still pending",
      "(on its way to another node) cannot be deleted until it is delivered or failed.",
    ],
  },
  serve: {
    summary: "run a relay node (the flags of `pnpm start`)",
    usage: "neutral serve [relay flags…]",
    options: {},
    optionHelp: ["  every flag is the relay's: --host --port --data-dir --domain --node-key --log-level --workers --rate-limit …"],
    positionals: [],
    account: false,
    details: ["Runs @neutral/relay in a child process: its JSON logs go to stdout; SIGINT/SIGTERM stop it and neutral exits with its code."],
  },
};

function globalHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => commandSignature(name).length));
  return [
    "neutral: end-to-end-encrypted messages through a neutralService relay",
    "",
    "Usage: neutral <command> [options]",
    "",
    "Commands:",
    ...Object.entries(COMMANDS).map(([name, command]) => `  ${commandSignature(name).padEnd(width)}  ${command.summary}`),
    "",
    "Options (every command that talks to a node):",
    ...GLOBAL_HELP,
    "  --version      the CLI's version",
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

function commandSignature(name: string): string {
  const command = COMMANDS[name]!;
  return [name, ...command.positionals.map((positional) => `<${positional}>`)].join(" ") + (command.repeatLast ? "…" : "");
}

function commandHelp(name: string): string {
  const command = COMMANDS[name]!;
  return [
    `neutral ${name}: ${command.summary}`,
    "",
    `Usage: ${command.usage}`,
    "",
    ...command.details,
    "",
    "Options:",
    ...command.optionHelp,
    ...(command.account ? GLOBAL_HELP : ["  -h, --help     this help"]),
  ].join("\n");
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

/** What shows in messages: no credentials of the URL. */
function displayUrl(url: URL): string {
  const shown = new URL(url);
  shown.username = "";
  shown.password = "";
  const text = shown.toString();
  return url.pathname === "/" && !url.search && !url.hash ? text.replace(/\/$/, "") : text;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const PRIVATE_KEY = /^(0x)?[0-9a-fA-F]{64}$/;

function address(value: string, what: string, help: string): string {
  if (!ADDRESS.test(value)) throw new UsageError(`${what} is not an address: expected 0x followed by 40 hex digits`, help);
  return value.toLowerCase();
}

function integer(value: string | undefined, flag: string, min: number, max: number, help: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new UsageError(`${flag} must be an integer in ${min}..${max}`, help);
  return Number(value);
}

const DURATION_UNITS_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const MAX_EXPIRY_MS = 365 * 86_400_000;

/** A duration like 30s, 10m, 2h or 7d, in ms (1 s .. 365 d). */
function duration(value: string | undefined, flag: string, help: string): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)([smhd])$/.exec(value);
  const ms = match ? Number(match[1]) * DURATION_UNITS_MS[match[2]!]! : Number.NaN;
  if (!(ms >= 1000 && ms <= MAX_EXPIRY_MS)) throw new UsageError(`${flag} must be a duration like 30s, 10m, 2h or 7d (1s to 365d)`, help);
  return ms;
}

function direction(value: string | undefined, help: string): "received" | "sent" | "all" | undefined {
  if (value === undefined) return undefined;
  if (value !== "received" && value !== "sent" && value !== "all") throw new UsageError("--direction must be received, sent or all", help);
  return value;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
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
  const io: commands.Io = {
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

async function run(argv: readonly string[], env: NodeJS.ProcessEnv, io: commands.Io, streams: Streams, context: ErrorContext, addSecret: (key: string) => void): Promise<number> {
  // A --key flag is a secret too, even on a command line that is wrong otherwise.
  argv.forEach((arg, i) => {
    if (arg === "--key" && argv[i + 1]) addSecret(argv[i + 1]!);
    else if (arg.startsWith("--key=") && arg.length > 6) addSecret(arg.slice(6));
  });

  const at = findCommand(argv);
  if (at === -1) {
    let parsed;
    try {
      parsed = parseArgs({ args: [...argv], options: GLOBAL_OPTIONS, strict: true, allowPositionals: false });
    } catch (error) {
      throw new UsageError(usageMessage(error));
    }
    if (parsed.values.version) {
      io.out(`neutral ${VERSION}`);
      return 0;
    }
    if (parsed.values.help) {
      io.out(globalHelp());
      return 0;
    }
    io.note(globalHelp());
    return 2;
  }

  const name = argv[at]!;
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    // Echoed only when it looks like a word: a pasted key must not end up on the screen.
    throw new UsageError(WORD.test(name) ? `unknown command ${JSON.stringify(name)}` : "unknown command");
  }
  const help = `neutral ${name} --help`;
  const before = argv.slice(0, at).filter((arg) => arg !== "--");
  const after = argv.slice(at + 1);

  if (name === "serve") {
    if (after.includes("--help") || after.includes("-h")) {
      io.out(`${commandHelp("serve")}\n\nThe relay's own help follows.\n`);
    }
    return serve(after);
  }

  const endOfOptions = after.indexOf("--");
  const optionArgs = endOfOptions === -1 ? after : after.slice(0, endOfOptions);
  if (optionArgs.includes("--help") || optionArgs.includes("-h") || before.includes("--help") || before.includes("-h")) {
    io.out(commandHelp(name));
    return 0;
  }

  let parsed;
  try {
    parsed = parseArgs({
      args: [...before, ...after],
      options: { ...GLOBAL_OPTIONS, ...command.options },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError(usageMessage(error), help);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const positionals = parsed.positionals;
  if (positionals.length < command.positionals.length) {
    throw new UsageError(`missing <${command.positionals[positionals.length]}>: usage: ${command.usage}`, help);
  }
  if (positionals.length > command.positionals.length && !command.repeatLast) {
    const hint = name === "send" ? " (quote a text with spaces)" : "";
    throw new UsageError(`too many arguments${hint}: usage: ${command.usage}`, help);
  }
  const json = values.json === true;

  if (name === "keygen") {
    commands.keygen({ json }, (text) => void streams.stdout.write(`${text}\n`));
    return 0;
  }
  if (name === "verify-export") return (await verifyExportCommand({ json, file: positionals[0]! }, io)) ? 0 : EXIT_FAILURE;

  // Everything below talks to a node as an account.
  const urlText = typeof values.url === "string" ? values.url : env.NEUTRAL_URL || DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    throw new UsageError(`${typeof values.url === "string" ? "--url" : "NEUTRAL_URL"} is not a URL`, help);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError("the node URL must start with http:// or https://", help);
  const shownUrl = displayUrl(url);
  context.url = shownUrl;

  const keySource = typeof values.key === "string" ? "--key" : "NEUTRAL_KEY";
  const rawKey = (typeof values.key === "string" ? values.key : (env.NEUTRAL_KEY ?? "")).trim();
  if (rawKey === "") {
    throw new UsageError("no account key: set NEUTRAL_KEY to your private key (export NEUTRAL_KEY=0x…; `neutral keygen` makes one)");
  }
  addSecret(rawKey);
  if (!PRIVATE_KEY.test(rawKey)) throw new UsageError(`${keySource} is not a private key: expected 0x followed by 64 hex digits`, help);
  const key = (rawKey.startsWith("0x") || rawKey.startsWith("0X") ? `0x${rawKey.slice(2)}` : `0x${rawKey}`) as `0x${string}`;

  // Arguments are checked before anything is sent.
  const limit = integer(values.limit as string | undefined, "--limit", 1, MAX_PAGE_LIMIT, help);
  const from = typeof values.from === "string" ? address(values.from, "--from", help) : undefined;
  const dir = direction(values.direction as string | undefined, help);
  const intervalMs = integer(values.interval as string | undefined, "--interval", 50, 24 * 3600 * 1000, help) ?? 2000;
  const waitMs = (integer(values.wait as string | undefined, "--wait", 0, 24 * 3600, help) ?? 0) * 1000;
  const expiresIn = duration(values.expires as string | undefined, "--expires", help);
  const all = values.all === true;
  // --all walks every page: the largest pages take the fewest requests.
  const pageSize = limit ?? (all ? MAX_PAGE_LIMIT : undefined);
  let to: string | undefined;
  let text: string | undefined;
  if (name === "send") {
    to = address(positionals[0]!, "<to>", help);
    text = positionals[1] === "-" ? await readStdin() : positionals[1]!;
    if (text === "") throw new UsageError("<text> is empty", help);
  }
  const peer = name === "chat" ? address(positionals[0]!, "<peer>", help) : undefined;
  const consentPeer = name === "allow" || name === "block" || name === "unblock" ? address(positionals[0]!, "<address>", help) : undefined;
  const mode = values.mode;
  if (mode !== undefined && mode !== "open" && mode !== "allowed-only") throw new UsageError("--mode must be open or allowed-only", help);
  if (values.requests === true && dir !== undefined && dir !== "received") throw new UsageError("--requests reads received messages: leave out --direction", help);
  if (name === "delete") {
    for (const id of positionals) if (!MESSAGE_ID_PATTERN.test(id)) throw new UsageError(`<id> ${JSON.stringify(id)} is not a message id (decimal digits, as inbox shows them)`, help);
    if (positionals.length > MAX_PAGE_LIMIT) throw new UsageError(`at most ${MAX_PAGE_LIMIT} ids at once`, help);
  }
  const out = typeof values.out === "string" ? values.out : undefined;
  if (out === "") throw new UsageError("--out needs a file name", help);

  let neutral: Neutral;
  try {
    neutral = createNeutral({ url: url.toString().replace(/\/$/, ""), account: key });
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "INVALID_ACCOUNT") {
      throw new CliError(`${keySource} is not a usable private key (0x followed by 64 hex digits, a valid secp256k1 key)`);
    }
    throw error;
  }

  switch (name) {
    case "whoami":
      await commands.whoami(neutral, { json, url: shownUrl }, io);
      return 0;
    case "send":
      if (waitMs === 0) await commands.send(neutral, to!, text!, { json, waitMs, expiresIn }, io);
      else await untilSignal((signal) => commands.send(neutral, to!, text!, { json, waitMs, expiresIn, signal }, io));
      return 0;
    case "inbox":
      await commands.list(
        neutral.inbox({ ...(pageSize !== undefined && { limit: pageSize }), ...(from && { from }), ...(dir && { direction: dir }), ...(values.requests === true && { folder: "requests" as const }) }),
        { json, all },
        io,
      );
      return 0;
    case "chat":
      await commands.list(neutral.chat(peer!, { ...(pageSize !== undefined && { limit: pageSize }) }), { json, all }, io);
      return 0;
    case "export":
      await exportCommand(neutral, { json, out, stdout: streams.stdout }, io);
      return 0;
    case "import":
      await importCommand(neutral, { json, file: positionals[0]! }, io);
      return 0;
    case "consent":
      await commands.consent(neutral, { json, ...(mode !== undefined && { mode }) }, io);
      return 0;
    case "allow":
    case "block":
    case "unblock":
      await commands.choose(neutral, consentPeer!, name === "allow" ? "allowed" : name === "block" ? "blocked" : "none", { json }, io);
      return 0;
    case "delete":
      await commands.remove(neutral, positionals, { json }, io);
      return 0;
    case "watch":
      await untilSignal((signal) => commands.watch(neutral, { json, intervalMs, filter: { ...(from && { from }), ...(dir && { direction: dir }) }, signal }, io));
      return 0;
    default:
      throw new UsageError(`unknown command ${JSON.stringify(name)}`);
  }
}

/** Runs `work` with a signal that SIGINT/SIGTERM abort; a second signal exits at once (130). */
async function untilSignal(work: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const controller = new AbortController();
  let signals = 0;
  const stop = () => {
    signals++;
    if (signals > 1) process.exit(130); // a second Ctrl-C: do not wait for a request in flight
    controller.abort();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    await work(controller.signal);
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}
