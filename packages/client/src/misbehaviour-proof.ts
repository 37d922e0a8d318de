// Portable proofs of a node's misbehaviour (the verifiable mailbox): two heads the node signed for
// one account that cannot both be true of an append-only log. Anyone checks one offline with
// `verifyProof`, with nothing but the proof: no node, no session, no key.
//   - rollback: the node signed a head of `size` N, and later (by its own timestamps) one smaller;
//     a log only grows (a deleted copy keeps its position), so the later head drops positions.
//   - fork: two heads of the same size with different roots: two histories of one log.
import { mailboxHeadDigest, type Hex } from "@neutral/protocol";
import { recoverAddress } from "./crypto/ecdsa.js";
import type { MailboxHead } from "./generated/types.js";

/** A node's two signed heads of one account's log that contradict each other. */
export interface MisbehaviourProof {
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

/** What `verifyProof` found: the misbehaviour proven, or why the proof proves nothing. */
export type ProofVerdict = { valid: true; kind: MisbehaviourProof["kind"]; node: string; account: string; message: string } | { valid: false; reason: string };

/**
 * The proof for two heads of `node` for `account`, when they contradict each other and the proof
 * verifies (both signed by `node`); else undefined.
 */
export function misbehaviourOf(node: string, account: string, earlier: MailboxHead, later: MailboxHead): MisbehaviourProof | undefined {
  const kind = contradiction(earlier, later);
  if (kind === undefined) return undefined;
  const proof: MisbehaviourProof = { version: 1, kind, node: node.toLowerCase(), account: account.toLowerCase(), heads: [earlier, later] };
  return verifyProof(proof).valid ? proof : undefined;
}

/** How two heads of one log contradict each other, if they do. */
function contradiction(first: MailboxHead, second: MailboxHead): MisbehaviourProof["kind"] | undefined {
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
  const { version, kind, node, account, heads } = proof as Partial<Record<keyof MisbehaviourProof, unknown>>;
  if (version !== 1) return invalid(`unknown proof version ${JSON.stringify(version)} (this SDK reads version 1)`);
  if (kind !== "rollback" && kind !== "fork") return invalid(`unknown kind ${JSON.stringify(kind)}: "rollback" or "fork"`);
  if (typeof node !== "string" || typeof account !== "string") return invalid("node and account are addresses");
  if (!Array.isArray(heads) || heads.length !== 2 || !heads.every(isHead)) return invalid("heads are two mailbox heads (account, size, root, timestamp, signature)");
  const [first, second] = heads as [MailboxHead, MailboxHead];
  for (const [index, head] of (heads as MailboxHead[]).entries()) {
    if (head.account.toLowerCase() !== account.toLowerCase()) return invalid(`heads[${index}] is ${head.account}'s log, not ${account}'s`);
    let signer: string | undefined;
    try {
      const digest = mailboxHeadDigest({ account: head.account as Hex, size: head.size, root: head.root as Hex, timestamp: head.timestamp });
      signer = recoverAddress(digest, head.signature);
    } catch {
      signer = undefined;
    }
    if (signer !== node.toLowerCase()) return invalid(`heads[${index}] is not signed by ${node}`);
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
