// Portable proofs of a node's misbehaviour (the verifiable mailbox): two statements the node signed
// about one account's log that cannot both be true of an append-only log. Anyone checks one offline
// with `verifyProof`, with nothing but the proof: no node, no session, no key.
//   - rollback: the node signed a head of `size` N, and later (by its own timestamps) one smaller;
//     a log only grows (a deleted copy keeps its position), so the later head drops positions.
//   - fork: two heads of the same size with different roots: two histories of one log.
//   - broken-promise: the node signed a receipt binding a message's copy to a position (a
//     `LogReceipt`, spec 3.0.0), and a head whose tree holds another leaf at that position.
//   - missing, altered, unproven-removal: a page of the log the node signed (spec 3.1.0) shows a
//     position with neither its message nor a reason, with a message its leaf does not commit to
//     (or not its sender's), or with a reason that does not hold (log-statement-proof.ts).
import {
  fromHex,
  hashedMessageDigest,
  isHex,
  logReceiptDigest,
  mailboxHeadDigest,
  mailboxLeafHash,
  merkleRootFromInclusionProof,
  toHex,
  type Hex,
} from "@neutral/protocol";
import { signerOf } from "./crypto/ecdsa.js";
import type { MailboxHead } from "./generated/types.js";
import { verifyLogStatementProof, type LogStatementProof } from "./log-statement-proof.js";

/** Any proof `verifyProof` checks. */
export type MisbehaviourProof = HeadsProof | BrokenPromiseProof | LogStatementProof;

/** A node's two signed heads of one account's log that contradict each other. */
export interface HeadsProof {
  /** The format of the proof (this is version 1). */
  version: 1;
  /** "rollback": `heads[1]` is signed no earlier than `heads[0]` and smaller; "fork": same size, different roots. */
  kind: "rollback" | "fork";
  /** The node that signed both heads (lowercase). */
  node: string;
  /** The account whose log it is (lowercase). */
  account: string;
  /** The heads, as the node served them (signatures included). */
  heads: [MailboxHead, MailboxHead];
}

/**
 * A node's receipt binding a message's copy to a position of an account's log, and a head of that
 * log, both signed by the node, whose leaf at that position is another: the inclusion proof of
 * `leafHash` at `promise.seq` leads to the head's root, and the leaf the promise names is not it.
 */
export interface BrokenPromiseProof {
  version: 1;
  kind: "broken-promise";
  /** The node that signed the promise and the head (lowercase). */
  node: string;
  /** The account whose log it is (lowercase): the message's sender for role "sender", its recipient for "receiver". */
  account: string;
  /** The node's `LogReceipt` of the message: its fields (the body by its keccak-256, as `ExpiredMessage` keeps it), the role, the position, the signature. */
  promise: { message: PromisedMessage; role: "sender" | "receiver"; seq: number; signature: string };
  /** A head of the log the node signed, of at least `promise.seq` positions. */
  head: MailboxHead;
  /** The leaf hash the head's tree holds at `promise.seq`, and its inclusion proof (sibling hashes, from the leaf up). */
  leafHash: string;
  inclusion: string[];
}

/** A message as a promise names it: its signed fields, the body as its keccak-256. */
export interface PromisedMessage {
  from: string;
  to: string;
  messageHash: string;
  timestamp: number;
  expires?: number;
}

/** What `verifyProof` found: the misbehaviour proven, or why the proof proves nothing. */
export type ProofVerdict = { valid: true; kind: MisbehaviourProof["kind"]; node: string; account: string; message: string } | { valid: false; reason: string };

/** What a promise's message must look like in a proof. */
function isPromisedMessage(value: unknown): value is PromisedMessage {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Record<string, unknown>;
  return (
    isHex(message.from, 20) &&
    isHex(message.to, 20) &&
    isHex(message.messageHash, 32) &&
    Number.isSafeInteger(message.timestamp) &&
    (message.expires === undefined || Number.isSafeInteger(message.expires))
  );
}

/** The signer of a head, or undefined. */
function headSignerOf(head: MailboxHead): string | undefined {
  try {
    return signerOf(mailboxHeadDigest({ account: head.account as Hex, size: head.size, root: head.root as Hex, timestamp: head.timestamp }), head.signature);
  } catch {
    return undefined;
  }
}

/**
 * The proof that `node` broke its promise `promise` (a `LogReceipt` it signed) in `head`, when the
 * head's leaf at the promised position, `leafHash` with its `inclusion` proof, is not the promised
 * one and everything verifies; else undefined.
 */
export function brokenPromiseOf(node: string, account: string, promise: BrokenPromiseProof["promise"], head: MailboxHead, leafHash: string, inclusion: readonly string[]): BrokenPromiseProof | undefined {
  const proof: BrokenPromiseProof = { version: 1, kind: "broken-promise", node: node.toLowerCase(), account: account.toLowerCase(), promise, head, leafHash, inclusion: [...inclusion] };
  return verifyProof(proof).valid ? proof : undefined;
}

function verifyBrokenPromise(proof: Partial<Record<keyof BrokenPromiseProof, unknown>>, node: string, account: string): ProofVerdict {
  const invalid = (reason: string): ProofVerdict => ({ valid: false, reason });
  const { promise, head, leafHash, inclusion } = proof;
  if (typeof promise !== "object" || promise === null) return invalid("promise is the node's receipt: message, role, seq, signature");
  const { message, role, seq, signature } = promise as Record<string, unknown>;
  if (!isPromisedMessage(message)) return invalid("promise.message is the message's from, to, messageHash, timestamp (and expires)");
  if (role !== "sender" && role !== "receiver") return invalid('promise.role is "sender" or "receiver"');
  if (!Number.isSafeInteger(seq) || (seq as number) < 1) return invalid("promise.seq is a position, from 1");
  if (!isHead(head)) return invalid("head is a mailbox head (account, size, root, timestamp, signature)");
  if (!isHex(leafHash, 32) || !Array.isArray(inclusion) || !inclusion.every((hash) => isHex(hash, 32))) return invalid("leafHash and inclusion are 32-byte hashes");
  const party = (role === "sender" ? message.from : message.to).toLowerCase();
  if (party !== account.toLowerCase()) return invalid(`the promise is about ${party}'s log, not ${account}'s`);
  if (head.account.toLowerCase() !== account.toLowerCase()) return invalid(`head is ${head.account}'s log, not ${account}'s`);
  const position = seq as number;
  if (position > head.size) return invalid(`the head holds ${head.size} positions, not position ${position}`);
  let digest: Uint8Array;
  try {
    digest = hashedMessageDigest(message);
  } catch {
    return invalid("promise.message cannot be hashed");
  }
  if (signerOf(logReceiptDigest(toHex(digest), position, role), signature) !== node.toLowerCase()) return invalid(`the promise is not signed by ${node}`);
  if (headSignerOf(head) !== node.toLowerCase()) return invalid(`head is not signed by ${node}`);
  let root: Uint8Array;
  try {
    root = merkleRootFromInclusionProof(position - 1, head.size, fromHex(leafHash), inclusion.map((hash: string) => fromHex(hash)));
  } catch {
    return invalid("the inclusion proof does not fit the head's size");
  }
  if (toHex(root) !== String(head.root).toLowerCase()) return invalid(`the inclusion proof of leafHash at position ${position} does not lead to the head's root`);
  const promised = mailboxLeafHash({ account, seq: position, role: role === "sender" ? "sent" : "received", peer: role === "sender" ? message.to : message.from, digest });
  if (toHex(promised) === leafHash.toLowerCase()) return invalid(`not a broken promise: the head holds the promised message at position ${position}`);
  return {
    valid: true,
    kind: "broken-promise",
    node: node.toLowerCase(),
    account: account.toLowerCase(),
    message: `Node ${node} promised that position ${position} of ${account}'s log holds message ${toHex(digest)} (${role}), and signed a head of ${head.size} positions that holds another there`,
  };
}

/**
 * The proof for two heads of `node` for `account`, when they contradict each other and the proof
 * verifies (both signed by `node`); else undefined.
 */
export function misbehaviourOf(node: string, account: string, earlier: MailboxHead, later: MailboxHead): HeadsProof | undefined {
  const kind = contradiction(earlier, later);
  if (kind === undefined) return undefined;
  const proof: HeadsProof = { version: 1, kind, node: node.toLowerCase(), account: account.toLowerCase(), heads: [earlier, later] };
  return verifyProof(proof).valid ? proof : undefined;
}

/** How two heads of one log contradict each other, if they do. */
function contradiction(first: MailboxHead, second: MailboxHead): HeadsProof["kind"] | undefined {
  if (first.size === second.size && String(first.root).toLowerCase() !== String(second.root).toLowerCase()) return "fork";
  if (first.size > second.size && first.timestamp <= second.timestamp) return "rollback";
  return undefined;
}

/**
 * Checks a misbehaviour proof offline: both heads recover to `node` and are of `account`'s log, and
 * they contradict each other as `kind` says. Any JSON value may be given (a file a user was sent):
 * what is not a proof is `valid: false` with the reason, never an exception.
 */
export function verifyProof(proof: unknown): ProofVerdict {
  const invalid = (reason: string): ProofVerdict => ({ valid: false, reason });
  if (typeof proof !== "object" || proof === null) return invalid("a proof is a JSON object");
  const fields = proof as Partial<Record<keyof HeadsProof | keyof BrokenPromiseProof | keyof LogStatementProof, unknown>>;
  const { version, kind, node, account, heads } = fields;
  if (version !== 1) return invalid(`unknown proof version ${JSON.stringify(version)} (this SDK reads version 1)`);
  if (kind !== "rollback" && kind !== "fork" && kind !== "broken-promise" && kind !== "missing" && kind !== "altered" && kind !== "unproven-removal") {
    return invalid(`unknown kind ${JSON.stringify(kind)}: "rollback", "fork", "broken-promise", "missing", "altered" or "unproven-removal"`);
  }
  if (typeof node !== "string" || typeof account !== "string") return invalid("node and account are addresses");
  if (kind === "broken-promise") return verifyBrokenPromise(fields, node, account);
  if (kind === "missing" || kind === "altered" || kind === "unproven-removal") {
    const verdict = verifyLogStatementProof(fields, node, account);
    return verdict.valid ? { valid: true, kind, node: node.toLowerCase(), account: account.toLowerCase(), message: verdict.message } : verdict;
  }
  if (!Array.isArray(heads) || heads.length !== 2 || !heads.every(isHead)) return invalid("heads are two mailbox heads (account, size, root, timestamp, signature)");
  const [first, second] = heads as [MailboxHead, MailboxHead];
  for (const [index, head] of (heads as MailboxHead[]).entries()) {
    if (head.account.toLowerCase() !== account.toLowerCase()) return invalid(`heads[${index}] is ${head.account}'s log, not ${account}'s`);
    if (headSignerOf(head) !== node.toLowerCase()) return invalid(`heads[${index}] is not signed by ${node}`);
  }
  const found = contradiction(first, second);
  if (found !== kind) {
    return invalid(
      kind === "rollback"
        ? `not a rollback: heads[1] (size ${second.size}, signed at ${second.timestamp}) is not smaller than heads[0] (size ${first.size}) and signed no earlier`
        : "not a fork: the heads are not of the same size with different roots",
    );
  }
  const message =
    kind === "rollback"
      ? `Node ${node} signed ${first.size} positions of ${account}'s log at ${first.timestamp}, then ${second.size} at ${second.timestamp}: it rolled the log back`
      : `Node ${node} signed two different logs of ${first.size} positions for ${account}: roots ${first.root} and ${second.root}`;
  return { valid: true, kind, node: node.toLowerCase(), account: account.toLowerCase(), message };
}

function isHead(value: unknown): value is MailboxHead {
  if (typeof value !== "object" || value === null) return false;
  const head = value as Record<string, unknown>;
  return (
    typeof head.account === "string" &&
    Number.isSafeInteger(head.size) &&
    (head.size as number) >= 0 &&
    typeof head.root === "string" &&
    Number.isSafeInteger(head.timestamp) &&
    typeof head.signature === "string"
  );
}
