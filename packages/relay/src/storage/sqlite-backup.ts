// Online backup and restore of a SQLite node's database (`neutral-relay backup` / `restore`).
import { closeSync, copyFileSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, realpathSync, renameSync, rmSync, statSync, unlinkSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { latestSchemaVersion } from "./sqlite-migrations.js";

/** Pages copied per step of the online backup (8 MiB at the store's 8 KiB pages). */
export const BACKUP_PAGES_PER_STEP = 1024;

/** A refusal or failure the command reports as it is (no stack): the operator can act on it. */
export class BackupError extends Error {
  override readonly name = "BackupError";
}

/** What a checked database file holds. */
export interface DatabaseFacts {
  /** Highest applied schema migration (0 if none). */
  schemaVersion: number;
  messages: number;
  pages: number;
  bytes: number;
}

export interface BackupResult extends DatabaseFacts {
  source: string;
  target: string;
  /** Steps of the backup API it took. */
  steps: number;
  /** Times the copy started over because the database changed under it (0 while it reads one snapshot). */
  restarts: number;
  copySeconds: number;
  checkSeconds: number;
  seconds: number;
}

export interface BackupOptions {
  /** Replace an existing `target` (default: refuse). */
  force?: boolean;
  pagesPerStep?: number;
  onProgress?: (progress: { totalPages: number; remainingPages: number }) => void;
}

/** A temp file beside `target` (same directory, hence same file system: the rename is atomic). */
const tempBeside = (target: string) => path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);

/** Removes a database file and the side files SQLite may have left beside it. */
function removeDatabaseFiles(file: string): void {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(`${file}${suffix}`, { force: true });
}

function fsyncPath(file: string): void {
  const fd = openSync(file, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Checks a database file the way a restore needs it: it opens, passes `PRAGMA integrity_check`,
 * was written by a relay (`schema_migrations`) no newer than this one. Leaves it in rollback-journal
 * mode, one self-contained file (a backup of a WAL database starts out saying WAL).
 */
export function checkDatabaseFile(file: string, name = file): DatabaseFacts {
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
  } catch (error) {
    throw new BackupError(`${name} does not open as a SQLite database: ${(error as Error).message}`);
  }
  try {
    let problems: string[];
    try {
      db.pragma("journal_mode = DELETE");
      problems = (db.pragma("integrity_check") as { integrity_check: string }[]).map((row) => row.integrity_check);
    } catch (error) {
      throw new BackupError(`${name} is not a usable SQLite database: ${(error as Error).message}`);
    }
    if (problems.length !== 1 || problems[0] !== "ok") {
      throw new BackupError(`${name} fails PRAGMA integrity_check: ${problems.slice(0, 5).join("; ")}${problems.length > 5 ? "; …" : ""}`);
    }
    const hasSchema = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get() !== undefined;
    if (!hasSchema) throw new BackupError(`${name} is a SQLite database, but not a relay's (no schema_migrations table)`);
    const schemaVersion = (db.prepare("SELECT max(version) AS v FROM schema_migrations").get() as { v: number | null }).v ?? 0;
    if (schemaVersion > latestSchemaVersion) {
      throw new BackupError(`${name} has schema version ${schemaVersion}, newer than this relay's ${latestSchemaVersion}: restore it with a relay at least as new as the one that wrote it`);
    }
    const hasMessages = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'messages'").get() !== undefined;
    const messages = hasMessages ? (db.prepare("SELECT count(*) AS n FROM messages").get() as { n: number }).n : 0;
    const pages = db.pragma("page_count", { simple: true }) as number;
    const pageSize = db.pragma("page_size", { simple: true }) as number;
    return { schemaVersion, messages, pages, bytes: pages * pageSize };
  } finally {
    db.close();
  }
}

/**
 * Whether another connection, in this process or any other, has the database open. Every
 * connection to a WAL database holds a shared lock on the file for as long as it is open (SQLite
 * checks the same way, on close, whether it is the last one); exclusive locking mode asks for the
 * exclusive lock at the first read, and fails at once while anyone holds that shared lock. The
 * kernel drops a process's locks when it dies, SIGKILL included: unlike a pid or lock file, nothing
 * stale is left to clean up, and it sees a relay, any of its workers, a `sqlite3` shell or a backup.
 * Like any last connection to close, a free database's check folds a WAL left behind into it
 * (what the relay's next start would do): the data stays the same.
 */
export function databaseInUse(file: string): boolean {
  if (!existsSync(file)) return false;
  const db = new Database(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma("locking_mode = EXCLUSIVE");
    db.prepare("SELECT count(*) FROM sqlite_master").get();
    db.exec("BEGIN EXCLUSIVE; COMMIT");
    return false;
  } catch (error) {
    const code = (error as { code?: string }).code ?? "";
    if (code.startsWith("SQLITE_BUSY")) return true;
    if (code === "SQLITE_NOTADB") return false; // no relay serves a file that is not a database
    throw error;
  } finally {
    db.close();
  }
}

/** Moves `temp` to `target`: atomically, and without replacing an existing `target` unless `force`. */
function putInPlace(temp: string, target: string, force: boolean): void {
  if (force) renameSync(temp, target);
  else {
    try {
      linkSync(temp, target); // fails with EEXIST rather than replace: no window between a check and the rename
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") throw new BackupError(`${target} already exists; give --force to replace it`);
      // A file system without hard links: check, then rename.
      if (existsSync(target)) throw new BackupError(`${target} already exists; give --force to replace it`);
      renameSync(temp, target);
      return;
    }
    unlinkSync(temp);
  }
  fsyncPath(path.dirname(target));
}

/**
 * Copies the live database `source` into `target` with SQLite's online backup API, in steps of
 * `pagesPerStep`, then checks the copy (`checkDatabaseFile`) and renames it into place.
 *
 * The copy reads one snapshot: its connection holds a read transaction from before the first step
 * to after the last. Without it each step reads the database afresh, and a commit by another
 * connection (the node's) between two steps restarts the copy from the first page: under a steady
 * stream of sends it never finished (bench/HISTORY.md). In WAL mode a reader blocks no writer; the
 * node's checkpoints only stop short of the frames the snapshot still needs until it ends, so the
 * WAL grows by what is sent meanwhile.
 */
export async function backupDatabase(source: string, target: string, options: BackupOptions = {}): Promise<BackupResult> {
  const started = performance.now();
  if (!existsSync(source)) throw new BackupError(`there is no database at ${source} (is --data-dir right?)`);
  if (!existsSync(path.dirname(target))) throw new BackupError(`the directory of ${target} does not exist`);
  const live = realpathSync(source);
  const aimed = path.join(realpathSync(path.dirname(target)), path.basename(target));
  if ([live, `${live}-wal`, `${live}-shm`, `${live}-journal`].includes(aimed)) throw new BackupError(`${target} is the database itself; name another file`);
  if (!options.force && existsSync(target)) throw new BackupError(`${target} already exists; give --force to replace it`);
  if (existsSync(target) && statSync(target).isDirectory()) throw new BackupError(`${target} is a directory; name a file`);
  const pagesPerStep = options.pagesPerStep ?? BACKUP_PAGES_PER_STEP;
  const temp = tempBeside(target);
  removeDatabaseFiles(temp);
  const db = new Database(source, { fileMustExist: true, timeout: 10_000 });
  let steps = 0;
  let restarts = 0;
  let remaining = Infinity;
  let copySeconds: number;
  try {
    db.exec("BEGIN");
    db.prepare("SELECT count(*) FROM sqlite_master").get(); // opens the read transaction: the snapshot
    await db.backup(temp, {
      progress: (progress) => {
        steps++;
        if (progress.remainingPages > remaining) restarts++;
        remaining = progress.remainingPages;
        options.onProgress?.(progress);
        return pagesPerStep;
      },
    });
    db.exec("COMMIT");
    copySeconds = (performance.now() - started) / 1000;
  } catch (error) {
    removeDatabaseFiles(temp);
    throw error;
  } finally {
    db.close();
  }
  try {
    const checkStarted = performance.now();
    const facts = checkDatabaseFile(temp, `the copy of ${source}`);
    const checkSeconds = (performance.now() - checkStarted) / 1000;
    fsyncPath(temp);
    putInPlace(temp, target, options.force === true);
    return { source, target, steps, restarts, ...facts, copySeconds, checkSeconds, seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    removeDatabaseFiles(temp);
    throw error;
  }
}

export interface RestoreResult extends DatabaseFacts {
  backup: string;
  target: string;
  /** Whether a database was there before (replaced with `force`). */
  replaced: boolean;
  /** The old database's side files that were there (`-wal`, `-shm`), now gone. */
  removed: string[];
  seconds: number;
}

/**
 * Puts the backup `backup` in place as the database file `target`: refuses while any process has
 * `target` open (`databaseInUse`), or when it exists and not `force`. The backup is copied beside
 * the target first and the copy checked (`checkDatabaseFile`), so a bad backup changes nothing.
 * The target's `-wal` and `-shm` go before the rename: SQLite would replay an old WAL into the new file.
 */
export function restoreDatabase(backup: string, target: string, options: { force?: boolean } = {}): RestoreResult {
  const started = performance.now();
  if (!existsSync(backup)) throw new BackupError(`there is no backup at ${backup}`);
  if (statSync(backup).isDirectory()) throw new BackupError(`${backup} is a directory; name a backup file`);
  const existed = existsSync(target);
  // Listed before the check, whose connection may fold an old WAL into the old file and remove it.
  const stale = ["-wal", "-shm", "-journal"].filter((suffix) => existsSync(`${target}${suffix}`));
  if (databaseInUse(target)) {
    throw new BackupError(`${target} is in use: a relay (or another process) has it open; stop the relay on this data dir first`);
  }
  if (existed && !options.force) throw new BackupError(`${target} already exists; give --force to replace it (it is lost: back it up first)`);
  mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 }); // a new data dir, as the relay makes it
  const temp = tempBeside(target);
  removeDatabaseFiles(temp);
  try {
    copyFileSync(backup, temp);
    const facts = checkDatabaseFile(temp, `the backup ${backup}`);
    fsyncPath(temp);
    // Checked again just before the swap: a relay started since the first check must not lose its file.
    if (databaseInUse(target)) throw new BackupError(`${target} is in use: a relay started on this data dir during the restore; stop it and restore again`);
    const sides = ["-wal", "-shm", "-journal"];
    for (const suffix of sides) rmSync(`${target}${suffix}`, { force: true });
    const removed = sides.filter((suffix) => stale.includes(suffix)).map((suffix) => `${path.basename(target)}${suffix}`);
    renameSync(temp, target);
    fsyncPath(path.dirname(target));
    return { backup, target, replaced: existed, removed, ...facts, seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    removeDatabaseFiles(temp);
    throw error;
  }
}
