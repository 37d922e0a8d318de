// The PostgreSQL store's receipts bound to positions (spec 3.0.0, EIP-712 `LogReceipt`): a message
// appended without the receipts this node owes gets them signed, in the append's transaction, over
// the positions its copies take (postgres-migrations.ts version 13, postgres.ts `appendSigned`).
import { randomBytes } from "node:crypto";
import pg from "pg";
import { fromHex, isPendingMessageJson, logReceiptDigest, messageJsonTail, messageJsonWithId, type ReceiptRole } from "@neutral/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { randomAddress, randomSignature, testMessage, type TestMessage } from "../../testing/store-conformance.js";
import { loadSecp256k1 } from "../crypto/secp256k1.js";
import { commitChannelOf } from "../live/postgres-commits.js";
import type { AcceptedMessage } from "../message.js";
import { createTestSchema, type TestSchema } from "../../test/postgres.js";
import { openPostgresStore, type PostgresStore } from "./postgres.js";

const secp = loadSecp256k1();

/** `message` without the receipts this node owes: the store signs them. */
const owed = (message: TestMessage, extra: Partial<AcceptedMessage> = {}): AcceptedMessage => ({ ...message, senderReceipt: undefined, receiverReceipt: undefined, ...extra });

/** The members of a stored message's JSON that receipts concern. */
interface ReceiptMembers {
  id: string;
  sender_receipt: string;
  sender_seq?: number;
  receiver_receipt?: string;
  receiver_seq?: number;
}

const membersOf = (json: string) => JSON.parse(json) as ReceiptMembers;
const digestHex = (message: AcceptedMessage) => Buffer.from(message.digest).toString("hex");

/** Who signed a `LogReceipt` over position `seq` of `message`'s copy in `role`. */
const signerOf = (message: AcceptedMessage, role: ReceiptRole, seq: number, signature: string) => secp.recoverAddress(logReceiptDigest(digestHex(message), seq, role), fromHex(signature));

describe("PostgreSQL store: receipts signed over the copies' positions", () => {
  let schema: TestSchema;
  const stores: PostgresStore[] = [];
  const key = new Uint8Array(randomBytes(32));
  const node = secp.addressOf(key);
  const open = async (options: { poolSize?: number; retentionMs?: number; sweptDigestsMs?: number; signs?: boolean } = {}) => {
    const { signs = true, ...rest } = options;
    const store = await openPostgresStore({ url: schema.url, ...rest });
    stores.push(store);
    if (signs) store.useReceiptKey(key);
    return store;
  };
  /** The position of `owner`'s copy of message `id` in `role`. */
  const positionOf = async (store: PostgresStore, owner: string, id: number, role: "sent" | "received") =>
    (await store.log(owner, 1, 10_000)).filter((entry) => entry.id === id && entry.role === role).map((entry) => entry.seq);
  const count = async (table: string) => Number((await schema.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);

  beforeEach(async () => {
    schema = await createTestSchema();
  }, 30_000);
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    await schema.drop();
  }, 30_000);

  it("a local message: both receipts signed by the node's key over the positions both copies hold, in the answer and in both mailboxes", { timeout: 60_000 }, async () => {
    const store = await open();
    const [alice, bob] = [randomAddress(), randomAddress()];
    // Earlier copies, so that the two positions differ.
    for (let i = 0; i < 3; i++) await store.append(owed(testMessage(alice, randomAddress())));
    const message = owed(testMessage(alice, bob, { expires: Date.now() + 3_600_000 }));
    const { stored, created } = await store.append(message);
    expect(created).toBe(true);
    const members = membersOf(stored.json);
    expect(members.id).toBe(String(stored.id));
    expect(await positionOf(store, alice, stored.id, "sent")).toEqual([4]);
    expect(await positionOf(store, bob, stored.id, "received")).toEqual([1]);
    expect(members.sender_seq).toBe(4);
    expect(members.receiver_seq).toBe(1);
    expect(signerOf(message, "sender", 4, members.sender_receipt)).toBe(node);
    expect(signerOf(message, "receiver", 1, members.receiver_receipt!)).toBe(node);
    // Not the other role's, nor another position's.
    expect(signerOf(message, "receiver", 4, members.sender_receipt)).not.toBe(node);
    expect(signerOf(message, "sender", 5, members.sender_receipt)).not.toBe(node);
    const inbox = await store.page({ owner: bob, ranges: [{ side: "received" }], order: "asc", limit: 10 });
    const sent = await store.page({ owner: alice, ranges: [{ side: "sent", peer: bob }], order: "asc", limit: 10 });
    expect(inbox.messages).toEqual([stored]);
    expect(sent.messages).toEqual([stored]);
    // The sender-set end, as the routed path keeps it.
    expect((await schema.query<{ expires: string }>("SELECT expires FROM message_expiry WHERE id = $1", [stored.id])).rows.map((row) => Number(row.expires))).toEqual([message.expires]);
  });

  it("a message to oneself takes two positions of one log, received first, each with its receipt (on a pool of one connection)", { timeout: 60_000 }, async () => {
    // One connection: the append's transaction holds it, so nothing it needs may take another.
    const store = await open({ poolSize: 1 });
    const alice = randomAddress();
    await store.append(owed(testMessage(randomAddress(), alice)));
    const message = owed(testMessage(alice, alice));
    const { stored } = await store.append(message);
    const members = membersOf(stored.json);
    expect(await positionOf(store, alice, stored.id, "received")).toEqual([2]);
    expect(await positionOf(store, alice, stored.id, "sent")).toEqual([3]);
    expect([members.receiver_seq, members.sender_seq]).toEqual([2, 3]);
    expect(signerOf(message, "receiver", 2, members.receiver_receipt!)).toBe(node);
    expect(signerOf(message, "sender", 3, members.sender_receipt)).toBe(node);
  });

  it("outbound: only the sender's copy, pending, with its sender receipt and position; the outbox has it", { timeout: 60_000 }, async () => {
    const store = await open();
    const [alice, remote, peer] = [randomAddress(), randomAddress(), randomAddress()];
    const message = owed(testMessage(alice, remote), { status: "pending", route: { kind: "outbound", destination: peer } });
    const { stored } = await store.append(message);
    const members = membersOf(stored.json);
    expect(isPendingMessageJson(stored.json)).toBe(true);
    expect(members.sender_seq).toBe(1);
    expect(members.receiver_receipt).toBeUndefined();
    expect(members.receiver_seq).toBeUndefined();
    expect(signerOf(message, "sender", 1, members.sender_receipt)).toBe(node);
    expect(await positionOf(store, alice, stored.id, "sent")).toEqual([1]);
    expect(await store.logSize(remote)).toBe(0);
    expect((await store.outboxEntries(peer, 10)).map((entry) => entry.id)).toEqual([stored.id]);
    expect(await store.sentMessage(alice, stored.id)).toBe(stored.json);
  });

  it("inbound: the sender's node's receipt and position kept as given, the recipient's signed here over its copy's position; into the requests folder too", { timeout: 60_000 }, async () => {
    const store = await open();
    const [remote, bob] = [randomAddress(), randomAddress()];
    await store.append(owed(testMessage(bob, randomAddress())));
    const senderReceipt = randomSignature();
    const message: AcceptedMessage = { ...testMessage(remote, bob), senderReceipt, senderSeq: 7, receiverReceipt: undefined, route: { kind: "inbound" } };
    const { stored } = await store.append(message);
    const members = membersOf(stored.json);
    expect(members.sender_receipt).toBe(senderReceipt);
    expect(members.sender_seq).toBe(7);
    expect(members.receiver_seq).toBe(2);
    expect(await positionOf(store, bob, stored.id, "received")).toEqual([2]);
    expect(signerOf(message, "receiver", 2, members.receiver_receipt!)).toBe(node);
    expect(await store.logSize(remote)).toBe(0);
    expect((await store.page({ owner: bob, ranges: [{ side: "received" }], order: "asc", limit: 10 })).messages).toEqual([stored]);

    const request: AcceptedMessage = { ...testMessage(remote, bob), senderReceipt, receiverReceipt: undefined, route: { kind: "inbound" }, folder: "requests" };
    const asked = await store.append(request);
    expect(membersOf(asked.stored.json).receiver_seq).toBe(3);
    expect(signerOf(request, "receiver", 3, membersOf(asked.stored.json).receiver_receipt!)).toBe(node);
    expect((await store.page({ owner: bob, ranges: [{ side: "requests" }], order: "asc", limit: 10 })).messages).toEqual([asked.stored]);
  });

  it("a resend is answered the identical JSON: while its copies are there, after their owners deleted them, and after the retention swept them", { timeout: 60_000 }, async () => {
    const retentionMs = 1000;
    const store = await open({ retentionMs, sweptDigestsMs: 3_600_000 });
    const [alice, bob, remote] = [randomAddress(), randomAddress(), randomAddress()];
    await store.append(owed(testMessage(bob, alice)));
    const local = owed(testMessage(alice, bob));
    const inbound: AcceptedMessage = { ...testMessage(remote, bob), receiverReceipt: undefined, route: { kind: "inbound" } };
    const first = await store.append(local);
    const firstInbound = await store.append(inbound);
    const resend = async (message: AcceptedMessage) => store.append({ ...message, digest: new Uint8Array(message.digest) });
    const sizes = async () => [await store.logSize(alice), await store.logSize(bob)];
    const before = await sizes();
    expect(await resend(local)).toEqual({ stored: first.stored, created: false });

    expect(await store.deleteMessages(bob, [first.stored.id, firstInbound.stored.id])).toEqual({ pending: [] });
    expect(await resend(local)).toEqual({ stored: first.stored, created: false });
    expect(await store.deleteMessages(alice, [first.stored.id])).toEqual({ pending: [] });
    expect(await count(`mailbox WHERE id IN (${first.stored.id}, ${firstInbound.stored.id})`)).toBe(0);
    // Rebuilt from the positions the copies took (the log keeps them), signed again the same.
    expect(await resend(local)).toEqual({ stored: first.stored, created: false });
    expect(await resend(inbound)).toEqual({ stored: firstInbound.stored, created: false });
    expect(await sizes()).toEqual(before);

    const later = owed(testMessage(alice, bob));
    const kept = await store.append(later);
    await new Promise((resolve) => setTimeout(resolve, retentionMs + 200));
    let swept = 0;
    for (let deleted = -1; deleted !== 0; ) swept += deleted = await store.sweepExpired(100);
    expect(swept).toBeGreaterThanOrEqual(3);
    expect(await count(`messages WHERE id = ${kept.stored.id}`)).toBe(0);
    expect(await resend(later)).toEqual({ stored: kept.stored, created: false });
    expect(await sizes()).toEqual([before[0]! + 1, before[1]! + 1]);
  });

  it("one batch with a digest twice and a message whose receipts are given: one copy each, the second answered the first's JSON, the given receipts kept", { timeout: 60_000 }, async () => {
    const store = await open();
    const [alice, bob] = [randomAddress(), randomAddress()];
    const message = owed(testMessage(alice, bob));
    const given = testMessage(bob, alice);
    // Appended in one turn of the event loop: one batch.
    const [a, b, c] = await Promise.all([store.append(message), store.append({ ...message, digest: new Uint8Array(message.digest) }), store.append(given)]);
    expect([a.created, b.created, c.created]).toEqual([true, false, true]);
    expect(b.stored).toEqual(a.stored);
    expect(c.stored.json).toBe(messageJsonWithId(c.stored.id, messageJsonTail(given)));
    expect(await store.logSize(alice)).toBe(2);
    expect(await store.logSize(bob)).toBe(2);
    expect(await count("mailbox")).toBe(4);
    const members = membersOf(a.stored.json);
    expect(signerOf(message, "sender", members.sender_seq!, members.sender_receipt)).toBe(node);
  });

  it("an append needing a signature on a store not given the node's key rejects and stores nothing; one with its receipts given still stores; another key is refused", { timeout: 60_000 }, async () => {
    const store = await open({ signs: false });
    const [alice, bob] = [randomAddress(), randomAddress()];
    const outcome = await Promise.allSettled([store.append(owed(testMessage(alice, bob))), store.append(testMessage(alice, bob))]);
    expect(outcome[0]).toMatchObject({ status: "rejected", reason: expect.objectContaining({ message: expect.stringMatching(/useReceiptKey/) }) });
    expect(outcome[1]).toMatchObject({ status: "fulfilled", value: { created: true } });
    expect(await count("messages")).toBe(1);
    expect(await count("mailbox_log")).toBe(2);
    store.useReceiptKey(key);
    store.useReceiptKey(Uint8Array.from(key));
    expect(() => store.useReceiptKey(new Uint8Array(randomBytes(32)))).toThrow(/another key/);
    expect((await store.append(owed(testMessage(alice, bob)))).created).toBe(true);
  });

  it("a batch whose mailbox rows fail rolls back whole: no id, position, outbox entry or commit notice is left, and the next append goes on from there", { timeout: 60_000 }, async () => {
    const store = await open();
    const [alice, bob, poisoned, peer] = [randomAddress(), randomAddress(), randomAddress(), randomAddress()];
    await store.append(owed(testMessage(alice, bob)));
    // The second statement of the append (the mailbox rows) fails for one of the batch's copies.
    await schema.query(
      `CREATE FUNCTION poison() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.owner = '\\x${poisoned.slice(2)}'::bytea THEN RAISE EXCEPTION 'poisoned copy'; END IF; RETURN NEW; END $$`,
    );
    await schema.query("CREATE TRIGGER poison BEFORE INSERT ON mailbox FOR EACH ROW EXECUTE FUNCTION poison()");
    const listener = new pg.Client({ connectionString: schema.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on("notification", (notice) => heard.push(notice.payload ?? ""));
    await listener.query(`LISTEN ${listener.escapeIdentifier(commitChannelOf(schema.name))}`);
    try {
      const state = async () => [await count("messages"), await count("mailbox"), await count("mailbox_log"), await count("outbox"), await count("message_expiry")];
      const before = await state();
      const outcome = await Promise.allSettled([
        store.append(owed(testMessage(alice, bob), { expires: Date.now() + 60_000 })),
        store.append(owed(testMessage(alice, randomAddress()), { status: "pending", route: { kind: "outbound", destination: peer } })),
        store.append(owed(testMessage(bob, poisoned))),
      ]);
      expect(outcome.map((result) => result.status)).toEqual(["rejected", "rejected", "rejected"]);
      expect(String((outcome[0] as PromiseRejectedResult).reason)).toMatch(/poisoned copy/);
      expect(await state()).toEqual(before);
      expect(Number((await schema.query<{ last_id: string }>("SELECT last_id FROM id_counter")).rows[0]!.last_id)).toBe(1);
      await schema.query("DROP TRIGGER poison ON mailbox");
      const next = await store.append(owed(testMessage(alice, bob)));
      expect(next.stored.id).toBe(2);
      expect(membersOf(next.stored.json)).toMatchObject({ sender_seq: 2, receiver_seq: 2 });
      for (let tries = 0; heard.length === 0 && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
      // Only the committed append's notice (its two mailboxes): none of the rolled-back batch's.
      expect(heard.join(" ")).not.toContain(poisoned);
      expect(heard.join(" ")).not.toContain(peer);
      expect(heard.join(" ")).toContain(alice);
    } finally {
      await listener.end();
    }
  });

  it("two replicas appending to a handful of accounts at once: every account's positions run 1..n with no gap or duplicate, and every copy's JSON carries its own position, signed", { timeout: 120_000 }, async () => {
    const replicas = await Promise.all([open({ poolSize: 3 }), open({ poolSize: 3 })]);
    const accounts = Array.from({ length: 5 }, () => randomAddress());
    const [remote, peer] = [randomAddress(), randomAddress()];
    const messages = new Map<number, AcceptedMessage>();
    const answers = new Map<number, string>();
    const perReplica = 160;
    const writer = async (store: PostgresStore, r: number, w: number) => {
      // Bursts of 1 to 6: batches of several appends, each replica committing its own.
      for (let i = 0, burst = 1; i < perReplica / 2; i += burst, burst = (burst % 6) + 1) {
        const sends = Array.from({ length: Math.min(burst, perReplica / 2 - i) }, (_, k): AcceptedMessage => {
          const n = r * 1000 + w * 500 + i + k;
          const [from, to] = [accounts[n % 5]!, accounts[(n * 7 + r) % 5]!];
          if (n % 11 === 0) return owed(testMessage(from, remote), { status: "pending", route: { kind: "outbound", destination: peer } });
          if (n % 11 === 5) return { ...testMessage(remote, to), receiverReceipt: undefined, route: { kind: "inbound" } };
          return owed(testMessage(from, to));
        });
        const results = await Promise.all(sends.map((message) => store.append(message)));
        results.forEach((result, k) => {
          expect(result.created).toBe(true);
          messages.set(result.stored.id, sends[k]!);
          answers.set(result.stored.id, result.stored.json);
        });
      }
    };
    await Promise.all(replicas.flatMap((store, r) => [writer(store, r, 0), writer(store, r, 1)]));
    expect(messages.size).toBe(2 * perReplica);

    for (const account of [...accounts, remote]) {
      const log = await replicas[0]!.log(account, 1, 10_000);
      expect(log.map((entry) => entry.seq)).toEqual(log.map((_, i) => i + 1));
      const ids = log.map((entry) => entry.id);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
    }
    expect(await replicas[1]!.logSize(remote)).toBe(0);
    const { rows } = await schema.query<{ owner: Buffer; side: number; id: string; seq: string; json: string; log_id: string | null; role: number | null }>(
      "SELECT b.owner, b.side, b.id, b.seq, b.json, l.id AS log_id, l.role FROM mailbox b LEFT JOIN mailbox_log l ON l.owner = b.owner AND l.seq = b.seq",
    );
    expect(rows.length).toBe(await count("mailbox_log"));
    for (const row of rows) {
      const id = Number(row.id);
      const seq = Number(row.seq);
      const message = messages.get(id)!;
      expect(row.json).toBe(answers.get(id));
      expect(Number(row.log_id)).toBe(id);
      const members = membersOf(row.json);
      if (row.side === 2) {
        expect(row.role).toBe(2);
        expect(members.sender_seq).toBe(seq);
        expect(signerOf(message, "sender", seq, members.sender_receipt)).toBe(node);
      } else {
        expect(row.role).toBe(1);
        expect(members.receiver_seq).toBe(seq);
        expect(signerOf(message, "receiver", seq, members.receiver_receipt!)).toBe(node);
      }
    }
  });
});
