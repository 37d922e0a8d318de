// The store's writer thread must never keep a process alive when idle, nor let it exit before
// close() has finished: a short-lived process (a CLI, a migration) opens, writes, closes, exits.
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { tempDir } from "../../testing/index.js";

const script = `
import { randomBytes } from "node:crypto";
import { openSqliteStore } from "${path.join(fileURLToPath(new URL("../..", import.meta.url)), "dist/storage/sqlite.js")}";
const message = () => ({ from: "0x" + "a".repeat(40), to: "0x" + "b".repeat(40), message: "abcd", timestamp: 1,
  signature: "0x" + "1".repeat(130), senderReceipt: "0x" + "2".repeat(130), receiverReceipt: "0x" + "3".repeat(130), digest: randomBytes(32) });
for (let i = 0; i < 3; i++) {
  const store = openSqliteStore({ file: process.argv[2] + "/db" + i + ".sqlite" });
  const { stored } = await store.append(message());
  await store.close();
  console.log("closed", i, stored.id);
}
`;

it("a process that appends and closes stores one after another runs to the end and exits 0", async () => {
  const dir = tempDir();
  writeFileSync(path.join(dir, "script.mjs"), script);
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(dir, "script.mjs"), dir], { timeout: 20_000 });
  expect(stdout.trim().split("\n")).toEqual(["closed 0 1", "closed 1 1", "closed 2 1"]);
});
