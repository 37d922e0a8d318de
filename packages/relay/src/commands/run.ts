// Runs `neutral-relay backup` / `restore`: prints what was done, or why not, and exits.
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigError } from "../config.js";
import { NODE_KEY_FILE } from "../node-key.js";
import { BackupError, backupDatabase, restoreDatabase, type BackupResult, type RestoreResult } from "../storage/sqlite-backup.js";
import { DATABASE_FILE } from "../storage/sqlite.js";
import { latestSchemaVersion } from "../storage/sqlite-migrations.js";
import { commandHelp, parseCommand, type CommandArgs, type CommandName } from "./args.js";

const POSTGRES_REFUSAL =
  "this node stores in PostgreSQL (--database-url / NEUTRAL_DATABASE_URL): back it up and restore it with PostgreSQL's own tools, " +
  "pg_dump / pg_restore, or streaming replication with point-in-time recovery (packages/relay/README.md, Operations: Backups and restore)";

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function backupLines(result: BackupResult): string[] {
  return [
    `backed up ${result.source} to ${result.target}: ${result.pages} pages (${mb(result.bytes)}), ${result.messages} messages, schema version ${result.schemaVersion}, ` +
      `integrity_check ok, ${result.seconds.toFixed(2)} s (copy ${result.copySeconds.toFixed(2)} s in ${result.steps} steps, check ${result.checkSeconds.toFixed(2)} s)`,
    `not in the backup: the node key (${NODE_KEY_FILE} in the data dir, or the configured --node-key): keep a copy of it separately, somewhere safe`,
  ];
}

function restoreLines(result: RestoreResult, keyPresent: boolean): string[] {
  const lines = [
    `restored ${result.backup} into ${result.target}${result.replaced ? " (replacing the database there)" : ""}: ${result.pages} pages (${mb(result.bytes)}), ` +
      `${result.messages} messages, schema version ${result.schemaVersion}, integrity_check ok, ${result.seconds.toFixed(2)} s` +
      (result.removed.length > 0 ? `; removed the old ${result.removed.join(", ")}` : ""),
  ];
  if (result.schemaVersion < latestSchemaVersion) lines.push(`this relay migrates it from schema version ${result.schemaVersion} to ${latestSchemaVersion} when it starts`);
  lines.push(
    keyPresent
      ? `the data dir has a node key (${NODE_KEY_FILE}): make sure it is the key this node signed with`
      : `the data dir has no ${NODE_KEY_FILE}: put the node's key back there (or configure NEUTRAL_NODE_KEY) before starting, or the node starts with a new key, as another node`,
  );
  return lines;
}

/**
 * The backup yields the CPU to the node it copies: on a small machine its copy and integrity_check
 * otherwise take cores the node's requests need (bench/HISTORY.md, "Backup"). Best effort.
 */
function lowerPriority(): void {
  try {
    os.setPriority(Math.min(19, os.getPriority() + 10));
  } catch {
    // not allowed here: the backup runs at the node's priority
  }
}

async function runParsed(args: CommandArgs): Promise<void> {
  if (args.postgres) throw new BackupError(POSTGRES_REFUSAL);
  const database = path.join(args.dataDir, DATABASE_FILE);
  if (args.command === "backup") {
    lowerPriority();
    // A signal stops the copy at its next step; the temp file is removed and <file> left as it was.
    let interrupted: NodeJS.Signals | undefined;
    const onSignal = (signal: NodeJS.Signals) => (interrupted = signal);
    process.on("SIGINT", onSignal).on("SIGTERM", onSignal);
    const result = await backupDatabase(database, path.resolve(args.file), {
      force: args.force,
      pagesPerStep: args.pagesPerStep,
      onProgress: () => {
        if (interrupted) throw new BackupError(`stopped by ${interrupted}; nothing written`);
      },
    });
    process.stdout.write(`${args.json ? JSON.stringify(result) : backupLines(result).join("\n")}\n`);
    return;
  }
  const result = restoreDatabase(path.resolve(args.file), database, { force: args.force });
  const keyPresent = existsSync(path.join(args.dataDir, NODE_KEY_FILE));
  process.stdout.write(`${args.json ? JSON.stringify({ ...result, nodeKeyFile: keyPresent }) : restoreLines(result, keyPresent).join("\n")}\n`);
}

/** Runs a command and exits: 0 done, 1 refused or failed, 2 bad arguments. */
export async function runCommand(command: CommandName, argv: readonly string[]): Promise<never> {
  try {
    const parsed = parseCommand(command, argv);
    if (parsed.help) {
      process.stdout.write(`${commandHelp(command)}\n`);
      process.exit(0);
    }
    await runParsed(parsed);
    process.exit(0);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`neutral-relay ${command}: ${error.message}\n`);
      process.exit(2);
    }
    const message = error instanceof BackupError ? error.message : `failed: ${(error as Error).message ?? String(error)}`;
    process.stderr.write(`neutral-relay ${command}: ${message}\n`);
    process.exit(1);
  }
}
