import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { randomAddress, testMessage } from "../../testing/store-conformance.js";
import { openSqliteStore, startStoreWriter } from "./sqlite.js";
import { startWalCheckpointer } from "./wal-checkpointer.js";

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "neutral-checkpointer-"));
  file = path.join(dir, "relay.db");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const sizeOf = (name: string) => statSync(name).size;

/**
 * Polls until `check` holds (a checkpoint pass runs on its own schedule), at most `ms`: 20 s, since
 * on a 2-core machine running the rest of the suite a pass was seen to take over 5 s to land.
 */
async function eventually(check: () => boolean, ms = 20_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

async function appendSome(store: ReturnType<typeof openSqliteStore>, count: number): Promise<void> {
  const from = randomAddress();
  await Promise.all(Array.from({ length: count }, () => store.append(testMessage(from, randomAddress()))));
}

describe("the WAL checkpointer", () => {
  it("copies committed frames into the database file while the writers go on", { timeout: 60_000 }, async () => {
    const store = openSqliteStore({ file, writer: startStoreWriter({ file, checkpointer: false }) });
    await appendSome(store, 200);
    const before = sizeOf(file);
    // Nobody has checkpointed: the writer leaves it to the checkpointer until the WAL is very long.
    expect(sizeOf(`${file}-wal`)).toBeGreaterThan(200 * 2 * 500);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sizeOf(file)).toBe(before);

    const checkpointer = startWalCheckpointer(file, { intervalMs: 20 });
    expect(await eventually(() => sizeOf(file) > before + 200 * 2 * 500)).toBe(true);
    // Appends go on meanwhile, and are copied too.
    const copied = sizeOf(file);
    await appendSome(store, 200);
    expect(await eventually(() => sizeOf(file) > copied + 200 * 2 * 500)).toBe(true);
    await checkpointer.stop();
    await store.close();
    expect(existsSync(`${file}-wal`)).toBe(false); // the last connection to close checkpointed and removed the WAL
  });

  it("runs beside the writer a store starts for itself", { timeout: 60_000 }, async () => {
    const store = openSqliteStore({ file });
    await appendSome(store, 200);
    const schemaOnly = 8192 * 8;
    expect(await eventually(() => sizeOf(file) > schemaOnly + 200 * 2 * 500)).toBe(true);
    await store.close();
  });

  it("reports a file it cannot checkpoint, once, and stops cleanly", async () => {
    writeFileSync(file, "this is not a database, and it is longer than a SQLite header would be".repeat(20));
    const errors: Error[] = [];
    const checkpointer = startWalCheckpointer(file, { intervalMs: 10, onError: (error) => errors.push(error) });
    expect(await eventually(() => errors.length > 0)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100)); // several more failing passes
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/not a database/);
    const stopping = checkpointer.stop();
    expect(checkpointer.stop()).toBe(stopping);
    await stopping;
  });
});
