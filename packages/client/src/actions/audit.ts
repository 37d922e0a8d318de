import { EMPTY_MERKLE_FRONTIER, fromHex, isHex, mailboxLeafHash, merkleFrontierAppend, merkleFrontierRoot, toHex, type MerkleFrontier } from "@neutral/protocol";
import type { AuditState, NeutralContext } from "../context.js";
import { recoverAddress } from "../crypto/ecdsa.js";
import type { RequestErrorType } from "../errors.js";
import type { LogPage, LogPosition, MailboxHead, Message, NodeInfo } from "../generated/types.js";
import { logStatementProofOf, type LogStatementProof } from "../log-statement-proof.js";
import { checkPosition, type Accounting, type RemovalContext } from "../mailbox-audit.js";
import { headSigner, type MailboxProblem } from "../mailbox-proof.js";
import { isPosition, messageDigest, receiptDigest } from "../messages.js";
import { homeNode } from "../session/homes.js";
import { brokenPromiseOf, misbehaviourOf } from "../misbehaviour-proof.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import type { CallOptions } from "../rpc.js";
import { authed } from "../session/authed.js";

export interface AuditOptions extends CallOptions {
  /** Positions per log read (1 to 1000; default 500): fewer when their messages are large (the node cuts a page to its answer budget). */
  pageSize?: number;
  /** Account for the whole log again from position 1, not only what came since the last audit. */
  full?: boolean;
}

export interface AuditReturnType {
  /** The node's head the audit ended at: every position up to its size read. */
  head: MailboxHead;
  /** The first position this audit read (the one after those audited before) and the last (`head.size`): none when `from > to`. */
  from: number;
  to: number;
  /** How the positions read were accounted for: by their message, or by why their copy is gone. */
  accounted: Record<Accounting, number>;
  /** Empty when every position is accounted for and the positions give the head; each names its position. */
  problems: MailboxProblem[];
}
export type AuditErrorType = RequestErrorType;

const DEFAULT_PAGE_SIZE = 500;

/**
 * Accounts for every position of the account's mailbox log from the last audited one to the node's
 * head (the verifiable mailbox): each position's message gives its leaf and carries its sender's
 * signature and receipts signed by nodes that could have stored it, or the position says why its copy is gone (the account's signed deletion, the
 * sender's signed end, the node's retention) and the reason holds; the positions give the head's
 * root, and the head extends the one this device verified and the last audit's. With no problem,
 * the next audit starts after `to` (`NeutralOptions.audits`) and the head becomes the verified one.
 */
export async function audit(context: NeutralContext, options: AuditOptions = {}): Promise<AuditReturnType> {
  const [account, info] = await Promise.all([context.signer.getAddress(), context.nodeInfo()]);
  const node = info.address.toLowerCase();
  const pageSize = Math.max(1, Math.min(1000, Math.trunc(options.pageSize ?? DEFAULT_PAGE_SIZE)));
  const [state, known] = await Promise.all([options.full ? undefined : context.audits.get(account, node), context.heads.get(account, node)]);
  let frontier: MerkleFrontier = state === undefined ? EMPTY_MERKLE_FRONTIER : { size: state.size, roots: state.roots.map(fromHex) };
  const from = frontier.size + 1;
  const removals: RemovalContext = {
    retentionSeconds: info.limits.retentionSeconds ?? 0,
    clockSkewMs: info.limits.clockSkewMs,
    now: context.now(),
    earlier: [state?.head, known].filter((head): head is MailboxHead => head !== undefined),
    signers: new Map(),
  };
  const accounted: Record<Accounting, number> = { message: 0, deleted: 0, expired: 0, retention: 0 };
  const problems: MailboxProblem[] = [];
  const messages: { seq: number; role: "received" | "sent"; message: Message; page: LogPage; from: number; position: LogPosition }[] = [];
  /** The leaf hash and id of each position this walk read: what a receipt bound to another position is checked against. */
  const leaves = new Map<number, { leaf: string; id: string }>();
  // Whether the device's verified head was met on the way (its size reached by a position this walk
  // read): then the positions give its root, or the node showed this device another history.
  let knownChecked = known === undefined || (state !== undefined && known.size === state.size && sameRoot(known.root, state.head.root));
  const passKnown = () => {
    if (known === undefined || frontier.size !== known.size) return;
    knownChecked = true;
    if (toHex(merkleFrontierRoot(frontier)) !== String(known.root).toLowerCase()) {
      problems.push({ kind: "fork", seq: known.size, message: `The log's first ${known.size} positions do not give the head of ${known.size} this device verified before` });
    }
  };
  let head: MailboxHead | undefined;
  let prior: readonly MailboxHead[] = [];
  // A log that skips or repeats a position cannot give the head: the walk stops there, and the
  // head is not compared with the positions read (the break is the problem).
  let broken = false;
  /** The problems of what a signed page said of a position (no message and no reason, a message that is not the position's or not its sender's, a reason that does not hold), with that page: each may get its portable proof. */
  const stated: { problem: MailboxProblem; page: LogPage; from: number; position: LogPosition }[] = [];
  walk: for (;;) {
    const pageFrom = frontier.size + 1;
    const page = await authed(context, () => context.client.getLog({ from: pageFrom, limit: pageSize, messages: true }, options));
    head = page.head;
    prior = Array.isArray(page.prior) ? page.prior : [];
    for (const position of page.entries) {
      if (position.seq !== frontier.size + 1) {
        problems.push({ kind: "reordered", seq: frontier.size + 1, message: `The log goes from position ${frontier.size} to ${position.seq}` });
        broken = true;
        break walk;
      }
      const leaf = hashOf(position.leafHash);
      if (leaf === undefined) {
        problems.push({ kind: "altered", seq: position.seq, message: `Position ${position.seq}'s leaf hash is not a hash` });
        broken = true;
        break walk;
      }
      const check = checkPosition(account, position, removals);
      if (check.problem) {
        problems.push(check.problem);
        if (check.problem.kind === "missing" || check.problem.kind === "altered" || check.problem.kind === "unproven-removal") stated.push({ problem: check.problem, page, from: pageFrom, position });
      }
      else if (check.accounting) accounted[check.accounting]++;
      if (check.accounting === "message") messages.push({ seq: position.seq, role: position.role, message: position.message!, page, from: pageFrom, position });
      leaves.set(position.seq, { leaf: toHex(leaf), id: position.id });
      frontier = merkleFrontierAppend(frontier, leaf);
      passKnown();
    }
    // Past the head's size is past what the node signed: the walk ends there whatever `end` says.
    if (page.end || page.entries.length === 0 || frontier.size >= page.head.size) break;
  }
  problems.push(...headProblems(node, account, head!, broken ? undefined : frontier, state?.head, known));
  problems.push(...(await priorProblems(context, account, prior)));
  // The sender's signature of each message read: its leaf binds its digest, the signature its author.
  // Its receipts: the leaf does not bind them, so each must be a signature of this message, in its
  // role, by a node that could have stored it (`receiptSigners`).
  const signers = receiptSigners(context, node, info, prior);
  for (const { seq, role: copyRole, message, page, from: pageFrom, position } of messages) {
    const digest = messageDigest(message);
    if (digest === undefined || recoverAddress(digest, message.signature, message.from) !== message.from.toLowerCase()) {
      const problem: MailboxProblem = { kind: "altered", seq, id: message.id, message: `The message at position ${seq} (id ${message.id}) does not carry its sender's signature` };
      problems.push(problem);
      stated.push({ problem, page, from: pageFrom, position });
      continue;
    }
    for (const role of ["sender", "receiver"] as const) {
      const [receipt, bound] = role === "sender" ? [message.sender_receipt, message.sender_seq] : [message.receiver_receipt, message.receiver_seq];
      if (receipt === undefined && role === "receiver") continue; // not delivered yet, or failed: no receipt is no lie
      if (await signers.signed(role, digest, receipt, role === "sender" ? message.from : message.to, bound)) {
        const problem = boundPositionProblem(account, node, seq, copyRole, role, message, digest, bound, leaves);
        if (problem) problems.push(await withPromiseProof(context, options, account, node, problem, message, role, leaves.get(problem.seq!)?.id));
        continue;
      }
      problems.push({ kind: "altered", seq, id: message.id, message: `The ${role} receipt of the message at position ${seq} (id ${message.id}) is not a node's signature of it` });
    }
  }
  // What a signed page said of a position is the node's word: each such problem gets its proof.
  for (const { problem, page, from: pageFrom, position } of stated) {
    const proof = logStatementProofOf(node, account, problem.kind as LogStatementProof["kind"], page, pageFrom, position, removals.earlier);
    if (proof) problem.proof = proof;
  }
  if (problems.length === 0) {
    const audited: AuditState = { size: frontier.size, roots: frontier.roots.map(toHex), head };
    await context.audits.set(account, node, audited);
    if (knownChecked && (known === undefined || head.size >= known.size)) await context.heads.set(account, node, head);
  }
  return { head, from, to: frontier.size, accounted, problems };
}

/** The problems of the head a walk ended at: not the node's, not this log's, smaller than one verified before, or not what the positions read (`frontier`) give. */
function headProblems(node: string, account: string, head: MailboxHead, frontier: MerkleFrontier | undefined, audited: MailboxHead | undefined, known: MailboxHead | undefined): MailboxProblem[] {
  if (String(head.account).toLowerCase() !== account) return [{ kind: "forged-head", message: `The head is ${head.account}'s log, not ${account}'s` }];
  if (headSigner(head) !== node) return [{ kind: "forged-head", message: `The head of ${account}'s log is not signed by its node ${node}` }];
  for (const earlier of [audited, known]) {
    if (earlier === undefined || head.size > earlier.size) continue;
    const proof = misbehaviourOf(node, account, earlier, head);
    if (head.size < earlier.size) {
      return [{ kind: "rollback", seq: head.size + 1, message: `The node shows ${head.size} positions; ${earlier.size} were verified before`, ...(proof && { proof }) }];
    }
    if (!sameRoot(head.root, earlier.root)) {
      return [{ kind: "fork", seq: head.size, message: `The node signed two trees of ${head.size} positions: another history than the one verified before`, ...(proof && { proof }) }];
    }
  }
  if (frontier !== undefined && (frontier.size !== head.size || toHex(merkleFrontierRoot(frontier)) !== String(head.root).toLowerCase())) {
    return [{ kind: "unproven", seq: frontier.size, message: `The log's ${frontier.size} positions do not give the root of the node's head of ${head.size}` }];
  }
  return [];
}

/**
 * The account's log at its former homes, as the node answers it (`LogPage.prior`: the heads its
 * imports brought), against the heads this device verified at those nodes: a smaller one signed
 * after a larger one this device verified is a history cut short before the move, one of the same
 * size with another root another history. Each
 * is two heads the former node signed, so the problem carries the portable proof. A head whose
 * signer this device never verified at is not checked.
 */
async function priorProblems(context: NeutralContext, account: string, prior: readonly MailboxHead[]): Promise<MailboxProblem[]> {
  const problems: MailboxProblem[] = [];
  for (const former of prior) {
    const node = String(former.account).toLowerCase() === account ? headSigner(former) : undefined;
    const verified = node === undefined ? undefined : await context.heads.get(account, node);
    if (node === undefined || verified === undefined || former.size > verified.size) continue;
    const proof = misbehaviourOf(node, account, verified, former);
    if (former.size < verified.size) {
      // Smaller, and signed after the larger one this device verified: the history was cut short. (One
      // signed before it is an older export: what came since was not brought along, which is no lie.)
      if (verified.timestamp > former.timestamp) continue;
      problems.push({ kind: "rollback", seq: former.size + 1, message: `The history brought from ${node} ends at ${former.size} positions; this device verified ${verified.size} there before`, ...(proof && { proof }) });
    } else if (!sameRoot(former.root, verified.root)) {
      problems.push({ kind: "fork", seq: former.size, message: `The history brought from ${node} is another tree of ${former.size} positions than the one this device verified there`, ...(proof && { proof }) });
    }
  }
  return problems;
}

/**
 * Who may have signed a message's receipts: this node, its peers, the nodes the app trusts
 * (`trustedNodes`), the account's former homes (the heads its imports brought), and, as reads judge
 * them, the party's home node as its record names it now (asked once per account).
 */
function receiptSigners(context: NeutralContext, node: string, info: NodeInfo, prior: readonly MailboxHead[]) {
  const known = new Set([node, ...context.trustedNodes, ...(info.peers ?? []).flatMap((peer) => (peer.address ? [peer.address.toLowerCase()] : []))]);
  for (const former of prior) {
    const signer = headSigner(former);
    if (signer !== undefined) known.add(signer);
  }
  return {
    async signed(role: "sender" | "receiver", digest: Uint8Array, receipt: unknown, party: string, seq: unknown): Promise<boolean> {
      let signer: string | undefined;
      try {
        if (seq !== undefined && !isPosition(seq)) return false;
        signer = typeof receipt === "string" ? recoverAddress(receiptDigest(digest, role, seq), receipt, node) : undefined;
      } catch {
        signer = undefined;
      }
      if (signer === undefined) return false;
      if (known.has(signer)) return true;
      const home = await homeNode(context, party.toLowerCase()).catch(() => undefined);
      return home?.kind === "record" && home.node === signer;
    },
  };
}

/**
 * A receipt bound to a position (spec 3.0.0) is this node's promise that the account's copy in that
 * role holds it. The copy read at `seq` in its own role must be there; a copy imported again under
 * a later position keeps the receipt of its first one, which then still holds the message (a
 * position outlives its copy), as far as this walk read it.
 */
function boundPositionProblem(
  account: string,
  node: string,
  seq: number,
  copyRole: "received" | "sent",
  role: "sender" | "receiver",
  message: Message,
  digest: Uint8Array,
  bound: unknown,
  leaves: ReadonlyMap<number, { leaf: string }>,
): MailboxProblem | undefined {
  if (!isPosition(bound) || bound === seq || (copyRole === "sent") !== (role === "sender")) return undefined;
  const party = role === "sender" ? message.to : message.from;
  const owner = account.toLowerCase();
  if (role === "sender" ? message.from.toLowerCase() !== owner : message.to.toLowerCase() !== owner) return undefined;
  let signer: string | undefined;
  try {
    signer = recoverAddress(receiptDigest(digest, role, bound), role === "sender" ? message.sender_receipt : message.receiver_receipt!, node);
  } catch {
    signer = undefined;
  }
  if (signer !== node) return undefined; // another node's promise: about its own log
  const leaf = leaves.get(bound)?.leaf;
  if (leaf === undefined && bound < seq) return undefined; // audited before this walk
  if (leaf !== undefined && leaf === toHex(mailboxLeafHash({ account: owner, seq: bound, role: copyRole, peer: party, digest }))) return undefined;
  return {
    kind: "reordered",
    seq: bound,
    id: message.id,
    message: `The ${role} receipt of the message at position ${seq} (id ${message.id}) binds it to position ${bound}, which does not hold it`,
  };
}

/**
 * `problem` (a bound receipt whose position holds another message) with its portable proof: the
 * node's receipt, and the node's inclusion proof of what its log holds at that position
 * (`getProof` of the message there), under a head it signed. Without it when the node does not
 * prove that position.
 */
async function withPromiseProof(
  context: NeutralContext,
  options: CallOptions,
  account: string,
  node: string,
  problem: MailboxProblem,
  message: Message,
  role: "sender" | "receiver",
  idThere: string | undefined,
): Promise<MailboxProblem> {
  if (idThere === undefined) return problem;
  const seq = problem.seq!;
  const answer = await authed(context, () => context.client.getProof({ ids: [idThere] }, options)).catch(() => undefined);
  const position = answer?.positions.find((one) => one.seq === seq);
  if (!answer || !position?.leafHash || !position.proof) return problem;
  const promise = {
    message: {
      from: message.from.toLowerCase(),
      to: message.to.toLowerCase(),
      messageHash: toHex(keccak_256(fromHex(message.message))),
      timestamp: message.timestamp,
      ...(message.expires !== undefined && { expires: message.expires }),
    },
    role,
    seq,
    signature: (role === "sender" ? message.sender_receipt : message.receiver_receipt)!,
  };
  const proof = brokenPromiseOf(node, account, promise, answer.head, position.leafHash, position.proof);
  return proof ? { ...problem, proof } : problem;
}

const sameRoot = (a: string, b: string): boolean => String(a).toLowerCase() === String(b).toLowerCase();

/** A 32-byte hash from the wire, or undefined when it is not one. */
const hashOf = (hex: unknown): Uint8Array | undefined => (isHex(hex, 32) ? fromHex(hex) : undefined);
