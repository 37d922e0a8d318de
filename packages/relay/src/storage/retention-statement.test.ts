// The retention a log states for a position the retention removed (openrpc.json
// `LogRetention.retentionSeconds`, spec 3.2.0) is never more than the one that removed it: a client
// that verified a head before the position came would otherwise hold a proof that its removal came
// too soon. SQLite (the conformance suite covers both stores' statement under one retention).
import { rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, expect, it } from "vitest";
import { randomAddress, testMessage } from "../../testing/store-conformance.js";
import { tempDir } from "../../testing/temp.js";
import { openSqliteStore } from "./sqlite.js";
import type { MessageStore } from "./store.js";

let dir: string | undefined;
let store: MessageStore | undefined;
afterEach(async () => {
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  store = undefined;
  dir = undefined;
});

it("states the least retention the sweep removed by: the one in force, the same after it is raised, none where a store before the record swept", { timeout: 30_000 }, async () => {
  dir = tempDir("neutral-retention-statement-");
  const file = path.join(dir, "neutral.sqlite");
  const [alice, bob] = [randomAddress(), randomAddress()];
  store = openSqliteStore({ file, synchronous: "normal", retentionMs: 1000 });
  for (let i = 0; i < 3; i++) await store.append(testMessage(alice, bob));
  await new Promise((resolve) => setTimeout(resolve, 2100)); // past the retention and the floor's 1 s step
  const stated = async () => (await store!.log(bob, 1, 10)).map((entry) => entry.removal);
  // No longer served, not swept yet: the retention in force.
  expect(await stated()).toEqual([1, 1, 1].map((retentionSeconds) => ({ reason: "retention", retentionSeconds })));
  expect(await store.sweepExpired(100)).toBe(3);
  expect(await stated()).toEqual([1, 1, 1].map((retentionSeconds) => ({ reason: "retention", retentionSeconds })));
  // Raised to an hour: what a second's retention removed still says a second.
  await store.close();
  store = openSqliteStore({ file, synchronous: "normal", retentionMs: 3_600_000 });
  expect(await stated()).toEqual([1, 1, 1].map((retentionSeconds) => ({ reason: "retention", retentionSeconds })));
  // Off: the same.
  await store.close();
  store = openSqliteStore({ file, synchronous: "normal" });
  expect(await stated()).toEqual([1, 1, 1].map((retentionSeconds) => ({ reason: "retention", retentionSeconds })));
  // A floor raised before the record (schema version 15: NULL) states none, and a later sweep does not make one up.
  await store.close();
  const db = new Database(file);
  db.exec("UPDATE retention_floor SET retention_seconds = NULL");
  db.close();
  store = openSqliteStore({ file, synchronous: "normal", retentionMs: 1000 });
  expect(await stated()).toEqual([{ reason: "retention" }, { reason: "retention" }, { reason: "retention" }]);
  await store.append(testMessage(alice, bob));
  await new Promise((resolve) => setTimeout(resolve, 2100));
  expect(await store.sweepExpired(100)).toBe(1);
  expect(await stated()).toEqual([{ reason: "retention" }, { reason: "retention" }, { reason: "retention" }, { reason: "retention" }]);
});
