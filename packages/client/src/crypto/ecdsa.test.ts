// recoverAddress with an expected signer checks the signature against that signer's cached key
// instead of recovering it: the answer must be the same as recovering, for every signature, valid or
// not, by the expected signer or another, with its v flipped, its s negated, r or s out of range.
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { describe, expect, it } from "vitest";
import { addressOfPublicKey, fromHex, recoverAddress, signDigest, toHex } from "./ecdsa.js";

const N = secp256k1.Point.Fn.ORDER;

/** What recovering says, computed here without the SDK's cache. */
function reference(digest: Uint8Array, signature: string): string | undefined {
  const bytes = fromHex(signature);
  const v = bytes[64]!;
  if (bytes.length !== 65 || (v !== 27 && v !== 28)) return undefined;
  try {
    return addressOfPublicKey(secp256k1.recoverPublicKey(Uint8Array.from([v - 27, ...bytes.subarray(0, 64)]), digest, { prehash: false }));
  } catch {
    return undefined;
  }
}

const scalar = (value: bigint) => fromHex(`0x${value.toString(16).padStart(64, "0")}`);

/** Variants of a signature: as made, v flipped, s negated (and v flipped: the same signature), r or s out of range. */
function variants(signature: string): string[] {
  const bytes = fromHex(signature);
  const r = BigInt(toHex(bytes.subarray(0, 32)));
  const s = BigInt(toHex(bytes.subarray(32, 64)));
  const v = bytes[64]!;
  const make = (rr: bigint, ss: bigint, vv: number) => toHex(Uint8Array.from([...scalar(rr), ...scalar(ss), vv]));
  return [signature, make(r, s, v ^ 3), make(r, N - s, v ^ 3), make(r, N - s, v), make(0n, s, v), make(r, 0n, v), make(r, N, v), make(N + 1n, s, v), make(r, s + 1n, v)];
}

describe("recoverAddress with an expected signer (its key cached)", () => {
  it("answers what recovering answers, for the expected signer's signatures and anyone else's, valid or not, on first and later uses", () => {
    const signers = Array.from({ length: 3 }, () => secp256k1.utils.randomSecretKey());
    const addresses = signers.map((key) => addressOfPublicKey(secp256k1.getPublicKey(key, false)));
    let compared = 0;
    let fast = 0;
    for (let round = 0; round < 40; round++) {
      const digest = secp256k1.utils.randomSecretKey(); // 32 random bytes
      const signer = round % 3;
      const signature = signDigest(digest, signers[signer]!);
      for (const variant of variants(signature)) {
        const expectedAnswer = reference(digest, variant);
        for (const expected of [undefined, addresses[signer]!, addresses[(signer + 1) % 3]!, addresses[signer]!.toUpperCase().replace("0X", "0x")]) {
          const answer = recoverAddress(digest, variant, expected);
          expect(answer, `round ${round}, ${variant.slice(0, 12)}…, expected ${expected}`).toBe(expectedAnswer);
          compared++;
          if (answer !== undefined && answer === expected?.toLowerCase()) fast++;
        }
      }
    }
    expect(compared).toBe(40 * 9 * 4);
    // Each round's own signature, expected as written and in capitals: answered by the cached key from the second round of its signer on.
    expect(fast).toBe(40 * 2);
  });

  it("gives the true signer when the expected one did not sign", () => {
    const [mine, theirs] = [secp256k1.utils.randomSecretKey(), secp256k1.utils.randomSecretKey()];
    const me = addressOfPublicKey(secp256k1.getPublicKey(mine, false));
    const them = addressOfPublicKey(secp256k1.getPublicKey(theirs, false));
    const digest = secp256k1.utils.randomSecretKey();
    recoverAddress(digest, signDigest(digest, mine)); // my key is now cached
    recoverAddress(digest, signDigest(digest, mine), me);
    expect(recoverAddress(digest, signDigest(digest, theirs), me)).toBe(them);
    expect(recoverAddress(secp256k1.utils.randomSecretKey(), signDigest(digest, mine), me)).not.toBe(me);
  });
});
