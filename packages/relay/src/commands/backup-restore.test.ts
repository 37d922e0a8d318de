// `neutral-relay backup` and `restore` as an operator runs them: real processes, real files.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { call, RELAY_MAIN, startRelay, tempDir } from "../../testing/index.js";
import { TEST_KEYS, wallet } from "../../test/wallets.js";
import { openSqliteStore } from "../storage/sqlite.js";

const alice = wallet(TEST_KEYS.alice);
const bob = wallet(TEST_KEYS.bob);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `neutral-relay <args>` (the built dist/main.js) to its end. */
function relayCommand(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [RELAY_MAIN, ...args], { timeout: 30_000, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
      resolve({ code, stdout, stderr });
    });
  });
}

const dirs: string[] = [];
const dir = () => {
  const made = tempDir("neutral-backup-");
  dirs.push(made);
  return made;
};
afterAll(() => {
  for (const made of dirs) rmSync(made, { recursive: true, force: true });
});

/** Fills a data dir's database with `count` messages between random accounts (well-formed, unsigned): pages for the backup to step through. */
async function fill(dataDir: string, count: number): Promise<void> {
  const store = openSqliteStore({ file: path.join(dataDir, "neutral.sqlite"), synchronous: "normal" });
  const sig = () => `0x${randomBytes(64).toString("hex")}1b`;
  const address = () => `0x${randomBytes(20).toString("hex")}`;
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      store.append({ from: address(), to: address(), message: randomBytes(64).toString("hex"), timestamp: Date.now() - 60_000 + i, signature: sig(), senderReceipt: sig(), receiverReceipt: sig(), digest: randomBytes(32) }),
    ),
  );
  await store.close();
}

/** Bob's whole inbox on a relay: id → message. */
async function inbox(url: string, token: string): Promise<Map<string, unknown>> {
  const messages = new Map<string, unknown>();
  let before: string | null = null;
  for (;;) {
    const page: { data: { id: string }[]; end: boolean } = (await call(url, "neutralService_getInbox", [{}, 100, null, before], token)).body.result[0];
    for (const message of page.data) messages.set(message.id, message);
    if (page.end) return messages;
    before = page.data[page.data.length - 1]!.id;
  }
}

describe("backup and restore", () => {
  it(
    "backs up a node while sends continue, holding every message acknowledged before; restored, a relay serves them; refuses a running node and an existing file",
    async () => {
      const dataDir = dir();
      await fill(dataDir, 3000); // ~470 pages: with --pages-per-step 1, a copy restarted by each commit would never end
      const relay = await startRelay({ dataDir });
      const token = await alice.token({ domain: relay.domain });
      const acknowledged = new Map<string, { message: unknown; at: number }>();
      const send = async (i: number) => {
        const message = await alice.sign({ to: bob.address, message: i.toString(16).padStart(8, "0") });
        const answer = await call(relay.url, "neutralService_sendMessage", [message], token);
        const stored = answer.body.result[0] as { id: string };
        acknowledged.set(stored.id, { message: stored, at: performance.now() });
      };
      await Promise.all(Array.from({ length: 40 }, (_, i) => send(i)));

      // Four senders keep going while the backup runs.
      let sending = true;
      let next = 1000;
      const senders = Array.from({ length: 4 }, async () => {
        while (sending) await send(next++);
      });
      while (acknowledged.size < 60) await new Promise((resolve) => setTimeout(resolve, 10));
      const before = new Map(acknowledged);
      const backupDir = dir();
      const backupFile = path.join(backupDir, "node.sqlite");
      const started = performance.now();
      const backup = await relayCommand(["backup", backupFile, "--data-dir", dataDir, "--pages-per-step", "1", "--json"]);
      const ended = performance.now();
      sending = false;
      await Promise.all(senders);
      expect(backup, backup.stderr).toMatchObject({ code: 0 });
      const during = [...acknowledged.values()].filter(({ at }) => at > started && at < ended).length;
      expect(during).toBeGreaterThan(0); // the node kept acknowledging sends while the backup ran
      const result = JSON.parse(backup.stdout) as { messages: number; steps: number; restarts: number };
      expect(result.messages).toBeGreaterThanOrEqual(3000 + before.size);
      expect(result.steps).toBeGreaterThan(100); // it did copy in steps
      expect(result.restarts).toBe(0); // one snapshot: the node's commits between steps did not start it over
      expect(readdirSync(backupDir)).toEqual(["node.sqlite"]); // no temp file left

      // The file itself: sound, and holding every message acknowledged before the backup began, as acknowledged.
      const db = new Database(backupFile, { readonly: true });
      try {
        expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
        expect(db.pragma("journal_mode", { simple: true })).toBe("delete"); // one self-contained file
        const json = db.prepare<[Buffer, number], string>("SELECT json FROM mailbox WHERE owner = ? AND side = 1 AND id = ?").pluck();
        const owner = Buffer.from(bob.address.slice(2), "hex");
        for (const [id, { message }] of before) expect(JSON.parse(json.get(owner, Number(id)) ?? "null"), id).toEqual(message);
      } finally {
        db.close();
      }

      // Refusals: an existing file without --force (left as it was); a restore onto the running node's data dir.
      const mtime = statSync(backupFile).mtimeMs;
      const again = await relayCommand(["backup", backupFile, "--data-dir", dataDir]);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/already exists; give --force/);
      expect(statSync(backupFile).mtimeMs).toBe(mtime);
      const onRunning = await relayCommand(["restore", backupFile, "--data-dir", dataDir, "--force"]);
      expect(onRunning.code).toBe(1);
      expect(onRunning.stderr).toMatch(/in use: a relay .* has it open; stop the relay/);
      expect((await call(relay.url, "neutralService_nodeInfo", [])).status).toBe(200);
      const forced = await relayCommand(["backup", backupFile, "--data-dir", dataDir, "--force"]);
      expect(forced, forced.stderr).toMatchObject({ code: 0 });
      expect(forced.stdout).toMatch(/keep a copy of it separately/);
      expect((await relay.stop()).code).toBe(0);

      // Restore into a new data dir (with the node's key, kept separately), and serve from it.
      const restoredDir = dir();
      const restored = await relayCommand(["restore", backupFile, "--data-dir", restoredDir]);
      expect(restored, restored.stderr).toMatchObject({ code: 0 });
      expect(restored.stdout).toMatch(/has no node\.key/);
      copyFileSync(path.join(dataDir, "node.key"), path.join(restoredDir, "node.key"));
      const second = await startRelay({ dataDir: restoredDir, workers: 2 }); // a primary and two workers: any of them holds the file
      try {
        expect(second.address).toBe(relay.address);
        const served = await inbox(second.url, await bob.token({ domain: second.domain }));
        for (const [id, { message }] of before) expect(served.get(id), id).toEqual(message);
        const busy = await relayCommand(["restore", backupFile, "--data-dir", restoredDir]);
        expect(busy.code).toBe(1);
        expect(busy.stderr).toMatch(/in use/);
      } finally {
        await second.crash(); // SIGKILL: its -wal and -shm stay behind, and no lock of its own does
      }
      expect(readdirSync(restoredDir)).toEqual(expect.arrayContaining(["neutral.sqlite-wal", "neutral.sqlite-shm"]));
      const forcedRestore = await relayCommand(["restore", backupFile, "--data-dir", restoredDir, "--force"]);
      expect(forcedRestore, forcedRestore.stderr).toMatchObject({ code: 0 });
      expect(forcedRestore.stdout).toMatch(/replacing the database there.*removed the old neutral\.sqlite-wal, neutral\.sqlite-shm/);
      const replaced = await relayCommand(["restore", backupFile, "--data-dir", restoredDir]);
      expect(replaced.code).toBe(1);
      expect(replaced.stderr).toMatch(/already exists; give --force/);
      // No -wal, -shm or temp file; the lock file the relays that ran there held stays (it holds nothing).
      expect(readdirSync(restoredDir).sort()).toEqual(["neutral.lock", "neutral.sqlite", "node.key"]);
    },
    60_000,
  );

  it("refuses bad arguments, a PostgreSQL node and unusable backups, each with a clear message", async () => {
    const empty = dir();
    const withDatabase = dir();
    await fill(withDatabase, 1);
    const files = dir();
    const garbage = path.join(files, "garbage.sqlite");
    writeFileSync(garbage, randomBytes(20_000));
    const foreign = path.join(files, "foreign.sqlite");
    const other = new Database(foreign);
    other.exec("CREATE TABLE t (x)");
    other.close();
    const tooNew = path.join(files, "too-new.sqlite");
    copyFileSync(path.join(withDatabase, "neutral.sqlite"), tooNew);
    const newer = new Database(tooNew);
    newer.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'from the future', 0)").run();
    newer.close();
    const restoreInto = dir();

    const cases: [args: string[], code: number, message: RegExp, env?: Record<string, string>][] = [
      [["backup"], 2, /backup needs exactly one file\nUsage: neutral-relay backup <file>/],
      [["backup", "a", "b"], 2, /needs exactly one file, got 2/],
      [["restore", "x", "--bogus"], 2, /Unknown option '--bogus'/],
      [["backup", "x", "--pages-per-step", "0"], 2, /--pages-per-step must be an integer/],
      [["backup", path.join(files, "b.sqlite"), "--data-dir", empty], 1, /there is no database at .*neutral\.sqlite \(is --data-dir right\?\)/],
      [["backup", path.join(files, "missing", "b.sqlite"), "--data-dir", withDatabase], 1, /the directory of .* does not exist/],
      [["backup", path.join(withDatabase, "neutral.sqlite"), "--data-dir", withDatabase, "--force"], 1, /is the database itself; name another file/],
      [["backup", path.join(files, "b.sqlite")], 1, /PostgreSQL.*pg_dump/, { NEUTRAL_DATABASE_URL: "postgres://neutral:hunter2@db.invalid/neutral" }],
      [["restore", path.join(files, "b.sqlite"), "--database-url", "postgres://neutral:hunter2@db.invalid/neutral"], 1, /PostgreSQL.*pg_restore/],
      [["restore", path.join(files, "none.sqlite"), "--data-dir", restoreInto], 1, /there is no backup at/],
      [["restore", garbage, "--data-dir", restoreInto], 1, /garbage\.sqlite.*not a (usable SQLite )?database/i],
      [["restore", foreign, "--data-dir", restoreInto], 1, /not a relay's \(no schema_migrations table\)/],
      [["restore", tooNew, "--data-dir", restoreInto], 1, /schema version 999, newer than this relay's/],
    ];
    const runs = await Promise.all(cases.map(([args, , , env]) => relayCommand(args, env)));
    runs.forEach((run, i) => {
      const [args, code, message] = cases[i]!;
      expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code, stderr: expect.stringMatching(message) });
      expect(run.stderr).not.toContain("hunter2"); // the URL's password is never echoed
      expect(run.stderr).not.toMatch(/\n\s+at /); // a message, not a stack
    });
    expect(readdirSync(restoreInto)).toEqual([]); // a refused restore leaves nothing behind
    expect(readdirSync(files).sort()).toEqual(["foreign.sqlite", "garbage.sqlite", "too-new.sqlite"]);

    const [help, backupHelp, restoreHelp] = await Promise.all([relayCommand(["--help"]), relayCommand(["backup", "--help"]), relayCommand(["restore", "-h"])]);
    expect(help.stdout).toMatch(/neutral-relay backup <file>[\s\S]*neutral-relay restore <file>/);
    expect(backupHelp).toMatchObject({ code: 0, stdout: expect.stringMatching(/online backup API[\s\S]*node\.key[\s\S]*--force/) });
    expect(restoreHelp).toMatchObject({ code: 0, stdout: expect.stringMatching(/integrity_check[\s\S]*-wal[\s\S]*--force/) });
  }, 30_000);
});
