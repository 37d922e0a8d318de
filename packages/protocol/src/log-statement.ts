// A node's signed statement of a page of an account's mailbox log (openrpc.json `LogPage.signature`,
// spec 3.1.0; its time from 3.2.0): EIP-712 `LogStatement(bytes32 head,uint64 from,bytes32
// entries,uint64 timestamp)` over the page's head, its first position, what it says of each position
// (the message it gives, its copy held, or why it is gone), the content bound, and when it said so. A position it shows with neither its message nor a reason,
// or with a reason that does not hold, is then the node's word against itself.
import { hashTypedData } from "./eip712.js";
import { fromHex, toHex, type Hex } from "./hex.js";
import { expiredMessageDigest, MAILBOX_ROLE_BYTE, type ExpiredMessageFields, type MailboxRole } from "./mailbox-log.js";
import { nobleSha256, type Sha256 } from "./sha256.js";


/** What a page says of a position: its state byte in the position's statement. */
export const LOG_ENTRY_STATE = { none: 0x00, message: 0x01, held: 0x02, deleted: 0x03, expired: 0x04, retention: 0x05 } as const;
export type LogEntryState = keyof typeof LOG_ENTRY_STATE;

/** A position's statement: where it is, its leaf, what the page says of it, and the detail that binds the reason's content (zeros when there is none). */
export interface LogEntryStatement {
  seq: number;
  role: MailboxRole;
  /** 0x + 64 hex, or 32 bytes. */
  leafHash: string | Uint8Array;
  state: LogEntryState;
  detail?: Uint8Array;
}

/** Bytes of a position's statement before it is hashed: seq, role, leaf hash, state, detail. */
export const LOG_ENTRY_STATEMENT_BYTES = 8 + 1 + 32 + 1 + 32;

/** The SHA-256 of a position's 74-byte statement: `seq` (uint64, big-endian) ‖ role ‖ leaf hash ‖ state ‖ detail. */
export function logEntryHash(entry: LogEntryStatement, hash: Sha256 = nobleSha256): Uint8Array {
  if (!Number.isSafeInteger(entry.seq) || entry.seq < 1) throw new RangeError(`a log position is a whole number from 1, not ${entry.seq}`);
  const role = MAILBOX_ROLE_BYTE[entry.role];
  if (role === undefined) throw new RangeError(`a log position's role is "received" or "sent", not ${String(entry.role)}`);
  const state = LOG_ENTRY_STATE[entry.state];
  if (state === undefined) throw new RangeError(`a log position's state is one of ${Object.keys(LOG_ENTRY_STATE).join(", ")}, not ${String(entry.state)}`);
  const leaf = typeof entry.leafHash === "string" ? fromHex(entry.leafHash) : entry.leafHash;
  const detail = entry.detail ?? new Uint8Array(32);
  if (leaf.length !== 32 || detail.length !== 32) throw new RangeError("a log position's leaf hash and detail are 32 bytes each");
  const bytes = new Uint8Array(LOG_ENTRY_STATEMENT_BYTES);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(entry.seq));
  bytes[8] = role;
  bytes.set(leaf, 9);
  bytes[41] = state;
  bytes.set(detail, 42);
  return hash(bytes);
}

/** An account's deletion request as a log keeps it (openrpc.json `DeletionRequest`). */
export interface DeletionRequestFields {
  account: string;
  /** The messages' ids, as decimal strings or numbers. */
  ids: readonly (string | number)[];
  /** The leaf hashes of the positions it names (`PositionedDeletion`); absent for a `Deletion`. */
  leaves?: readonly string[];
  timestamp: number;
  signature: string;
}

/** The EIP-712 digest the account signed for `request`: `PositionedDeletion` when it names leaves, else `Deletion`. */
export function deletionRequestDigest(request: DeletionRequestFields): Uint8Array {
  const fields = { account: request.account as Hex, ids: request.ids.map(Number), timestamp: request.timestamp };
  return request.leaves === undefined
    ? hashTypedData({ primaryType: "Deletion", message: fields })
    : hashTypedData({ primaryType: "PositionedDeletion", message: { ...fields, leaves: request.leaves.map((leaf) => leaf.toLowerCase() as Hex) } });
}

/** Why a position's copy is gone, as a log page says it (openrpc.json `LogRemoval`). */
export type LogRemovalFields = { reason: "deleted"; request: DeletionRequestFields } | { reason: "expired"; message: ExpiredMessageFields } | { reason: "retention"; retentionSeconds?: number };

/**
 * What a page says of `position` (openrpc.json `LogPosition`), asked with or without `messages`: its
 * statement, the content bound (the message given by the SHA-256 of its JSON text, a request by its
 * digest and signature, an end by the digest of the message it ended), hashed with `hash`.
 */
export function logPositionStatement(
  position: { seq: number; role: MailboxRole; leafHash: string; message?: unknown; removed?: LogRemovalFields },
  messages: boolean,
  hash: Sha256 = nobleSha256,
): LogEntryStatement {
  const { seq, role, leafHash, removed } = position;
  if (removed !== undefined) {
    switch (removed.reason) {
      case "deleted": {
        const signature = fromHex(removed.request.signature);
        const both = new Uint8Array(32 + signature.length);
        both.set(deletionRequestDigest(removed.request), 0);
        both.set(signature, 32);
        return { seq, role, leafHash, state: "deleted", detail: hash(both) };
      }
      case "expired":
        return { seq, role, leafHash, state: "expired", detail: expiredMessageDigest(removed.message) };
      case "retention": {
        // The retention applied (spec 3.2.0) as a uint256, big-endian; zeros when the page does not say.
        const { retentionSeconds } = removed;
        if (retentionSeconds === undefined) return { seq, role, leafHash, state: "retention" };
        if (!Number.isSafeInteger(retentionSeconds) || retentionSeconds < 0) throw new RangeError(`a retention is a whole number of seconds, not ${String(retentionSeconds)}`);
        const detail = new Uint8Array(32);
        new DataView(detail.buffer).setBigUint64(24, BigInt(retentionSeconds));
        return { seq, role, leafHash, state: "retention", detail };
      }
      default:
        throw new RangeError(`a removal's reason is "deleted", "expired" or "retention", not ${JSON.stringify((removed as { reason?: unknown }).reason)}`);
    }
  }
  if (!messages) return { seq, role, leafHash, state: "held" };
  if (position.message === undefined) return { seq, role, leafHash, state: "none" };
  // The message as the page carries it: its JSON text as the node wrote it, or as JSON.stringify writes what a client parsed.
  const json = typeof position.message === "string" ? position.message : JSON.stringify(position.message);
  return { seq, role, leafHash, state: "message", detail: hash(json) };
}

/** The SHA-256 of a page's entries' statements, in order: the `entries` of its `LogStatement`. */
export function logEntriesHash(entries: readonly Uint8Array[], hash: Sha256 = nobleSha256): Uint8Array {
  const all = new Uint8Array(entries.length * 32);
  entries.forEach((entry, i) => {
    if (entry.length !== 32) throw new RangeError(`a position's statement hash is 32 bytes, not ${entry.length}`);
    all.set(entry, i * 32);
  });
  return hash(all);
}

/**
 * The EIP-712 digest a node signs for a page of a log: its head's digest, its first position, its
 * entries' statements (hashed, in order) and when it signed the page (ms; spec 3.2.0).
 */
export const logStatementDigest = (headDigest: Uint8Array, from: number, entries: readonly Uint8Array[], timestamp: number, hash: Sha256 = nobleSha256): Uint8Array =>
  hashTypedData({ primaryType: "LogStatement", message: { head: toHex(headDigest) as Hex, from, entries: toHex(logEntriesHash(entries, hash)) as Hex, timestamp } });
