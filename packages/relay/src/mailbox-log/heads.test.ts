import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { merkleMultiproof, merkleRoot, toHex } from "@neutral/protocol";
import type { MessageStore } from "../storage/store.js";
import { MailboxHeads } from "./heads.js";

/** A store of one log of `size` random leaves, no tiles, counting each read. */
function memoryStore(size: number) {
  const leaves = Array.from({ length: size }, () => new Uint8Array(randomBytes(32)));
  const reads = { logSize: 0, logLeaves: 0, logTiles: 0 };
  const store: Pick<MessageStore, "logSize" | "logLeaves" | "logTiles"> = {
    async logSize() {
      reads.logSize++;
      return leaves.length;
    },
    async logLeaves(_owner, from, count) {
      reads.logLeaves++;
      return leaves.slice(from - 1, from - 1 + count);
    },
    async logTiles() {
      reads.logTiles++;
      return [];
    },
  };
  return { leaves, reads, store };
}

const ACCOUNT = "0x00000000000000000000000000000000000000aa";
const headsOver = (store: Pick<MessageStore, "logSize" | "logLeaves" | "logTiles">) =>
  new MailboxHeads({ store, sign: () => new Uint8Array(65).fill(1), now: () => 1_000 });

describe("MailboxHeads.currentNear: the head and the leaves near it in one read", () => {
  it("gives the head `current` gives, with the leaves from `from` to the log's end, from one read of leaves and none of the size", async () => {
    const { leaves, reads, store } = memoryStore(200);
    const heads = headsOver(store);
    const signed = (await heads.current(ACCOUNT)).head;
    expect(signed).toMatchObject({ account: ACCOUNT, size: 200, root: toHex(merkleRoot(leaves)) });
    const before = { ...reads };
    const near = await heads.currentNear(ACCOUNT, 160, 256);
    expect(reads).toEqual({ ...before, logLeaves: before.logLeaves + 1 });
    // The log has not grown: the head signed before.
    expect(near?.head).toBe(signed);
    expect(near!.leaves.map(toHex)).toEqual(leaves.slice(160).map(toHex));
    // On a node that signed no head yet, the same head.
    const cold = await headsOver(store).currentNear(ACCOUNT, 160, 256);
    expect({ ...cold!.head, signature: undefined }).toEqual({ ...signed, signature: undefined });
  });

  it("its tree proves positions within those leaves without reading them again", async () => {
    const { leaves, reads, store } = memoryStore(200);
    const heads = headsOver(store);
    await heads.current(ACCOUNT); // the head signed and the whole subtrees' roots kept, as a warm node has them
    const near = await heads.currentNear(ACCOUNT, 176, 256);
    const before = { ...reads };
    const page = [177, 180, 190, 199];
    expect((await near!.tree.multiproof(page, 200)).map(toHex)).toEqual(merkleMultiproof(leaves, page).map(toHex));
    // The subtrees left of them are kept roots (this store keeps no tiles, so it is asked for some).
    expect(reads.logLeaves).toBe(before.logLeaves);
  });

  it("is undefined when the log goes on past the leaves asked (a page far below the head), or ends before them", async () => {
    const { reads, store } = memoryStore(200);
    const heads = headsOver(store);
    expect(await heads.currentNear(ACCOUNT, 0, 200)).toBeUndefined();
    expect(await heads.currentNear(ACCOUNT, 0, 199)).toBeUndefined();
    expect(await heads.currentNear(ACCOUNT, 200, 16)).toBeUndefined();
    expect((await heads.currentNear(ACCOUNT, 0, 201))?.head.size).toBe(200);
    expect(reads.logSize).toBe(0);
    // With a head of 200 signed, a page that deep is not read for.
    const before = reads.logLeaves;
    expect(await heads.currentNear(ACCOUNT, 0, 200)).toBeUndefined();
    expect(await heads.currentNear(ACCOUNT, 100, 16)).toBeUndefined();
    expect(reads.logLeaves).toBe(before);
  });
});
