import { describe, expect, it } from "vitest";
import { KeptProofs } from "./kept-proofs.js";

const A = "0x00000000000000000000000000000000000000aa";
const B = "0x00000000000000000000000000000000000000bb";
const proof = (json: string) => ({ json, budgetBytes: json.length + 100 });

/** What a read of `account` asking `query` whose page holds `ids` is served: its two lookups, before and after the page is read. */
function served(proofs: KeptProofs, account: string, query: string, ids: readonly number[]) {
  const entry = proofs.forRequest(account, query);
  return entry && proofs.proofOf(entry, ids);
}

/** Keeps `json` for `account` made for `query` on a page of `ids`, as a read that saw no commit does. */
function kept(proofs: KeptProofs, account: string, query: string, json: string, ids: readonly number[] = [1]) {
  proofs.keep(proofs.begin(account), query, ids, proof(json));
}

describe("KeptProofs: the last proof per account, while its log does not grow", () => {
  it("serves a kept proof for the same request and page only, and the latest one kept per account", () => {
    const proofs = new KeptProofs(1 << 20);
    kept(proofs, A, "c", '{"head":1}', [1, 2]);
    expect(served(proofs, A, "c", [1, 2])).toMatchObject(proof('{"head":1}'));
    expect(served(proofs, A, "c", [1, 3])).toBeUndefined();
    expect(served(proofs, A, "c", [1])).toBeUndefined();
    expect(served(proofs, A, "c", [1, 2, 3])).toBeUndefined();
    expect(served(proofs, A, "d", [1, 2])).toBeUndefined();
    expect(served(proofs, B, "c", [1, 2])).toBeUndefined();
    // Whether a proof is kept for a request, before its page is read.
    expect(proofs.forRequest(A, "c")).toBeDefined();
    expect(proofs.forRequest(A, "d")).toBeUndefined();
    expect(proofs.forRequest(B, "c")).toBeUndefined();
    // Looked up before the page was read, dropped while it was: it serves nothing.
    const before = proofs.forRequest(A, "c")!;
    proofs.committed([{ kind: "message", accounts: [A] }]);
    expect(proofs.proofOf(before, [1, 2])).toBeUndefined();
    kept(proofs, A, "c", '{"head":1}', [1, 2]);
    kept(proofs, A, "c", '{"head":2}', [1, 3]);
    expect(served(proofs, A, "c", [1, 2])).toBeUndefined();
    expect(served(proofs, A, "c", [1, 3])).toMatchObject(proof('{"head":2}'));
    expect(proofs.size).toBe('{"head":2}'.length);
  });

  it("drops an account's proof when a message is committed into its mailbox, or on a resync; a status change keeps it", () => {
    const proofs = new KeptProofs(1 << 20);
    kept(proofs, A, "k", "a");
    kept(proofs, B, "k", "b");
    proofs.committed([{ kind: "status", account: A, id: 7 }]);
    expect(served(proofs, A, "k", [1])?.json).toBe("a");
    proofs.committed([{ kind: "message", accounts: [A] }]);
    expect(served(proofs, A, "k", [1])).toBeUndefined();
    expect(served(proofs, B, "k", [1])?.json).toBe("b");
    proofs.committed([{ kind: "resync" }]);
    expect(served(proofs, B, "k", [1])).toBeUndefined();
    expect(proofs.size).toBe(0);
  });

  it("does not keep a proof made while a commit into that account was heard (it may prove the log before it), nor after a resync", () => {
    const proofs = new KeptProofs(1 << 20);
    const during = proofs.begin(A);
    const other = proofs.begin(B);
    proofs.committed([{ kind: "message", accounts: [A] }]);
    proofs.keep(during, "k", [1], proof("stale"));
    proofs.keep(other, "k", [1], proof("b"));
    expect(served(proofs, A, "k", [1])).toBeUndefined();
    expect(served(proofs, B, "k", [1])?.json).toBe("b");

    const resynced = proofs.begin(A);
    proofs.committed([{ kind: "resync" }]);
    proofs.keep(resynced, "k", [1], proof("stale"));
    expect(served(proofs, A, "k", [1])).toBeUndefined();

    // Two reads of one account at once: the commit marks both; one released without keeping leaves the other's hold.
    const first = proofs.begin(A);
    const second = proofs.begin(A);
    proofs.release(first);
    proofs.committed([{ kind: "message", accounts: [A] }]);
    proofs.keep(second, "k", [1], proof("stale"));
    expect(served(proofs, A, "k", [1])).toBeUndefined();
    proofs.keep(proofs.begin(A), "k", [1], proof("fresh"));
    expect(served(proofs, A, "k", [1])?.json).toBe("fresh");
  });

  it("keeps at most its bytes: the oldest kept goes first unless it was served since eviction last passed it (a second chance)", () => {
    const proofs = new KeptProofs(10);
    kept(proofs, A, "k", "aaaa");
    kept(proofs, B, "k", "bbbb");
    expect(served(proofs, A, "k", [1])?.json).toBe("aaaa"); // A is now the most recently served
    const C = "0x00000000000000000000000000000000000000cc";
    kept(proofs, C, "k", "cccc");
    expect(proofs.size).toBe(8);
    expect(served(proofs, B, "k", [1])).toBeUndefined();
    expect(served(proofs, A, "k", [1])?.json).toBe("aaaa");
    expect(served(proofs, C, "k", [1])?.json).toBe("cccc");
    // Exactly the bound fits; one byte more is not kept at all.
    kept(proofs, A, "k", "x".repeat(10));
    expect(proofs.size).toBe(10);
    kept(proofs, B, "k", "x".repeat(11));
    expect(served(proofs, B, "k", [1])).toBeUndefined();
    expect(proofs.size).toBe(10);

    // Every one served since: one pass clears their chances, and the oldest goes after all.
    const few = new KeptProofs(8);
    kept(few, A, "k", "aaaa");
    kept(few, B, "k", "bbbb");
    expect([served(few, A, "k", [1])?.json, served(few, B, "k", [1])?.json]).toEqual(["aaaa", "bbbb"]);
    kept(few, C, "k", "cccc");
    expect([served(few, A, "k", [1]), served(few, B, "k", [1])?.json, served(few, C, "k", [1])?.json]).toEqual([undefined, "bbbb", "cccc"]);
    expect(few.size).toBe(8);
  });
});
