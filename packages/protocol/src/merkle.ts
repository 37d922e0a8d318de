// The Merkle tree of RFC 9162 §2.1 (Certificate Transparency 2.0, as RFC 6962 before it): SHA-256,
// leaves hashed with a 0x00 prefix and interior nodes with 0x01, a tree over any number of leaves.
// The verifiable mailbox (protocol.md §13) keeps one per mailbox: proofs are made here from the leaf
// hashes, and checked here by anyone who holds a signed root. Verification follows the published
// algorithm of transparency-dev/merkle (proof/verify.go), whose test vectors it passes.
import { nobleSha256, type Sha256 } from "./sha256.js";

/** Bytes of every hash of the tree (SHA-256). */
export const MERKLE_HASH_BYTES = 32;

const LEAF_PREFIX = 0x00;
const NODE_PREFIX = 0x01;

/** Why a proof did not verify: a proof that does not fit its sizes, or one that leads to another root. */
export class MerkleProofError extends Error {
  override readonly name = "MerkleProofError";
}

/** The hash of a leaf: SHA-256(0x00 ‖ data), with `hash` (a node's native SHA-256). */
export function merkleLeafHash(data: Uint8Array, hash: Sha256 = nobleSha256): Uint8Array {
  const input = new Uint8Array(1 + data.length);
  input[0] = LEAF_PREFIX;
  input.set(data, 1);
  return hash(input);
}

/** The hash of an interior node: SHA-256(0x01 ‖ left ‖ right), with `hash` (a node's native SHA-256). */
export function merkleNodeHash(left: Uint8Array, right: Uint8Array, hash: Sha256 = nobleSha256): Uint8Array {
  const input = new Uint8Array(1 + left.length + right.length);
  input[0] = NODE_PREFIX;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return hash(input);
}

/** The largest power of two smaller than `n` (n > 1): where RFC 9162 splits a tree of n leaves. */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH: the root of the tree over `leafHashes` (the hash of no data for an empty tree), with `hash` (a node's native SHA-256). */
export function merkleRoot(leafHashes: readonly Uint8Array[], hash: Sha256 = nobleSha256): Uint8Array {
  return leafHashes.length === 0 ? hash(new Uint8Array(0)) : rootOf(leafHashes, 0, leafHashes.length, hash);
}

/** MTH(D[start:start+n]) for n ≥ 1. */
function rootOf(leafHashes: readonly Uint8Array[], start: number, n: number, hash: Sha256): Uint8Array {
  if (n === 1) return leafHashes[start]!;
  const k = split(n);
  return merkleNodeHash(rootOf(leafHashes, start, k, hash), rootOf(leafHashes, start + k, n - k, hash), hash);
}

/** PATH(m, D[n]): the inclusion proof of leaf `index` in the tree over `leafHashes`, leaf side first. */
export function merkleInclusionProof(leafHashes: readonly Uint8Array[], index: number): Uint8Array[] {
  const n = leafHashes.length;
  if (!Number.isSafeInteger(index) || index < 0 || index >= n) throw new RangeError(`leaf ${index} is not in a tree of ${n}`);
  if (n === 1) return [];
  const k = split(n);
  return index < k
    ? [...merkleInclusionProof(leafHashes.slice(0, k), index), merkleRoot(leafHashes.slice(k))]
    : [...merkleInclusionProof(leafHashes.slice(k), index - k), merkleRoot(leafHashes.slice(0, k))];
}

/** PROOF(m, D[n]): the proof that the tree of the first `size1` leaves is a prefix of the tree over `leafHashes`. */
export function merkleConsistencyProof(leafHashes: readonly Uint8Array[], size1: number): Uint8Array[] {
  const n = leafHashes.length;
  if (!Number.isSafeInteger(size1) || size1 < 0 || size1 > n) throw new RangeError(`a tree of ${size1} is not a prefix of one of ${n}`);
  if (size1 === 0 || size1 === n) return [];
  const subproof = (m: number, leaves: readonly Uint8Array[], whole: boolean): Uint8Array[] => {
    if (m === leaves.length) return whole ? [] : [merkleRoot(leaves)];
    const k = split(leaves.length);
    return m <= k
      ? [...subproof(m, leaves.slice(0, k), whole), merkleRoot(leaves.slice(k))]
      : [...subproof(m - k, leaves.slice(k), false), merkleRoot(leaves.slice(0, k))];
  };
  return subproof(size1, leafHashes, true);
}

// Verification, on bigints: a tree size is a safe integer, and its bit operations must not be JavaScript's 32-bit ones.

/** A tree size or index as given: a safe integer from 0. */
function position(value: number, name: string): bigint {
  if (!Number.isSafeInteger(value) || value < 0) throw new MerkleProofError(`${name} ${value} is not a whole number from 0 to 2^53-1`);
  return BigInt(value);
}

const bitLength = (x: bigint): number => (x === 0n ? 0 : x.toString(2).length);
const onesCount = (x: bigint): number => [...x.toString(2)].filter((bit) => bit === "1").length;
const trailingZeros = (x: bigint): number => {
  let count = 0;
  for (let rest = x; rest > 0n && (rest & 1n) === 0n; rest >>= 1n) count++;
  return count;
};

/** How many of an inclusion proof's hashes lie below the last common level of `index` and `size - 1`, and how many above. */
function decompose(index: bigint, size: bigint): { inner: number; border: number } {
  const inner = bitLength(index ^ (size - 1n));
  return { inner, border: onesCount(index >> BigInt(inner)) };
}

function checkHash(hash: Uint8Array, what: string): void {
  if (hash.length !== MERKLE_HASH_BYTES) throw new MerkleProofError(`${what} has ${hash.length} bytes, not ${MERKLE_HASH_BYTES}`);
}

function chainInner(seed: Uint8Array, proof: readonly Uint8Array[], index: bigint): Uint8Array {
  return proof.reduce((hash, sibling, i) => (((index >> BigInt(i)) & 1n) === 0n ? merkleNodeHash(hash, sibling) : merkleNodeHash(sibling, hash)), seed);
}

function chainInnerRight(seed: Uint8Array, proof: readonly Uint8Array[], index: bigint): Uint8Array {
  return proof.reduce((hash, sibling, i) => (((index >> BigInt(i)) & 1n) === 1n ? merkleNodeHash(sibling, hash) : hash), seed);
}

const chainBorderRight = (seed: Uint8Array, proof: readonly Uint8Array[]): Uint8Array => proof.reduce((hash, sibling) => merkleNodeHash(sibling, hash), seed);

function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** The root that `proof` leads to from leaf `index` (its hash `leafHash`) in a tree of `size`. */
export function merkleRootFromInclusionProof(index: number, size: number, leafHash: Uint8Array, proof: readonly Uint8Array[]): Uint8Array {
  const i = position(index, "leaf index");
  const n = position(size, "tree size");
  if (i >= n) throw new MerkleProofError(`leaf ${index} is not in a tree of ${size}`);
  checkHash(leafHash, "the leaf hash");
  const { inner, border } = decompose(i, n);
  if (proof.length !== inner + border) throw new MerkleProofError(`the proof has ${proof.length} hashes; leaf ${index} of ${size} needs ${inner + border}`);
  proof.forEach((hash, k) => checkHash(hash, `proof[${k}]`));
  return chainBorderRight(chainInner(leafHash, proof.slice(0, inner), i), proof.slice(inner));
}

/** Throws a MerkleProofError unless `proof` shows leaf `index` (its hash `leafHash`) in the tree of `size` whose root is `root`. */
export function verifyMerkleInclusion(index: number, size: number, leafHash: Uint8Array, proof: readonly Uint8Array[], root: Uint8Array): void {
  checkHash(root, "the root");
  if (!sameHash(merkleRootFromInclusionProof(index, size, leafHash, proof), root)) throw new MerkleProofError(`the proof of leaf ${index} of ${size} leads to another root`);
}

/** Throws a MerkleProofError unless `proof` shows the tree of `size1` (root `root1`) to be a prefix of the tree of `size2` (root `root2`). */
export function verifyMerkleConsistency(size1: number, size2: number, root1: Uint8Array, root2: Uint8Array, proof: readonly Uint8Array[]): void {
  const m = position(size1, "size1");
  const n = position(size2, "size2");
  if (n < m) throw new MerkleProofError(`size2 ${size2} is smaller than size1 ${size1}`);
  // Nothing is proven about a tree from the empty one: a client that saw no head has nothing to keep to.
  if (m === 0n) throw new MerkleProofError("a consistency proof from the empty tree proves nothing");
  if (m === n) {
    if (proof.length > 0) throw new MerkleProofError("equal sizes need an empty proof");
    if (!sameHash(root1, root2)) throw new MerkleProofError(`two roots for the tree of ${size1}`);
    return;
  }
  if (proof.length === 0) throw new MerkleProofError(`an empty proof between ${size1} and ${size2}`);
  proof.forEach((hash, k) => checkHash(hash, `proof[${k}]`));
  checkHash(root1, "root1");
  const decomposed = decompose(m - 1n, n);
  const shift = trailingZeros(m);
  const inner = decomposed.inner - shift;
  // The proof starts with the root of the subtree of 2^shift leaves, unless size1 is that subtree.
  const [seed, start] = m === 1n << BigInt(shift) ? [root1, 0] : [proof[0]!, 1];
  if (proof.length !== start + inner + decomposed.border) {
    throw new MerkleProofError(`the proof has ${proof.length} hashes; ${size1} to ${size2} needs ${start + inner + decomposed.border}`);
  }
  const path = proof.slice(start);
  const mask = (m - 1n) >> BigInt(shift);
  const first = chainBorderRight(chainInnerRight(seed, path.slice(0, inner), mask), path.slice(inner));
  if (!sameHash(first, root1)) throw new MerkleProofError(`the proof leads to another root for the tree of ${size1}`);
  const second = chainBorderRight(chainInner(seed, path.slice(0, inner), mask), path.slice(inner));
  if (!sameHash(second, root2)) throw new MerkleProofError(`the proof leads to another root for the tree of ${size2}`);
}

/**
 * The roots of the whole subtrees a tree of `size` leaves splits into, largest (leftmost) first: one
 * per bit set in `size` (a "compact range" of the tree's left edge). It is all a client that walks a
 * log needs to keep to go on later from where it stopped: leaves appended to it give the root of the
 * longer tree without the leaves before (`merkleFrontierAppend`, `merkleFrontierRoot`).
 */
export interface MerkleFrontier {
  size: number;
  roots: readonly Uint8Array[];
}

/** The frontier of the empty tree. */
export const EMPTY_MERKLE_FRONTIER: MerkleFrontier = { size: 0, roots: [] };

/** The frontier after appending `leafHash`: equal neighbouring subtrees merge, as a binary counter carries. */
export function merkleFrontierAppend(frontier: MerkleFrontier, leafHash: Uint8Array): MerkleFrontier {
  const roots = [...frontier.roots];
  let carried = leafHash;
  // Each trailing 1-bit of the old size is a subtree the new leaf's completes.
  for (let size = frontier.size; size % 2 === 1; size = Math.floor(size / 2)) carried = merkleNodeHash(roots.pop()!, carried);
  roots.push(carried);
  return { size: frontier.size + 1, roots };
}

/** MTH of the tree whose frontier this is: its subtrees' roots folded from the right. */
export function merkleFrontierRoot(frontier: MerkleFrontier): Uint8Array {
  const { roots } = frontier;
  if (roots.length === 0) return nobleSha256(new Uint8Array(0));
  let root = roots[roots.length - 1]!;
  for (let i = roots.length - 2; i >= 0; i--) root = merkleNodeHash(roots[i]!, root);
  return root;
}

// Multiproofs: the inclusion proofs of several leaves at once, each sibling hash given once.

/** A leaf a multiproof proves: its index in the tree and its hash. */
export interface MerkleProvenLeaf {
  index: number;
  hash: Uint8Array;
}

/**
 * The multiproof of the leaves `indexes` in the tree over `leafHashes`: the roots of the largest
 * subtrees that hold none of them, left to right. The tree is walked from its root, split as MTH
 * splits it: a subtree holding none of the leaves gives its root, a single leaf that is one gives
 * nothing, any other is walked into, left before right. Together with the leaves' hashes it gives
 * the root, and each hash it holds is one a single leaf's inclusion proof would hold: a page of
 * neighbouring positions needs far fewer than one proof each. The multiproof of no leaves is empty.
 */
export function merkleMultiproof(leafHashes: readonly Uint8Array[], indexes: readonly number[]): Uint8Array[] {
  return merkleMultiproofSubtrees(leafHashes.length, indexes).map(([start, n]) => merkleRoot(leafHashes.slice(start, start + n)));
}

/** The root that `proof`, a multiproof (`merkleMultiproof`), leads to from `leaves` in a tree of `size`. */
export function merkleRootFromMultiproof(size: number, leaves: readonly MerkleProvenLeaf[], proof: readonly Uint8Array[]): Uint8Array {
  position(size, "tree size");
  if (leaves.length === 0) throw new MerkleProofError("a multiproof of no leaves proves nothing");
  const sorted = [...leaves].sort((a, b) => a.index - b.index);
  sorted.forEach(({ index, hash }, i) => {
    if (!Number.isSafeInteger(index) || index < 0 || index >= size) throw new MerkleProofError(`leaf ${index} is not in a tree of ${size}`);
    if (sorted[i - 1]?.index === index) throw new MerkleProofError(`leaf ${index} is given twice`);
    checkHash(hash, `the hash of leaf ${index}`);
  });
  let used = 0;
  // The walk of `merkleMultiproofSubtrees`, taking a hash of the proof where that one gives a subtree.
  const walk = (start: number, n: number, lo: number, hi: number): Uint8Array => {
    if (lo === hi) {
      const hash = proof[used];
      if (hash === undefined) throw new MerkleProofError(`the multiproof has ${proof.length} hashes; these ${leaves.length} leaves of ${size} need more`);
      checkHash(hash, `proof[${used++}]`);
      return hash;
    }
    if (n === 1) return sorted[lo]!.hash;
    const k = split(n);
    let mid = lo;
    while (mid < hi && sorted[mid]!.index < start + k) mid++;
    const left = walk(start, k, lo, mid);
    return merkleNodeHash(left, walk(start + k, n - k, mid, hi));
  };
  const root = walk(0, size, 0, sorted.length);
  if (used !== proof.length) throw new MerkleProofError(`the multiproof has ${proof.length} hashes; these ${leaves.length} leaves of ${size} need ${used}`);
  return root;
}

/** Throws a MerkleProofError unless `proof`, a multiproof, shows every one of `leaves` in the tree of `size` whose root is `root`. */
export function verifyMerkleMultiproof(size: number, leaves: readonly MerkleProvenLeaf[], proof: readonly Uint8Array[], root: Uint8Array): void {
  checkHash(root, "the root");
  if (!sameHash(merkleRootFromMultiproof(size, leaves, proof), root)) throw new MerkleProofError(`the multiproof of ${leaves.length} leaves of ${size} leads to another root`);
}

/**
 * The subtrees whose roots make the multiproof of the distinct `indexes` in a tree of `size`, left
 * to right, as [start, n]: for a prover that reads its tree's subtrees from storage.
 */
export function merkleMultiproofSubtrees(size: number, indexes: readonly number[]): [start: number, n: number][] {
  const sorted = [...indexes].sort((a, b) => a - b);
  sorted.forEach((index, i) => {
    if (!Number.isSafeInteger(index) || index < 0 || index >= size) throw new RangeError(`leaf ${index} is not in a tree of ${size}`);
    if (sorted[i - 1] === index) throw new RangeError(`leaf ${index} is given twice`);
  });
  const subtrees: [number, number][] = [];
  // From the root, split as MTH splits: a subtree holding none of the leaves gives its root, a
  // single leaf that is one gives nothing, any other is walked into, left before right.
  const walk = (start: number, n: number, lo: number, hi: number): void => {
    if (lo === hi) subtrees.push([start, n]);
    else if (n > 1) {
      const k = split(n);
      let mid = lo;
      while (mid < hi && sorted[mid]! < start + k) mid++;
      walk(start, k, lo, mid);
      walk(start + k, n - k, mid, hi);
    }
  };
  if (sorted.length > 0) walk(0, size, 0, sorted.length);
  return subtrees;
}
