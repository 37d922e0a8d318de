import { supersedes, type WireMessageFields } from "@neutral/protocol";
import pg from "pg";
import { StoreClosedError } from "../errors.js";
import { messageJsonTail, messageJsonWithId, signsReceipts, type AcceptedMessage } from "../message.js";
import { commitChannelOf, messageNotices, statusNotices } from "../live/postgres-commits.js";
import { checkSchemaVersion, latestSchemaVersion, migrate } from "./postgres-migrations.js";
import { pageReads, pageStatement, positionedMessage, type PageStatement, type PositionedRow } from "./postgres-pages.js";
import { boundMessageTail, digestSigner } from "./receipt-signer.js";
import {
  DEFAULT_MAX_SCAN,
  DEFAULT_SWEPT_DIGESTS_MS,
  ID_CEILING,
  laneOf,
  pageOfRanges,
  RetentionFloor,
  type AppendResult,
  type MailboxRange,
  type MessageStore,
  type PageQuery,
  type RangeRead,
  type StoredHomeRecord,
  type StoredMessage,
} from "./store.js";
import {
  addressBytes,
  bytesHex,
  hexBytes,
  homeRecordOf,
  keyBundleOf,
  OUTBOX_COLUMNS,
  OUTBOX_DESTINATIONS_SQL,
  outboxDestinationOf,
  outboxEntryOf,
  SIDE,
  CONSENT_MODE,
  CONSENT_STATE,
  consentPolicyOf,
  consentRecordOf,
  consentVerdictOf,
  expiredMessageOf,
  type ConsentRow,
  type PolicyRow,
  type DestinationRow,
  type HomeRow,
  type KeyBundleRow,
  type OutboxRow,
  logEntryOf,
  type LogRow,
} from "./columns.js";


export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database?…` (libpq-style; `options=-c search_path=…` picks a schema). */
  url: string;
  /** Connections in this process's pool (default 10). */
  poolSize?: number;
  /** Apply pending migrations (default true). A process that knows another already did may skip it. */
  migrate?: boolean;
  /** Called with errors of idle pooled connections (e.g. the server restarting); the pool replaces them. */
  onIdleError?: (error: Error) => void;
  /**
   * Most page reads in flight at once (postgres-pages.ts; default 2): pages asked meanwhile wait
   * and go together, one statement per shape.
   */
  readStatements?: number;
  /** Most messages in one append transaction (default 500). */
  maxBatch?: number;
  /** How long a message is served after it was stored, ms (store.ts `RetentionFloor`); absent or 0: until deleted. */
  retentionMs?: number;
  /** How long after it was stored a swept message is still recognised (store.ts `DEFAULT_SWEPT_DIGESTS_MS`). */
  sweptDigestsMs?: number;
}

/** The PostgreSQL message store, plus the node identity its replicas share. */
export interface PostgresStore extends MessageStore {
  /**
   * The node's signing key kept in the database: the stored one, else `generate()`'s, stored now.
   * Replicas starting at once agree: exactly one key is ever stored.
   */
  nodeKey(generate: () => Uint8Array): Promise<{ privateKey: Uint8Array; created: boolean }>;
  /** The node key kept in the database, if any (none is generated). */
  storedNodeKey(): Promise<Uint8Array | undefined>;
}

/** The URL without its credentials, for logs: `postgres://host:port/database`. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "postgres://(unparsable url)";
  }
}


/** bigint columns as numbers: ids, timestamps and ms clocks stay below 2^53. */
const INT8 = 20;
const parseInt8 = (text: string) => Number(text);
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => (oid === INT8 && format !== "binary" ? parseInt8 : pg.types.getTypeParser(oid, format))) as typeof pg.types.getTypeParser,
};

const SELECT_KEY_BUNDLE = "SELECT key, ts, signature FROM key_bundles WHERE account = $1";
const SELECT_HOME = "SELECT node, ts, signature FROM home_records WHERE account = $1";

/** `neutral_append_routed`'s route numbers (postgres-migrations.ts version 4): into the requests folder, local 3 and inbound 4. */
const ROUTE_NUMBER = { local: 0, outbound: 1, inbound: 2 } as const;
const routeNumber = (message: AcceptedMessage): number => {
  const route = ROUTE_NUMBER[message.route?.kind ?? "local"];
  return message.folder === "requests" && route !== 1 ? (route === 0 ? 3 : 4) : route;
};

/**
 * The session advisory lock the replica that drains the outbox holds: the same key in every replica
 * of a node, a different one for each schema (several nodes may share a database, each in its
 * schema). PostgreSQL drops it with the session: a replica that dies hands the outbox on at once.
 */
const DELIVERY_LOCK = "SELECT pg_try_advisory_lock(hashtext('neutral:outbox'), hashtext(current_schema())) AS locked";

interface PendingAppend {
  message: AcceptedMessage;
  /** The wire JSON after its id; absent when the store signs some receipt of the message (`appendSigned`). */
  tail: string | undefined;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

/** Whether every append of a batch has its receipts given: then `neutral_append_routed` does the batch in one statement. */
const allGiven = (batch: readonly PendingAppend[]): batch is (PendingAppend & { tail: string })[] => batch.every((entry) => entry.tail !== undefined);

/** What `neutral_append_positions` (postgres-migrations.ts version 13) answers per message. */
interface PositionsRow {
  stored_id: number;
  created: boolean;
  stored_json: string | null;
  sender_seq: number | null;
  receiver_seq: number | null;
}

/** Writes an append's mailbox rows (their positions taken by `neutral_append_positions`) and its commit notices. */
const INSERT_COPIES =
  "WITH copies AS (INSERT INTO mailbox (owner, side, id, peer, ts, json, seq) " +
  "SELECT * FROM unnest($1::bytea[], $2::smallint[], $3::bigint[], $4::bytea[], $5::bigint[], $6::text[], $7::bigint[])) " +
  "SELECT count(pg_notify($8, notice)) FROM unnest($9::text[]) AS notice";

/**
 * The rest of a sweep statement after its `doomed` CTE (id, sender, recipient of the messages to
 * delete): every copy, the outbox entry, the sender-set end (of the ids in `ends`) and the message
 * row, in the statement's one transaction; answers `swept`, how many messages went.
 */
const PURGE_DOOMED = (ends: "doomed" | "due") =>
  "received AS (DELETE FROM mailbox b USING doomed d WHERE b.owner = d.recipient AND b.side IN (1, 3) AND b.id = d.id), " +
  "sent AS (DELETE FROM mailbox b USING doomed d WHERE b.owner = d.sender AND b.side = 2 AND b.id = d.id), " +
  "queued AS (DELETE FROM outbox o USING doomed d WHERE o.id = d.id), " +
  `ends AS (DELETE FROM message_expiry e USING ${ends} x WHERE e.id = x.id), ` +
  "swept AS (DELETE FROM messages m USING doomed d WHERE m.id = d.id RETURNING m.id) " +
  "SELECT count(*)::int AS swept FROM swept";

/** A pool client checked out for a transaction, and how to give it back. */
interface Checkout {
  client: pg.PoolClient;
  /** Back to the pool, or destroyed when its connection was lost meanwhile. */
  release(): void;
}

/**
 * A client of its own from the pool. pg-pool listens for a client's "error" event only while the
 * client is idle: a checked-out one whose connection ends (the server restarted, the connection was
 * cut) emits it with no listener, an uncaught exception that ends the process. This records it
 * instead (the query under way rejects with it too), and `release` then destroys the client.
 */
async function checkout(pool: pg.Pool): Promise<Checkout> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost ??= error;
  };
  client.on("error", onError);
  return {
    client,
    release() {
      // A lost client keeps the listener: it may still report its end, and it is never reused.
      if (lost === undefined) client.removeListener("error", onError);
      client.release(lost);
    },
  };
}

/**
 * Opens the PostgreSQL store: a `pg` pool, migrations applied (under an advisory lock, so replicas
 * may start together). Appends are batched per process: while one batch commits, the next
 * collects, and each batch is a single `neutral_append` call, durable when it returns (PostgreSQL's
 * default `synchronous_commit = on`). Across processes the batches commit in id order (see
 * `postgres-migrations.ts`).
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    application_name: "neutral-relay",
    types,
    // A database that stops answering fails requests (-32603) instead of holding them forever. An
    // append that times out here may still commit there: the client's resend gets the original.
    connectionTimeoutMillis: 10_000,
    query_timeout: 30_000,
    keepAlive: true,
  });
  pool.on("error", (error) => options.onIdleError?.(error));
  try {
    const { client, release } = await checkout(pool);
    try {
      if (options.migrate !== false) await migrate(client);
      else await checkSchemaVersion(client);
    } finally {
      release();
    }
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }

  const maxBatch = options.maxBatch ?? 500;
  const statements = new Map<string, PageStatement>();
  const pages = pageReads(<Row extends object>(statement: { name: string; text: string; values: unknown[] }) => pool.query<Row>(statement), { inFlight: options.readStatements });
  let pending: PendingAppend[] = [];
  let inFlight = false;
  let flushScheduled = false;
  let closed = false;
  let closing: Promise<void> | undefined;
  let whenIdle: (() => void)[] = [];
  /** Signs the receipts of appends that lack them (`useReceiptKey`). */
  let sign: ((digest: Uint8Array) => string) | undefined;
  let receiptKey: Buffer | undefined;

  async function flush(): Promise<void> {
    flushScheduled = false;
    if (inFlight || pending.length === 0) return;
    inFlight = true;
    const batch = pending.slice(0, maxBatch);
    pending = pending.slice(batch.length);
    try {
      const results = allGiven(batch) ? await appendRouted(batch) : await appendSigned(batch);
      batch.forEach((entry, i) => {
        const result = results[i]!;
        if (result instanceof Error) entry.reject(result);
        else entry.resolve(result);
      });
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    } finally {
      inFlight = false;
    }
    if (pending.length > 0) void flush();
    else {
      const waiting = whenIdle;
      whenIdle = [];
      for (const resolve of waiting) resolve();
    }
  }

  /** A batch whose receipts are all given: one `neutral_append_routed` statement. */
  async function appendRouted(batch: readonly (PendingAppend & { tail: string })[]): Promise<AppendResult[]> {
    const expiring = batch.some((entry) => entry.message.expires !== undefined);
    const { rows } = await pool.query<{ stored_id: number; stored_json: string; created: boolean }>(
      // The commit notice (live/postgres-commits.ts) goes in the same statement, so in the same
      // transaction: listeners hear of exactly what committed, once it has. So do sender-set ends
      // (version 5), for the messages just created.
      expiring
        ? `WITH r AS (SELECT * FROM neutral_append_routed($1, $2, $3, $4, $5, $6, $7, $8, $9) WITH ORDINALITY AS r(stored_id, stored_json, created, n)),
             ends AS (INSERT INTO message_expiry (id, expires)
               SELECT r.stored_id, e.expires FROM r JOIN unnest($12::bigint[]) WITH ORDINALITY AS e(expires, n) ON e.n = r.n
                WHERE r.created AND e.expires IS NOT NULL)
           SELECT r.stored_id, r.stored_json, r.created FROM r
            CROSS JOIN (SELECT count(pg_notify($10, notice)) FROM unnest($11::text[]) AS notice) AS notified
           ORDER BY r.n`
        : `SELECT r.stored_id, r.stored_json, r.created
         FROM neutral_append_routed($1, $2, $3, $4, $5, $6, $7, $8, $9) WITH ORDINALITY AS r(stored_id, stored_json, created, n)
         CROSS JOIN (SELECT count(pg_notify($10, notice)) FROM unnest($11::text[]) AS notice) AS notified
        ORDER BY r.n`,
      [
        batch.map((entry) => Buffer.from(entry.message.digest)),
        batch.map((entry) => addressBytes(entry.message.from)),
        batch.map((entry) => addressBytes(entry.message.to)),
        batch.map((entry) => entry.message.timestamp),
        batch.map((entry) => entry.tail),
        batch.map((entry) => routeNumber(entry.message)),
        batch.map((entry) => (entry.message.route?.kind === "outbound" ? addressBytes(entry.message.route.destination) : null)),
        batch.map((entry) => laneOf(entry.message.to)),
        Date.now(),
        await commitChannel(),
        messageNotices(batch.map((entry) => entry.message)),
        ...(expiring ? [batch.map((entry) => entry.message.expires ?? null)] : []),
      ],
    );
    if (rows.length !== batch.length) throw new Error(`neutral_append answered ${rows.length} rows for ${batch.length} messages`);
    return rows.map((row) => ({ stored: { id: row.stored_id, json: row.stored_json }, created: row.created }));
  }

  /**
   * A batch in which the store signs receipts (spec 3.0.0: over the positions the copies take), one
   * transaction on one connection (postgres-migrations.ts version 13): `neutral_append_positions`
   * takes the id counter's lock, the ids and the positions; the receipts are signed here; the mailbox
   * rows go in with their JSON, and the commit notices with them. Any error rolls all of it back.
   * A resend whose original cannot be rebuilt answers its own error, the others go on.
   */
  async function appendSigned(batch: readonly PendingAppend[]): Promise<(AppendResult | Error)[]> {
    // Before the checkout: its first lookup queries the pool, which may have no other connection.
    const noticeChannel = await commitChannel();
    const { client, release } = await checkout(pool);
    try {
      await client.query("BEGIN");
      const { rows } = await client.query<PositionsRow>({
        name: "neutral_append_positions",
        text:
          "SELECT r.stored_id, r.created, r.stored_json, r.sender_seq, r.receiver_seq " +
          "FROM neutral_append_positions($1, $2, $3, $4, $5, $6, $7, $8) WITH ORDINALITY AS r(stored_id, created, stored_json, sender_seq, receiver_seq, n) ORDER BY r.n",
        values: [
          batch.map((entry) => Buffer.from(entry.message.digest)),
          batch.map((entry) => addressBytes(entry.message.from)),
          batch.map((entry) => addressBytes(entry.message.to)),
          batch.map((entry) => routeNumber(entry.message)),
          batch.map((entry) => (entry.message.route?.kind === "outbound" ? addressBytes(entry.message.route.destination) : null)),
          batch.map((entry) => laneOf(entry.message.to)),
          batch.map((entry) => entry.message.expires ?? null),
          Date.now(),
        ],
      });
      if (rows.length !== batch.length) throw new Error(`neutral_append_positions answered ${rows.length} rows for ${batch.length} messages`);
      const copies = { owners: [] as Buffer[], sides: [] as number[], ids: [] as number[], peers: [] as Buffer[], timestamps: [] as number[], jsons: [] as string[], seqs: [] as number[] };
      const addCopy = (owner: string, side: number, id: number, peer: string, timestamp: number, json: string, seq: number) => {
        copies.owners.push(addressBytes(owner));
        copies.sides.push(side);
        copies.ids.push(id);
        copies.peers.push(addressBytes(peer));
        copies.timestamps.push(timestamp);
        copies.jsons.push(json);
        copies.seqs.push(seq);
      };
      // The JSON of each message created in this batch: a later entry with its digest answers it, as its stored copy.
      const createdJson = new Map<number, string>();
      const results = batch.map((entry, i): AppendResult | Error => {
        const row = rows[i]!;
        const id = row.stored_id;
        const message = entry.message;
        const seqs = { ...(row.sender_seq !== null && { sender: row.sender_seq }), ...(row.receiver_seq !== null && { receiver: row.receiver_seq }) };
        if (!row.created) {
          const json = row.stored_json ?? createdJson.get(id);
          if (json !== undefined) return { stored: { id, json }, created: false };
          try {
            return { stored: { id, json: messageJsonWithId(id, entry.tail ?? boundTail(message, seqs)) }, created: false };
          } catch (error) {
            return error instanceof Error ? error : new Error(String(error));
          }
        }
        // A new message's receipts: a signing failure fails the batch.
        const json = messageJsonWithId(id, entry.tail ?? boundTail(message, seqs));
        createdJson.set(id, json);
        const route = routeNumber(message);
        if (row.receiver_seq !== null) addCopy(message.to, route >= 3 ? SIDE.requests : SIDE.received, id, message.from, message.timestamp, json, row.receiver_seq);
        if (row.sender_seq !== null) addCopy(message.from, SIDE.sent, id, message.to, message.timestamp, json, row.sender_seq);
        return { stored: { id, json }, created: true };
      });
      // The notices go in the transaction: listeners (live/postgres-commits.ts) hear only of what committed.
      await client.query({
        name: "neutral_append_copies",
        text: INSERT_COPIES,
        values: [copies.owners, copies.sides, copies.ids, copies.peers, copies.timestamps, copies.jsons, copies.seqs, noticeChannel, messageNotices(batch.map((entry) => entry.message))],
      });
      await client.query("COMMIT");
      return results;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      release();
    }
  }

  /** `message`'s JSON tail with the receipts this node owes signed over the positions `seqs` of its copies. */
  function boundTail(message: AcceptedMessage, seqs: { sender?: number; receiver?: number }): string {
    // The cast: its JSDoc type has the sender receipt, which it signs when absent.
    return boundMessageTail(message as WireMessageFields, Buffer.from(message.digest).toString("hex"), seqs, sign);
  }


  const ensureOpen = () => {
    if (closed) throw new StoreClosedError();
  };

  // The channel of this node's commit notices: one per schema, as everything of a node is.
  let channel: Promise<string> | undefined;
  const commitChannel = () =>
    (channel ??= pool.query<{ schema: string }>("SELECT current_schema() AS schema").then(
      ({ rows }) => commitChannelOf(rows[0]!.schema),
      (error: unknown) => {
        channel = undefined;
        throw error;
      },
    ));

  const retention = new RetentionFloor(options.retentionMs ?? 0);
  /** The lowest id reads serve (store.ts `RetentionFloor`); `refresh` looks it up now. */
  async function servedFloor(refresh = false): Promise<number> {
    const current = refresh ? undefined : retention.current();
    if (current !== undefined) return current;
    const { from, cutoff } = retention.lookup();
    const { rows } = await pool.query<{ id: number | null; accepted_at: number | null; last_id: number }>({
      name: "neutral_retention_floor",
      text:
        "SELECT f.id, f.accepted_at, c.last_id FROM id_counter c " +
        "LEFT JOIN LATERAL (SELECT id, accepted_at FROM messages WHERE id >= $1 AND accepted_at >= $2 ORDER BY id LIMIT 1) f ON true",
      values: [from, cutoff],
    });
    const row = rows[0]!;
    return retention.found(row.id === null ? undefined : { id: row.id, acceptedAt: row.accepted_at! }, row.last_id);
  }

  async function storedNodeKey(): Promise<Uint8Array | undefined> {
    ensureOpen();
    const { rows } = await pool.query<{ private_key: Buffer }>("SELECT private_key FROM node_identity");
    return rows[0] && new Uint8Array(rows[0].private_key);
  }

  return {
    kind: "postgres",

    append(message) {
      if (closed) return Promise.reject(new StoreClosedError());
      const signs = signsReceipts(message);
      if (signs && sign === undefined) return Promise.reject(new Error("this PostgreSQL store cannot sign the message's receipts: it was not given the node's key (useReceiptKey)"));
      // Checked here, not in the batch: a new message whose JSON cannot be made fails its whole transaction.
      if (message.senderReceipt === undefined && message.route?.kind === "inbound") return Promise.reject(new Error("a message delivered from another node carries its sender receipt"));
      const tail = signs ? undefined : messageJsonTail(message as WireMessageFields);
      return new Promise<AppendResult>((resolve, reject) => {
        pending.push({ message, tail, resolve, reject });
        if (!inFlight && !flushScheduled) {
          flushScheduled = true;
          setImmediate(() => void flush());
        }
      });
    },

    async page(query: PageQuery) {
      ensureOpen();
      if (query.ranges.length === 0) return { messages: [], end: true };
      const since = query.since !== undefined;
      const until = query.until !== undefined;
      const positioned = query.withPositions === true;
      const key = `${query.ranges.map((range) => `${range.side}:${range.peer !== undefined}`).join(",")}:${since}:${until}:${query.order}:${positioned}`;
      let statement = statements.get(key);
      if (!statement) statements.set(key, (statement = pageStatement(query.ranges, since, until, query.order, positioned)));
      const read = query.lookahead === false ? query.limit : query.limit + 1;
      const values: unknown[] = [addressBytes(query.owner), Math.max(query.after ?? 0, (await servedFloor()) - 1), query.before ?? ID_CEILING, read];
      if (since) values.push(query.since);
      if (until) values.push(query.until);
      const maxScan = query.maxScan ?? DEFAULT_MAX_SCAN;
      if (since || until) values.push(maxScan - 1);
      for (const range of query.ranges) if (range.peer !== undefined) values.push(addressBytes(range.peer));
      if (statement.types !== undefined) {
        if (!positioned) return pageOfRanges(query, [{ rows: await pages.read<StoredMessage>(statement, values, query.order, read) }]);
        const rows = await pages.read<PositionedRow>(statement, values, query.order, read);
        return pageOfRanges(query, [{ rows: rows.map(positionedMessage) }]);
      }
      // With a time filter: a pooled connection of its own, as many as the pool holds, so pages that
      // scan up to --max-page-scan rows never hold back the cheap pages that share statements.
      const { rows } = await pool.query<{ r: number; id: number; json: string | null; seq?: number | null; side?: number | null }>({ name: statement.name, text: statement.text, values });
      const reads: RangeRead[] = query.ranges.map(() => ({ rows: [] }));
      for (const row of rows) {
        if (row.r < 100) reads[row.r]!.rows.push(positioned ? positionedMessage({ id: row.id, json: row.json!, seq: row.seq ?? null, side: row.side ?? null }) : { id: row.id, json: row.json! });
        else if (reads[row.r - 100]!.rows.length <= query.limit) reads[row.r - 100]!.stoppedAt = row.id;
      }
      // UNION ALL keeps no order of its own.
      for (const read of reads) read.rows.sort(query.order === "asc" ? (a, b) => a.id - b.id : (a, b) => b.id - a.id);
      return pageOfRanges(query, reads);
    },

    async migrated() {
      ensureOpen();
      const { rows } = await pool.query<{ v: number | null }>({ name: "neutral_schema_version", text: "SELECT max(version) AS v FROM schema_migrations" });
      return (rows[0]?.v ?? 0) >= latestSchemaVersion;
    },

    async footprint() {
      ensureOpen();
      // reltuples is the planner's estimate (-1 before the table's first ANALYZE: then the id counter, an upper bound).
      const { rows } = await pool.query<{ bytes: string | null; estimate: number | null; last_id: string }>({
        name: "neutral_footprint",
        text: `SELECT
            (SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()) AND c.relkind = 'r')::text AS bytes,
            (SELECT reltuples FROM pg_class WHERE oid = to_regclass('messages')) AS estimate,
            (SELECT last_id FROM id_counter)::text AS last_id`,
      });
      const row = rows[0];
      const estimate = row?.estimate ?? -1;
      return { bytes: Number(row?.bytes ?? 0), messages: estimate >= 0 ? Math.round(estimate) : Number(row?.last_id ?? 0) };
    },

    async latestPeer(owner) {
      ensureOpen();
      const { rows } = await pool.query<{ peer: Buffer }>({
        name: "neutral_latest_peer",
        text:
          "SELECT peer FROM ((SELECT id, peer FROM mailbox WHERE owner = $1 AND side = 1 AND id >= $2 ORDER BY id DESC LIMIT 1) " +
          "UNION ALL (SELECT id, peer FROM mailbox WHERE owner = $1 AND side = 2 AND id >= $2 ORDER BY id DESC LIMIT 1)) latest ORDER BY id DESC LIMIT 1",
        values: [addressBytes(owner), await servedFloor()],
      });
      return rows[0] && bytesHex(rows[0].peer);
    },

    async importMessages(owner, messages) {
      ensureOpen();
      const key = addressBytes(owner);
      const { client, release } = await checkout(pool);
      try {
        await client.query("BEGIN");
        // The id counter's lock, as every append takes it: ids commit in order (version 1's comment),
        // and the mailbox log's positions are handed out one writer at a time (version 7's).
        const counter = await client.query<{ last_id: number | string }>("SELECT last_id FROM id_counter WHERE singleton FOR UPDATE");
        let lastId = Number(counter.rows[0]!.last_id);
        const imported: (StoredMessage & { created: boolean })[] = [];
        for (const { fields, digest } of messages) {
          const [from, to] = [addressBytes(fields.from), addressBytes(fields.to)];
          const known = await client.query<{ id: number }>("SELECT id FROM messages WHERE digest = $1", [Buffer.from(digest)]);
          let id = known.rows[0]?.id;
          if (id === undefined) {
            id = ++lastId;
            await client.query("INSERT INTO messages (id, digest, sender, accepted_at, recipient) VALUES ($1, $2, $3, $4, $5)", [id, Buffer.from(digest), from, Date.now(), to]);
            if (fields.expires !== undefined) await client.query("INSERT INTO message_expiry (id, expires) VALUES ($1, $2)", [id, fields.expires]);
          }
          const json = messageJsonWithId(id, messageJsonTail(fields));
          let answer: string | undefined;
          let created = false;
          // The owner's copy on each side it is a party to, unless it has one (then that one answers).
          for (const [party, peer, sides, side] of [[to, from, [1, 3], 1], [from, to, [2], 2]] as const) {
            if (!party.equals(key)) continue;
            const held = await client.query<{ json: string }>("SELECT json FROM mailbox WHERE owner = $1 AND side = ANY($2::smallint[]) AND id = $3 LIMIT 1", [key, sides, id]);
            if (held.rows[0] === undefined) {
              // With its position, the owner's next (under the id counter's lock, as appends: version 7's
              // comment). Its role is its side: an import's received copies go to the inbox (side 1).
              await client.query(
                "INSERT INTO mailbox (owner, side, id, peer, ts, json, seq) VALUES ($1, $2, $3, $4, $5, $6, neutral_log_position($1, $3, $2, $4, $7))",
                [key, side, id, peer, fields.timestamp, json, Buffer.from(digest)],
              );
              created = true;
            }
            answer ??= held.rows[0]?.json ?? json;
          }
          imported.push({ id, json: answer ?? json, created });
        }
        await client.query("UPDATE id_counter SET last_id = $1 WHERE singleton", [lastId]);
        // Streams of the owner's mailbox hear of it once it has committed (live/postgres-commits.ts).
        for (const notice of messageNotices([{ from: owner, to: owner }])) await client.query("SELECT pg_notify($1, $2)", [await commitChannel(), notice]);
        await client.query("COMMIT");
        return imported;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        release();
      }
    },

    async log(owner, from, limit, options) {
      ensureOpen();
      // Why each gone copy went (migrations 8, 10): below the retention's floor (the sweep's, or the
      // lowest id reads serve now) by the retention. With the messages, each copy's JSON.
      const messages = options?.messages === true;
      const { rows } = await pool.query<LogRow>({
        name: messages ? "neutral_log_messages" : "neutral_log",
        text:
          "SELECT l.seq, l.id, l.role, l.leaf_hash AS leaf, q.request AS deletion, e.sender AS expired_from, e.recipient AS expired_to, e.ts AS expired_ts, e.expires, e.message_hash, " +
          "l.id < $4 AS unserved, l.id < coalesce((SELECT below FROM retention_floor), 0) AS swept, (SELECT retention_seconds FROM retention_floor) AS floor_retention" +
          (messages ? ", (SELECT b.json FROM mailbox b WHERE b.owner = l.owner AND b.side IN (1, 2, 3) AND b.id = l.id AND b.seq = l.seq) AS json" : "") +
          " FROM mailbox_log l LEFT JOIN log_removals r ON r.owner = l.owner AND r.seq = l.seq LEFT JOIN deletion_requests q ON q.n = r.request " +
          "LEFT JOIN expired_messages e ON e.id = l.id WHERE l.owner = $1 AND l.seq >= $2 ORDER BY l.seq LIMIT $3",
        values: [addressBytes(owner), from, limit, await servedFloor()],
      });
      return rows.map((row) => logEntryOf(row, retention.retentionSeconds));
    },

    async logSize(owner) {
      ensureOpen();
      // Positions have no gap: the last one is the count.
      const { rows } = await pool.query<{ size: number | null }>({
        name: "neutral_log_size",
        text: "SELECT max(seq) AS size FROM mailbox_log WHERE owner = $1",
        values: [addressBytes(owner)],
      });
      return rows[0]?.size ?? 0;
    },

    async positions(owner, ids) {
      ensureOpen();
      if (ids.length === 0) return [];
      // Through the copies' own `seq` (a deleted copy has none to find), in the order asked; of a
      // message to oneself, the received copy first.
      const { rows } = await pool.query<LogRow>({
        name: "neutral_positions",
        text:
          "SELECT l.seq, l.id, l.role, l.leaf_hash AS leaf FROM unnest($2::bigint[]) WITH ORDINALITY AS q(id, n) " +
          "JOIN mailbox b ON b.owner = $1 AND b.side IN (1, 2, 3) AND b.id = q.id " +
          "JOIN mailbox_log l ON l.owner = $1 AND l.seq = b.seq ORDER BY q.n, b.side = 2",
        values: [addressBytes(owner), [...ids]],
      });
      return rows.map(logEntryOf);
    },

    async logTiles(owner, level, from, to) {
      ensureOpen();
      const { rows } = await pool.query<{ idx: number | string; hash: Buffer }>({
        name: "neutral_log_tiles",
        text: "SELECT idx, hash FROM log_tiles WHERE owner = $1 AND level = $2 AND idx >= $3 AND idx < $4 ORDER BY idx",
        values: [addressBytes(owner), level, from, to],
      });
      return rows.map((row) => ({ index: Number(row.idx), hash: row.hash }));
    },

    async logLeaves(owner, from, count) {
      ensureOpen();
      const { rows } = await pool.query<{ leaf_hash: Buffer }>({
        name: "neutral_log_leaves",
        text: "SELECT leaf_hash FROM mailbox_log WHERE owner = $1 AND seq >= $2 ORDER BY seq LIMIT $3",
        values: [addressBytes(owner), from, count],
      });
      return rows.map((row) => row.leaf_hash);
    },

    async deleteMessages(owner, ids, request, seqs) {
      ensureOpen();
      // One statement: nothing is deleted when one of them is still pending delivery. Every copy
      // here has its own JSON, so the other party's copy needs nothing. The account's request is
      // kept once for the positions of the copies it removed (schema version 8).
      const { rows } = await pool.query<{ pending: (number | string)[] | null }>({
        name: "neutral_delete_messages",
        text:
          "WITH pending AS (SELECT id FROM outbox WHERE sender = $1 AND id = ANY($2::bigint[])), " +
          "gone AS (DELETE FROM mailbox WHERE owner = $1 AND side IN (1, 2, 3) AND id = ANY($2::bigint[]) AND ($4::bigint[] IS NULL OR seq = ANY($4::bigint[])) " +
          "AND NOT EXISTS (SELECT 1 FROM pending) RETURNING id, seq), " +
          "kept AS (INSERT INTO deletion_requests (request) SELECT $3::text WHERE $3::text IS NOT NULL AND EXISTS (SELECT 1 FROM gone) RETURNING n), " +
          "reasons AS (INSERT INTO log_removals (owner, seq, request) SELECT $1, gone.seq, kept.n FROM gone, kept ON CONFLICT DO NOTHING) " +
          "SELECT (SELECT array_agg(id ORDER BY id) FROM pending) AS pending, (SELECT count(*) FROM gone) AS deleted",
        values: [addressBytes(owner), [...ids], request ?? null, seqs === undefined ? null : [...seqs]],
      });
      // bigint[] comes as strings (the int8 parser is for scalars).
      return { pending: (rows[0]?.pending ?? []).map(Number) };
    },

    async sweepExpired(limit) {
      ensureOpen();
      if (retention.retentionMs <= 0) return 0;
      const below = await servedFloor(true);
      // What could still arrive again keeps its digest (migration 6); what can no longer is forgotten.
      // Every CTE reads the statement's snapshot: `remembered` sees the rows `swept` deletes.
      const { rows } = await pool.query<{ swept: number }>({
        name: "neutral_sweep",
        text:
          "WITH doomed AS (SELECT id, sender, recipient, digest, accepted_at FROM messages WHERE id < $1 ORDER BY id LIMIT $2), " +
          "remembered AS (INSERT INTO swept_digests (digest, id, accepted_at) SELECT digest, id, accepted_at FROM doomed WHERE accepted_at >= $3 ON CONFLICT (digest) DO NOTHING), " +
          "forgotten AS (DELETE FROM swept_digests WHERE accepted_at < $3), " +
          // The log says the positions below the floor went by the retention (migration 10).
          // With the least retention it was raised under (migration 14); unknown (NULL) stays unknown.
          "floor AS (INSERT INTO retention_floor (n, below, retention_seconds) SELECT 1, max(id) + 1, $4::bigint FROM doomed HAVING count(*) > 0 " +
          "ON CONFLICT (n) DO UPDATE SET below = greatest(retention_floor.below, excluded.below), " +
          "retention_seconds = CASE WHEN retention_floor.retention_seconds IS NULL THEN NULL ELSE least(retention_floor.retention_seconds, excluded.retention_seconds) END), " +
          PURGE_DOOMED("doomed"),
        values: [below, limit, Date.now() - (options.sweptDigestsMs ?? DEFAULT_SWEPT_DIGESTS_MS), retention.retentionSeconds],
      });
      return rows[0]?.swept ?? 0;
    },

    async sweepSenderExpired(limit, now) {
      ensureOpen();
      // As the retention sweep, over the messages whose sender-set end is due (through its index),
      // in one transaction with what the log keeps of each (migration 10): read first, from one of
      // its copies' JSON (PostgreSQL has no keccak-256), and locked, so that two replicas sweeping
      // at once take different messages.
      const { client, release } = await checkout(pool);
      try {
        await client.query("BEGIN");
        const due = await client.query<{ id: number | string; sender: Buffer; recipient: Buffer | null; json: string | null }>({
          name: "neutral_sender_expired_due",
          text:
            "SELECT e.id, m.sender, m.recipient, (SELECT b.json FROM mailbox b WHERE b.id = m.id AND b.owner IN (m.recipient, m.sender) AND b.side IN (1, 2, 3) LIMIT 1) AS json " +
            "FROM message_expiry e JOIN messages m ON m.id = e.id WHERE e.expires <= $1 ORDER BY e.expires LIMIT $2 FOR UPDATE OF e SKIP LOCKED",
          values: [now, limit],
        });
        if (due.rows.length === 0) {
          await client.query("COMMIT");
          return 0;
        }
        const kept = due.rows.flatMap(({ id, sender, recipient, json }) => (json === null || recipient === null ? [] : [{ id, sender, recipient, ...expiredMessageOf(json) }]));
        const { rows } = await client.query<{ swept: number }>({
          name: "neutral_sweep_sender_expired",
          text:
            "WITH due AS (SELECT unnest($1::bigint[]) AS id), " +
            "kept AS (INSERT INTO expired_messages (id, sender, recipient, ts, expires, message_hash) " +
            "SELECT * FROM unnest($2::bigint[], $3::bytea[], $4::bytea[], $5::bigint[], $6::bigint[], $7::bytea[]) ON CONFLICT DO NOTHING), " +
            "doomed AS (SELECT m.id, m.sender, m.recipient FROM due JOIN messages m ON m.id = due.id), " +
            PURGE_DOOMED("due"),
          values: [
            due.rows.map(({ id }) => id),
            kept.map(({ id }) => id),
            kept.map(({ sender }) => sender),
            kept.map(({ recipient }) => recipient),
            kept.map(({ timestamp }) => timestamp),
            kept.map(({ expires }) => expires),
            kept.map(({ messageHash }) => messageHash),
          ],
        });
        await client.query("COMMIT");
        return rows[0]?.swept ?? 0;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        release();
      }
    },

    async putConsent(account, records, policy) {
      ensureOpen();
      const key = addressBytes(account);
      const { client, release } = await checkout(pool);
      try {
        await client.query("BEGIN");
        for (const record of records) {
          await client.query(
            "INSERT INTO consent (account, peer, state, ts, signature) VALUES ($1, $2, $3, $4, $5) " +
              "ON CONFLICT (account, peer) DO UPDATE SET state = excluded.state, ts = excluded.ts, signature = excluded.signature WHERE excluded.ts > consent.ts",
            [key, addressBytes(record.peer), CONSENT_STATE[record.state], record.timestamp, hexBytes(record.signature, 65)],
          );
        }
        if (policy) {
          await client.query(
            "INSERT INTO consent_policy (account, mode, ts, signature) VALUES ($1, $2, $3, $4) " +
              "ON CONFLICT (account) DO UPDATE SET mode = excluded.mode, ts = excluded.ts, signature = excluded.signature WHERE excluded.ts > consent_policy.ts",
            [key, CONSENT_MODE[policy.mode], policy.timestamp, hexBytes(policy.signature, 65)],
          );
        }
        const rows = (await client.query<ConsentRow>("SELECT peer, state, ts, signature FROM consent WHERE account = $1 AND peer = ANY($2::bytea[])", [key, records.map((record) => addressBytes(record.peer))])).rows;
        const current = (await client.query<PolicyRow>("SELECT mode, ts, signature FROM consent_policy WHERE account = $1", [key])).rows[0];
        await client.query("COMMIT");
        const byPeer = new Map(rows.map((row) => [bytesHex(row.peer), row]));
        return {
          ...(current && { policy: consentPolicyOf(account, current) }),
          records: records.map((record) => consentRecordOf(account, byPeer.get(record.peer)!)),
        };
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        release();
      }
    },

    async consentList(account, after, limit) {
      ensureOpen();
      const key = addressBytes(account);
      const [{ rows }, policy] = await Promise.all([
        pool.query<ConsentRow>({
          name: "neutral_consent_page",
          text: "SELECT peer, state, ts, signature FROM consent WHERE account = $1 AND peer > $2 AND state <> 0 ORDER BY peer LIMIT $3",
          values: [key, after === undefined ? Buffer.alloc(0) : addressBytes(after), limit + 1],
        }),
        pool.query<PolicyRow>({ name: "neutral_consent_policy", text: "SELECT mode, ts, signature FROM consent_policy WHERE account = $1", values: [key] }),
      ]);
      const current = policy.rows[0];
      return { ...(current && { policy: consentPolicyOf(account, current) }), records: rows.slice(0, limit).map((row) => consentRecordOf(account, row)), end: rows.length <= limit };
    },

    async consentFor(recipient, sender) {
      ensureOpen();
      const { rows } = await pool.query<{ state: number | null; mode: number | null; replied: boolean }>({
        name: "neutral_consent_verdict",
        text:
          "SELECT c.state, p.mode, CASE WHEN p.mode = 2 THEN EXISTS (SELECT 1 FROM mailbox WHERE owner = $1 AND side = 2 AND peer = $2) ELSE false END AS replied " +
          "FROM (SELECT 1) one LEFT JOIN consent c ON c.account = $1 AND c.peer = $2 LEFT JOIN consent_policy p ON p.account = $1",
        values: [addressBytes(recipient), addressBytes(sender)],
      });
      return consentVerdictOf(rows[0]!);
    },

    async putKeyBundle(bundle) {
      ensureOpen();
      const account = bundle.account.toLowerCase();
      // The upsert replaces only a bundle this one supersedes (@neutral/protocol: the greater
      // timestamp, then the greater signature; bytea compares as bytes). When it changes nothing, the current row is read
      // by a second statement: its snapshot is newer than a concurrent publish the upsert waited for.
      const key = addressBytes(account);
      const put = await pool.query<KeyBundleRow>({
        name: "neutral_put_key_bundle",
        text:
          "INSERT INTO key_bundles (account, key, ts, signature, updated_at) VALUES ($1, $2, $3, $4, $5) " +
          "ON CONFLICT (account) DO UPDATE SET key = excluded.key, ts = excluded.ts, signature = excluded.signature, updated_at = excluded.updated_at " +
          "WHERE (excluded.ts, excluded.signature) > (key_bundles.ts, key_bundles.signature) RETURNING key, ts, signature",
        values: [key, hexBytes(bundle.key, 32), bundle.timestamp, hexBytes(bundle.signature, 65), Date.now()],
      });
      const rows = put.rows.length > 0 ? put.rows : (await pool.query<KeyBundleRow>({ name: "neutral_get_key_bundle", text: SELECT_KEY_BUNDLE, values: [key] })).rows;
      if (rows[0] === undefined) throw new Error("key bundle upsert returned no row");
      return keyBundleOf(account, rows[0]);
    },

    async getKeyBundle(account) {
      ensureOpen();
      const { rows } = await pool.query<KeyBundleRow>({
        name: "neutral_get_key_bundle",
        text: SELECT_KEY_BUNDLE,
        values: [addressBytes(account)],
      });
      return rows[0] && keyBundleOf(account.toLowerCase(), rows[0]);
    },

    storedNodeKey,

    useReceiptKey(privateKey) {
      if (receiptKey !== undefined) {
        if (!receiptKey.equals(privateKey)) throw new Error("this store signs its receipts with another key");
        return;
      }
      receiptKey = Buffer.from(privateKey);
      sign = digestSigner(privateKey);
    },

    async nodeKey(generate) {
      const stored = await storedNodeKey();
      if (stored) return { privateKey: stored, created: false };
      const inserted = await pool.query<{ private_key: Buffer }>(
        "INSERT INTO node_identity (singleton, private_key, created_at) VALUES (true, $1, $2) ON CONFLICT (singleton) DO NOTHING RETURNING private_key",
        [Buffer.from(generate()), Date.now()],
      );
      if (inserted.rows[0]) return { privateKey: new Uint8Array(inserted.rows[0].private_key), created: true };
      const winner = await storedNodeKey(); // another replica stored one first
      if (!winner) throw new Error("node_identity is empty after an insert conflict");
      return { privateKey: winner, created: false };
    },

    async putHomeRecord(record) {
      ensureOpen();
      const account = record.account.toLowerCase();
      const key = addressBytes(account);
      // As putKeyBundle: the upsert replaces only an older record; otherwise the current one is read.
      const put = await pool.query<HomeRow>({
        name: "neutral_put_home",
        text:
          "INSERT INTO home_records (account, node, ts, signature, updated_at) VALUES ($1, $2, $3, $4, $5) " +
          "ON CONFLICT (account) DO UPDATE SET node = excluded.node, ts = excluded.ts, signature = excluded.signature, updated_at = excluded.updated_at " +
          "WHERE (excluded.ts, excluded.signature) > (home_records.ts, home_records.signature) RETURNING node, ts, signature",
        values: [key, addressBytes(record.node), record.timestamp, hexBytes(record.signature, 65), Date.now()],
      });
      const rows = put.rows.length > 0 ? put.rows : (await pool.query<HomeRow>({ name: "neutral_get_home", text: SELECT_HOME, values: [key] })).rows;
      if (rows[0] === undefined) throw new Error("home record upsert returned no row");
      return homeRecordOf(account, rows[0]);
    },

    async putHomeRecords(records) {
      ensureOpen();
      if (records.length === 0) return [];
      // One statement over arrays (one transaction). Of one account's records only the one that
      // supersedes the others can win, and an upsert may touch each row once: the rest are left out.
      const newest = new Map<string, StoredHomeRecord>();
      for (const record of records) {
        const account = record.account.toLowerCase();
        if (supersedes(record, newest.get(account))) newest.set(account, record);
      }
      const chosen = [...newest.entries()];
      await pool.query({
        name: "neutral_put_homes",
        text:
          "INSERT INTO home_records (account, node, ts, signature, updated_at) " +
          "SELECT account, node, ts, signature, $5 FROM unnest($1::bytea[], $2::bytea[], $3::bigint[], $4::bytea[]) AS r (account, node, ts, signature) " +
          "ON CONFLICT (account) DO UPDATE SET node = excluded.node, ts = excluded.ts, signature = excluded.signature, updated_at = excluded.updated_at " +
          "WHERE (excluded.ts, excluded.signature) > (home_records.ts, home_records.signature)",
        values: [
          chosen.map(([account]) => addressBytes(account)),
          chosen.map(([, record]) => addressBytes(record.node)),
          chosen.map(([, record]) => record.timestamp),
          chosen.map(([, record]) => hexBytes(record.signature, 65)),
          Date.now(),
        ],
      });
      const { rows } = await pool.query<HomeRow & { account: Buffer }>({
        name: "neutral_get_homes",
        text: "SELECT account, node, ts, signature FROM home_records WHERE account = ANY($1::bytea[])",
        values: [chosen.map(([account]) => addressBytes(account))],
      });
      const current = new Map(rows.map((row) => [bytesHex(row.account), row]));
      return records.map((record) => {
        const account = record.account.toLowerCase();
        const row = current.get(account);
        if (row === undefined) throw new Error("home record upsert left no row");
        return homeRecordOf(account, row);
      });
    },

    async messageRecord(id) {
      ensureOpen();
      // The message's own row has no timestamp here (its copies do): the one of any copy left.
      const { rows } = await pool.query<{ sender: Buffer; recipient: Buffer | null; ts: number | string | null; digest: Buffer }>({
        name: "neutral_message_record",
        text: "SELECT m.sender, m.recipient, m.digest, (SELECT b.ts FROM mailbox b WHERE b.owner IN (m.recipient, m.sender) AND b.side IN (1, 2, 3) AND b.id = m.id LIMIT 1) AS ts FROM messages m WHERE m.id = $1",
        values: [id],
      });
      const row = rows[0];
      return row && row.recipient !== null && row.ts !== null ? { id, from: bytesHex(row.sender), to: bytesHex(row.recipient), timestamp: Number(row.ts), digest: bytesHex(row.digest) } : undefined;
    },

    async messageIdOf(timestamp, digest) {
      ensureOpen();
      const { rows } = await pool.query<{ id: number | string }>({
        // The digest is unique here, and covers the timestamp: the timestamp only checks it.
        name: "neutral_message_id_of",
        text: "SELECT m.id FROM messages m WHERE m.digest = $1 AND EXISTS (SELECT 1 FROM mailbox b WHERE b.owner IN (m.recipient, m.sender) AND b.side IN (1, 2, 3) AND b.id = m.id AND b.ts = $2)",
        values: [hexBytes(digest, 32), timestamp],
      });
      return rows[0] === undefined ? undefined : Number(rows[0].id);
    },

    async putPriorHead(account, node, size, head, limit) {
      ensureOpen();
      // One statement: a node already kept, or room for another. (Two imports racing for the last
      // places may keep one more; getLog answers the first `limit`.)
      const { rows } = await pool.query<{ ok: boolean }>({
        name: "neutral_put_prior_head",
        text:
          "WITH kept AS (SELECT count(*)::int AS n, bool_or(node = $2) AS known FROM prior_heads WHERE account = $1), " +
          "put AS (INSERT INTO prior_heads (account, node, size, n, head) SELECT $1, $2, $3, kept.n, $4 FROM kept WHERE kept.known OR kept.n < $5 " +
          "ON CONFLICT (account, node) DO UPDATE SET size = excluded.size, head = excluded.head WHERE excluded.size > prior_heads.size RETURNING 1) " +
          "SELECT coalesce(kept.known, false) OR kept.n < $5 AS ok FROM kept",
        values: [addressBytes(account), addressBytes(node), size, head, limit],
      });
      return rows[0]?.ok ? "kept" : "full";
    },

    async priorHeads(account) {
      ensureOpen();
      const { rows } = await pool.query<{ head: string }>({
        name: "neutral_prior_heads",
        text: "SELECT head FROM prior_heads WHERE account = $1 ORDER BY n, node",
        values: [addressBytes(account)],
      });
      return rows.map((row) => row.head);
    },

    async getHomeRecord(account) {
      ensureOpen();
      const { rows } = await pool.query<HomeRow>({ name: "neutral_get_home", text: SELECT_HOME, values: [addressBytes(account)] });
      return rows[0] && homeRecordOf(account.toLowerCase(), rows[0]);
    },

    async pinPeer(url, address) {
      ensureOpen();
      await pool.query("INSERT INTO peer_pins (url, address, pinned_at) VALUES ($1, $2, $3) ON CONFLICT (url) DO NOTHING", [url, addressBytes(address), Date.now()]);
      const { rows } = await pool.query<{ address: Buffer }>("SELECT address FROM peer_pins WHERE url = $1", [url]);
      if (!rows[0]) throw new Error("peer pin insert left no row");
      return bytesHex(rows[0].address);
    },

    async peerPins() {
      ensureOpen();
      const { rows } = await pool.query<{ url: string; address: Buffer }>("SELECT url, address FROM peer_pins");
      return new Map(rows.map((row) => [row.url, bytesHex(row.address)]));
    },

    async outboxDestinations() {
      ensureOpen();
      const { rows } = await pool.query<DestinationRow>(OUTBOX_DESTINATIONS_SQL);
      return rows.map(outboxDestinationOf);
    },

    async outboxEntries(destination, limit, afterId = 0, lane) {
      ensureOpen();
      const { rows } = await pool.query<OutboxRow>(
        `SELECT ${OUTBOX_COLUMNS} FROM outbox o WHERE o.destination = $1 AND o.id > $3${lane === undefined ? "" : " AND o.lane = $4"} ORDER BY o.id LIMIT $2`,
        [addressBytes(destination), limit, afterId, ...(lane === undefined ? [] : [lane])],
      );
      return rows.map(outboxEntryOf);
    },

    async expiredOutboxEntries(createdBefore, limit) {
      ensureOpen();
      const { rows } = await pool.query<OutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM outbox o WHERE o.created_at < $1 ORDER BY o.id LIMIT $2`, [createdBefore, limit]);
      return rows.map(outboxEntryOf);
    },

    async settleDeliveries(settled) {
      ensureOpen();
      if (settled.length === 0) return;
      // One statement, one transaction: only entries still in the outbox are settled (a late
      // second settlement of one message leaves the first).
      // With the commit notices of the status changes (live/postgres-commits.ts), in the same transaction.
      await pool.query(
        `WITH settled AS (SELECT * FROM unnest($1::bigint[], $2::bytea[], $3::text[]) AS s(id, sender, json)),
              gone AS (DELETE FROM outbox o USING settled s WHERE o.id = s.id RETURNING o.id),
              notified AS (SELECT count(pg_notify($4, notice)) AS sent FROM unnest($5::text[]) AS notice)
         UPDATE mailbox m SET json = s.json FROM settled s JOIN gone g ON g.id = s.id CROSS JOIN notified n
          WHERE m.owner = s.sender AND m.side = ${SIDE.sent} AND m.id = s.id AND n.sent >= 0`,
        [
          settled.map((entry) => entry.id),
          settled.map((entry) => addressBytes(entry.sender)),
          settled.map((entry) => entry.json),
          await commitChannel(),
          statusNotices(settled),
        ],
      );
    },

    async redirectOutbox(ids, destination) {
      ensureOpen();
      if (ids.length > 0) await pool.query("UPDATE outbox SET destination = $1 WHERE id = ANY($2::bigint[])", [addressBytes(destination), [...ids]]);
    },

    async setDestinationState(node, state) {
      ensureOpen();
      if (state === undefined) await pool.query("DELETE FROM destinations WHERE node = $1", [addressBytes(node)]);
      else {
        await pool.query(
          "INSERT INTO destinations (node, failures, next_attempt_at, last_error) VALUES ($1, $2, $3, $4) " +
            "ON CONFLICT (node) DO UPDATE SET failures = excluded.failures, next_attempt_at = excluded.next_attempt_at, last_error = excluded.last_error",
          [addressBytes(node), state.failures, state.nextAttemptAt, state.lastError],
        );
      }
    },

    async sentMessage(owner, id) {
      ensureOpen();
      const { rows } = await pool.query<{ json: string }>({
        name: "neutral_sent_message",
        text: `SELECT json FROM mailbox WHERE owner = $1 AND side = ${SIDE.sent} AND id = $2`,
        values: [addressBytes(owner), id],
      });
      return rows[0]?.json || undefined;
    },

    async leadDeliveries() {
      ensureOpen();
      // A connection of its own, outside the pool: the lock lives as long as this session.
      const client = new pg.Client({ connectionString: options.url, application_name: "neutral-relay-outbox", connectionTimeoutMillis: 10_000, keepAlive: true });
      let lost: () => void = () => {};
      const whenLost = new Promise<void>((resolve) => (lost = resolve));
      client.on("error", () => lost());
      client.on("end", () => lost());
      try {
        await client.connect();
        const { rows } = await client.query<{ locked: boolean }>(DELIVERY_LOCK);
        if (rows[0]?.locked !== true) {
          await client.end();
          return undefined;
        }
      } catch {
        await client.end().catch(() => {});
        return undefined;
      }
      return {
        lost: whenLost,
        release: async () => {
          await client.end().catch(() => {});
        },
      };
    },

    close() {
      closing ??= (async () => {
        closed = true;
        if (inFlight || pending.length > 0) {
          const idle = new Promise<void>((resolve) => whenIdle.push(resolve));
          void flush();
          await idle;
        }
        await pool.end();
      })();
      return closing;
    },
  };
}
