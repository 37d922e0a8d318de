// Checking what a node answers about an account's mailbox log (openrpc.json "The verifiable
// mailbox"): that the head is the node's, that it extends the last head this device verified (no
// rollback, no fork), and that every message a read returned sits in its tree at the position the
// node claims, with the leaf its fields give. Pure: the node is asked in actions/proveMessages.ts.
import { fromHex, mailboxHeadDigest, mailboxLeafHash, statedPosition, toHex, verifyMerkleConsistency, verifyMerkleInclusion, verifyMerkleMultiproof, type Hex } from "@neutral/protocol";
import { recoverAddress } from "./crypto/ecdsa.js";
import type { MailboxHead, MailboxProof, Message, ProvenPosition } from "./generated/types.js";
import { messageDigest } from "./messages.js";
import { misbehaviourOf, type MisbehaviourProof } from "./misbehaviour-proof.js";
import { RpcError } from "./rpc.js";

/**
 * What is wrong, at which position:
 * - `forged-head`: the head is not the node's signature over it, or is another account's;
 * - `rollback`: the head is smaller than one this device verified before;
 * - `fork`: the head does not extend the one verified before (the consistency proof fails);
 * - `missing`: a message a read returned has no position in the log;
 * - `altered`: a message's fields do not give the leaf at its position;
 * - `unproven`: a position's inclusion proof does not lead to the head's root (or, in an audit, the
 *   log's positions do not give it);
 * - `reordered` (an audit): the log skips or repeats a position;
 * - `unproven-removal` (an audit): a position says its copy is gone for a reason that does not hold.
 * `missing` in an audit: a position with neither its message nor a reason it is gone.
 */
export type MailboxProblemKind = "forged-head" | "rollback" | "fork" | "missing" | "altered" | "unproven" | "reordered" | "unproven-removal";

export interface MailboxProblem {
  kind: MailboxProblemKind;
  /** The position concerned, when there is one. */
  seq?: number;
  /** The message concerned, when there is one. */
  id?: string;
  /** In words. */
  message: string;
  /**
   * For a `rollback` or a `fork` shown by two heads the node signed (the one this device verified
   * and the new one), the portable proof: `verifyProof(proof)` checks it offline.
   */
  proof?: MisbehaviourProof;
}

/** A head this device has verified: what the next one must extend. */
export type VerifiedHead = MailboxHead;

export interface MailboxCheck {
  /** The account whose log it is (lowercase). */
  account: string;
  /** The node that must have signed the head (lowercase). */
  node: string;
  /** The node's answer to `neutralService_getProof`. */
  proof: MailboxProof;
  /** The messages the read returned, as served. */
  messages: readonly Pick<Message, "id" | "from" | "to" | "message" | "timestamp" | "expires" | "sender_seq" | "receiver_seq">[];
  /** The last head this device verified for the account at that node, if any. */
  known?: VerifiedHead;
  /**
   * The proof was asked with `omitBound` (a read's compact proof, spec 3.3.0): it lists no position a
   * message states itself (`receiver_seq`, `sender_seq`), which is taken from the message. Else a
   * copy whose position is not listed is `missing`.
   */
  omitBound?: boolean;
}

/** The EIP-712 digest of a head as the wire carries it, which the node signs (@neutral/protocol `mailboxHeadDigest`). */
export const headDigest = (head: MailboxHead): Uint8Array =>
  mailboxHeadDigest({ account: head.account as Hex, size: head.size, root: head.root as Hex, timestamp: head.timestamp });

/** Who signed `head` (lowercase), or undefined when its fields do not even encode or its signature is not one. */
export function headSigner(head: MailboxHead): string | undefined {
  try {
    return recoverAddress(headDigest(head), head.signature);
  } catch {
    return undefined;
  }
}

/** Every problem with `check.proof`; none means the head is the node's, extends `known`, and proves every message. */
export function mailboxProblems(check: MailboxCheck): MailboxProblem[] {
  const { account, node, proof, messages, known } = check;
  // Positions are taken from the messages only where a multiproof proves them: a position listed has its own proof.
  const stated = check.omitBound === true && proof.multiproof !== undefined;
  const { head } = proof;
  if (head.account.toLowerCase() !== account) return [{ kind: "forged-head", message: `The head is ${head.account}'s log, not ${account}'s` }];
  if (recoverAddress(headDigest(head), head.signature, node) !== node) return [{ kind: "forged-head", message: `The head of ${account}'s log is not signed by its node ${node}` }];
  const problems: MailboxProblem[] = [];
  if (known !== undefined) problems.push(...historyProblems(node, account, known, head, proof.consistency));
  const positions = new Map<string, MailboxProof["positions"]>();
  for (const position of proof.positions) positions.set(position.id, [...(positions.get(position.id) ?? []), position]);
  let root: Uint8Array;
  try {
    root = fromHex(head.root);
  } catch (error) {
    return [{ kind: "forged-head", message: `The head's root is not a hash: ${reason(error)}` }];
  }
  // Each copy's leaf, from its message's fields; with a multiproof, checked together once all are
  // known, the positions the messages state (`omitBound`, spec 3.3.0) among them.
  const leaves: ProvenLeaf[] = [];
  for (const message of messages) {
    const roles = [...(message.to.toLowerCase() === account ? ["received" as const] : []), ...(message.from.toLowerCase() === account ? ["sent" as const] : [])];
    const claimed = positions.get(message.id) ?? [];
    for (const role of roles) {
      const listed = claimed.find((one) => one.role === role);
      const seq = listed?.seq ?? (stated ? statedPosition(message, role) : undefined);
      if (seq === undefined) {
        problems.push({ kind: "missing", id: message.id, message: `Message ${message.id} (${role}) has no position in the log of ${head.size}` });
        continue;
      }
      const digest = messageDigest(message);
      const peer = role === "received" ? message.from : message.to;
      const leaf = digest && mailboxLeafHash({ account, seq, role, peer, digest });
      if (leaf === undefined || (listed !== undefined && toHex(leaf) !== String(listed.leafHash).toLowerCase())) {
        problems.push({ kind: "altered", seq, id: message.id, message: `Message ${message.id} is not what position ${seq} of the log holds` });
        continue;
      }
      leaves.push({ seq, id: message.id, leaf, ...(listed !== undefined && { listed }) });
    }
  }
  if (proof.multiproof !== undefined) problems.push(...multiproofProblems(proof, root, leaves));
  else {
    // Without a multiproof every position is listed, with its own inclusion proof.
    for (const { seq, id, leaf, listed } of leaves) {
      try {
        verifyMerkleInclusion(seq - 1, head.size, leaf, (listed?.proof ?? []).map(fromHex), root);
      } catch (error) {
        problems.push({ kind: "unproven", seq, id, message: `Position ${seq} (message ${id}) is not in the head's tree: ${reason(error)}` });
      }
    }
  }
  return problems;
}

/** A copy's leaf from its message's fields, at the position `positions` lists (`listed`) or, not listed, the one the message states. */
interface ProvenLeaf {
  seq: number;
  id: string;
  leaf: Uint8Array;
  listed?: ProvenPosition;
}

/**
 * Whether a compact proof's multiproof shows every position in the head's tree: those of the
 * messages with the leaves their fields give (`leaves`, the positions they state included), the
 * others it lists with the leaf hash listed. It proves all or none: when it fails, every message's
 * copy is unproven.
 */
function multiproofProblems(proof: MailboxProof, root: Uint8Array, leaves: readonly ProvenLeaf[]): MailboxProblem[] {
  const computed = new Map(leaves.flatMap(({ listed, leaf }) => (listed === undefined ? [] : [[listed, leaf] as const])));
  try {
    const proven = [
      ...proof.positions.map((position) => ({ index: position.seq - 1, hash: computed.get(position) ?? fromHex(position.leafHash) })),
      ...leaves.filter(({ listed }) => listed === undefined).map(({ seq, leaf }) => ({ index: seq - 1, hash: leaf })),
    ];
    if (proven.length > 0) verifyMerkleMultiproof(proof.head.size, proven, proof.multiproof!.map(fromHex), root);
    return [];
  } catch (error) {
    return leaves.map(({ seq, id }) => ({ kind: "unproven", seq, id, message: `Position ${seq} (message ${id}) is not in the head's tree: ${reason(error)}` }));
  }
}

/** Whether `head` extends `known`: not smaller, and consistent with it. */
function historyProblems(node: string, account: string, known: VerifiedHead, head: MailboxHead, consistency: readonly string[] | undefined): MailboxProblem[] {
  const proof = misbehaviourOf(node, account, known, head);
  const withProof = (problem: MailboxProblem): MailboxProblem[] => [proof ? { ...problem, proof } : problem];
  if (head.size < known.size) {
    return withProof({ kind: "rollback", seq: head.size + 1, message: `The node shows ${head.size} positions; this device verified ${known.size} before` });
  }
  if (known.size === 0) return []; // nothing to extend
  try {
    verifyMerkleConsistency(known.size, head.size, fromHex(known.root), fromHex(head.root), (consistency ?? []).map(fromHex));
    return [];
  } catch (error) {
    return withProof({ kind: "fork", seq: known.size, message: `The head of ${head.size} does not extend the one of ${known.size} verified before: ${reason(error)}` });
  }
}

/** Whether `error` is a node refusing the request's param (or member) named `field` (-32602 naming it). */
const refusedParam = (error: unknown, field: string): boolean =>
  error instanceof RpcError && error.code === -32602 && (error.data as { field?: unknown } | undefined)?.field === field;

/**
 * Whether `error` is a node refusing the size of the last head this device verified (`since`,
 * named `field`): its log is smaller, so it cannot prove that head. Asked again without it, the
 * check names the rollback.
 */
export const refusedSince = refusedParam;

/** The form a proof is asked in: one multiproof (`compact`, spec 3.1.0), and the positions the messages state left out (`omitBound`, spec 3.3.0; reads only). */
export interface ProofForm {
  compact: boolean;
  omitBound: boolean;
}

/**
 * Asks for a proof with `ask(form, since)`: compact (one multiproof, spec 3.1.0) unless the node
 * refused that before in this session, with `omitBound` too (spec 3.3.0) where `fields.omitBound`
 * names it (a read) and the node has not refused it, and from `since`, the size of the last head
 * this device verified. A node before 3.1.0 refuses `compact` (naming one of `fields.compact`: the
 * member, or the params when it is one positional param too many; the session then asks per
 * position from then on), one before 3.3.0 refuses `omitBound` (the session asks without it from
 * then on), and a node whose log is smaller than `since` refuses that (`fields.since`): it is asked
 * again without it, and the check names the rollback.
 */
export async function askProof<T>(
  cache: { compactRefused: boolean; omitBoundRefused: boolean },
  fields: { compact: readonly string[]; omitBound?: string; since: string },
  since: number | undefined,
  ask: (form: ProofForm, since: number | undefined) => Promise<T>,
): Promise<T> {
  let from = since !== undefined && since > 0 ? since : undefined;
  for (;;) {
    const compact = !cache.compactRefused;
    const omitBound = compact && fields.omitBound !== undefined && !cache.omitBoundRefused;
    try {
      return await ask({ compact, omitBound }, from);
    } catch (error) {
      if (compact && fields.compact.some((field) => refusedParam(error, field))) cache.compactRefused = true;
      else if (omitBound && refusedParam(error, fields.omitBound!)) cache.omitBoundRefused = true;
      else if (from !== undefined && refusedParam(error, fields.since)) from = undefined;
      else throw error;
    }
  }
}

/** Why a proof failed, in words: a MerkleProofError, or hex that is not hex. */
const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));
