// Mailbox pages on PostgreSQL: the statement of each page shape, and the reads that run them, a
// bounded number of statements at a time. Pages asked while those run wait, and go together, one
// statement per page shape, when one ends.
//
// Why: every statement in flight is a backend working at once. On a database host with few cores
// (the bench's: two, shared with the relay and its load), ten backends reading at once cost each
// page about twice the CPU two do (bench/HISTORY.md, "PostgreSQL page reads share statements"). A
// page that finds a statement free runs at once, alone; one that waits goes with every page of its
// shape that waited with it, a round trip and a statement for all of them.

import type { StoredMessage, MailboxRange } from "./store.js";
import { SIDE } from "./columns.js";

/** A page statement (`pageStatement`): its name and its text, and for one that pages may share, its parameters' types. */
export type PageStatement = SharedPageStatement | { name: string; text: string; types?: undefined };

/** The statement of a page shape whose pages may share a statement (`pageReads`). */
export interface SharedPageStatement {
  name: string;
  text: string;
  /** Each parameter's PostgreSQL type, in order (`$1` first): what the batched statement's arrays hold. */
  types: readonly string[];
}

/** Runs a named statement with its values, answering its rows (a pool's `query`). */
export type RunStatement = <Row extends object>(statement: { name: string; text: string; values: unknown[] }) => Promise<{ rows: Row[] }>;

export interface PageReadsOptions {
  /** Most statements in flight (default {@link DEFAULT_READ_STATEMENTS}). */
  inFlight?: number;
  /** Most rows the pages of one statement may read together (default {@link MAX_ROWS_PER_STATEMENT}); a page alone may read more. */
  maxRows?: number;
}

/** A range's letter in a page statement's name: one name per statement text. */
const SIDE_LETTER = { received: "r", sent: "s", requests: "q" } as const;

/**
 * A page row's own copy, for a page that proves itself (`withPositions`): its position and side,
 * none for a message to oneself (its two sides' rows stay equal, so a UNION keeps it once, and its
 * proof looks both copies up).
 */
const OWN_COPY = "CASE WHEN peer <> owner THEN seq END AS seq, CASE WHEN peer <> owner THEN side END AS side";

/** A page row as read with its own copy (`OWN_COPY`). */
export interface PositionedRow {
  id: number;
  json: string;
  seq: number | null;
  side: number | null;
}

/** A positioned page row as a stored message with its copy's position. */
export const positionedMessage = ({ id, json, seq, side }: PositionedRow): StoredMessage => ({
  id,
  json,
  ...(seq !== null && side !== null && { copies: [{ seq, role: side === SIDE.sent ? "sent" : "received" }] }),
});

/**
 * The page query for a shape, one statement (one snapshot) for every range. Parameters: $1 owner,
 * $2 after, $3 before, $4 limit+1, then since/until when given, then (with a time filter) the scan
 * bound's offset, then the peers of the ranges that have one.
 *
 * Without a time filter: one keyset range scan per mailbox range (the primary key, or
 * mailbox_by_peer with a peer), each cut at `limit + 1` rows; several ranges are merged by a UNION
 * (a message sent to oneself is in both sides with the same row: it counts once).
 *
 * With one (ts is not in the key): each range first finds the id of its `maxScan`-th entry in walk
 * order (`f<i>`, an index-only walk), and reads matches only up to it; the rows come tagged with
 * their range (`r`), the found ids as rows of `r` = 100 + i with no JSON, for `pageOfRanges`.
 */
export function pageStatement(ranges: readonly MailboxRange[], since: boolean, until: boolean, order: "asc" | "desc", positioned: boolean): PageStatement {
  const direction = order === "asc" ? "ASC" : "DESC";
  let next = 5;
  const sinceParam = since ? `$${next++}` : undefined;
  const untilParam = until ? `$${next++}` : undefined;
  const offsetParam = since || until ? `$${next++}` : undefined;
  const shape = ranges.map((range) => `${SIDE_LETTER[range.side]}${range.peer !== undefined ? "p" : ""}`).join("+");
  const name = `neutral_page_${shape}_${since ? "s" : ""}${until ? "u" : ""}_${order}${positioned ? "_p" : ""}`;
  const columns = positioned ? `id, json, ${OWN_COPY}` : "id, json";
  const keys = ranges.map((range) => `owner = $1 AND side = ${SIDE[range.side]}${range.peer !== undefined ? ` AND peer = $${next++}` : ""} AND id > $2 AND id < $3`);
  const times = `${sinceParam ? ` AND ts >= ${sinceParam}` : ""}${untilParam ? ` AND ts < ${untilParam}` : ""}`;
  if (offsetParam === undefined) {
    const selects = keys.map((key) => `SELECT ${columns} FROM mailbox WHERE ${key} ORDER BY id ${direction} LIMIT $4`);
    const text = selects.length === 1 ? selects[0]! : `${selects.map((select) => `(${select})`).join(" UNION ")} ORDER BY id ${direction} LIMIT $4`;
    const peers = ranges.filter((range) => range.peer !== undefined).map(() => "bytea");
    return { name, text, types: ["bytea", "bigint", "bigint", "bigint", ...peers] };
  }
  const reach = order === "asc" ? "<=" : ">=";
  const frontiers = keys.map((key, i) => `f${i} AS (SELECT id FROM mailbox WHERE ${key} ORDER BY id ${direction} OFFSET ${offsetParam} LIMIT 1)`);
  const matches = keys.map(
    (key, i) =>
      `(SELECT ${i} AS r, ${columns} FROM mailbox WHERE ${key}${times} AND id ${reach} coalesce((SELECT id FROM f${i}), ${order === "asc" ? "$3" : "$2"}) ORDER BY id ${direction} LIMIT $4)`,
  );
  const found = keys.map((_, i) => `SELECT ${100 + i}, id, NULL${positioned ? ", NULL, NULL" : ""} FROM f${i}`);
  return { name, text: `WITH ${frontiers.join(", ")} ${[...matches, ...found].join(" UNION ALL ")}` };
}

export const DEFAULT_READ_STATEMENTS = 2;
/**
 * Rows the pages of one statement may read together: five full pages (100 messages and the one
 * after). Two statements then hold at most what ten pages read alone held, the pool's ten
 * connections before pages shared statements: ~64 MB of rows of 64 KiB messages.
 */
export const MAX_ROWS_PER_STATEMENT = 505;

export interface PageReads {
  /**
   * The rows of `statement` run with `values`, in `order`: alone, or beside other pages of the same
   * statement waiting with it. `rows`: the most it reads (its LIMIT).
   */
  read<Row extends { id: number }>(statement: SharedPageStatement, values: readonly unknown[], order: "asc" | "desc", rows: number): Promise<Row[]>;
}

interface WaitingPage {
  values: readonly unknown[];
  order: "asc" | "desc";
  rows: number;
  resolve(rows: { id: number }[]): void;
  reject(error: unknown): void;
}

interface Shape {
  statement: SharedPageStatement;
  pages: WaitingPage[];
}

/**
 * The statement reading several pages of one shape: the pages' values as one array per parameter,
 * unnested to a row per page, and the page statement run for each (`LATERAL`, so each keeps its own
 * index range scan and its LIMIT). Each row comes with `page`, its page's index from 1.
 */
export function batchedStatement(statement: SharedPageStatement): { name: string; text: string } {
  const columns = statement.types.map((_, i) => `p${i + 1}`);
  const arrays = statement.types.map((type, i) => `$${i + 1}::${type}[]`);
  const body = statement.text.replace(/\$(\d+)/g, (_, n: string) => `b.p${n}`);
  return {
    name: `${statement.name}_b`,
    text: `SELECT b.page::int AS page, r.* FROM unnest(${arrays.join(", ")}) WITH ORDINALITY AS b(${columns.join(", ")}, page) CROSS JOIN LATERAL (${body}) r`,
  };
}

const inOrder = (rows: readonly { id: number }[], order: "asc" | "desc"): boolean => {
  for (let i = 1; i < rows.length; i++) if (order === "asc" ? rows[i - 1]!.id > rows[i]!.id : rows[i - 1]!.id < rows[i]!.id) return false;
  return true;
};

export function pageReads(run: RunStatement, options: PageReadsOptions = {}): PageReads {
  const maxInFlight = options.inFlight ?? DEFAULT_READ_STATEMENTS;
  const maxRows = options.maxRows ?? MAX_ROWS_PER_STATEMENT;
  /** Shapes with pages waiting, the longest waiting first (a Map keeps insertion order). */
  const waiting = new Map<string, Shape>();
  const batched = new Map<string, { name: string; text: string }>();
  let running = 0;

  async function runAlone(statement: SharedPageStatement, page: WaitingPage): Promise<void> {
    const { rows } = await run<{ id: number }>({ name: statement.name, text: statement.text, values: [...page.values] });
    page.resolve(rows);
  }

  async function runTogether(statement: SharedPageStatement, pages: WaitingPage[]): Promise<void> {
    let together = batched.get(statement.name);
    if (!together) batched.set(statement.name, (together = batchedStatement(statement)));
    const values = statement.types.map((_, i) => pages.map((page) => page.values[i]));
    const { rows } = await run<{ page: number; id: number }>({ ...together, values });
    const byPage: { id: number }[][] = pages.map(() => []);
    for (const { page, ...row } of rows) byPage[page - 1]!.push(row);
    // LATERAL keeps each page's rows in its statement's order in practice; SQL does not promise it.
    pages.forEach((page, i) => {
      const pageRows = byPage[i]!;
      if (!inOrder(pageRows, page.order)) pageRows.sort(page.order === "asc" ? (a, b) => a.id - b.id : (a, b) => b.id - a.id);
      page.resolve(pageRows);
    });
  }

  /** How many of the first waiting pages go in one statement: at least one, and no more rows than `maxRows`. */
  function together(pages: readonly WaitingPage[]): number {
    let count = 1;
    for (let rows = pages[0]!.rows; count < pages.length && rows + pages[count]!.rows <= maxRows; count++) rows += pages[count]!.rows;
    return count;
  }

  function pump(): void {
    while (running < maxInFlight && waiting.size > 0) {
      const [name, shape] = waiting.entries().next().value as [string, Shape];
      const { statement } = shape;
      const pages = shape.pages.splice(0, together(shape.pages));
      // A shape with pages left goes behind the others: one busy shape does not starve the rest.
      waiting.delete(name);
      if (shape.pages.length > 0) waiting.set(name, shape);
      running++;
      const done = pages.length === 1 ? runAlone(statement, pages[0]!) : runTogether(statement, pages);
      void done
        .catch((error: unknown) => {
          for (const page of pages) page.reject(error);
        })
        .finally(() => {
          running--;
          pump();
        });
    }
  }

  return {
    read<Row extends { id: number }>(statement: SharedPageStatement, values: readonly unknown[], order: "asc" | "desc", rows: number) {
      return new Promise<Row[]>((resolve, reject) => {
        let shape = waiting.get(statement.name);
        if (!shape) waiting.set(statement.name, (shape = { statement, pages: [] }));
        shape.pages.push({ values, order, rows, resolve: resolve as (rows: { id: number }[]) => void, reject });
        pump();
      });
    },
  };
}
