// Vitest global setup: a throwaway PostgreSQL cluster for the whole test run (issue: "Tests and CI use
// a real PostgreSQL"). `initdb` into a temp dir (as the `postgres` user when running as root, since
// PostgreSQL refuses to run as root), `pg_ctl start` on a free loopback port with its socket in that
// dir and trust auth; stopped and removed after the run. With NEUTRAL_TEST_DATABASE_URL set, that
// server is used instead and nothing is started.
//
// Without PostgreSQL binaries the PostgreSQL tests are skipped with a message saying why, except in
// CI (CI set): there the setup fails, so CI can never pass without having run them.
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

export interface TestPostgres {
  /** Admin URL of the cluster's `postgres` database; absent when skipped. */
  url?: string;
  /** Why the PostgreSQL tests are skipped (local runs without PostgreSQL only). */
  skip?: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    postgres: TestPostgres;
  }
}

/** The newest installed PostgreSQL's bin dir: `initdb` on PATH, else Debian's /usr/lib/postgresql/N/bin. */
function findBinDir(): string | undefined {
  const onPath = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).stdout.trim();
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

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const given = process.env.NEUTRAL_TEST_DATABASE_URL;
  if (given) {
    project.provide("postgres", { url: given });
    return undefined;
  }
  const binDir = findBinDir();
  if (!binDir) {
    const reason = "PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql/*/bin); set NEUTRAL_TEST_DATABASE_URL to use a running server";
    if (process.env.CI) throw new Error(`CI must run the PostgreSQL tests: ${reason}`);
    process.stderr.write(`\n[neutral] skipping the PostgreSQL tests: ${reason}\n\n`);
    project.provide("postgres", { skip: reason });
    return undefined;
  }

  const dir = mkdtempSync(path.join(os.tmpdir(), "neutral-pg-"));
  const asRoot = process.getuid?.() === 0;
  // PostgreSQL will not run as root: hand the dir to the postgres user and run its tools as that user.
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
    run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"]);
    const port = await freePort();
    const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=300`;
    run("pg_ctl", ["-D", data, "-o", serverOptions, "-l", logFile, "-w", "-t", "30", "start"]);
    project.provide("postgres", { url: `postgres://postgres@127.0.0.1:${port}/postgres` });
  } catch (error) {
    const log = existsSync(logFile) ? readFileSync(logFile, "utf8").slice(-2000) : "";
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? "";
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start a throwaway PostgreSQL in ${dir}: ${(error as Error).message}\n${stderr}\n${log}`);
  }
  return () => {
    try {
      run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
