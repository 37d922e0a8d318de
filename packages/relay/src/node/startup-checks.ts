// What a node checks before it creates anything on disk: that its port is free, and that no other
// node runs on its data directory. Each refusal is one clear line (StartupError), not a stack trace.
import { mkdirSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import Database from "better-sqlite3";

/** A reason the node cannot start that the operator can fix: logged as its message alone. */
export class StartupError extends Error {
  override readonly name = "StartupError";
}

/**
 * Refuses a port something else listens on, before the node key or the database is made: the
 * node's own listen comes only after both. Port 0 (any free port) is always free.
 */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") reject(new StartupError(`port ${port} on ${host} is in use: another program listens there; stop it, or give this node another --port`));
      else if (error.code === "EACCES") reject(new StartupError(`port ${port} on ${host} needs privileges this process does not have; use a port above 1023, or a reverse proxy`));
      else if (error.code === "EADDRNOTAVAIL") reject(new StartupError(`${host} is not an address of this machine (--host)`));
      else reject(error);
    });
    server.listen({ port, host, exclusive: true }, () => resolve());
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** The file a running node holds locked in its data directory. */
export const LOCK_FILE = "neutral.lock";

export interface DataDirLock {
  /** Keep the lock referenced until then: a lock garbage-collected is released. */
  release(): void;
}

/**
 * Takes the data directory for this process: a second node on the same SQLite database would
 * write it as a second writer with a second node key cache, retention sweep and outbox deliverer.
 * The lock is SQLite's own exclusive lock on DATA_DIR/neutral.lock (a POSIX advisory lock): held
 * until `release()` or this process ends, however it ends, so a node killed with SIGKILL leaves
 * nothing to clean up. Workers of a node (`--workers N`) do not take it: their primary holds it.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, LOCK_FILE);
  const db = new Database(file);
  try {
    db.pragma("busy_timeout = 0");
    // No journal file beside it (better-sqlite3's defensive mode refuses OFF): a process killed
    // mid-write leaves at worst a torn pid, which nothing reads.
    db.pragma("journal_mode = MEMORY");
    db.pragma("locking_mode = EXCLUSIVE");
    // The first write takes the exclusive lock, and locking_mode EXCLUSIVE keeps it.
    db.exec("CREATE TABLE IF NOT EXISTS held_by (pid INTEGER); DELETE FROM held_by;");
    db.prepare("INSERT INTO held_by (pid) VALUES (?)").run(process.pid);
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === "SQLITE_BUSY") {
      throw new StartupError(`another node is running on the data directory ${path.resolve(dataDir)} (it holds ${LOCK_FILE}): stop it first, or give this one another --data-dir`);
    }
    throw error;
  }
  return { release: () => db.close() };
}
