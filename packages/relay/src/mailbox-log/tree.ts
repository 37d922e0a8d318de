// An account's log as the RFC 9162 tree the node signs (openrpc.json "The verifiable mailbox"), over
// what the store keeps: the leaf hash of every position, and tiles, the roots of whole aligned
// subtrees of 2^TILE_HEIGHT, 2^(2·TILE_HEIGHT), … positions. Roots and proofs are the ones
// @neutral/protocol's merkle.ts makes from all the leaves (its tests prove it), but read at most
// 2^TILE_HEIGHT leaves or tiles per subtree: a proof costs reads logarithmic in the log's size.
// A tile the store does not have is computed from the level below (a store may keep none).
import { merkleMultiproofSubtrees, merkleNodeHash, merkleRoot, type Sha256 } from "@neutral/protocol";
import { nativeSha256 } from "../crypto/sha256.js";
import type { MessageStore } from "../storage/store.js";

/**
 * Tiles summarise 2^4 positions (level 4), 2^8 (level 8), …: at most 16 reads per subtree. At 8 (256
 * reads) a page's proofs read and hashed most of a few-hundred-position log (bench/HISTORY.md).
 */
export const TILE_HEIGHT = 4;

/** What the tree reads of one account's log. Indexes from 0: position `seq` is index `seq - 1`. */
export interface LogHashes {
  /** The leaf hashes of indexes [from, to), in order; the store has them all. */
  leaves(from: number, to: number): Promise<Uint8Array[]>;
  /**
   * The stored roots of the tiles of `level` (a multiple of the tile height) with indexes [from, to):
   * tile t covers leaf indexes [t·2^level, (t+1)·2^level). One the store lacks is undefined.
   */
  tiles(level: number, from: number, to: number): Promise<(Uint8Array | undefined)[]>;
}

const EMPTY_ROOT = merkleRoot([]);

/** The largest power of two smaller than `n` (n > 1): where RFC 9162 splits a tree of n leaves. */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

const isPowerOfTwo = (n: number): boolean => n > 0 && 2 ** Math.round(Math.log2(n)) === n;

/** Where a tree keeps the roots of its whole subtrees between requests: they never change once the subtree's last position is stored. */
export interface FrozenRoots {
  get(start: number, size: number): Uint8Array | undefined;
  set(start: number, size: number, root: Uint8Array): void;
}

/** Whole subtrees of this many positions or more are kept across requests (`FrozenRoots`); smaller ones are hashed from their leaves. */
export const CHUNK = 16;

/**
 * Leaves are read in aligned windows of this many: a page's positions, near each other, then take
 * one or two reads, not one per subtree (each read is a B-tree descent).
 */
export const READ_WINDOW = 64;

/**
 * The tree over one account's log, read through `hashes`; subtree roots are remembered for the
 * object's life (one request), and whole subtrees of CHUNK positions or more in `frozen`, across
 * requests. Below CHUNK, a subtree is hashed from its leaves, each read once per request: the
 * proofs of a page's twenty messages share them (each proof reading and hashing its own subtrees
 * took 3 ms for a 200-position log), and a multiproof hashes only the subtrees it gives.
 */
export class LogTree {
  private readonly memo = new Map<string, Promise<Uint8Array>>();
  private readonly leafWindows = new Map<string, Promise<Uint8Array[]>>();
  private readonly tileWindows = new Map<string, Promise<(Uint8Array | undefined)[]>>();
  /** Ranges of leaves read already (`preload`), which later reads of leaves within them take from. */
  private readonly ranges: { from: number; to: number; leaves: Uint8Array[] }[] = [];
  /** The largest tree size asked about: a window of leaves is read up to it. */
  private bound = 0;

  constructor(
    private readonly hashes: LogHashes,
    private readonly tileHeight = TILE_HEIGHT,
    /** Roots of whole subtrees kept from earlier requests (they never change); none: each request computes its own. */
    private readonly frozen?: FrozenRoots,
    private readonly hash: Sha256 = nativeSha256,
  ) {}

  /** MTH(D[0:size]): the root of the tree of the first `size` positions. */
  async root(size: number): Promise<Uint8Array> {
    checkSize(size, "size");
    this.bound = Math.max(this.bound, size);
    return size === 0 ? EMPTY_ROOT : this.range(0, size);
  }

  /** PATH: the inclusion proof of index `index` (position index + 1) in the tree of `size`, leaf side first. */
  async inclusionProof(index: number, size: number): Promise<Uint8Array[]> {
    checkSize(size, "size");
    this.bound = Math.max(this.bound, size);
    if (!Number.isSafeInteger(index) || index < 0 || index >= size) throw new RangeError(`index ${index} is not in a tree of ${size}`);
    const path: Promise<Uint8Array>[] = [];
    // Top down; RFC 9162 lists the siblings bottom up.
    for (let start = 0, n = size, m = index; n > 1; ) {
      const k = split(n);
      if (m < k) {
        path.push(this.range(start + k, n - k));
        n = k;
      } else {
        path.push(this.range(start, k));
        start += k;
        m -= k;
        n -= k;
      }
    }
    return (await Promise.all(path)).reverse();
  }

  /**
   * The multiproof of the indexes `indexes` (distinct) in the tree of `size` (openrpc.json
   * `MailboxProof.multiproof`): the roots of the largest subtrees holding none of them, left to right.
   */
  async multiproof(indexes: readonly number[], size: number): Promise<Uint8Array[]> {
    checkSize(size, "size");
    this.bound = Math.max(this.bound, size);
    const subtrees = merkleMultiproofSubtrees(size, indexes);
    // Near the head of a warm log, every root is at hand: no promise per subtree.
    const known = subtrees.map(([start, n]) => this.rootAtHand(start, n));
    if (known.every((root) => root !== undefined)) return known as Uint8Array[];
    return Promise.all(subtrees.map(([start, n], i) => known[i] ?? this.range(start, n)));
  }

  /** MTH(D[start:start+n]) when it needs no read: hashed from leaves read already, or a kept whole subtree's root. */
  private rootAtHand(start: number, n: number): Uint8Array | undefined {
    return this.rootOfPreloaded(start, n) ?? (n >= CHUNK && isPowerOfTwo(n) && start % n === 0 ? this.frozen?.get(start, n) : undefined);
  }

  /** MTH(D[start:start+n]) hashed at once from leaves read already, when they hold it. */
  private rootOfPreloaded(start: number, n: number): Uint8Array | undefined {
    const read = this.ranges.find((range) => range.from <= start && start + n <= range.to);
    return read === undefined ? undefined : merkleRoot(read.leaves.slice(start - read.from, start - read.from + n), this.hash);
  }

  /**
   * Takes `leaves`, those of indexes [from, from + leaves.length) read already, for the rest of the
   * request: the leaves of a page's positions near the head, and the siblings their proof needs there.
   */
  preload(from: number, leaves: Uint8Array[]): void {
    this.ranges.push({ from, to: from + leaves.length, leaves });
  }

  /** PROOF(size1, D[0:size2]): that the tree of `size1` is a prefix of the tree of `size2` (empty when either is 0 or they are equal). */
  async consistencyProof(size1: number, size2: number): Promise<Uint8Array[]> {
    checkSize(size1, "size1");
    checkSize(size2, "size2");
    this.bound = Math.max(this.bound, size2);
    if (size1 > size2) throw new RangeError(`a tree of ${size1} is not a prefix of one of ${size2}`);
    if (size1 === 0 || size1 === size2) return [];
    const proof: Promise<Uint8Array>[] = [];
    // SUBPROOF(m, D[start:start+n], whole), top down; the hashes are listed bottom up.
    let start = 0;
    let n = size2;
    let m = size1;
    let whole = true;
    for (;;) {
      if (m === n) {
        if (!whole) proof.push(this.range(start, n));
        break;
      }
      const k = split(n);
      if (m <= k) {
        proof.push(this.range(start + k, n - k));
        n = k;
      } else {
        proof.push(this.range(start, k));
        start += k;
        m -= k;
        n -= k;
        whole = false;
      }
    }
    return (await Promise.all(proof)).reverse();
  }

  /** MTH(D[start:start+n]) for n ≥ 1, where the recursion from a whole tree reaches it. */
  private range(start: number, n: number): Promise<Uint8Array> {
    // Within leaves read already: hashed from them at once, not subtree by subtree.
    const preloaded = this.rootOfPreloaded(start, n);
    if (preloaded !== undefined) return Promise.resolve(preloaded);
    const key = `${start}:${n}`;
    let hash = this.memo.get(key);
    if (hash === undefined) {
      hash = isPowerOfTwo(n) && start % n === 0 ? this.perfect(start, n) : this.split(start, n);
      this.memo.set(key, hash);
    }
    return hash;
  }

  private async split(start: number, n: number): Promise<Uint8Array> {
    const k = split(n);
    const [left, right] = await Promise.all([this.range(start, k), this.range(start + k, n - k)]);
    return merkleNodeHash(left, right, this.hash);
  }

  /** The root of the whole aligned subtree of `size` (a power of two) leaves from `start`: from tiles where it spans them, else from leaves. */
  private async perfect(start: number, size: number): Promise<Uint8Array> {
    if (size === 1) return (await this.leaves(start, 1))[0]!;
    if (size < CHUNK) return this.fromHalves(start, size);
    const kept = this.frozen?.get(start, size);
    if (kept !== undefined) return kept;
    const root = await this.wholeSubtree(start, size);
    this.frozen?.set(start, size, root);
    return root;
  }

  private async wholeSubtree(start: number, size: number): Promise<Uint8Array> {
    const level = Math.floor(Math.log2(size) / this.tileHeight) * this.tileHeight;
    if (level === 0) return this.fromHalves(start, size);
    const tileSize = 2 ** level;
    const first = start / tileSize;
    const count = size / tileSize;
    const stored = await this.tiles(level, first, count);
    // Tiles are equal whole subtrees: their tree is the subtree's. A tile the store lacks is a kept
    // root, or comes from its halves, each through the memo and the kept roots, then the tiles below
    // (the subtree that is one tile, from its halves at once: through the memo it would wait on itself).
    const tiles = await Promise.all(stored.map((tile, i) => tile ?? (count === 1 ? this.fromHalves(start, size) : this.range((first + i) * tileSize, tileSize))));
    return merkleRoot(tiles, this.hash);
  }

  /** The leaves [start, start + count) (within one aligned window), from the window of READ_WINDOW leaves, read once for every subtree in it. */
  private async leaves(start: number, count: number): Promise<Uint8Array[]> {
    const read = this.ranges.find((range) => range.from <= start && start + count <= range.to);
    if (read !== undefined) return read.leaves.slice(start - read.from, start - read.from + count);
    const from = start - (start % READ_WINDOW);
    const to = Math.min(from + READ_WINDOW, this.bound);
    const key = `${from}:${to}`;
    let window = this.leafWindows.get(key);
    if (window === undefined) {
      window = this.hashes.leaves(from, to);
      this.leafWindows.set(key, window);
    }
    return (await window).slice(start - from, start - from + count);
  }

  /**
   * The stored tiles [first, first + count) of `level`, within one aligned window of 2^tileHeight
   * tiles (a whole subtree below the next tile level is), read once for every subtree in it.
   */
  private async tiles(level: number, first: number, count: number): Promise<(Uint8Array | undefined)[]> {
    const width = 2 ** this.tileHeight;
    const from = first - (first % width);
    const to = Math.max(first + count, Math.min(from + width, Math.floor(this.bound / 2 ** level)));
    const key = `${level}:${from}:${to}`;
    let window = this.tileWindows.get(key);
    if (window === undefined) {
      window = this.hashes.tiles(level, from, to);
      this.tileWindows.set(key, window);
    }
    return (await window).slice(first - from, first - from + count);
  }

  /** The root of a whole subtree from its two halves' (each through the memo, the kept roots and the leaves). */
  private async fromHalves(start: number, size: number): Promise<Uint8Array> {
    const half = size / 2;
    const [left, right] = await Promise.all([this.range(start, half), this.range(start + half, half)]);
    return merkleNodeHash(left, right, this.hash);
  }
}

/** How many whole-subtree roots a process keeps across requests (~400 bytes each with their keys: ~20 MB). */
export const FROZEN_KEPT = 50_000;

/** Whole-subtree roots of every account's log, least recently used dropped first: one per process. */
export class FrozenSubtrees {
  private readonly roots = new Map<string, Uint8Array>();
  constructor(private readonly kept = FROZEN_KEPT) {}

  /** The roots of `account`'s log. */
  of(account: string): FrozenRoots {
    return {
      get: (start, size) => {
        const key = `${account}:${start}:${size}`;
        const root = this.roots.get(key);
        if (root !== undefined) {
          this.roots.delete(key);
          this.roots.set(key, root);
        }
        return root;
      },
      set: (start, size, root) => {
        this.roots.set(`${account}:${start}:${size}`, root);
        if (this.roots.size > this.kept) this.roots.delete(this.roots.keys().next().value!);
      },
    };
  }

  get size(): number {
    return this.roots.size;
  }
}

/** How many hashes the inclusion proof of `index` in a tree of `size` has (its depth in the tree). */
export function inclusionProofLength(index: number, size: number): number {
  let length = 0;
  for (let n = size, m = index; n > 1; length++) {
    const k = split(n);
    if (m < k) n = k;
    else {
      m -= k;
      n -= k;
    }
  }
  return length;
}

function checkSize(size: number, name: string): void {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`${name} ${size} is not a whole number from 0`);
}

/** Every whole tile of `leaves` (levels tileHeight, 2·tileHeight, …), lowest level first: what a store keeps. */
export function wholeTiles(leaves: readonly Uint8Array[], tileHeight = TILE_HEIGHT): { level: number; index: number; hash: Uint8Array }[] {
  const tiles: { level: number; index: number; hash: Uint8Array }[] = [];
  let below: readonly Uint8Array[] = leaves;
  for (let level = tileHeight; below.length >= 2 ** tileHeight; level += tileHeight) {
    const width = 2 ** tileHeight;
    const hashes: Uint8Array[] = [];
    for (let index = 0; (index + 1) * width <= below.length; index++) {
      const hash = merkleRoot(below.slice(index * width, (index + 1) * width), nativeSha256);
      hashes.push(hash);
      tiles.push({ level, index, hash });
    }
    below = hashes;
  }
  return tiles;
}

/** The tree's reads of `owner`'s log, from a store. */
export function storeLogHashes(store: Pick<MessageStore, "logLeaves" | "logTiles">, owner: string): LogHashes {
  return {
    async leaves(from, to) {
      const leaves = await store.logLeaves(owner, from + 1, to - from);
      if (leaves.length !== to - from) throw new Error(`${owner}'s log has no positions ${from + 1} to ${to}`);
      return leaves;
    },
    async tiles(level, from, to) {
      const kept = await store.logTiles(owner, level, from, to);
      const tiles: (Uint8Array | undefined)[] = Array.from({ length: to - from });
      for (const tile of kept) tiles[tile.index - from] = tile.hash;
      return tiles;
    },
  };
}
