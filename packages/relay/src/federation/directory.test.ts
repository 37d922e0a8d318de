// The directory's home records over a real SQLite store (issue 33, finding 7): the records a peer's
// call carries are checked and kept in one write, and a record seen before costs no second one.
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { fixtureSigner } from "@neutral/protocol/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempDir } from "../../testing/index.js";
import { loadSecp256k1 } from "../crypto/secp256k1.js";
import { createLogger } from "../log.js";
import { openSqliteStore } from "../storage/sqlite.js";
import { createDirectory } from "./directory.js";
import { createNodeClient } from "./node-client.js";
import { createPeerRegistry } from "./peers.js";

const curve = loadSecp256k1();
const self = fixtureSigner(`0x${"1".repeat(64)}`);
const elsewhere = fixtureSigner(`0x${"2".repeat(64)}`);
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function directoryOverStore() {
  const dir = tempDir("neutral-directory-");
  const store = openSqliteStore({ file: path.join(dir, "neutral.sqlite"), synchronous: "normal" });
  cleanup.push(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const logger = createLogger("silent");
  const client = createNodeClient({ self: self.address, privateKey: Buffer.from("1".repeat(64), "hex"), curve });
  cleanup.push(async () => client.close());
  const peers = await createPeerRegistry({ peers: [], store, client, self: self.address, logger, timeoutMs: 100 });
  const directory = createDirectory({ self: self.address, store, curve, peers, client, logger, ttlMs: 60_000, lookupTimeoutMs: 100 });
  return { store, directory };
}

describe("the directory's home records", () => {
  it("keeps the records of one call in one write; records seen before cost none; a bad signature is left out", async () => {
    const { store, directory } = await directoryOverStore();
    const one = vi.spyOn(store, "putHomeRecord");
    const many = vi.spyOn(store, "putHomeRecords");
    const accounts = Array.from({ length: 100 }, () => fixtureSigner(`0x${randomBytes(32).toString("hex")}`));
    const records = accounts.map((account) => account.homeRecord(elsewhere.address, 1_700_000_000_000));
    const forged = { ...accounts[0]!.homeRecord(self.address, 1_800_000_000_000), account: accounts[1]!.address };
    expect(directory.unseenHomes([...records, forged])).toBe(101);

    const learned = await directory.learnHomes([...records, forged]);
    expect(learned).toHaveLength(100);
    expect(one).not.toHaveBeenCalled();
    expect(many).toHaveBeenCalledTimes(1);
    expect(many.mock.calls[0]![0]).toHaveLength(100);
    expect(await store.getHomeRecord(accounts[1]!.address)).toMatchObject({ node: elsewhere.address });

    // The same records again (every delivery carries its senders'): nothing to check or write.
    expect(directory.unseenHomes(records)).toBe(0);
    expect(await directory.learnHomes(records)).toHaveLength(100);
    expect(many).toHaveBeenCalledTimes(1);
  });
});
