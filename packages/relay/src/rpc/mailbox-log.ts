// The verifiable mailbox's reads (openrpc.json "The verifiable mailbox"): the caller's signed head
// with inclusion and consistency proofs (getProof, and getInbox/getChat asked with `proof`), and its
// log (getLog).
import { createHash } from "node:crypto";
import { budgetSpentError, ErrorCode, RpcError, rawJson, type RawJson, type ResponseBudget } from "@neutral/server";
import type { DeletionRequest, Handlers, LogPage, LogPosition, LogRemoval, MailboxHead, MailboxProof } from "@neutral/server/neutral-service";
import { logEntryHash, logPositionStatement, logStatementDigest, mailboxHeadDigest, MAX_PRIOR_HEADS, toHex, type Hex, type Sha256 } from "@neutral/protocol";
import { cursorValue, type LogEntry, type LogEntryRemoval, type StoredMessage } from "../storage/store.js";
import type { SignedHead } from "../mailbox-log/heads.js";
import { CHUNK, inclusionProofLength, type LogTree } from "../mailbox-log/tree.js";
import { fitToBudget, type RelayContext, type Rpc } from "./context.js";

const positionOf = (entry: LogEntry): LogPosition => ({ seq: entry.seq, id: String(entry.id), role: entry.role, leafHash: entry.leafHash });

/** A position's JSON with its inclusion proof (a hash: 0x + 64 hex, quoted, a comma), without the numbers. */
const POSITION_JSON_BYTES = `{"seq":,"id":"","role":"received","leafHash":"0x${"0".repeat(64)}","proof":[]},`.length;
const PROOF_HASH_BYTES = 69;

/**
 * At most the bytes `entry`'s position adds to a proof of a log of `size`: its JSON with its
 * inclusion proof, or, in a compact proof, with the hashes of the multiproof it may need (at most
 * those of its own inclusion proof).
 */
export const positionBytesBound = (entry: LogEntry, size: number): number =>
  POSITION_JSON_BYTES + String(entry.seq).length + String(entry.id).length + inclusionProofLength(entry.seq - 1, size) * PROOF_HASH_BYTES;

/** Why a position's copy is gone, as getLog answers it (LogRemoval). */
function removalOf(removal: LogEntryRemoval): LogRemoval {
  switch (removal.reason) {
    case "deleted":
      return { reason: "deleted", request: JSON.parse(removal.request) as DeletionRequest };
    case "expired":
      return { reason: "expired", message: { from: removal.from, to: removal.to, timestamp: removal.timestamp, expires: removal.expires, messageHash: removal.messageHash } };
    case "retention":
      return { reason: "retention" };
  }
}

/** A position as getLog answers it: with `removed` when its copy is gone and the store knows why. */
const logPositionOf = (entry: LogEntry): LogPosition => (entry.removal === undefined ? positionOf(entry) : { ...positionOf(entry), removed: removalOf(entry.removal) });

/** A `since` past the log's size: the node cannot prove a head of that size (-32602 naming the field, with the size). */
const sincePastLog = (field: string, since: number, size: number): RpcError =>
  new RpcError(ErrorCode.InvalidParams, `Invalid params: ${field} (${since}) is past the log's size (${size})`, { field, size });

/** The caller's head, the tree it was computed on, its copies of some messages that the head holds, and the consistency proof asked for. */
export interface CopiesAtHead {
  head: SignedHead;
  tree: LogTree;
  /** Each position once, in the order of the ids asked (a message's received copy before its sent one). */
  entries: LogEntry[];
  consistency?: string[];
}

/**
 * The caller's current head and the positions of its copies of the messages `ids` (copies stored
 * after the head are left to the next one) and, with `since`, the consistency proof from that size.
 * A `since` past the log is refused, naming `sinceField`. `current`: the head and tree already
 * taken for this request.
 */
export async function copiesAtHead(
  rpc: Rpc,
  account: string,
  ids: readonly number[],
  since: number | undefined,
  sinceField: string,
  current?: Pick<CopiesAtHead, "head" | "tree">,
): Promise<CopiesAtHead> {
  const { head, tree } = current ?? (await rpc.heads.current(account));
  if (since !== undefined && since > head.size) throw sincePastLog(sinceField, since, head.size);
  const seen = new Set<number>();
  const entries = ids.length === 0 ? [] : (await rpc.store.positions(account, ids)).filter((entry) => entry.seq <= head.size && !seen.has(entry.seq) && seen.add(entry.seq));
  return { head, tree, entries, ...(since !== undefined && { consistency: (await tree.consistencyProof(since, head.size)).map(toHex) }) };
}

/**
 * How far below the head a page's lowest position may be for the page's leaves to be read in one
 * range with every leaf up to the head (the siblings its proof needs there): beyond it, the
 * positions are looked up (`copiesAtHead`).
 */
export const PAGE_LEAF_SPAN = 256;

/** Whether `json`, a stored message of `owner`'s, is one to oneself (two copies, two positions). */
const toOneself = (json: string, owner: string): boolean => json.includes(`"from":"${owner}"`) && json.includes(`"to":"${owner}"`);

/**
 * `copiesAtHead` for the messages of a page, with the positions the page's rows came with
 * (`StoredMessage.copies`, SQLite): the leaves of the page's positions are then read in one range
 * up to the head, which the proof's siblings near the head come from too, and no position is
 * looked up. A page without them (another store, a message to oneself read from one side only,
 * positions far below the head) is `copiesAtHead`.
 */
export async function copiesOfPage(rpc: Rpc, account: string, messages: readonly StoredMessage[], since: number | undefined, sinceField: string): Promise<CopiesAtHead> {
  const complete = messages.every((message) => message.copies !== undefined && (message.copies.length > 1 || !toOneself(message.json, account)));
  const { head, tree } = await rpc.heads.current(account);
  // In the page's order, a message's received copy before its sent one, as `positions` gives them.
  const copies = messages.flatMap((message) =>
    (message.copies ?? [])
      .filter((copy) => copy.seq <= head.size)
      .sort((a, b) => (a.role === b.role ? 0 : a.role === "received" ? -1 : 1))
      .map((copy) => ({ ...copy, id: message.id })),
  );
  const lowest = Math.min(...copies.map((copy) => copy.seq));
  if (!complete || copies.length === 0 || head.size - lowest >= PAGE_LEAF_SPAN) {
    return copiesAtHead(
      rpc,
      account,
      messages.map((message) => message.id),
      since,
      sinceField,
      { head, tree },
    );
  }
  if (since !== undefined && since > head.size) throw sincePastLog(sinceField, since, head.size);
  // From the start of the lowest position's chunk: a subtree of the proof smaller than a chunk, left
  // of the page, is then in the range too (larger ones are tiles or kept roots).
  const from = lowest - 1 - ((lowest - 1) % CHUNK);
  const leaves = await tree.leafRange(from, head.size);
  const entries = copies.map((copy): LogEntry => ({ seq: copy.seq, id: copy.id, role: copy.role, leafHash: toHex(leaves[copy.seq - 1 - from]!) }));
  return { head, tree, entries, ...(since !== undefined && { consistency: (await tree.consistencyProof(since, head.size)).map(toHex) }) };
}

/** The positions of `copies` with their inclusion proofs: one per position, or `compact`, one multiproof of them all. */
export async function proofOf({ head, tree, entries, consistency }: CopiesAtHead, compact: boolean): Promise<MailboxProof> {
  const common = { head: head as MailboxHead, ...(consistency !== undefined && { consistency }) };
  if (compact) {
    const multiproof = await tree.multiproof(
      entries.map((entry) => entry.seq - 1),
      head.size,
    );
    return { ...common, positions: entries.map(positionOf), multiproof: multiproof.map(toHex) };
  }
  const proofs = await Promise.all(entries.map((entry) => tree.inclusionProof(entry.seq - 1, head.size)));
  return { ...common, positions: entries.map((entry, i) => ({ ...positionOf(entry), proof: proofs[i]!.map(toHex) })) };
}

/**
 * The node's signature of what a page of `head`'s log from `from` says of each of its positions
 * (openrpc.json `LogPage.signature`: EIP-712 `LogStatement`), asked with or without `messages`.
 */
function signPage(rpc: Rpc, head: SignedHead, from: number, positions: readonly (LogPosition | LogPositionAsServed)[], messages: boolean): string {
  const entries = positions.map((position) => logEntryHash(logPositionStatement(position, messages, nativeSha256), nativeSha256));
  const headDigest = mailboxHeadDigest({ account: head.account as Hex, size: head.size, root: head.root as Hex, timestamp: head.timestamp });
  return toHex(rpc.curve.sign(logStatementDigest(headDigest, from, entries, nativeSha256), rpc.nodeKey));
}

/** SHA-256 natively (a text as UTF-8): a page's statement hashes every message it gives, ~400 KB for 500. */
const nativeSha256: Sha256 = (data) => createHash("sha256").update(data).digest();

/** A position as a page with `messages` serves it: its message as the stored JSON. */
type LogPositionAsServed = Omit<LogPosition, "message"> & { message?: string };

/** A signature's JSON member: `,"signature":"0x` + 130 hex + `"`. */
const SIGNATURE_MEMBER_BYTES = `,"signature":"0x${"0".repeat(130)}"`.length;

/**
 * A log page with each stored copy's JSON spliced in as `message` (as reads serve it), cut to what
 * is left of the request's answer budget (`maxResponseBytes`) like a read's page: positions go from
 * its end, at least one stays, and the page then does not reach the head. The node signs what the
 * page says once it is cut.
 */
function withMessages(rpc: Rpc, head: SignedHead, from: number, entries: readonly LogEntry[], end: boolean, budget: ResponseBudget | undefined, prior: readonly string[]): string {
  if (budget && budget.remaining <= 0) throw budgetSpentError(budget.limit);
  const headJson = JSON.stringify(head);
  const positions = entries.map((entry) => {
    const position = JSON.stringify(logPositionOf(entry));
    return entry.json === undefined ? position : `${position.slice(0, -1)},"message":${entry.json}}`;
  });
  const itemBytes = positions.map((position) => position.length + 1);
  const priorJson = prior.length === 0 ? "" : `,"prior":[${prior.join(",")}]`;
  const { count, bytes } = fitToBudget(itemBytes, `{"head":,"entries":[],"end":false}`.length + headJson.length + priorJson.length + SIGNATURE_MEMBER_BYTES, budget);
  budget?.spend(bytes);
  const kept = entries.slice(0, count).map((entry): LogPositionAsServed => {
    const { message: _none, ...position } = logPositionOf(entry);
    return entry.json === undefined ? position : { ...position, message: entry.json };
  });
  const signature = signPage(rpc, head, from, kept, true);
  return `{"head":${headJson},"entries":[${positions.slice(0, count).join(",")}],"end":${end && count === positions.length}${priorJson},"signature":"${signature}"}`;
}

export function mailboxLogHandlers(rpc: Rpc): Pick<Handlers<RelayContext>, "neutralService_getProof" | "neutralService_getLog"> {
  return {
    neutralService_getProof: async ({ ids, since, compact }, { auth }) => proofOf(await copiesAtHead(rpc, auth.address, (ids ?? []).map(cursorValue), since, "since"), compact === true),

    async neutralService_getLog({ from, limit, messages }, { auth, responseBudget }): Promise<LogPage | RawJson<LogPage>> {
      const account = auth.address;
      const { head } = await rpc.heads.current(account);
      const count = Math.max(0, Math.min(limit, head.size - from + 1));
      const entries = count === 0 ? [] : await rpc.store.log(account, from, count, { messages: messages === true });
      const end = from + count > head.size;
      const prior = (await rpc.store.priorHeads(account)).slice(0, MAX_PRIOR_HEADS);
      if (messages !== true) {
        const positions = entries.map(logPositionOf);
        return {
          head: head as MailboxHead,
          entries: positions,
          end,
          ...(prior.length > 0 && { prior: prior.map((one) => JSON.parse(one) as MailboxHead) }),
          signature: signPage(rpc, head, from, positions, false),
        };
      }
      return rawJson(withMessages(rpc, head, from, entries, end, responseBudget, prior));
    },
  };
}
