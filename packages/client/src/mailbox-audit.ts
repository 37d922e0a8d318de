// Accounting for every position of an account's mailbox log (openrpc.json "The verifiable mailbox",
// `neutralService_getLog` with `messages`): each position holds a message whose fields give its
// leaf, or says why its copy is gone with what makes that checkable (`LogRemoval`). Pure: the walk
// and the signature checks that need the network are in actions/audit.ts.
import { deletionRequestDigest, expiredMessageDigest, mailboxLeafHash, toHex } from "@neutral/protocol";
import { recoverAddress } from "./crypto/ecdsa.js";
import type { LogPosition, LogRemoval, MailboxHead } from "./generated/types.js";
import type { MailboxProblem } from "./mailbox-proof.js";
import { messageDigest } from "./messages.js";

/** How a position was accounted for: by its message, or by why its copy is gone. */
export type Accounting = "message" | LogRemoval["reason"];

/** What the checks of a removal need to know of the node and of this device. */
export interface RemovalContext {
  /** The node's `nodeInfo.limits`: its retention (0: none) and clock window. */
  retentionSeconds: number;
  clockSkewMs: number;
  /** This device's clock, ms since the epoch. */
  now: number;
  /**
   * Heads this device verified before: a position past one's size was stored after it was signed,
   * so the retention cannot have removed it before that head's `timestamp` plus the retention.
   */
  earlier: readonly MailboxHead[];
  /**
   * Who signed each deletion request met so far, by the request (its signature, timestamp and
   * ids): one request removes up to 100 positions, and its signature is recovered once.
   */
  signers?: Map<string, string | undefined>;
}

export interface PositionCheck {
  /** How the position is accounted for; undefined when it is not (then `problem` says why). */
  accounting?: Accounting;
  problem?: MailboxProblem;
}

/** The leaf hash `position` should have for a message of `from` to `to`, or undefined when the account is neither party the role says. */
function leafOf(account: string, position: LogPosition, from: string, to: string, digest: Uint8Array): string | undefined {
  const [self, peer] = position.role === "received" ? [to, from] : [from, to];
  if (self.toLowerCase() !== account) return undefined;
  return toHex(mailboxLeafHash({ account, seq: position.seq, role: position.role, peer, digest }));
}

/**
 * Checks one position of `account`'s log: its message gives its leaf (the message's signature and
 * receipts are for the caller to check), or its removal holds. A position with neither is missing.
 */
export function checkPosition(account: string, position: LogPosition, context: RemovalContext): PositionCheck {
  const { seq, id } = position;
  const leafHash = String(position.leafHash).toLowerCase();
  if (position.message !== undefined) {
    const message = position.message;
    const digest = messageDigest(message);
    if (message.id !== id || digest === undefined || leafOf(account, position, message.from, message.to, digest) !== leafHash) {
      return { problem: { kind: "altered", seq, id, message: `The message served at position ${seq} (id ${message.id}) is not what the position holds` } };
    }
    return { accounting: "message" };
  }
  if (position.removed === undefined) {
    return { problem: { kind: "missing", seq, id, message: `Position ${seq} (message ${id}) has no message and no reason it is gone` } };
  }
  let problem: string | undefined;
  try {
    problem = removalProblem(account, position, position.removed, leafHash, context);
  } catch {
    problem = `Position ${seq}'s reason its copy is gone is malformed`; // what a lying node can send: fields missing or of the wrong type
  }
  return problem === undefined ? { accounting: position.removed.reason } : { problem: { kind: "unproven-removal", seq, id, message: problem } };
}

/** Why `removal` does not account for `position`, in words; undefined when it does. */
function removalProblem(account: string, position: LogPosition, removal: LogRemoval, leafHash: string, context: RemovalContext): string | undefined {
  const { seq, id } = position;
  switch (removal.reason) {
    case "deleted": {
      const { request } = removal;
      if (request.account.toLowerCase() !== account) return `Position ${seq}'s deletion request is ${request.account}'s, not ${account}'s`;
      const leaves = request.leaves?.map((leaf) => String(leaf).toLowerCase());
      if (leaves !== undefined) {
        // A request that names its positions: the position's own leaf (which commits to its seq) must be one.
        if (!leaves.includes(leafHash)) return `Position ${seq}'s deletion request does not name its leaf`;
      } else {
        // A request signed before spec 2.10.0 names ids only, which the leaf does not bind: a node applies
        // none older than its clock window, so one made before a head that shows the position not yet
        // stored (by more than the window) did not delete it.
        if (!request.ids.includes(id)) return `Position ${seq}'s deletion request does not name message ${id}`;
        const refuting = context.earlier.find((earlier) => seq > earlier.size && request.timestamp + context.clockSkewMs < earlier.timestamp);
        if (refuting !== undefined) {
          return `Position ${seq} was stored after a head of ${refuting.size} positions signed at ${new Date(refuting.timestamp).toISOString()}; the deletion request it cites was made at ${new Date(request.timestamp).toISOString()}, before it`;
        }
      }
      const key = `${request.signature}/${request.timestamp}/${request.ids.join(",")}/${leaves?.join(",") ?? ""}`;
      let signer = context.signers?.get(key);
      if (signer === undefined) {
        try {
          signer = recoverAddress(deletionRequestDigest({ ...request, account, ...(leaves !== undefined && { leaves }) }), request.signature);
        } catch {
          signer = undefined;
        }
        context.signers?.set(key, signer);
      }
      return signer === account ? undefined : `Position ${seq}'s deletion request is not ${account}'s signature`;
    }
    case "expired": {
      const { message } = removal;
      let leaf: string | undefined;
      try {
        leaf = leafOf(account, position, message.from, message.to, expiredMessageDigest(message));
      } catch {
        leaf = undefined;
      }
      if (leaf !== leafHash) return `What position ${seq} keeps of its expired message does not give its leaf`;
      if (message.expires > context.now + context.clockSkewMs) return `Position ${seq}'s message expires at ${new Date(message.expires).toISOString()}: it has not ended yet`;
      return undefined;
    }
    case "retention": {
      // The retention the page says the node applied (spec 3.2.0), else the one it publishes.
      const retentionSeconds = removal.retentionSeconds ?? context.retentionSeconds;
      if (retentionSeconds <= 0) return `Position ${seq} is said to be removed by the retention, but the node keeps messages until their owners delete them`;
      const retentionMs = retentionSeconds * 1000;
      const refuting = context.earlier.find((earlier) => seq > earlier.size && context.now + context.clockSkewMs < earlier.timestamp + retentionMs);
      if (refuting === undefined) return undefined;
      return `Position ${seq} is said to be removed by the retention, but it was stored after ${new Date(refuting.timestamp).toISOString()} (a head of ${refuting.size} positions) and the retention is ${retentionSeconds} s`;
    }
    default:
      // A reason the protocol does not have accounts for nothing: a node could name anything.
      return `Position ${seq}'s reason ${JSON.stringify((removal as { reason?: unknown }).reason)} is not one a node may give`;
  }
}
