// A throwaway PostgreSQL cluster on loopback, for tests and benchmarks (never for production):
// `initdb` into a directory (as the `postgres` user when running as root, since PostgreSQL refuses
// to run as root), `pg_ctl start` on a free port with its socket in that directory and trust auth.
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";

/** The newest installed PostgreSQL's bin dir: `initdb` on PATH, else Debian's /usr/lib/postgresql/N/bin. */
export function findPostgresBinDir(): string | undefined {
  const onPath = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).stdout?.trim();
  if (onPath) return path.dirname(onPath);
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(path.join(root, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && path.join(root, versions[0], "bin");
}

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

export interface ThrowawayPostgres {
  /** Admin URL of the cluster's `postgres` database (trust auth, user postgres). */
  url: string;
  /** The cluster's directory (data in `data/`, log in `server.log`). */
  dir: string;
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
  if (!binDir) throw new Error("PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql/*/bin)");
  const keep = options.dir !== undefined;
  const dir = options.dir ?? mkdtempSync(path.join(os.tmpdir(), "neutral-pg-"));
  mkdirSync(dir, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => {
    const command = asRoot ? "runuser" : path.join(binDir, tool);
    const argv = asRoot ? ["-u", "postgres", "--", path.join(binDir, tool), ...args] : args;
    execFileSync(command, argv, { stdio: ["ignore", "pipe", "pipe"], cwd: dir });
  };
  const data = path.join(dir, "data");
  const logFile = path.join(dir, "server.log");
  try {
    if (asRoot) {
      const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
      const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
      chownSync(dir, uid, gid);
    }
    if (!existsSync(path.join(data, "PG_VERSION"))) {
      run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"]);
    }
    const port = await freePort();
    const settings = { listen_addresses: "127.0.0.1", max_connections: "300", ...options.settings };
    const serverOptions = [`-p ${port}`, `-k ${dir}`, ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`)].join(" ");
    run("pg_ctl", ["-D", data, "-o", serverOptions, "-l", logFile, "-w", "-t", "60", "start"]);
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      dir,
      async stop() {
        try {
          run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
        } finally {
          if (!keep) rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    const log = existsSync(logFile) ? readFileSync(logFile, "utf8").slice(-2000) : "";
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? "";
    if (!keep) rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start a throwaway PostgreSQL in ${dir}: ${(error as Error).message}\n${stderr}\n${log}`);
  }
}
