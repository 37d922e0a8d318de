// An export's mailbox log (format neutral-mailbox version 2, spec 2.10.0), checked offline as an
// audit checks it online (mailbox-audit.ts): the former node's signed head, then every position up to
// its size, each accounted for by its message or by why its copy is gone, the positions giving the
// head's root, and the head extending the last one a device verified at that node. What a move
// carries, so that the history brought along is provably the history that was there.
import { EMPTY_MERKLE_FRONTIER, fromHex, isHex, merkleFrontierAppend, merkleFrontierRoot, toHex, type MerkleFrontier } from "@neutral/protocol";
import type { LogPosition, MailboxHead } from "./generated/types.js";
import { checkPosition, type Accounting, type RemovalContext } from "./mailbox-audit.js";
import { headSigner, type MailboxProblemKind } from "./mailbox-proof.js";
import { misbehaviourOf, type MisbehaviourProof } from "./misbehaviour-proof.js";

/** A problem of the log: its position and kind (as an audit names them), in words. */
export interface LogProblem {
  kind: MailboxProblemKind;
  /** The position concerned, when there is one. */
  seq?: number;
  message: string;
  /** For a rollback or a fork of two heads the former node signed: the portable proof (`verifyProof`). */
  proof?: MisbehaviourProof;
}

export interface LogCheckOptions {
  /** The account whose log it is, and the node that signed the head (lowercase). */
  account: string;
  node: string;
  head: MailboxHead;
  /** The node's retention and clock window when the export was made, and when that was. */
  retentionSeconds: number;
  clockSkewMs: number;
  exportedAt: number;
  /** The last head a device verified for the account at that node: the log must extend it. */
  known?: MailboxHead;
}

export interface LogCheck {
  /** Checks the next position line: what is wrong with it (none when it is accounted for). */
  position(value: unknown): LogProblem[];
  /** The problems of the log as a whole, once every line was read. */
  finish(): LogProblem[];
  /** How the positions read were accounted for. */
  readonly accounted: Record<Accounting, number>;
  /** Positions read. */
  readonly read: number;
  /** False once a position was skipped or repeated: the positions after it are not checked. */
  readonly intact: boolean;
}

/** A checker for the positions of an export's log, in order, against `options.head`. */
export function logCheck(options: LogCheckOptions): LogCheck {
  const { account, node, head, known } = options;
  const removals: RemovalContext = {
    retentionSeconds: options.retentionSeconds,
    clockSkewMs: options.clockSkewMs,
    now: options.exportedAt,
    earlier: known === undefined ? [] : [known],
    signers: new Map(),
  };
  const accounted: Record<Accounting, number> = { message: 0, deleted: 0, expired: 0, retention: 0 };
  let frontier: MerkleFrontier = EMPTY_MERKLE_FRONTIER;
  let read = 0;
  /** Set when the positions skip or repeat one: the root is then not compared (the break is the problem). */
  let broken = false;
  return {
    get accounted() {
      return accounted;
    },
    get read() {
      return read;
    },
    get intact() {
      return !broken;
    },
    position(value) {
      read++;
      const found: LogProblem[] = [];
      const position = value as LogPosition;
      const expected = frontier.size + 1;
      if (broken) return found;
      if (typeof position !== "object" || position === null || position.seq !== expected) {
        broken = true;
        found.push({ kind: "reordered", seq: expected, message: `Position ${expected} is not next in the export` });
        return found;
      }
      if (!isHex(position.leafHash, 32)) {
        broken = true;
        found.push({ kind: "altered", seq: expected, message: `Position ${expected}'s leaf hash is not a hash` });
        return found;
      }
      let check: ReturnType<typeof checkPosition>;
      try {
        check = checkPosition(account, position, removals);
      } catch {
        check = { problem: { kind: "altered", seq: expected, message: `Position ${expected} is malformed` } };
      }
      if (check.problem) found.push(check.problem);
      else if (check.accounting) accounted[check.accounting]++;
      frontier = merkleFrontierAppend(frontier, fromHex(position.leafHash));
      if (known !== undefined && frontier.size === known.size && toHex(merkleFrontierRoot(frontier)) !== String(known.root).toLowerCase()) {
        const proof = misbehaviourOf(node, account, known, head);
        found.push({ kind: "fork", seq: known.size, message: `The export's first ${known.size} positions do not give the head of ${known.size} verified at ${node}`, ...(proof && { proof }) });
      }
      return found;
    },
    finish() {
      const found: LogProblem[] = [];
      const signer = String(head.account).toLowerCase() === account ? headSigner(head) : undefined;
      if (signer !== node) return [{ kind: "forged-head", message: `The export's head is not ${node}'s signature over ${account}'s log` }];
      // A larger head verified before the export's was signed: the log was cut short since. (One
      // verified after it only shows that the export is older than what the device has seen.)
      if (known !== undefined && known.size > head.size && known.timestamp <= head.timestamp) {
        const proof = misbehaviourOf(node, account, known, head);
        found.push({ kind: "rollback", seq: head.size + 1, message: `The export's head has ${head.size} positions; ${known.size} were verified at ${node}`, ...(proof && { proof }) });
      }
      if (!broken && (frontier.size !== head.size || toHex(merkleFrontierRoot(frontier)) !== String(head.root).toLowerCase())) {
        found.push({ kind: "unproven", seq: frontier.size, message: `The export's ${frontier.size} positions do not give the root of its head of ${head.size}` });
      }
      return found;
    },
  };
}
