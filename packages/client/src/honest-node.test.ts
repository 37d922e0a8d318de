// The verifiable mailbox raises no false alarm on an honest node under what nodes go through:
// concurrent sends from many accounts through two worker processes, a kill -9 in the middle of them
// and a restart on the same data, and two PostgreSQL replicas of one database. Every account's audit
// accounts for every position, with the heads each device verified before the crash, and holds
// every message the node acknowledged. (The bench, `bench/audit.mjs`, audits 10,000 positions.)
import { startRelay, startThrowawayPostgres, tempDir, type RunningRelay, type ThrowawayPostgres } from "@neutral/relay/testing";
import { afterEach, describe, expect, it } from "vitest";
import { memoryAuditStore, memoryHeadStore, type AuditStore, type HeadStore } from "./context.js";
import { generatePrivateKey } from "./keys.js";
import { createNeutral, type Neutral } from "./neutral.js";

const ACCOUNTS = 12;
let relays: RunningRelay[] = [];
let postgres: ThrowawayPostgres | undefined;
afterEach(async () => {
  await Promise.all(relays.map((relay) => relay.stop()));
  relays = [];
  await postgres?.stop();
  postgres = undefined;
});

/** An account on this device: its key, and the heads and audits it keeps across sessions and restarts. */
interface Device {
  key: `0x${string}`;
  address: string;
  heads: HeadStore;
  audits: AuditStore;
}
const devices = (): Device[] =>
  Array.from({ length: ACCOUNTS }, () => {
    const key = generatePrivateKey();
    return { key, address: "", heads: memoryHeadStore(), audits: memoryAuditStore() };
  });
const sessionOf = (device: Device, url: string): Neutral => createNeutral({ url, account: device.key, heads: device.heads, audits: device.audits });

/**
 * `count` messages between random accounts, `inFlight` at a time, each through one of `urls` in
 * turn; resolves with the ids the node acknowledged per recipient and per sender. A send that fails
 * (the node killed under it) is left out: stored or not, it was never acknowledged.
 */
interface Sent {
  acknowledged: number;
  /** The ids acknowledged, per account (its sent and received messages). */
  ids: Map<string, Set<string>>;
}
function sendAround(accounts: Device[], urls: string[], count: number, inFlight = 8): { progress: Sent; done: Promise<Sent> } {
  const sessions = urls.map((url) => accounts.map((device) => sessionOf(device, url)));
  const progress: Sent = { acknowledged: 0, ids: new Map(accounts.map((device) => [device.address, new Set<string>()])) };
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const from = n % accounts.length;
      const to = (from + 1 + (n % (accounts.length - 1))) % accounts.length;
      try {
        const sent = await sessions[n % urls.length]![from]!.send(accounts[to]!.address, `message ${n}`);
        progress.ids.get(accounts[from]!.address)!.add(sent.id);
        progress.ids.get(accounts[to]!.address)!.add(sent.id);
        progress.acknowledged++;
      } catch {
        // Not acknowledged: the node was killed under it.
      }
    }
  };
  return { progress, done: Promise.all(Array.from({ length: inFlight }, worker)).then(() => progress) };
}

/** Audits every account through `url` (full, then from where it stopped); resolves with each one's log ids. */
async function auditAll(accounts: Device[], url: string): Promise<Map<string, Set<string>>> {
  const logs = new Map<string, Set<string>>();
  for (const device of accounts) {
    const session = sessionOf(device, url);
    const audited = await session.audit();
    expect(audited.problems, device.address).toEqual([]);
    expect(audited.accounted.message, device.address).toBe(audited.to - audited.from + 1);
    const ids = new Set<string>();
    for (let from = 1; from <= audited.head.size; ) {
      const page = await session.client.getLog({ from, limit: 1000 });
      for (const entry of page.entries) ids.add(entry.id);
      from += page.entries.length;
      if (page.entries.length === 0) break;
    }
    expect(ids.size, device.address).toBeGreaterThan(0);
    logs.set(device.address, ids);
  }
  return logs;
}

function expectHeld(acknowledged: Map<string, Set<string>>, logs: Map<string, Set<string>>): void {
  for (const [account, ids] of acknowledged) {
    const held = logs.get(account)!;
    expect([...ids].filter((id) => !held.has(id)), `${account}: acknowledged, not in its log`).toEqual([]);
  }
}

describe("an honest node raises no false alarm", () => {
  it("two workers, concurrent sends from 12 accounts, a kill -9 in the middle of them and a restart on the same data: every position accounted for, every acknowledged message held, the heads verified before the crash extended", { timeout: 180_000 }, async () => {
    // A data dir of the test's own: the restart takes it over from the killed relay.
    const dataDir = tempDir();
    const first = await startRelay({ workers: 2, dataDir });
    relays.push(first);
    const accounts = devices();
    for (const device of accounts) {
      const session = sessionOf(device, first.url);
      device.address = await session.getAddress();
      await session.ready();
    }
    const before = await sendAround(accounts, [first.url], 200).done;
    expect(before.acknowledged).toBe(200);
    await auditAll(accounts, first.url); // every device now holds a verified head and an audit
    // Killed while sends are under way: once 50 of these were acknowledged.
    const during = sendAround(accounts, [first.url], 200);
    while (during.progress.acknowledged < 50) await new Promise((resolve) => setTimeout(resolve, 5));
    await first.crash();
    relays = [];
    const interrupted = await during.done;
    expect(interrupted.acknowledged).toBeLessThan(200);
    const second = await startRelay({ workers: 2, dataDir });
    relays.push(second);
    const after = await sendAround(accounts, [second.url], 200).done;
    expect(after.acknowledged).toBe(200);
    const logs = await auditAll(accounts, second.url);
    for (const sent of [before, interrupted, after]) expectHeld(sent.ids, logs);
  });

  it("two PostgreSQL replicas of one database, sends through both: every position accounted for through either", { timeout: 180_000 }, async () => {
    postgres = await startThrowawayPostgres();
    const env = { NEUTRAL_DATABASE_URL: postgres.url };
    const replicas = [await startRelay({ env }), await startRelay({ env })];
    relays.push(...replicas);
    expect(replicas[0]!.address).toBe(replicas[1]!.address); // one node, one key
    const accounts = devices();
    for (const device of accounts) {
      const session = sessionOf(device, replicas[0]!.url);
      device.address = await session.getAddress();
      await session.ready();
    }
    const sent = await sendAround(accounts, replicas.map((replica) => replica.url), 300).done;
    expect(sent.acknowledged).toBe(300);
    for (const replica of replicas) expectHeld(sent.ids, await auditAll(accounts, replica.url));
  });
});
