// Vitest global setup: a throwaway PostgreSQL cluster for the whole test run (`postgres-cluster.ts`),
// stopped and removed afterwards. With NEUTRAL_TEST_DATABASE_URL set, that server is used instead.
//
// Without PostgreSQL binaries the PostgreSQL tests are skipped with a message saying why, except in
// CI (CI set): there the setup fails, so CI can never pass without having run them.
import type { TestProject } from "vitest/node";
import { findPostgresBinDir, startThrowawayPostgres } from "../postgres-cluster.js";

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

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const given = process.env.NEUTRAL_TEST_DATABASE_URL;
  if (given) {
    project.provide("postgres", { url: given });
    return undefined;
  }
  if (!findPostgresBinDir()) {
    const reason = "PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql/*/bin); set NEUTRAL_TEST_DATABASE_URL to use a running server";
    if (process.env.CI) throw new Error(`CI must run the PostgreSQL tests: ${reason}`);
    process.stderr.write(`\n[neutral] skipping the PostgreSQL tests: ${reason}\n\n`);
    project.provide("postgres", { skip: reason });
    return undefined;
  }
  const cluster = await startThrowawayPostgres();
  project.provide("postgres", { url: cluster.url });
  return () => cluster.stop();
}
