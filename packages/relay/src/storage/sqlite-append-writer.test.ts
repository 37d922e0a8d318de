import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { randomAddress, testMessage } from "../../testing/store-conformance.js";
import { StoreClosedError, WriterStoppedError } from "../errors.js";
import { openSqliteStore, startStoreWriter } from "./sqlite.js";
import { terminateThread } from "./thread-guard.js";
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
    // Each append's outcome taken before the thread goes: they fail while terminateThread is awaited.
    const outcomes = [...first, ...second].map((append) => append.then(() => "committed", (error: unknown) => error));
    await terminateThread(thread); // as a crash would stop it, but never inside SQLite (thread-guard.js)
    for (const outcome of await Promise.all(outcomes)) expect(outcome).toBeInstanceOf(WriterStoppedError);

    lock.exec("COMMIT");
    const after = await store.append(testMessage(randomAddress(), randomAddress()));
    expect(after.created).toBe(true);
    expect(postMessage.mock.contexts.filter((_, i) => Array.isArray(postMessage.mock.calls[i]![0])).at(-1)).not.toBe(thread);
  });
});

describe("the writer on the calling thread (the relay's cluster primary)", () => {
  let dir: string;
  let file: string;
  let store: MessageStore;
  /** The size of every batch run so far, each in its own transaction. */
  let batches: number[];
  let transaction: { mockRestore(): void };

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "neutral-inline-writer-"));
    file = path.join(dir, "relay.db");
    batches = [];
    const original = Database.prototype.transaction;
    transaction = vi.spyOn(Database.prototype, "transaction").mockImplementation(function (this: Database.Database, body: (...args: never[]) => unknown) {
      return original.call(this, (...args: never[]) => {
        if (Array.isArray(args[0])) batches.push((args[0] as unknown[]).length);
        return body(...args);
      });
    });
    store = openSqliteStore({ file, writer: startStoreWriter({ file, inline: true, checkpointer: false }) });
  });

  afterEach(async () => {
    transaction.mockRestore();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const appendAll = (count: number, to = randomAddress) => Array.from({ length: count }, () => store.append(testMessage(randomAddress(), to())));

  it("commits the appends of one event-loop turn as one transaction, ids in the order of the calls", async () => {
    const threads = readdirSync("/proc/self/task").length;
    const first = await Promise.all(appendAll(5));
    const second = await Promise.all(appendAll(3));
    expect(batches).toEqual([5, 3]);
    const ids = [...first, ...second].map((result) => result.stored.id);
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(readdirSync("/proc/self/task").length).toBe(threads); // no writer thread started
  });

  it("rejects every append of a batch that fails and stores none of them; the next turn commits", async () => {
    const doomed = randomAddress();
    const other = new Database(file);
    other.exec(`CREATE TRIGGER refuse BEFORE INSERT ON pairs WHEN NEW.recipient = x'${doomed.slice(2)}' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
    const appends = [...appendAll(2), store.append(testMessage(randomAddress(), doomed)), ...appendAll(2)];
    for (const append of appends) await expect(append).rejects.toThrow("refused by the test");
    expect(other.prepare("SELECT count(*) AS n FROM messages").get()).toEqual({ n: 0 });
    const [after] = await Promise.all(appendAll(1));
    expect(after!.created).toBe(true);
    other.close();
  });

  it("close() commits what is pending first; later appends are refused", async () => {
    const appends = appendAll(4);
    const closed = store.close();
    const results = await Promise.all(appends);
    await closed;
    expect(results.map((result) => result.created)).toEqual([true, true, true, true]);
    await expect(store.append(testMessage(randomAddress(), randomAddress()))).rejects.toBeInstanceOf(StoreClosedError);
    const check = new Database(file, { readonly: true });
    expect(check.prepare("SELECT count(*) AS n FROM messages").get()).toEqual({ n: 4 });
    check.close();
  });
});
