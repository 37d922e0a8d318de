// Test support for the PostgreSQL backend: the cluster the global setup started
// (`postgres-setup.ts`), and a fresh, empty schema per store or relay under test.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

/** The admin URL of the test cluster (the run's own, or NEUTRAL_TEST_DATABASE_URL). */
export const postgresUrl: string = inject("postgres").url;

export interface TestSchema {
  /** A database URL whose connections use only this schema (`options=-c search_path=…`). */
  url: string;
  name: string;
  /** Runs SQL as the admin, with this schema on the search path. */
  query<Row extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<Row>>;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

/** A new, empty schema in the test cluster: the storage of one store or of one group of replicas. */
export async function createTestSchema(): Promise<TestSchema> {
  const name = `neutral_test_${randomBytes(6).toString("hex")}`;
  const url = `${postgresUrl}?options=${encodeURIComponent(`-c search_path=${name}`)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${name}`);
  return {
    url,
    name,
    query: (text, values) => admin.query(text, values),
    async drop() {
      try {
        await admin.query(`DROP SCHEMA ${name} CASCADE`);
      } finally {
        await admin.end();
      }
    },
  };
}
