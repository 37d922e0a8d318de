// The command line of `neutral-relay backup` and `neutral-relay restore`.
import { parseArgs } from "node:util";
import { ConfigError } from "../config.js";
import { BACKUP_PAGES_PER_STEP } from "../storage/sqlite-backup.js";

export const COMMANDS = ["backup", "restore"] as const;
export type CommandName = (typeof COMMANDS)[number];

export const isCommand = (word: string | undefined): word is CommandName => (COMMANDS as readonly string[]).includes(word ?? "");

export interface CommandArgs {
  command: CommandName;
  /** The backup file: written by `backup`, read by `restore`. */
  file: string;
  dataDir: string;
  /** Whether the node is configured for PostgreSQL (the URL itself is a secret and not kept). */
  postgres: boolean;
  force: boolean;
  json: boolean;
  pagesPerStep: number;
}

export type ParsedCommand = { help: true; command: CommandName } | ({ help: false } & CommandArgs);

const USAGE: Record<CommandName, string> = {
  backup: "neutral-relay backup <file> [--data-dir DIR] [--force] [--pages-per-step N] [--json]",
  restore: "neutral-relay restore <file> [--data-dir DIR] [--force] [--json]",
};

/** One line per command, for the relay's own `--help`. */
export function commandsHelp(): string[] {
  return [
    "Commands (SQLite nodes; `neutral-relay <command> --help` for more):",
    `  ${USAGE.backup.padEnd(90)} copy the database while the node serves`,
    `  ${USAGE.restore.padEnd(90)} put a backup in place, the node stopped`,
  ];
}

export function commandHelp(command: CommandName): string {
  const common = [
    `  --data-dir DIR        NEUTRAL_DATA_DIR   the node's data dir (default ./data): its database is DIR/neutral.sqlite`,
    `  --force                                  ${command === "backup" ? "replace <file> if it exists" : "replace the data dir's database if there is one (it is lost)"}`,
    `  --json                                   print the result as one JSON object`,
  ];
  if (command === "backup") {
    return [
      `Usage: ${USAGE.backup}`,
      "",
      "Copies the node's SQLite database into <file> while the node serves, with SQLite's online backup API:",
      "one consistent snapshot, copied in steps, into a temp file beside <file>; then PRAGMA integrity_check",
      "on the copy and an atomic rename. Refuses an existing <file> unless --force.",
      "The node key (DATA_DIR/node.key) is not in the database: keep a copy of it separately.",
      "A PostgreSQL node (--database-url / NEUTRAL_DATABASE_URL) is backed up with pg_dump instead (README).",
      "",
      ...common,
      `  --pages-per-step N                       database pages copied per step (default ${BACKUP_PAGES_PER_STEP}, 8 KiB each)`,
    ].join("\n");
  }
  return [
    `Usage: ${USAGE.restore}`,
    "",
    "Puts the backup <file> in place as the data dir's database (DIR/neutral.sqlite). Refuses while any",
    "process (a relay, one of its workers) has that database open; checks the backup (opens, PRAGMA",
    "integrity_check, schema version not newer than this relay) on a copy beside the database, removes",
    "the old database's -wal and -shm, and renames the copy into place. Refuses to replace an existing",
    "database unless --force. Put the node's key back into DATA_DIR/node.key (or configure it) too.",
    "",
    ...common,
  ].join("\n");
}

/** `argv` after the command word. Throws ConfigError for bad arguments. */
export function parseCommand(command: CommandName, argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ParsedCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        "data-dir": { type: "string" },
        "database-url": { type: "string" },
        force: { type: "boolean" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
        ...(command === "backup" && { "pages-per-step": { type: "string" } }),
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new ConfigError(`${command}: ${(error as Error).message}\nUsage: ${USAGE[command]}`);
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { help: true, command };
  if (positionals.length !== 1 || positionals[0] === "") {
    throw new ConfigError(`${command} needs exactly one file${positionals.length > 1 ? `, got ${positionals.length}` : ""}\nUsage: ${USAGE[command]}`);
  }
  const step = values["pages-per-step"];
  let pagesPerStep = BACKUP_PAGES_PER_STEP;
  if (typeof step === "string") {
    if (!/^\d+$/.test(step) || Number(step) < 1 || Number(step) > 1_000_000) throw new ConfigError(`--pages-per-step must be an integer in 1..1000000, got ${JSON.stringify(step)}`);
    pagesPerStep = Number(step);
  }
  const dataDir = typeof values["data-dir"] === "string" ? values["data-dir"] : (env.NEUTRAL_DATA_DIR ?? "./data");
  if (dataDir === "") throw new ConfigError("--data-dir must not be empty");
  return {
    help: false,
    command,
    file: positionals[0]!,
    dataDir,
    postgres: ((typeof values["database-url"] === "string" ? values["database-url"] : env.NEUTRAL_DATABASE_URL) ?? "") !== "",
    force: values.force === true,
    json: values.json === true,
    pagesPerStep,
  };
}
