import { describe, expect, it } from "vitest";
import { KeptProofs } from "./kept-proofs.js";

const A = "0x00000000000000000000000000000000000000aa";
const B = "0x00000000000000000000000000000000000000bb";
const proof = (json: string) => ({ json, budgetBytes: json.length + 100 });

/** Keeps `json` for `account` made for `query` on a page of `ids`, as a read that saw no commit does. */
function kept(proofs: KeptProofs, account: string, query: string, json: string, ids: readonly number[] = [1]) {
  proofs.keep(proofs.begin(account), query, ids, proof(json));
}

describe("KeptProofs: the last proof per account, while its log does not grow", () => {
  it("serves a kept proof for the same request and page only, and the latest one kept per account", () => {
    const proofs = new KeptProofs(1 << 20);
    kept(proofs, A, "c", '{"head":1}', [1, 2]);
    expect(proofs.get(A, "c", [1, 2])).toEqual(proof('{"head":1}'));
    expect(proofs.get(A, "c", [1, 3])).toBeUndefined();
    expect(proofs.get(A, "c", [1])).toBeUndefined();
    expect(proofs.get(A, "c", [1, 2, 3])).toBeUndefined();
    expect(proofs.get(A, "d", [1, 2])).toBeUndefined();
    expect(proofs.get(B, "c", [1, 2])).toBeUndefined();
    // Whether a proof is kept for a request, before its page is read.
    expect(proofs.holds(A, "c")).toBe(true);
    expect(proofs.holds(A, "d")).toBe(false);
    expect(proofs.holds(B, "c")).toBe(false);
    kept(proofs, A, "c", '{"head":2}', [1, 3]);
    expect(proofs.get(A, "c", [1, 2])).toBeUndefined();
    expect(proofs.get(A, "c", [1, 3])).toEqual(proof('{"head":2}'));
    expect(proofs.size).toBe('{"head":2}'.length);
  });

  it("drops an account's proof when a message is committed into its mailbox, or on a resync; a status change keeps it", () => {
    const proofs = new KeptProofs(1 << 20);
    kept(proofs, A, "k", "a");
    kept(proofs, B, "k", "b");
    proofs.committed([{ kind: "status", account: A, id: 7 }]);
    expect(proofs.get(A, "k", [1])?.json).toBe("a");
    proofs.committed([{ kind: "message", accounts: [A] }]);
    expect(proofs.get(A, "k", [1])).toBeUndefined();
    expect(proofs.get(B, "k", [1])?.json).toBe("b");
    proofs.committed([{ kind: "resync" }]);
    expect(proofs.get(B, "k", [1])).toBeUndefined();
    expect(proofs.size).toBe(0);
  });

  it("does not keep a proof made while a commit into that account was heard (it may prove the log before it), nor after a resync", () => {
    const proofs = new KeptProofs(1 << 20);
    const during = proofs.begin(A);
    const other = proofs.begin(B);
    proofs.committed([{ kind: "message", accounts: [A] }]);
    proofs.keep(during, "k", [1], proof("stale"));
    proofs.keep(other, "k", [1], proof("b"));
    expect(proofs.get(A, "k", [1])).toBeUndefined();
    expect(proofs.get(B, "k", [1])?.json).toBe("b");

    const resynced = proofs.begin(A);
    proofs.committed([{ kind: "resync" }]);
    proofs.keep(resynced, "k", [1], proof("stale"));
    expect(proofs.get(A, "k", [1])).toBeUndefined();

    // Two reads of one account at once: the commit marks both; one released without keeping leaves the other's hold.
    const first = proofs.begin(A);
    const second = proofs.begin(A);
    proofs.release(first);
    proofs.committed([{ kind: "message", accounts: [A] }]);
    proofs.keep(second, "k", [1], proof("stale"));
    expect(proofs.get(A, "k", [1])).toBeUndefined();
    proofs.keep(proofs.begin(A), "k", [1], proof("fresh"));
    expect(proofs.get(A, "k", [1])?.json).toBe("fresh");
  });

  it("keeps at most its bytes: the least recently served account goes first", () => {
    const proofs = new KeptProofs(10);
    kept(proofs, A, "k", "aaaa");
    kept(proofs, B, "k", "bbbb");
    expect(proofs.get(A, "k", [1])?.json).toBe("aaaa"); // A is now the most recently served
    const C = "0x00000000000000000000000000000000000000cc";
    kept(proofs, C, "k", "cccc");
    expect(proofs.size).toBe(8);
    expect(proofs.get(B, "k", [1])).toBeUndefined();
    expect(proofs.get(A, "k", [1])?.json).toBe("aaaa");
    expect(proofs.get(C, "k", [1])?.json).toBe("cccc");
    // Exactly the bound fits; one byte more is not kept at all.
    kept(proofs, A, "k", "x".repeat(10));
    expect(proofs.size).toBe(10);
    kept(proofs, B, "k", "x".repeat(11));
    expect(proofs.get(B, "k", [1])).toBeUndefined();
    expect(proofs.size).toBe(10);
  });
});
