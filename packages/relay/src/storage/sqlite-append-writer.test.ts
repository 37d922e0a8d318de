import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { randomAddress, testMessage } from "./conformance.js";
import { openSqliteStore } from "./sqlite.js";
import type { AppendResult, MessageStore } from "./store.js";

const nextTick = () => new Promise((resolve) => setImmediate(resolve));

describe("the group-committing writer thread", () => {
  let dir: string;
  let file: string;
  let store: MessageStore;
  let lock: Database.Database;
  let postMessage: ReturnType<typeof vi.spyOn>;
  /** The batches posted to the writer thread so far (the checkpointer's messages are not arrays). */
  const batchesPosted = () => postMessage.mock.calls.filter(([message]) => Array.isArray(message)).length;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "neutral-writer-"));
    file = path.join(dir, "relay.db");
    store = openSqliteStore({ file });
    await store.append(testMessage(randomAddress(), randomAddress())); // the thread runs
    postMessage = vi.spyOn(Worker.prototype, "postMessage");
    // Another connection holds the write lock: the thread cannot commit until it is released.
    lock = new Database(file);
    lock.exec("BEGIN IMMEDIATE");
  });

  afterEach(async () => {
    postMessage.mockRestore();
    if (lock.inTransaction) lock.exec("COMMIT");
    lock.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `count` appends in one event-loop turn (one batch), then the next turn. */
  async function appendTick(count: number): Promise<Promise<AppendResult>[]> {
    const appends = Array.from({ length: count }, () => store.append(testMessage(randomAddress(), randomAddress())));
    await nextTick();
    return appends;
  }
  const settleFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("posts the next batch while one commits (two at most), and commits them in order", async () => {
    const [first, second, third] = [await appendTick(3), await appendTick(2), await appendTick(4)];
    await settleFor(50);
    // The thread is still waiting for the lock: the second batch is posted already, the third waits.
    expect(batchesPosted()).toBe(2);

    lock.exec("COMMIT");
    const ids = async (appends: Promise<AppendResult>[]) => (await Promise.all(appends)).map((result) => result.stored.id);
    const [a, b, c] = [await ids(first), await ids(second), await ids(third)];
    expect(batchesPosted()).toBe(3);
    expect(Math.max(...a)).toBeLessThan(Math.min(...b));
    expect(Math.max(...b)).toBeLessThan(Math.min(...c));
    expect([...a, ...b, ...c]).toEqual([...a, ...b, ...c].sort((x, y) => x - y));
  });

  it("rejects both posted batches when the thread dies, and appends on a new thread afterwards", async () => {
    const [first, second] = [await appendTick(2), await appendTick(2)];
    await settleFor(50);
    expect(batchesPosted()).toBe(2);
    const thread = postMessage.mock.contexts.find((_, i) => Array.isArray(postMessage.mock.calls[i]![0])) as Worker;
    await thread.terminate();
    for (const append of [...first, ...second]) await expect(append).rejects.toThrow("the SQLite writer thread stopped");

    lock.exec("COMMIT");
    const after = await store.append(testMessage(randomAddress(), randomAddress()));
    expect(after.created).toBe(true);
    expect(postMessage.mock.contexts.filter((_, i) => Array.isArray(postMessage.mock.calls[i]![0])).at(-1)).not.toBe(thread);
  });
});
