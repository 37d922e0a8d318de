// How both backends store hex fields: as raw bytes (BLOB / bytea), half the size of the text.
import { MAILBOX_ROLE_BYTE, type MailboxRole } from "@neutral/protocol";
import { keccak256 } from "../crypto/keccak.js";
import type { ConsentVerdict, LogEntry, OutboxDestination, OutboxEntry, StoredConsentPolicy, StoredConsentRecord, StoredHomeRecord, StoredKeyBundle } from "./store.js";

/**
 * `mailbox.side`: which copy of a message a row is, the same numbers in both backends. (Their
 * migrations are history and keep the literals they were written with.)
 */
export const SIDE = { received: 1, sent: 2, requests: 3 } as const;

/** `consent.state` and `consent_policy.mode`, the same numbers in both backends. */
export const CONSENT_STATE = { none: 0, allowed: 1, blocked: 2 } as const;
export const CONSENT_MODE = { open: 1, "allowed-only": 2 } as const;

/** A `mailbox_log` row (same columns in both backends): `role` is the leaf's role byte (@neutral/protocol `MAILBOX_ROLE_BYTE`). */
export interface LogRow {
  seq: number;
  id: number;
  role: number;
  leaf: Buffer;
  /** The account's signed request that deleted the position's copy, as JSON (`log` only; schema version 12). */
  deletion?: string | null;
  /** What the expiry sweep kept of the message (`log` only; schema version 13): its parties, timestamp, end and body's keccak-256. */
  expired_from?: Buffer | null;
  expired_to?: Buffer | null;
  expired_ts?: number | string | null;
  expires?: number | string | null;
  message_hash?: Buffer | null;
  /** Whether the position's message is below the retention sweep's floor (`log` only; schema version 13). */
  swept?: number | boolean | null;
  /** Whether it is below the lowest id reads serve now, by the retention in force (`log` only). */
  unserved?: number | boolean | null;
  /** The retention the sweep's floor was raised under, seconds; null where not recorded (`log` only; SQLite schema 16, PostgreSQL 14). */
  floor_retention?: number | string | null;
  /** The copy's JSON as reads serve it (`log` with messages only), null once it is gone. */
  json?: string | null;
}

const ROLE_OF_BYTE = new Map(Object.entries(MAILBOX_ROLE_BYTE).map(([role, byte]) => [byte, role as MailboxRole]));

/** A `mailbox_log` row → a log entry. */
export function logEntryOf(row: LogRow, retentionSeconds = 0): LogEntry {
  const role = ROLE_OF_BYTE.get(row.role);
  if (role === undefined) throw new Error(`a stored log position has the unknown role ${row.role}`);
  const entry: LogEntry = { seq: Number(row.seq), id: Number(row.id), role, leafHash: bytesHex(row.leaf) };
  const removal = removalOf(row, retentionSeconds);
  if (removal !== undefined) entry.removal = removal;
  else if (typeof row.json === "string" && row.json !== "") entry.json = row.json;
  return entry;
}

/**
 * Why a position's copy is gone, most telling first: its account's request, its sender's end, the
 * retention (`retentionSeconds`: the one in force now, 0 for none).
 */
function removalOf(row: LogRow, retentionSeconds: number): LogEntry["removal"] {
  if (typeof row.deletion === "string") return { reason: "deleted", request: row.deletion };
  if (row.message_hash != null && row.expired_from != null && row.expired_to != null && row.expired_ts != null && row.expires != null) {
    const [from, to, messageHash] = [bytesHex(row.expired_from), bytesHex(row.expired_to), bytesHex(row.message_hash)];
    return { reason: "expired", from, to, timestamp: Number(row.expired_ts), expires: Number(row.expires), messageHash };
  }
  const swept = row.swept === 1 || row.swept === true;
  const unserved = row.unserved === 1 || row.unserved === true;
  if (!swept && !unserved) return undefined;
  const stated = retentionApplied(swept, unserved, row.floor_retention, retentionSeconds);
  return stated === undefined ? { reason: "retention" } : { reason: "retention", retentionSeconds: stated };
}

/**
 * The retention a position's removal states (openrpc.json `LogRetention.retentionSeconds`): never
 * more than the one that removed it, or a client holding an earlier head could show its removal
 * came too soon. Swept: the least the sweep's floor was raised under (unknown where a store of before
 * the record raised it: then none), and no more than the retention in force if that one hides it
 * too. Only no longer served: the retention in force.
 */
function retentionApplied(swept: boolean, unserved: boolean, floorRetention: LogRow["floor_retention"], retentionSeconds: number): number | undefined {
  const current = retentionSeconds > 0 ? retentionSeconds : undefined;
  if (!swept) return current;
  if (floorRetention === null || floorRetention === undefined) return undefined;
  return unserved && current !== undefined ? Math.min(Number(floorRetention), current) : Number(floorRetention);
}

/**
 * What the log keeps of a message its sender's end removed (openrpc.json `ExpiredMessage`), from a
 * copy's stored JSON: its timestamp, its end and its body's keccak-256. (The SQLite writer thread,
 * plain JavaScript, does the same in sqlite-append-batch.js `keepExpired`.)
 */
export function expiredMessageOf(json: string): { timestamp: number; expires: number; messageHash: Buffer } {
  const { message, timestamp, expires } = JSON.parse(json) as { message: string; timestamp: number; expires: number };
  return { timestamp, expires, messageHash: Buffer.from(keccak256(Buffer.from(message, "hex"))) };
}

/** A lowercase `0x` address → its 20 bytes. */
export const addressBytes = (address: string): Buffer => Buffer.from(address.slice(2), "hex");

/** Stored bytes → `0x` + lowercase hex. */
export const bytesHex = (bytes: Buffer): string => `0x${bytes.toString("hex")}`;

/** `0x`-prefixed hex of exactly `length` bytes → the bytes. */
export function hexBytes(hex: string, length: number): Buffer {
  const bytes = Buffer.from(hex.slice(2), "hex");
  if (!hex.startsWith("0x") || bytes.length !== length || hex.length !== 2 + 2 * length) throw new Error(`expected 0x and ${length} bytes of hex`);
  return bytes;
}

/** A `consent` row (same columns in both backends). */
export interface ConsentRow {
  peer: Buffer;
  state: number;
  ts: number;
  signature: Buffer;
}

/** A `consent_policy` row. */
export interface PolicyRow {
  mode: number;
  ts: number;
  signature: Buffer;
}

const STATE_NAMES = ["none", "allowed", "blocked"] as const;
const MODE_NAMES = { 1: "open", 2: "allowed-only" } as const;

export const consentRecordOf = (account: string, row: ConsentRow): StoredConsentRecord => ({
  account,
  peer: bytesHex(row.peer),
  state: STATE_NAMES[row.state] ?? "none",
  timestamp: row.ts,
  signature: bytesHex(row.signature),
});

export const consentPolicyOf = (account: string, row: PolicyRow): StoredConsentPolicy => ({
  account,
  mode: MODE_NAMES[row.mode as 1 | 2] ?? "open",
  timestamp: row.ts,
  signature: bytesHex(row.signature),
});

/** The verdict query's row (both backends) → what the recipient decided. */
export const consentVerdictOf = (row: { state: number | null; mode: number | null; replied: number | boolean }): ConsentVerdict => ({
  state: STATE_NAMES[row.state ?? 0] ?? "none",
  mode: row.mode === CONSENT_MODE["allowed-only"] ? "allowed-only" : "open",
  replied: row.replied === true || row.replied === 1,
});

/** A `key_bundles` row (same columns in both backends). */
export interface KeyBundleRow {
  key: Buffer;
  ts: number;
  signature: Buffer;
}

/** A `key_bundles` row of `account` (lowercase 0x) → the bundle in wire form. */
export const keyBundleOf = (account: string, row: KeyBundleRow): StoredKeyBundle => ({
  account,
  key: bytesHex(row.key),
  timestamp: row.ts,
  signature: bytesHex(row.signature),
});

/** A `home_records` row (same columns in both backends). */
export interface HomeRow {
  node: Buffer;
  ts: number;
  signature: Buffer;
}

/** A `home_records` row of `account` (lowercase 0x) → the record in wire form. */
export const homeRecordOf = (account: string, row: HomeRow): StoredHomeRecord => ({
  account,
  node: bytesHex(row.node),
  timestamp: row.ts,
  signature: bytesHex(row.signature),
});

/** An `outbox` row joined with its sent message's JSON and digest (both backends select these columns). */
export interface OutboxRow {
  id: number;
  destination: Buffer;
  sender: Buffer;
  created_at: number;
  json: string | null;
  digest: Buffer | null;
}

export function outboxEntryOf(row: OutboxRow): OutboxEntry {
  if (typeof row.json !== "string" || row.json === "" || row.digest === null) throw new Error(`outbox entry ${row.id} has no sent message`);
  return { id: row.id, sender: bytesHex(row.sender), destination: bytesHex(row.destination), createdAt: row.created_at, json: row.json, digest: row.digest.toString("hex") };
}

/** The columns of an `OutboxRow`, from `outbox AS o` (the same SQL in both backends). */
export const OUTBOX_COLUMNS =
  `o.id, o.destination, o.sender, o.created_at, (SELECT m.json FROM mailbox AS m WHERE m.owner = o.sender AND m.side = ${SIDE.sent} AND m.id = o.id) AS json, ` +
  "(SELECT g.digest FROM messages AS g WHERE g.id = o.id) AS digest";

/** Each destination of the outbox with its count, oldest entry and backoff: `DestinationRow`s. */
export const OUTBOX_DESTINATIONS_SQL = `SELECT o.destination, CAST(o.count AS integer) AS count, o.oldest, d.failures, d.next_attempt_at, d.last_error
  FROM (SELECT destination, count(*) AS count, min(created_at) AS oldest FROM outbox GROUP BY destination) AS o
  LEFT JOIN destinations AS d ON d.node = o.destination`;

export interface DestinationRow {
  destination: Buffer;
  count: number;
  oldest: number;
  failures: number | null;
  next_attempt_at: number | null;
  last_error: string | null;
}

export const outboxDestinationOf = (row: DestinationRow): OutboxDestination => ({
  node: bytesHex(row.destination),
  count: row.count,
  oldest: row.oldest,
  ...(row.failures !== null && {
    state: { node: bytesHex(row.destination), failures: row.failures, nextAttemptAt: row.next_attempt_at!, lastError: row.last_error! },
  }),
});
