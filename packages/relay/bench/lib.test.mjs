// The bench's store reset (lib.mjs `resetStore`): what a send run added to the cached store goes,
// positions and the tiles they completed included, so that the next run's sends are stored as the
// first run's were (a tile left behind made the next appends that complete it fail).
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { tempDir } from "../testing/index.js";
import { openSqliteStore } from "../dist/storage/sqlite.js";
import { resetStore, seed, sendLoadWindow, users } from "./lib.mjs";

const [alice, bob] = users(2).map((user) => user.address);
/** A message from alice to bob (random well-formed fields; the store checks no signature). */
function toBob(i) {
  const hex = (n) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join("");
  const signature = () => `0x${hex(128)}1b`;
  return { from: alice, to: bob, message: hex(64), timestamp: Date.now() + i, signature: signature(), senderReceipt: signature(), receiverReceipt: signature(), digest: Buffer.from(hex(64), "hex") };
}

describe("resetStore", () => {
  it("removes a run's messages with their positions and the tiles they completed: the next run appends as the first did", { timeout: 60_000 }, async () => {
    const dir = tempDir("neutral-bench-reset-");
    await seed({ dir, messages: 200, userCount: 2, deep: 0 });
    const file = path.join(dir, "neutral.sqlite");
    const read = () => {
      const db = new Database(file, { readonly: true });
      try {
        return {
          maxId: db.prepare("SELECT max(id) AS n FROM messages").get().n,
          tiles: db.prepare("SELECT account, level, idx FROM log_tiles ORDER BY account, level, idx").all(),
          positions: db.prepare("SELECT count(*) AS n FROM mailbox WHERE seq IS NOT NULL").get().n,
          // A position logged past an account's last copy (positions are logged a tile at a time, schema version 17, so
          // the seeded ones may be logged by a run: that is the same log).
          loggedPastCopies: db
            .prepare("SELECT count(*) AS n FROM mailbox_log AS l JOIN log_accounts AS a ON a.n = l.account WHERE l.seq > (SELECT max(seq) FROM mailbox WHERE owner = a.address)")
            .get().n,
        };
      } finally {
        db.close();
      }
    };
    const seeded = read();
    /** A send run: 400 messages to bob, each one his next position (his log passes 512: two tiles more). */
    const run = async () => {
      const store = openSqliteStore({ file });
      try {
        await Promise.all(Array.from({ length: 400 }, (_, i) => store.append(toBob(i))));
      } finally {
        await store.close();
      }
    };
    await run();
    const afterRun = read();
    expect(afterRun.tiles.length).toBeGreaterThan(seeded.tiles.length);
    expect(await resetStore(dir, seeded.maxId)).toBe(400);
    expect(read()).toEqual(seeded);
    // The second run stores everything again (before the fix: the tiles of the first run refused it).
    await run();
    expect(read().tiles).toEqual(afterRun.tiles);
    expect(await resetStore(dir, seeded.maxId)).toBe(400);
    expect(read()).toEqual(seeded);
  });
});

describe("seed with a receipt key", () => {
  it("stores each message with its receipts bound to its copies' positions: it states both, and they are the positions its copies hold", { timeout: 60_000 }, async () => {
    const dir = tempDir("neutral-bench-seed-");
    await seed({ dir, messages: 300, userCount: 5, deep: 0, receiptKey: Buffer.alloc(32, 7) });
    const store = openSqliteStore({ file: path.join(dir, "neutral.sqlite") });
    try {
      let copies = 0;
      for (const owner of users(5).map((user) => user.address)) {
        for (const role of ["received", "sent"]) {
          const page = await store.page({ owner, ranges: [{ side: role }], order: "desc", limit: 100, withPositions: true });
          for (const message of page.messages) {
            const json = JSON.parse(message.json);
            if (json.from === json.to) continue; // a message to oneself comes without its copies
            expect(json[role === "received" ? "receiver_seq" : "sender_seq"], message.json).toBe(message.copies?.[0]?.seq);
            copies++;
          }
        }
      }
      expect(copies).toBeGreaterThan(400);
    } finally {
      await store.close();
    }
  });
});

describe("sendLoadWindow", () => {
  // A connection without a sender of its own sent an empty body, answered "Parse error" and counted
  // as a failed send (federation.mjs with 50 senders on 64 connections: 4,590 of them).
  it("refuses fewer senders than connections, before it sends anything", async () => {
    const load = { url: "http://127.0.0.1:9", connections: 4, list: [], senderTokens: ["a", "b"], duration: 1, counters: () => ({}), onAnswer: () => {} };
    await expect(sendLoadWindow(load)).rejects.toThrow(/2 senders for 4 connections/);
  });
});
