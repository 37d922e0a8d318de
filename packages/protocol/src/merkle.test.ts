// RFC 9162's Merkle tree against transparency-dev/merkle's published vectors (copied under
// test/vectors/merkle-rfc6962, digest-pinned): every inclusion and consistency case, happy and
// tampered, passes or fails as its `wantErr` says. Then properties: every proof made here verifies,
// and any change to it, its sizes or its roots does not.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sha256 } from "@noble/hashes/sha2.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  EMPTY_MERKLE_FRONTIER,
  MerkleProofError,
  merkleFrontierAppend,
  merkleFrontierRoot,
  merkleConsistencyProof,
  merkleInclusionProof,
  merkleLeafHash,
  merkleMultiproof,
  merkleNodeHash,
  merkleRoot,
  merkleRootFromMultiproof,
  verifyMerkleConsistency,
  verifyMerkleInclusion,
  verifyMerkleMultiproof,
} from "./merkle.js";

const VECTORS = fileURLToPath(new URL("../test/vectors/merkle-rfc6962/testdata/", import.meta.url));
/** sha256 over each vector file, in path order, as `path \0 content`: see test/vectors/README.md. */
const VECTORS_DIGEST = "de12cf0cd631d409ab6d26e7a84a7dcdb878bf0a6b3957e09d16e6662eb10901";

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? files(path.join(dir, entry.name)) : [path.join(dir, entry.name)]))
    .sort();
}

const bytes = (base64: string | null) => new Uint8Array(Buffer.from(base64 ?? "", "base64"));
const hex = (data: Uint8Array) => Buffer.from(data).toString("hex");

interface InclusionCase {
  leafIdx: number;
  treeSize: number;
  root: string | null;
  leafHash: string | null;
  proof: string[] | null;
  desc: string;
  wantErr: boolean;
}
interface ConsistencyCase {
  size1: number;
  size2: number;
  root1: string | null;
  root2: string | null;
  proof: string[] | null;
  desc: string;
  wantErr: boolean;
}

const outcome = (check: () => void): "verified" | "refused" => {
  try {
    check();
    return "verified";
  } catch (error) {
    if (error instanceof MerkleProofError) return "refused";
    throw error;
  }
};

/** 1 to 70 distinct leaves. */
const leavesArb = fc.array(fc.uint8Array({ maxLength: 12 }), { minLength: 1, maxLength: 70 }).map((data) => data.map((datum, i) => merkleLeafHash(new Uint8Array([...datum, i]))));

describe("transparency-dev/merkle's vectors", () => {
  const all = files(VECTORS);
  const cases = <T>(kind: string) => all.filter((file) => path.relative(VECTORS, file).startsWith(`${kind}${path.sep}`)).map((file) => ({ file: path.relative(VECTORS, file), vector: JSON.parse(readFileSync(file, "utf8")) as T }));

  it("are the copy the README pins", () => {
    const digest = sha256.create();
    for (const file of all) digest.update(Buffer.concat([Buffer.from(`${path.relative(VECTORS, file)}\0`), readFileSync(file)]));
    expect(hex(digest.digest())).toBe(VECTORS_DIGEST);
  });

  it("inclusion: every case verifies or is refused as it says", () => {
    const inclusion = cases<InclusionCase>("inclusion");
    expect(inclusion.length).toBeGreaterThan(90);
    expect(inclusion.some(({ vector }) => !vector.wantErr)).toBe(true);
    for (const { file, vector } of inclusion) {
      const got = outcome(() => verifyMerkleInclusion(vector.leafIdx, vector.treeSize, bytes(vector.leafHash), (vector.proof ?? []).map(bytes), bytes(vector.root)));
      expect(got, `${file}: ${vector.desc}`).toBe(vector.wantErr ? "refused" : "verified");
    }
  });

  it("consistency: every case verifies or is refused as it says", () => {
    const consistency = cases<ConsistencyCase>("consistency");
    expect(consistency.length).toBeGreaterThan(80);
    expect(consistency.some(({ vector }) => !vector.wantErr)).toBe(true);
    for (const { file, vector } of consistency) {
      const got = outcome(() => verifyMerkleConsistency(vector.size1, vector.size2, bytes(vector.root1), bytes(vector.root2), (vector.proof ?? []).map(bytes)));
      expect(got, `${file}: ${vector.desc}`).toBe(vector.wantErr ? "refused" : "verified");
    }
  });
});

describe("the tree", () => {
  it("hashes as RFC 9162 says: the empty tree, leaves with 0x00, nodes with 0x01, split at the largest power of two", () => {
    expect(hex(merkleRoot([]))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const leaves = ["", "00", "10", "2021", "3031", "40414243"].map((text) => merkleLeafHash(new Uint8Array(Buffer.from(text, "hex"))));
    expect(hex(leaves[0]!)).toBe("6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d");
    const [a, b, c, d, e, f] = leaves as [Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array];
    expect(merkleRoot([a])).toEqual(a);
    expect(merkleRoot([a, b, c])).toEqual(merkleNodeHash(merkleNodeHash(a, b), c));
    expect(merkleRoot(leaves)).toEqual(merkleNodeHash(merkleNodeHash(merkleNodeHash(a, b), merkleNodeHash(c, d)), merkleNodeHash(e, f)));
  });

  it("hashes with the SHA-256 it is given (a node's native one): the same roots, and every node through it", () => {
    const native = (data: Uint8Array | string) => new Uint8Array(createHash("sha256").update(data).digest());
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 70 }), (size) => {
        const leaves = Array.from({ length: size }, (_, i) => merkleLeafHash(Uint8Array.of(i, size)));
        expect(hex(merkleRoot(leaves, native))).toBe(hex(merkleRoot(leaves)));
        let calls = 0;
        const counted = (data: Uint8Array | string) => (calls++, native(data));
        merkleRoot(leaves, counted);
        // n - 1 interior nodes, or the empty tree's one hash.
        expect(calls).toBe(Math.max(size - 1, size === 0 ? 1 : 0));
      }),
      { numRuns: 71 },
    );
  });

  // Distinct leaves (each datum ends with its index): two equal leaves are interchangeable in any proof.

  it("a frontier kept leaf by leaf gives every size's root, with one subtree root per bit of the size", () => {
    fc.assert(
      fc.property(leavesArb, (leaves) => {
        let frontier = EMPTY_MERKLE_FRONTIER;
        expect(merkleFrontierRoot(frontier)).toEqual(merkleRoot([]));
        leaves.forEach((leaf, i) => {
          frontier = merkleFrontierAppend(frontier, leaf);
          expect(frontier.size).toBe(i + 1);
          expect(frontier.roots).toHaveLength((i + 1).toString(2).replaceAll("0", "").length);
          expect(merkleFrontierRoot(frontier)).toEqual(merkleRoot(leaves.slice(0, i + 1)));
        });
      }),
    );
  });

  it("every inclusion proof it makes verifies; another leaf, index, root or hash of the proof, or an index past the size, does not", () => {
    fc.assert(
      fc.property(leavesArb, fc.nat(), fc.nat(), (leaves, pick, flip) => {
        const size = leaves.length;
        const index = pick % size;
        const root = merkleRoot(leaves);
        const proof = merkleInclusionProof(leaves, index);
        verifyMerkleInclusion(index, size, leaves[index]!, proof, root);
        const other = merkleLeafHash(new Uint8Array([0xff, ...leaves[index]!]));
        expect(outcome(() => verifyMerkleInclusion(index, size, other, proof, root))).toBe("refused");
        if (size > 1) expect(outcome(() => verifyMerkleInclusion((index + 1) % size, size, leaves[index]!, proof, root))).toBe("refused");
        // (Another size can give the same root from the same path: a signed head binds its size to its root.)
        expect(outcome(() => verifyMerkleInclusion(size, size, leaves[index]!, proof, root))).toBe("refused");
        expect(outcome(() => verifyMerkleInclusion(index, size, leaves[index]!, proof, merkleLeafHash(root)))).toBe("refused");
        if (proof.length > 0) {
          const tampered = proof.map((hash) => new Uint8Array(hash));
          const hash = tampered[flip % proof.length]!;
          hash[flip % 32] = hash[flip % 32]! ^ (1 << (flip % 8));
          expect(outcome(() => verifyMerkleInclusion(index, size, leaves[index]!, tampered, root))).toBe("refused");
          expect(outcome(() => verifyMerkleInclusion(index, size, leaves[index]!, proof.slice(1), root))).toBe("refused");
        }
      }),
      { numRuns: 300 },
    );
  });

  it("every consistency proof it makes verifies; a tree that is not a prefix, or a changed proof, does not", () => {
    fc.assert(
      fc.property(leavesArb, fc.nat(), fc.nat(), (leaves, pick, flip) => {
        const size2 = leaves.length;
        const size1 = 1 + (pick % size2);
        const root1 = merkleRoot(leaves.slice(0, size1));
        const root2 = merkleRoot(leaves);
        const proof = merkleConsistencyProof(leaves, size1);
        verifyMerkleConsistency(size1, size2, root1, root2, proof);
        if (size1 > 0 && size1 < size2) {
          // A history that rewrote one leaf before size1: its root of size1 cannot be proven a prefix.
          const rewritten = leaves.map((leaf, i) => (i === flip % size1 ? merkleLeafHash(leaf) : leaf));
          expect(outcome(() => verifyMerkleConsistency(size1, size2, merkleRoot(rewritten.slice(0, size1)), root2, proof))).toBe("refused");
          expect(outcome(() => verifyMerkleConsistency(size1, size2, root1, merkleRoot(rewritten), proof))).toBe("refused");
          const tampered = proof.map((hash) => new Uint8Array(hash));
          const hash = tampered[flip % proof.length]!;
          hash[flip % 32] = hash[flip % 32]! ^ (1 << (flip % 8));
          expect(outcome(() => verifyMerkleConsistency(size1, size2, root1, root2, tampered))).toBe("refused");
          expect(outcome(() => verifyMerkleConsistency(size2, size1, root2, root1, proof))).toBe("refused");
        }
      }),
      { numRuns: 300 },
    );
  });

  it("refuses sizes past 2^53 - 1, hashes that are not 32 bytes and proofs from the empty tree, saying why", () => {
    const leaf = merkleLeafHash(new Uint8Array([1]));
    expect(() => verifyMerkleInclusion(2 ** 64, 2 ** 64, leaf, [], leaf)).toThrow(/leaf index .* is not a whole number/);
    expect(() => verifyMerkleInclusion(0, 1, leaf.slice(1), [], leaf)).toThrow(/the leaf hash has 31 bytes/);
    expect(() => verifyMerkleInclusion(1, 1, leaf, [], leaf)).toThrow(/leaf 1 is not in a tree of 1/);
    expect(() => verifyMerkleConsistency(2, 1, leaf, leaf, [leaf])).toThrow(/smaller than size1/);
    expect(() => verifyMerkleConsistency(0, 1, merkleRoot([]), leaf, [])).toThrow(/from the empty tree proves nothing/);
  });
});

describe("multiproofs", () => {
  const key = (hash: Uint8Array) => hex(hash);
  /** A tree's leaves and a non-empty set of its indexes. */
  const provenArb = leavesArb.chain((leaves) =>
    fc.record({ leaves: fc.constant(leaves), indexes: fc.uniqueArray(fc.nat({ max: leaves.length - 1 }), { minLength: 1, maxLength: leaves.length }) }),
  );

  it("each leaf's siblings once: the union of the leaves' inclusion proofs less what the leaves give, and one proof alone for one leaf", () => {
    fc.assert(
      fc.property(provenArb, ({ leaves, indexes }) => {
        const proof = merkleMultiproof(leaves, indexes);
        const union = new Set(indexes.flatMap((index) => merkleInclusionProof(leaves, index).map(key)));
        for (const hash of proof) expect(union.has(key(hash))).toBe(true);
        expect(proof.length).toBeLessThanOrEqual(union.size);
        if (indexes.length === 1) expect(new Set(proof.map(key))).toEqual(new Set(merkleInclusionProof(leaves, indexes[0]!).map(key)));
        if (indexes.length === leaves.length) expect(proof).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it("every multiproof it makes verifies, the leaves in any order; another leaf, index, root or hash, or a hash more or less, does not", () => {
    fc.assert(
      fc.property(provenArb, fc.nat(), (proven, flip) => {
        const { leaves, indexes } = proven;
        const size = leaves.length;
        const root = merkleRoot(leaves);
        const proof = merkleMultiproof(leaves, indexes);
        const given = indexes.map((index) => ({ index, hash: leaves[index]! }));
        verifyMerkleMultiproof(size, given, proof, root);
        verifyMerkleMultiproof(size, [...given].reverse(), proof, root);
        const which = flip % given.length;
        const otherLeaf = given.map((leaf, i) => (i === which ? { ...leaf, hash: merkleLeafHash(leaf.hash) } : leaf));
        expect(outcome(() => verifyMerkleMultiproof(size, otherLeaf, proof, root))).toBe("refused");
        expect(outcome(() => verifyMerkleMultiproof(size, given, proof, merkleLeafHash(root)))).toBe("refused");
        // (Another size can give the same root from the same hashes: a signed head binds its size to its root.)
        const moved = given.map((leaf, i) => (i === which ? { ...leaf, index: (leaf.index + 1) % size } : leaf));
        if (size > 1 && leaves[(given[which]!.index + 1) % size]!.some((byte, i) => byte !== given[which]!.hash[i])) {
          expect(outcome(() => verifyMerkleMultiproof(size, moved, proof, root))).toBe("refused");
        }
        expect(outcome(() => verifyMerkleMultiproof(size, given, [...proof, root], root))).toBe("refused");
        if (proof.length > 0) {
          const tampered = proof.map((hash) => new Uint8Array(hash));
          const hash = tampered[flip % proof.length]!;
          hash[flip % 32] = hash[flip % 32]! ^ (1 << (flip % 8));
          expect(outcome(() => verifyMerkleMultiproof(size, given, tampered, root))).toBe("refused");
          expect(outcome(() => verifyMerkleMultiproof(size, given, proof.slice(1), root))).toBe("refused");
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a page of neighbouring positions near the head needs a few hashes, not a proof each", () => {
    const leaves = Array.from({ length: 200 }, (_, i) => merkleLeafHash(new Uint8Array([i, i >> 8])));
    const page = Array.from({ length: 20 }, (_, i) => 199 - 2 * i);
    const proof = merkleMultiproof(leaves, page);
    const separate = page.reduce((sum, index) => sum + merkleInclusionProof(leaves, index).length, 0);
    expect(separate).toBe(148);
    // The 20 leaves between the page's, and the subtrees [0, 128) and [128, 160) left of them.
    expect(proof.length).toBe(22);
    verifyMerkleMultiproof(200, page.map((index) => ({ index, hash: leaves[index]! })), proof, merkleRoot(leaves));
  });

  it("refuses no leaves, a leaf twice, a leaf past the size and hashes that are not 32 bytes, saying why", () => {
    const leaf = merkleLeafHash(new Uint8Array([1]));
    const two = [leaf, merkleLeafHash(new Uint8Array([2]))];
    expect(() => merkleRootFromMultiproof(2, [], [merkleRoot(two)])).toThrow(/of no leaves proves nothing/);
    expect(() => merkleRootFromMultiproof(2, [{ index: 0, hash: leaf }, { index: 0, hash: leaf }], [])).toThrow(/leaf 0 is given twice/);
    expect(() => merkleRootFromMultiproof(2, [{ index: 2, hash: leaf }], [leaf])).toThrow(/leaf 2 is not in a tree of 2/);
    expect(() => merkleRootFromMultiproof(2, [{ index: 0, hash: leaf }], [two[1]!.slice(1)])).toThrow(/proof\[0\] has 31 bytes/);
    expect(() => merkleRootFromMultiproof(2, [{ index: 0, hash: leaf }], [])).toThrow(/has 0 hashes; .* need more/);
    expect(() => merkleMultiproof(two, [2])).toThrow(RangeError);
    expect(merkleMultiproof(two, [])).toEqual([]);
  });
});
