import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { merkleConsistencyProof, merkleInclusionProof, merkleRoot, toHex, verifyMerkleConsistency, verifyMerkleInclusion } from "@neutral/protocol";
import { LogTree, TILE_HEIGHT, type LogHashes } from "./tree.js";

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

  it("gives RFC 9162's root, inclusion and consistency proofs (those of @neutral/protocol), with every tile, none or some", async () => {
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
    // 2^16 from one level-16 tile; 70,000 - 65,536 = 4,464 = 17 level-8 tiles and 112 leaves.
    expect(reads.leaves).toBeLessThanOrEqual(256);
    expect(reads.tiles).toBeLessThanOrEqual(2 * 256);
    const before = { ...reads };
    const proof = await new LogTree(hashes).inclusionProof(12_345, size);
    verifyMerkleInclusion(12_345, size, leaves[12_345]!, proof, merkleRoot(leaves));
    // The path's siblings below a tile (255 leaves at most) and the log's unfinished last tile (112 here).
    expect(reads.leaves - before.leaves).toBe(255 + 112);
    expect(reads.tiles - before.tiles).toBeLessThanOrEqual(3 * 256);
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
});
