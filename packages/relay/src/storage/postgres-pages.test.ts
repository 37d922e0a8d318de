import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BASE_TIMESTAMP, randomAddress, testMessage } from "../../testing/store-conformance.js";
import { createTestSchema, type TestSchema } from "../../test/postgres.js";
import { addressBytes } from "./columns.js";
import { pageReads, pageStatement, type RunStatement, type SharedPageStatement } from "./postgres-pages.js";
import { openPostgresStore, type PostgresStore } from "./postgres.js";
import { ID_CEILING, type MailboxRange, type PageQuery } from "./store.js";

/** Four accounts and 80 messages among them: to oneself, into the requests folder, both ways. */
async function fill(store: PostgresStore): Promise<{ accounts: string[]; ids: number[] }> {
  const accounts = [randomAddress(), randomAddress(), randomAddress(), randomAddress()];
  const ids: number[] = [];
  for (let i = 0; i < 80; i++) {
    const from = accounts[i % 4]!;
    const to = accounts[(i * 7 + (i >> 2)) % 4]!;
    const folder = i % 5 === 0 && from !== to ? { folder: "requests" as const } : {};
    ids.push((await store.append({ ...testMessage(from, to), ...folder })).stored.id);
  }
  return { accounts, ids };
}

/** The shapes a node reads without a time filter: getInbox's, getChat's, a stream's. */
const shapesOf = (peer: string): MailboxRange[][] => [
  [{ side: "received" }],
  [{ side: "sent" }],
  [{ side: "received" }, { side: "sent" }],
  [{ side: "requests" }],
  [{ side: "received", peer }],
  [{ side: "received", peer }, { side: "sent", peer }],
  [{ side: "requests", peer }],
];

/** The statement of a shape without a time filter: one that pages share. */
function sharedStatement(ranges: MailboxRange[], order: "asc" | "desc", positioned: boolean): SharedPageStatement {
  const statement = pageStatement(ranges, false, false, order, positioned);
  if (statement.types === undefined) throw new Error("a page shape without a time filter has a statement pages share");
  return statement;
}

describe("PostgreSQL page reads, a bounded number of statements at a time", () => {
  let schema: TestSchema;
  let store: PostgresStore;
  let pool: pg.Pool;
  beforeEach(async () => {
    schema = await createTestSchema();
    store = await openPostgresStore({ url: schema.url });
    pool = new pg.Pool({ connectionString: schema.url, max: 10 });
  });
  afterEach(async () => {
    await pool.end();
    await store.close();
    await schema.drop();
  });

  /** `pool.query`, counting the statements in flight and the pages each carries. */
  const counted = () => {
    const seen = { inFlight: 0, most: 0, pagesPerStatement: [] as number[], rowsPerStatement: [] as number[] };
    const run: RunStatement = async (statement) => {
      seen.most = Math.max(seen.most, ++seen.inFlight);
      const batched = statement.name.endsWith("_b");
      seen.pagesPerStatement.push(batched ? (statement.values[0] as unknown[]).length : 1);
      seen.rowsPerStatement.push(batched ? (statement.values[3] as number[]).reduce((sum, rows) => sum + rows, 0) : (statement.values[3] as number));
      try {
        return await pool.query(statement);
      } finally {
        seen.inFlight--;
      }
    };
    return { seen, run };
  };

  it("pages of every shape and walk read at once come out as each does alone, with at most the statements asked in flight and many pages in one", { timeout: 60_000 }, async () => {
    const { accounts, ids } = await fill(store);
    const reads: { statement: SharedPageStatement; values: unknown[]; order: "asc" | "desc" }[] = [];
    for (const [a, owner] of accounts.entries()) {
      for (const ranges of shapesOf(accounts[(a + 1) % 4]!)) {
        for (const order of ["asc", "desc"] as const) {
          for (const positioned of [false, true]) {
            for (const [after, before, limit] of [
              [0, ID_CEILING, 100],
              [ids[20]!, ID_CEILING, 3],
              [0, ids[60]!, 4],
              [ids[10]!, ids[70]!, 1],
            ] as const) {
              const statement = sharedStatement(ranges, order, positioned);
              const peers = ranges.flatMap((range) => (range.peer === undefined ? [] : [addressBytes(range.peer)]));
              reads.push({ statement, values: [addressBytes(owner), after, before, limit + 1, ...peers], order });
            }
          }
        }
      }
    }
    const alone = [];
    for (const read of reads) alone.push((await pool.query({ name: read.statement.name, text: read.statement.text, values: read.values })).rows);
    expect(alone.filter((rows) => rows.length > 1).length, "the walks find messages").toBeGreaterThan(reads.length / 3);

    const { seen, run } = counted();
    const rowsOf = (read: (typeof reads)[number]) => read.values[3] as number;
    const together = await Promise.all(reads.map((read) => pageReads(run, { inFlight: 2 }).read(read.statement, read.values, read.order, rowsOf(read))));
    // A reader per page never makes a page wait: the same rows, with nothing batched.
    expect(together).toEqual(alone);
    expect(Math.max(...seen.pagesPerStatement)).toBe(1);

    const shared = counted();
    // A statement's 16 pages (4 accounts, 4 walks) read 448 rows at most: the bound, exactly.
    const reader = pageReads(shared.run, { inFlight: 2, maxRows: 448 });
    expect(await Promise.all(reads.map((read) => reader.read(read.statement, read.values, read.order, rowsOf(read))))).toEqual(alone);
    expect(shared.seen.most).toBe(2);
    expect(Math.max(...shared.seen.pagesPerStatement)).toBe(16);
    expect(Math.max(...shared.seen.rowsPerStatement)).toBe(448);
    expect(shared.seen.pagesPerStatement.reduce((sum, pages) => sum + pages, 0)).toBe(reads.length);
  });

  it("pages waiting in several shapes take turns: a shape with many pages waiting does not hold the others back", { timeout: 30_000 }, async () => {
    const { accounts } = await fill(store);
    const order: [string, number][] = [];
    const run: RunStatement = async (statement) => {
      order.push([statement.name.replace(/_b$/, ""), statement.name.endsWith("_b") ? (statement.values[0] as unknown[]).length : 1]);
      return pool.query(statement);
    };
    // Four pages of 11 rows fit 44 rows; a fifth would pass it.
    const reader = pageReads(run, { inFlight: 1, maxRows: 44 });
    const received = sharedStatement([{ side: "received" }], "desc", false);
    const sent = sharedStatement([{ side: "sent" }], "desc", false);
    const values = [addressBytes(accounts[0]!), 0, ID_CEILING, 11];
    // The first runs alone at once; 12 received pages then wait, then one sent page.
    const done = [reader.read(received, values, "desc", 11)];
    for (let i = 0; i < 12; i++) done.push(reader.read(received, values, "desc", 11));
    done.push(reader.read(sent, values, "desc", 11));
    await Promise.all(done);
    expect(order).toEqual([
      [received.name, 1],
      [received.name, 4],
      [sent.name, 1],
      [received.name, 4],
      [received.name, 4],
    ]);
  });

  it("a statement that fails fails the pages it carried, and the reader goes on with the next", { timeout: 30_000 }, async () => {
    const { accounts } = await fill(store);
    const { seen, run } = counted();
    const reader = pageReads(run, { inFlight: 1 });
    const statement = sharedStatement([{ side: "received" }], "desc", false);
    const good = [addressBytes(accounts[1]!), 0, ID_CEILING, 5];
    const first = reader.read(statement, good, "desc", 5);
    // Waiting together behind the first: one bad value (not a bigint) fails their statement.
    const batch = [reader.read(statement, good, "desc", 5), reader.read(statement, [addressBytes(accounts[2]!), "not a number", ID_CEILING, 5], "desc", 5)];
    const outcomes = await Promise.allSettled([first, ...batch]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "rejected"]);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/bigint/);
    expect(seen.pagesPerStatement).toEqual([1, 2]);
    expect(await reader.read(statement, good, "desc", 5)).toEqual((outcomes[0] as PromiseFulfilledResult<unknown>).value);
  });

  it("a store reading one statement at a time answers pages read at once, with a time filter or without, as it answers them one by one", { timeout: 60_000 }, async () => {
    const { accounts, ids } = await fill(store);
    const narrow = await openPostgresStore({ url: schema.url, readStatements: 1 });
    try {
      const queries: PageQuery[] = accounts.flatMap((owner, a) =>
        shapesOf(accounts[(a + 2) % 4]!).flatMap((ranges) =>
          (["asc", "desc"] as const).flatMap((order) => [
            { owner, ranges, order, limit: 5 },
            { owner, ranges, order, limit: 2, after: ids[30]!, withPositions: true },
            { owner, ranges, order, limit: 3, before: ids[50]!, lookahead: false },
            // With a time filter: read on a pooled connection of its own, beside the shared statements.
            { owner, ranges, order, limit: 4, since: BASE_TIMESTAMP, maxScan: 6 },
          ]),
        ),
      );
      const oneByOne = [];
      for (const query of queries) oneByOne.push(await store.page(query));
      expect(await Promise.all(queries.map((query) => narrow.page(query)))).toEqual(oneByOne);
    } finally {
      await narrow.close();
    }
  });
});
