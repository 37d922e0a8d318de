// Portable proofs from a page of a log the node signed (openrpc.json `LogPage.signature`, spec
// 3.1.0, with the time it signed it from 3.2.0): what the page says of one position is the node's
// word, so a position it shows with neither its message nor a reason it is gone ("missing"), with a
// message that does not give its leaf or carry its sender's signature ("altered"), or with a reason
// that does not hold ("unproven-removal": a request that is not the account's signature or does not
// name the position's leaf, an end whose message does not give the leaf, a retention removal of a
// node that states no retention or of a position stored after an earlier head it signed, less than
// the retention before the page) is checked offline with nothing but the proof. A request signed
// before positions were named makes none: its check needs what a device saw before.
import { deletionRequestDigest, expiredMessageDigest, fromHex, isHex, logEntryHash, logPositionStatement, logStatementDigest, mailboxHeadDigest, mailboxLeafHash, toHex, type Hex, type LogRemovalFields } from "@neutral/protocol";
import { signerOf } from "./crypto/ecdsa.js";
import type { LogPage, LogPosition, LogRemoval, MailboxHead, Message } from "./generated/types.js";
import { messageDigest } from "./messages.js";

/** A position the node's signed page shows with neither its message nor a reason, or with a reason that does not hold. */
export interface LogStatementProof {
  version: 1;
  kind: "missing" | "altered" | "unproven-removal";
  /** The node that signed the page (lowercase). */
  node: string;
  /** The account whose log it is (lowercase). */
  account: string;
  /** The page's head, as the node served it. */
  head: MailboxHead;
  /** The page's first position. */
  from: number;
  /** When the node signed the page (`LogPage.timestamp`, spec 3.2.0). */
  timestamp: number;
  /** The hash of what the page says of each of its positions, in order (0x hex): the position's is at `position.seq - from`. */
  entries: string[];
  /** The position, as the page says it (a page asked with messages; no message: it gave none). */
  position: { seq: number; role: "received" | "sent"; leafHash: string; message?: Message; removed?: LogRemoval };
  /** The node's EIP-712 `LogStatement` signature of the page. */
  signature: string;
  /** A retention removal's: a head the node signed before, whose size is below the position (stored after it). */
  earlier?: MailboxHead;
}

/**
 * How much later than an earlier head's time a page must be for the retention it states to be out
 * of reach of the node's clocks (openrpc.json `LogRetention`): its replicas' may differ this much.
 */
const RETENTION_CLOCK_MARGIN_MS = 300_000;

type Verdict = { valid: true; message: string } | { valid: false; reason: string };

/** Why the message a page gives a position is not the one its leaf commits to, or not its sender's; undefined when it is. */
function messageFailure(account: string, position: LogStatementProof["position"] & { message: Message }): string | undefined {
  const { message, seq, role } = position;
  const digest = messageDigest(message);
  if (digest === undefined) return "is not a message";
  const peer = role === "received" ? message.from : message.to;
  const self = role === "received" ? message.to : message.from;
  if (String(self).toLowerCase() !== account || toHex(mailboxLeafHash({ account, seq, role, peer, digest })) !== position.leafHash.toLowerCase()) {
    return "does not give its leaf";
  }
  return signerOf(digest, message.signature) === String(message.from).toLowerCase() ? undefined : "does not carry its sender's signature";
}

/** Why the removal the page cites does not hold for the position, when that is checkable offline; undefined when it holds. */
function removalFailure(node: string, account: string, position: LogStatementProof["position"], timestamp: number, earlier: unknown): string | undefined {
  const removed = position.removed as LogRemovalFields;
  if (removed.reason === "deleted") {
    const { request } = removed;
    if (String(request.account).toLowerCase() !== account) return `its deletion request is ${request.account}'s, not ${account}'s`;
    if (signerOf(deletionRequestDigest(request), request.signature) !== account) return `its deletion request is not ${account}'s signature`;
    if (request.leaves !== undefined && !request.leaves.some((leaf) => String(leaf).toLowerCase() === position.leafHash.toLowerCase())) return "its deletion request does not name its leaf";
    return undefined;
  }
  if (removed.reason === "expired") {
    const { message } = removed;
    const peer = position.role === "received" ? message.from : message.to;
    const leaf = mailboxLeafHash({ account, seq: position.seq, role: position.role, peer, digest: expiredMessageDigest(message) });
    return toHex(leaf) === position.leafHash.toLowerCase() ? undefined : "what it keeps of its expired message does not give its leaf";
  }
  // The retention (spec 3.2.0): none stated, or the page too soon after a head the position came after.
  const { retentionSeconds } = removed;
  if (retentionSeconds === undefined) return undefined;
  if (retentionSeconds === 0) return "the node states it keeps messages until their owners delete them";
  // The earlier head is the proof's, not the page's: anything wrong with it proves nothing (a throw
  // here would read as a malformed reason, which the node signed).
  const head = earlierHead(earlier, node, account);
  if (head === undefined || head.size >= position.seq || timestamp + RETENTION_CLOCK_MARGIN_MS >= head.timestamp + retentionSeconds * 1000) return undefined;
  return `it was stored after the node's head of ${head.size} positions (at ${head.timestamp} ms), less than its retention of ${retentionSeconds} s before the page (at ${timestamp} ms)`;
}

/** `earlier` when it is a head of `account`'s log that `node` signed, else undefined. */
function earlierHead(earlier: unknown, node: string, account: string): MailboxHead | undefined {
  if (typeof earlier !== "object" || earlier === null) return undefined;
  const head = earlier as MailboxHead;
  if (!Number.isSafeInteger(head.size) || !Number.isSafeInteger(head.timestamp) || !isHex(head.root, 32) || typeof head.account !== "string" || head.account.toLowerCase() !== account) return undefined;
  try {
    return signerOf(mailboxHeadDigest({ account: head.account as Hex, size: head.size, root: head.root as Hex, timestamp: head.timestamp }), head.signature) === node ? head : undefined;
  } catch {
    return undefined;
  }
}

/** Checks a `LogStatementProof` (its version, kind, node and account already read by `verifyProof`). */
export function verifyLogStatementProof(proof: Partial<Record<keyof LogStatementProof, unknown>>, node: string, account: string): Verdict {
  const invalid = (reason: string): Verdict => ({ valid: false, reason });
  const { head, from, entries, position, signature, kind, timestamp: signedAt, earlier } = proof;
  const owner = account.toLowerCase();
  if (typeof head !== "object" || head === null) return invalid("head is a mailbox head");
  const { account: headAccount, size, root, timestamp } = head as Record<string, unknown>;
  if (typeof headAccount !== "string" || headAccount.toLowerCase() !== owner) return invalid(`head is not ${account}'s log`);
  if (!Number.isSafeInteger(size) || !isHex(root, 32) || !Number.isSafeInteger(timestamp)) return invalid("head is a mailbox head");
  if (!Number.isSafeInteger(from) || (from as number) < 1) return invalid("from is a position, from 1");
  if (!Number.isSafeInteger(signedAt)) return invalid("timestamp is when the node signed the page");
  if (!Array.isArray(entries) || !entries.every((entry) => isHex(entry, 32))) return invalid("entries are 32-byte hashes");
  if (typeof position !== "object" || position === null) return invalid("position is the page's position");
  const at = position as LogStatementProof["position"];
  if (!Number.isSafeInteger(at.seq) || (at.role !== "received" && at.role !== "sent") || !isHex(at.leafHash, 32)) return invalid("position has seq, role and leafHash");
  const index = at.seq - (from as number);
  if (index < 0 || index >= entries.length) return invalid(`position ${at.seq} is not on the page from ${from as number} of ${entries.length}`);
  let stated: string;
  try {
    stated = toHex(
      logEntryHash(
        logPositionStatement(
          { seq: at.seq, role: at.role, leafHash: at.leafHash, ...(at.message !== undefined && { message: at.message }), ...(at.removed !== undefined && { removed: at.removed as LogRemovalFields }) },
          true,
        ),
      ),
    );
  } catch {
    return invalid("position.removed is not a reason a page gives");
  }
  if (stated !== String(entries[index]).toLowerCase()) return invalid(`entries[${index}] is not what the page says of position ${at.seq}`);
  const headDigest = mailboxHeadDigest({ account: headAccount as Hex, size: size as number, root: root as Hex, timestamp: timestamp as number });
  if (signerOf(logStatementDigest(headDigest, from as number, entries.map((entry: string) => fromHex(entry)), signedAt as number), signature) !== node.toLowerCase()) return invalid(`the page is not signed by ${node}`);
  if (kind === "altered") {
    const failure = at.message === undefined ? undefined : messageFailure(owner, at as LogStatementProof["position"] & { message: Message });
    if (failure === undefined) return invalid(`not altered: the page gives position ${at.seq} no message, or the message its leaf commits to`);
    return { valid: true, message: `Node ${node} signed a page of ${account}'s log that gives position ${at.seq} a message that ${failure}` };
  }
  if (kind === "missing") {
    if (at.removed !== undefined || at.message !== undefined) return invalid(`not missing: the page gives position ${at.seq} its message or says why its copy is gone`);
    return { valid: true, message: `Node ${node} signed a page of ${account}'s log that shows position ${at.seq} with neither its message nor a reason it is gone` };
  }
  if (at.removed === undefined) return invalid(`not an unproven removal: the page says nothing of a removal at position ${at.seq}`);
  let failure: string | undefined;
  try {
    failure = removalFailure(node.toLowerCase(), owner, at, signedAt as number, earlier);
  } catch {
    failure = "its reason is malformed";
  }
  if (failure === undefined) return invalid(`the removal at position ${at.seq} holds as far as this proof shows`);
  return { valid: true, message: `Node ${node} signed a page of ${account}'s log that says position ${at.seq}'s copy is gone, but ${failure}` };
}

/** What each page read says of its positions, hashed: a page with several problems is hashed once. */
const pageEntries = new WeakMap<LogPage, string[]>();

/**
 * The proof that what `page` (read from `from`, with messages) says of `position` is the node's word
 * against itself, as `kind` names it, when the page is the node's signature and the proof verifies;
 * else undefined (a page of a node before spec 3.2.0 is not held to it). A retention removal takes
 * the first of `earlier` (heads this device verified) that makes it one.
 */
export function logStatementProofOf(
  node: string,
  account: string,
  kind: LogStatementProof["kind"],
  page: LogPage,
  from: number,
  position: LogPosition,
  earlier: readonly MailboxHead[] = [],
): LogStatementProof | undefined {
  if (typeof page.signature !== "string" || typeof page.timestamp !== "number") return undefined;
  let entries = pageEntries.get(page);
  if (entries === undefined) {
    try {
      entries = page.entries.map((entry) => toHex(logEntryHash(logPositionStatement(entry as Parameters<typeof logPositionStatement>[0], true))));
    } catch {
      return undefined;
    }
    pageEntries.set(page, entries);
  }
  const { seq, role, leafHash, message, removed } = position;
  const proof: LogStatementProof = {
    version: 1,
    kind,
    node: node.toLowerCase(),
    account: account.toLowerCase(),
    head: page.head,
    from,
    timestamp: page.timestamp,
    entries: [...entries],
    position: { seq, role, leafHash, ...(message !== undefined && { message }), ...(removed !== undefined && { removed }) },
    signature: page.signature,
  };
  if (verifyLogStatementProof(proof, node, account).valid) return proof;
  const retention = removed?.reason === "retention" ? earlier.find((head) => verifyLogStatementProof({ ...proof, earlier: head }, node, account).valid) : undefined;
  return retention === undefined ? undefined : { ...proof, earlier: retention };
}
