// The HTTP conformance suite (test/http-conformance.ts) against a relay on PostgreSQL (a fresh schema of
// the test cluster), with the node key generated into the database.
import { describeHttpConformance } from "../test/http-conformance.js";
import { describe } from "vitest";
import { createTestSchema } from "../test/postgres.js";
import { startRelay } from "../testing/index.js";

describe("relay on PostgreSQL", () => {
  describeHttpConformance("postgres", async () => {
    const schema = await createTestSchema();
    const relay = await startRelay({ env: { NEUTRAL_DATABASE_URL: schema.url } });
    return {
      relay,
      nodeKey: async () => {
        const { rows } = await schema.query<{ key: string }>("SELECT '0x' || encode(private_key, 'hex') AS key FROM node_identity");
        return rows[0]!.key;
      },
      cleanup: () => schema.drop(),
    };
  });
});
