// The heads a node signs for its accounts' logs (openrpc.json `MailboxHead`): lazily, when a read
// needs one newer than the last it signed, never once per message. The last head of each recently
// read account is kept in memory (per process: another worker signs its own, for the same root).
import { mailboxHeadDigest, toHex, type Hex } from "@neutral/protocol";
import type { MessageStore } from "../storage/store.js";
import { FrozenSubtrees, LogTree, storeLogHashes, TILE_HEIGHT } from "./tree.js";

/** A head as the wire carries it: every hex field lowercase. */
export interface SignedHead {
  account: string;
  size: number;
  /** 0x + 64 hex. */
  root: string;
  /** When the node signed it, ms. */
  timestamp: number;
  /** The node's EIP-712 `MailboxHead` signature: 0x + 130 hex. */
  signature: string;
}

/** How many accounts' last heads a process keeps (~300 bytes each). */
export const HEADS_KEPT = 10_000;

export interface MailboxHeadsOptions {
  store: Pick<MessageStore, "logSize" | "logLeaves" | "logTiles">;
  /** Signs a 32-byte digest with the node's key: 65 bytes (r, s, v). */
  sign: (digest: Uint8Array) => Uint8Array;
  now: () => number;
  kept?: number;
}

export class MailboxHeads {
  private readonly kept: number;
  /** The last head signed per account, least recently read first. */
  private readonly last = new Map<string, SignedHead>();
  /** Whole subtrees' roots, which never change: a page's proofs hash only what is new since. */
  private readonly frozen = new FrozenSubtrees();

  constructor(private readonly options: MailboxHeadsOptions) {
    this.kept = options.kept ?? HEADS_KEPT;
  }

  /**
   * The head of `account`'s log as it is now, and the tree it was computed on (proofs of the same
   * request read it: the subtrees the root needed are not read again).
   */
  async current(account: string): Promise<{ head: SignedHead; tree: LogTree }> {
    const size = await this.options.store.logSize(account);
    const tree = this.treeOf(account);
    return { head: await this.headOf(account, size, tree), tree };
  }

  /**
   * `current`, with the log's leaves from index `from` on read in the same statement as its size:
   * when fewer than `count` are left from there, the log ends within them, and the tree holds them
   * (a proof of positions near the head needs their leaves and their siblings' there), given as
   * `leaves`. Undefined when the log goes on past them: `current` then.
   */
  async currentNear(account: string, from: number, count: number): Promise<{ head: SignedHead; tree: LogTree; leaves: Uint8Array[] } | undefined> {
    // A log never shrinks: past a head signed before, it goes on past them (a page deep in it) unread.
    if ((this.last.get(account)?.size ?? 0) >= from + count) return undefined;
    const leaves = await this.options.store.logLeaves(account, from + 1, count);
    if (leaves.length === 0 || leaves.length >= count) return undefined;
    const tree = this.treeOf(account);
    tree.preload(from, leaves);
    return { head: await this.headOf(account, from + leaves.length, tree), tree, leaves };
  }

  private treeOf(account: string): LogTree {
    return new LogTree(storeLogHashes(this.options.store, account), TILE_HEIGHT, this.frozen.of(account));
  }

  /** The head of `size` positions: the last one signed when the log has not grown since, else signed now. */
  private async headOf(account: string, size: number, tree: LogTree): Promise<SignedHead> {
    const { sign, now } = this.options;
    const last = this.last.get(account);
    this.last.delete(account);
    let head: SignedHead;
    if (last !== undefined && last.size === size) head = last;
    else {
      const root = toHex(await tree.root(size));
      // Never earlier than a head this process signed before: a client compares their times.
      const timestamp = Math.max(now(), last?.timestamp ?? 0);
      const signature = toHex(sign(mailboxHeadDigest({ account: account as Hex, size, root, timestamp })));
      head = { account, size, root, timestamp, signature };
    }
    this.last.set(account, head);
    if (this.last.size > this.kept) this.last.delete(this.last.keys().next().value!);
    return head;
  }
}
