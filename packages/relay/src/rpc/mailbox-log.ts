// The verifiable mailbox's reads (openrpc.json "The verifiable mailbox"): the caller's signed head
// with inclusion and consistency proofs (getProof, and getInbox/getChat asked with `proof`), and its
// log (getLog).
import { budgetSpentError, ErrorCode, RpcError, rawJson, type RawJson, type ResponseBudget } from "@neutral/server";
import type { DeletionRequest, Handlers, LogPage, LogPosition, LogRemoval, MailboxHead, MailboxProof } from "@neutral/server/neutral-service";
import { logEntryHash, logPositionStatement, logStatementDigest, mailboxHeadDigest, MAX_PRIOR_HEADS, toHex, type Hex } from "@neutral/protocol";
import { nativeSha256 } from "../crypto/sha256.js";
import { cursorValue, type LogEntry, type LogEntryRemoval, type StoredMessage } from "../storage/store.js";
import type { SignedHead } from "../mailbox-log/heads.js";
import { CHUNK, inclusionProofLength, type LogTree } from "../mailbox-log/tree.js";
import { fitToBudget, hex, type RelayContext, type Rpc } from "./context.js";

const positionOf = (entry: LogEntry): LogPosition => ({ seq: entry.seq, id: String(entry.id), role: entry.role, leafHash: entry.leafHash });

/** A position's JSON with its inclusion proof (a hash: 0x + 64 hex, quoted, a comma), without the numbers. */
const POSITION_JSON_BYTES = `{"seq":,"id":"","role":"received","leafHash":"0x${"0".repeat(64)}","proof":[]},`.length;
const PROOF_HASH_BYTES = 69;

/**
 * At most the bytes `entry`'s position adds to a proof of a log of `size`: its JSON with its
 * inclusion proof, or, in a compact proof, with the hashes of the multiproof it may need (at most
 * those of its own inclusion proof). A position left out of `positions` (`listed` false: its message
 * states it, and the proof was asked with `omitBound`) adds those hashes only.
 */
export const positionBytesBound = (entry: LogEntry, size: number, listed = true): number =>
  (listed ? POSITION_JSON_BYTES + String(entry.seq).length + String(entry.id).length : 0) + inclusionProofLength(entry.seq - 1, size) * PROOF_HASH_BYTES;

/** Why a position's copy is gone, as getLog answers it (LogRemoval). */
function removalOf(removal: LogEntryRemoval): LogRemoval {
  switch (removal.reason) {
    case "deleted":
      return { reason: "deleted", request: JSON.parse(removal.request) as DeletionRequest };
    case "expired":
      return { reason: "expired", message: { from: removal.from, to: removal.to, timestamp: removal.timestamp, expires: removal.expires, messageHash: removal.messageHash } };
    case "retention":
      // The retention that removed it, at most (spec 3.2.0), where the store knows it.
      return removal.retentionSeconds === undefined ? { reason: "retention" } : { reason: "retention", retentionSeconds: removal.retentionSeconds };
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
 * How many leaves, from the start of the chunk of a page's lowest position, are read with the log's
 * size: when the log ends within them, they hold the page's positions' leaves and the siblings the
 * proof needs near the head. A page further from the head has its positions looked up
 * (`copiesAtHead`).
 */
export const PAGE_LEAF_SPAN = 256;

/**
 * `copiesAtHead` for the messages of a page, with the positions the page's rows came with
 * (`StoredMessage.copies`): the log's size and its leaves from the page's lowest position's
 * chunk on are then read in one statement, which the proof's siblings near the head come from too,
 * and no position is looked up. A page without them (another store, a message to oneself, positions
 * far below the head) is `copiesAtHead`.
 */
export async function copiesOfPage(rpc: Rpc, account: string, messages: readonly StoredMessage[], since: number | undefined, sinceField: string): Promise<CopiesAtHead> {
  let lowest = Infinity;
  for (const message of messages) {
    if (message.copies === undefined || message.copies.length === 0) {
      lowest = Infinity;
      break;
    }
    for (const copy of message.copies) lowest = Math.min(lowest, copy.seq);
  }
  // From the start of the lowest position's chunk: a subtree of the proof smaller than a chunk, left
  // of the page, is then in the range too (larger ones are tiles or kept roots).
  const from = lowest - 1 - ((lowest - 1) % CHUNK);
  const near = lowest === Infinity ? undefined : await rpc.heads.currentNear(account, from, PAGE_LEAF_SPAN);
  if (near === undefined) {
    return copiesAtHead(
      rpc,
      account,
      messages.map((message) => message.id),
      since,
      sinceField,
    );
  }
  const { head, tree, leaves } = near;
  if (since !== undefined && since > head.size) throw sincePastLog(sinceField, since, head.size);
  // In the page's order, a message's received copy before its sent one, as `positions` gives them.
  const entries: LogEntry[] = [];
  for (const message of messages) {
    const copies = message.copies!.length > 1 && message.copies![0]!.role === "sent" ? [...message.copies!].reverse() : message.copies!;
    for (const copy of copies) if (copy.seq <= head.size) entries.push({ seq: copy.seq, id: message.id, role: copy.role, leafHash: hex(leaves[copy.seq - 1 - from]!) });
  }
  return { head, tree, entries, ...(since !== undefined && { consistency: (await tree.consistencyProof(since, head.size)).map(toHex) }) };
}

/** A 32-byte hash as a JSON string: "0x" + 64 lowercase hex. */
const hashJson = (hash: Uint8Array): string => `"${hex(hash)}"`;

/** A position's JSON (openrpc.json `ProvenPosition`), with its inclusion proof when it has one of its own. */
const positionJson = (entry: LogEntry, proof?: readonly Uint8Array[]): string =>
  `{"seq":${entry.seq},"id":"${entry.id}","role":"${entry.role}","leafHash":"${entry.leafHash}"${proof === undefined ? "" : `,"proof":[${proof.map(hashJson).join(",")}]`}}`;

/** Each head's JSON, written once: a head is kept and served again until its log grows. */
const headJsons = new WeakMap<SignedHead, string>();
const headJson = (head: SignedHead): string => {
  let json = headJsons.get(head);
  if (json === undefined) headJsons.set(head, (json = JSON.stringify(head satisfies MailboxHead)));
  return json;
};

/** The members of a proof's JSON besides its positions and their hashes: its head and consistency proof, the same whatever the page holds. */
function proofFrame({ head, consistency }: CopiesAtHead, compact: boolean): { open: string; close: string } {
  const consistencyMember = consistency === undefined ? "" : `,"consistency":[${consistency.map((hash) => `"${hash}"`).join(",")}]`;
  return { open: `{"head":${headJson(head)}${consistencyMember},"positions":[`, close: compact ? `],"multiproof":[` : "" };
}

/** Bytes of the JSON of a proof of `copies` with no position (`proofJson`): what a page's answer budget counts before its messages. */
export function proofFrameBytes(copies: CopiesAtHead, compact: boolean): number {
  const { open, close } = proofFrame(copies, compact);
  return open.length + close.length + "]}".length;
}

/**
 * The JSON of `copies`' positions with their inclusion proofs (openrpc.json `MailboxProof`): one per
 * position, or `compact`, one multiproof of them all. Written as text, not built as objects and
 * stringified: a page's proof is ~4 KB of numbers and hex, and every read asks for one. `stated`
 * (a compact proof asked with `omitBound`, spec 3.3.0): the positions the page's messages state
 * themselves, which the multiproof proves and `positions` leaves out.
 */
export async function proofJson(copies: CopiesAtHead, compact: boolean, stated?: (entry: LogEntry) => boolean): Promise<RawJson<MailboxProof>> {
  const { head, tree, entries } = copies;
  const { open, close } = proofFrame(copies, compact);
  if (compact) {
    const multiproof = await tree.multiproof(
      entries.map((entry) => entry.seq - 1),
      head.size,
    );
    const listed = stated === undefined ? entries : entries.filter((entry) => !stated(entry));
    return rawJson(`${open}${listed.map((entry) => positionJson(entry)).join(",")}${close}${multiproof.map(hashJson).join(",")}]}`);
  }
  const proofs = await Promise.all(entries.map((entry) => tree.inclusionProof(entry.seq - 1, head.size)));
  return rawJson(`${open}${entries.map((entry, i) => positionJson(entry, proofs[i])).join(",")}]}`);
}

/**
 * The node's signature of what a page of `head`'s log from `from` says of each of its positions, at
 * `timestamp` (openrpc.json `LogPage.signature`: EIP-712 `LogStatement`), asked with or without
 * `messages`. Its statement hashes every message the page gives (~400 KB for 500), natively.
 */
function signPage(rpc: Rpc, head: SignedHead, from: number, positions: readonly (LogPosition | LogPositionAsServed)[], messages: boolean, timestamp: number): string {
  const entries = positions.map((position) => logEntryHash(logPositionStatement(position, messages, nativeSha256), nativeSha256));
  const headDigest = mailboxHeadDigest({ account: head.account as Hex, size: head.size, root: head.root as Hex, timestamp: head.timestamp });
  return toHex(rpc.curve.sign(logStatementDigest(headDigest, from, entries, timestamp, nativeSha256), rpc.nodeKey));
}

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
  const timestamp = rpc.now();
  const headJson = JSON.stringify(head);
  const positions = entries.map((entry) => {
    const position = JSON.stringify(logPositionOf(entry));
    return entry.json === undefined ? position : `${position.slice(0, -1)},"message":${entry.json}}`;
  });
  const itemBytes = positions.map((position) => position.length + 1);
  const priorJson = prior.length === 0 ? "" : `,"prior":[${prior.join(",")}]`;
  const timestampMember = `,"timestamp":${timestamp}`;
  const { count, bytes } = fitToBudget(itemBytes, `{"head":,"entries":[],"end":false}`.length + headJson.length + priorJson.length + timestampMember.length + SIGNATURE_MEMBER_BYTES, budget);
  budget?.spend(bytes);
  const kept = entries.slice(0, count).map((entry): LogPositionAsServed => {
    const { message: _none, ...position } = logPositionOf(entry);
    return entry.json === undefined ? position : { ...position, message: entry.json };
  });
  const signature = signPage(rpc, head, from, kept, true, timestamp);
  return `{"head":${headJson},"entries":[${positions.slice(0, count).join(",")}],"end":${end && count === positions.length}${priorJson}${timestampMember},"signature":"${signature}"}`;
}

export function mailboxLogHandlers(rpc: Rpc): Pick<Handlers<RelayContext>, "neutralService_getProof" | "neutralService_getLog"> {
  return {
    neutralService_getProof: async ({ ids, since, compact }, { auth }) => proofJson(await copiesAtHead(rpc, auth.address, (ids ?? []).map(cursorValue), since, "since"), compact === true),

    async neutralService_getLog({ from, limit, messages }, { auth, responseBudget }): Promise<LogPage | RawJson<LogPage>> {
      const account = auth.address;
      const { head } = await rpc.heads.current(account);
      const count = Math.max(0, Math.min(limit, head.size - from + 1));
      const entries = count === 0 ? [] : await rpc.store.log(account, from, count, { messages: messages === true });
      const end = from + count > head.size;
      const prior = (await rpc.store.priorHeads(account)).slice(0, MAX_PRIOR_HEADS);
      if (messages !== true) {
        const positions = entries.map(logPositionOf);
        const timestamp = rpc.now();
        return {
          head: head as MailboxHead,
          entries: positions,
          end,
          ...(prior.length > 0 && { prior: prior.map((one) => JSON.parse(one) as MailboxHead) }),
          timestamp,
          signature: signPage(rpc, head, from, positions, false, timestamp),
        };
      }
      return rawJson(withMessages(rpc, head, from, entries, end, responseBudget, prior));
    },
  };
}
