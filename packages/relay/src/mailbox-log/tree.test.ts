import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { merkleConsistencyProof, merkleInclusionProof, merkleMultiproof, merkleRoot, toHex, verifyMerkleConsistency, verifyMerkleInclusion } from "@neutral/protocol";
import { FrozenSubtrees, LogTree, READ_WINDOW, TILE_HEIGHT, type LogHashes } from "./tree.js";

/** An in-memory log of `leaves`: tiles of every level for `tileHeight`, each kept unless `keep` says no; counts what is read. */
function memoryLog(leaves: Uint8Array[], tileHeight: number, keep: (level: number, index: number) => boolean = () => true) {
  const reads = { leaves: 0, tiles: 0, calls: 0 };
  const hashes: LogHashes = {
    async leaves(from, to) {
      if (from < 0 || to > leaves.length || from >= to) throw new RangeError(`leaves [${from}, ${to}) of ${leaves.length}`);
      reads.calls++;
      reads.leaves += to - from;
      return leaves.slice(from, to);
    },
    async tiles(level, from, to) {
      if (level % tileHeight !== 0 || level === 0) throw new RangeError(`no tiles of level ${level}`);
      reads.calls++;
      const size = 2 ** level;
      const out: (Uint8Array | undefined)[] = [];
      for (let t = from; t < to; t++) {
        if ((t + 1) * size > leaves.length) throw new RangeError(`tile ${t} of level ${level} is not whole in a log of ${leaves.length}`);
        reads.tiles++;
        out.push(keep(level, t) ? merkleRoot(leaves.slice(t * size, (t + 1) * size)) : undefined);
      }
      return out;
    },
  };
  return { hashes, reads };
}

const leavesOf = (n: number) => Array.from({ length: n }, () => new Uint8Array(randomBytes(32)));
const hexes = (hashes: Uint8Array[]) => hashes.map(toHex);

describe("LogTree: roots and proofs from leaves and tiles", () => {
  const arbitrary = fc.record({
    size: fc.integer({ min: 1, max: 300 }),
    tileHeight: fc.constantFrom(1, 2, 3, 8),
    keep: fc.constantFrom("all", "none", "some"),
    seed: fc.integer(),
  });

  it("gives RFC 9162's root, inclusion and consistency proofs and multiproofs (those of @neutral/protocol), with every tile, none or some", async () => {
    await fc.assert(
      fc.asyncProperty(arbitrary, fc.nat(), fc.nat(), async ({ size, tileHeight, keep, seed }, a, b) => {
        const leaves = leavesOf(size);
        const { hashes } = memoryLog(leaves, tileHeight, keep === "all" ? undefined : keep === "none" ? () => false : (level, index) => (level * 31 + index + seed) % 3 !== 0);
        const tree = new LogTree(hashes, tileHeight);
        const root = merkleRoot(leaves);
        expect(toHex(await tree.root(size))).toBe(toHex(root));
        const index = a % size;
        const inclusion = await tree.inclusionProof(index, size);
        expect(hexes(inclusion)).toEqual(hexes(merkleInclusionProof(leaves, index)));
        verifyMerkleInclusion(index, size, leaves[index]!, inclusion, root);
        const page = [...new Set([index, (index + b) % size, (index * 7 + 3) % size, size - 1])];
        expect(hexes(await tree.multiproof(page, size))).toEqual(hexes(merkleMultiproof(leaves, page)));
        const size1 = 1 + (b % size);
        const consistency = await tree.consistencyProof(size1, size);
        expect(hexes(consistency)).toEqual(hexes(merkleConsistencyProof(leaves, size1)));
        verifyMerkleConsistency(size1, size, merkleRoot(leaves.slice(0, size1)), root, consistency);
        // A root of an earlier size, from the same log.
        expect(toHex(await new LogTree(hashes, tileHeight).root(size1))).toBe(toHex(merkleRoot(leaves.slice(0, size1))));
      }),
      { numRuns: 150 },
    );
  });

  it("the empty tree's root is SHA-256 of nothing; a proof outside the tree is refused", async () => {
    const { hashes } = memoryLog(leavesOf(5), 2);
    const tree = new LogTree(hashes, 2);
    expect(toHex(await tree.root(0))).toBe("0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    await expect(tree.inclusionProof(5, 5)).rejects.toThrow(RangeError);
    await expect(tree.inclusionProof(-1, 5)).rejects.toThrow(RangeError);
    await expect(tree.consistencyProof(6, 5)).rejects.toThrow(RangeError);
    await expect(tree.root(1.5)).rejects.toThrow(RangeError);
    await expect(tree.consistencyProof(-1, 5)).rejects.toThrow(RangeError);
    expect(await tree.consistencyProof(0, 5)).toEqual([]);
    expect(await tree.consistencyProof(5, 5)).toEqual([]);
  });

  it("reads a number of leaves and tiles logarithmic in the log's size when the tiles are kept", async () => {
    const size = 70_000; // over 2^16: level-16 tiles too
    const leaves = leavesOf(size);
    const { hashes, reads } = memoryLog(leaves, TILE_HEIGHT);
    const tree = new LogTree(hashes);
    expect(toHex(await tree.root(size))).toBe(toHex(merkleRoot(leaves)));
    // 70,000 = 65,536 + 4,096 + 256 + 7·16: one tile each of levels 16, 12 and 8, seven of level 4.
    expect(TILE_HEIGHT).toBe(4);
    expect(reads.leaves).toBe(0);
    expect(reads.tiles).toBe(10);
    const before = { ...reads };
    const proof = await new LogTree(hashes).inclusionProof(12_345, size);
    verifyMerkleInclusion(12_345, size, leaves[12_345]!, proof, merkleRoot(leaves));
    // The window of leaves the position's chunk is in (its siblings below a tile are hashed from it),
    // and at most a window of 16 tiles a level (levels 4 to 16).
    expect(reads.leaves - before.leaves).toBe(READ_WINDOW);
    expect(reads.tiles - before.tiles).toBeLessThanOrEqual(4 * 2 ** TILE_HEIGHT);
    expect(reads.calls - before.calls).toBeLessThanOrEqual(8);
  });

  it("reads each subtree once per tree object, however many proofs ask for it", async () => {
    const leaves = leavesOf(1000);
    const { hashes, reads } = memoryLog(leaves, TILE_HEIGHT);
    const tree = new LogTree(hashes);
    await tree.root(1000);
    const afterRoot = reads.calls;
    for (const index of [0, 999, 500, 501]) await tree.inclusionProof(index, 1000);
    // The proofs' siblings below the root's subtrees are new; the root's own subtrees are not read again.
    const first = reads.calls - afterRoot;
    await tree.inclusionProof(0, 1000);
    await tree.root(1000);
    expect(reads.calls - afterRoot).toBe(first);
  });

  it("keeps whole subtrees' roots across tree objects (requests): a later one, on a longer log, reads only the leaves it has not hashed and proves the same", async () => {
    const leaves = leavesOf(260);
    const frozen = new FrozenSubtrees();
    // A store that keeps no tiles: every root is hashed from leaves, unless kept.
    const none = () => false;
    const { hashes, reads } = memoryLog(leaves, TILE_HEIGHT, none);
    const first = new LogTree(hashes, TILE_HEIGHT, frozen.of("0xaa"));
    for (const index of [180, 195, 199]) await first.inclusionProof(index, 200);
    expect(reads.leaves).toBe(200); // every window of the 200 positions, once
    // The next request, the log grown to 260: the whole subtrees of the first 200 are kept.
    const before = reads.leaves;
    const second = new LogTree(hashes, TILE_HEIGHT, frozen.of("0xaa"));
    const unkept = memoryLog(leaves, TILE_HEIGHT, none);
    const fresh = new LogTree(unkept.hashes, TILE_HEIGHT);
    for (const index of [180, 195, 199, 259]) {
      const proof = await second.inclusionProof(index, 260);
      expect(hexes(proof)).toEqual(hexes(merkleInclusionProof(leaves.slice(0, 260), index)));
      await fresh.inclusionProof(index, 260);
    }
    // The windows 128–191 again (the siblings of 180 below CHUNK), 192–255 (whole now) and 256–259:
    // the first 128 positions' roots are kept. A tree without them reads all 260.
    expect(reads.leaves - before).toBe(2 * READ_WINDOW + 4);
    expect(unkept.reads.leaves).toBe(260);
    expect(toHex(await second.root(260))).toBe(toHex(merkleRoot(leaves)));
    // Another account's roots are its own.
    const other = memoryLog(leavesOf(200), TILE_HEIGHT, none);
    const third = new LogTree(other.hashes, TILE_HEIGHT, frozen.of("0xbb"));
    await third.root(200);
    expect(other.reads.leaves).toBe(200);
  });

  it("keeps at most its bound of roots, the least recently used dropped first", async () => {
    const frozen = new FrozenSubtrees(3);
    const roots = frozen.of("0xaa");
    const hash = (n: number) => new Uint8Array(32).fill(n);
    roots.set(0, 16, hash(1));
    roots.set(16, 16, hash(2));
    roots.set(0, 32, hash(3));
    expect(roots.get(0, 16)).toEqual(hash(1)); // used: now the most recent
    roots.set(32, 16, hash(4));
    expect(frozen.size).toBe(3);
    expect(roots.get(16, 16)).toBeUndefined();
    expect([roots.get(0, 16), roots.get(0, 32), roots.get(32, 16)]).toEqual([hash(1), hash(3), hash(4)]);
  });
});
