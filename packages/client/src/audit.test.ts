// The verifiable mailbox's audit against a real node (in this process): an honest node's log is
// accounted for position by position (messages, the account's deletions, the sender's ends, the
// node's retention) and the next audit reads only what came since; a node that lies in its log
// (through a proxy that rewrites its answers) is caught at the position it lied about, each lie by
// its kind.
import { cpSync, readFileSync } from "node:fs";
import path from "node:path";
import { DATABASE_FILE, openSqliteStore } from "@neutral/relay";
import { startNode, tempDir, type InProcessNode } from "@neutral/relay/testing";
import { afterEach, describe, expect, it } from "vitest";
import { hashTypedData, logReceiptDigest, toHex, typedData, type Hex } from "@neutral/protocol";
import { signDigest } from "@neutral/protocol/testing";
import { startTamperingProxy, type TamperingProxy } from "../test/tampering-proxy.js";
import { toSigner } from "./account.js";
import type { AuditReturnType } from "./actions/audit.js";
import type { LogPage, LogPosition } from "./generated/types.js";
import { memoryAuditStore, memoryHeadStore } from "./context.js";
import { generatePrivateKey } from "./keys.js";
import { verifyProof, type BrokenPromiseProof } from "./misbehaviour-proof.js";
import { createNeutral, type Neutral } from "./neutral.js";

let running: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.map((one) => one.stop()));
  running = [];
});
const start = async (args: string[] = []): Promise<InProcessNode> => {
  const node = await startNode({ args });
  running.push(node);
  return node;
};
const proxyTo = async (node: InProcessNode): Promise<TamperingProxy> => {
  const proxy = await startTamperingProxy(node.url);
  running.push({ stop: () => proxy.close() });
  return proxy;
};

/** Audits until `done` says the result is the one awaited (the node's sweeps run every second), at most `ms`. */
async function auditUntil(bob: Neutral, done: (result: AuditReturnType) => boolean, ms: number): Promise<AuditReturnType> {
  const until = Date.now() + ms;
  for (;;) {
    const result = await bob.audit({ full: true });
    if (done(result) || Date.now() > until) return result;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe("audit", () => {
  it("accounts for an honest node's whole log (messages, deletions, expiries, retention), then reads only what came since", { timeout: 60_000 }, async () => {
    const node = await start(["--retention", "4s"]);
    const alice = createNeutral({ url: node.url, account: generatePrivateKey() });
    const bob = createNeutral({ url: node.url, account: generatePrivateKey() });
    const bobAddress = await bob.getAddress();
    await bob.ready();
    const one = await alice.send(bobAddress, "one"); // position 1: Bob deletes it
    await bob.send(await alice.getAddress(), "two"); // 2: the retention removes it
    await alice.send(bobAddress, "three", { expiresIn: 2_000 }); // 3: its end removes it
    await bob.deleteMessages([one.id]);

    const first = await bob.audit();
    expect(first.problems).toEqual([]);
    expect(first).toMatchObject({ from: 1, to: 3, head: { size: 3 }, accounted: { message: 2, deleted: 1, expired: 0, retention: 0 } });
    // Nothing new: nothing read, nothing wrong.
    expect(await bob.audit()).toMatchObject({ from: 4, to: 3, problems: [], accounted: { message: 0, deleted: 0, expired: 0, retention: 0 } });

    // Once "three" has ended and "two" is past the retention, the whole log again: each gone copy's reason holds.
    const later = await auditUntil(bob, (result) => result.accounted.message === 0, 20_000);
    expect(later.problems).toEqual([]);
    expect(later).toMatchObject({ from: 1, to: 3, accounted: { message: 0, deleted: 1, expired: 1, retention: 1 } });

    // A new message: the next audit reads it alone.
    await alice.send(bobAddress, "four");
    const next = await bob.audit();
    expect(next.problems).toEqual([]);
    expect(next).toMatchObject({ from: 4, to: 4, head: { size: 4 }, accounted: { message: 1, deleted: 0, expired: 0, retention: 0 } });
  });

  it("catches a node restored from an older copy of its data growing another history there: a fork, with a proof verifyProof accepts", { timeout: 90_000 }, async () => {
    const [aliceKey, bobKey] = [generatePrivateKey(), generatePrivateKey()];
    // One device of Bob's across the node's lives.
    const [heads, audits] = [memoryHeadStore(), memoryAuditStore()];
    const sessions = (node: InProcessNode) => ({ alice: createNeutral({ url: node.url, account: aliceKey }), bob: createNeutral({ url: node.url, account: bobKey, heads, audits }) });
    const dir = tempDir("neutral-audit-fork-");
    let node = await startNode({ dataDir: dir });
    running.push(node);
    let { alice, bob } = sessions(node);
    const bobAddress = await bob.getAddress();
    await bob.ready();
    await alice.send(bobAddress, "one");
    await node.stop();
    const backup = tempDir("neutral-audit-backup-");
    cpSync(dir, backup, { recursive: true });
    node = await startNode({ dataDir: dir });
    running.push(node);
    ({ alice, bob } = sessions(node));
    await alice.send(bobAddress, "two");
    expect(await bob.audit()).toMatchObject({ from: 1, to: 2, problems: [] });
    await node.stop();

    node = await startNode({ dataDir: backup });
    running.push(node);
    ({ alice, bob } = sessions(node));
    await alice.send(bobAddress, "another two");
    const { problems } = await bob.audit();
    expect(problems.map(({ kind, seq }) => ({ kind, seq }))).toEqual([{ kind: "fork", seq: 2 }]);
    expect(verifyProof(problems[0]!.proof)).toMatchObject({ valid: true, kind: "fork" });
  });

  it("catches a node that dropped a message from its storage without the account's request: missing, at its position", { timeout: 90_000 }, async () => {
    const [aliceKey, bobKey] = [generatePrivateKey(), generatePrivateKey()];
    const [heads, audits] = [memoryHeadStore(), memoryAuditStore()];
    const dir = tempDir("neutral-audit-dropped-");
    let node = await startNode({ dataDir: dir });
    running.push(node);
    const sessions = () => ({ alice: createNeutral({ url: node.url, account: aliceKey }), bob: createNeutral({ url: node.url, account: bobKey, heads, audits }) });
    let { alice, bob } = sessions();
    const bobAddress = (await bob.getAddress()).toLowerCase();
    await bob.ready();
    const sent = [];
    for (const text of ["one", "two", "three"]) sent.push(await alice.send(bobAddress, text));
    expect(await bob.audit()).toMatchObject({ from: 1, to: 3, problems: [] });
    await node.stop();
    // The node's own storage loses message "two" (a bug, a bad restore, or on purpose): no request of Bob's.
    const store = openSqliteStore({ file: path.join(dir, DATABASE_FILE) });
    expect(await store.deleteMessages(bobAddress, [Number(sent[1]!.id)])).toEqual({ pending: [] });
    await store.close();
    node = await startNode({ dataDir: dir });
    running.push(node);
    ({ alice, bob } = sessions());
    // Reads no longer show it, and prove what they show; the audit names what is gone.
    const read = [];
    for await (const message of bob.inbox().messages()) read.push([message.text, message.proven]);
    expect(read).toEqual([
      ["three", true],
      ["one", true],
    ]);
    expect((await bob.audit({ full: true })).problems.map(({ kind, seq, id }) => ({ kind, seq, id }))).toEqual([{ kind: "missing", seq: 2, id: sent[1]!.id }]);
  });

  it("checks the account's history at its former homes (the heads its imports brought) against the heads this device verified there: a cut or another history, with the proof", { timeout: 30_000 }, async () => {
    const node = await start();
    const proxy = await proxyTo(node);
    const device = memoryHeadStore();
    const bobKey = generatePrivateKey();
    const bob = createNeutral({ url: proxy.url, domain: node.domain, account: bobKey, heads: device });
    const bobAddress = (await bob.getAddress()) as Hex;
    await bob.ready();
    // A former home, and the head of Bob's log this device verified there: 7 positions.
    const formerKey = generatePrivateKey();
    const former = (await toSigner(formerKey).getAddress()).toLowerCase();
    const headOf = async (size: number, root: string, timestamp: number) => {
      const fields = { account: bobAddress, size, root: root as Hex, timestamp };
      return { ...fields, signature: await toSigner(formerKey).signTypedData(typedData("MailboxHead", fields)) };
    };
    const verified = await headOf(7, `0x${"11".repeat(32)}`, 1_000);
    await device.set(bobAddress, former, verified);
    const answering = (prior: unknown[]) => {
      proxy.rewrite = (method, result) => (method === "neutralService_getLog" ? [{ ...(result as [LogPage])[0], prior }] : result);
    };
    const kinds = (result: AuditReturnType) => result.problems.map(({ kind, seq, proof }) => ({ kind, seq, proven: proof !== undefined && verifyProof(proof).valid }));
    // What the import brought: the same head, a larger one, one signed before the device's: nothing wrong.
    for (const prior of [[verified], [await headOf(9, `0x${"22".repeat(32)}`, 2_000)], [await headOf(5, `0x${"33".repeat(32)}`, 500)]]) {
      answering(prior);
      expect((await bob.audit({ full: true })).problems).toEqual([]);
    }
    // 5 positions, signed after the device verified 7: cut short. 7 with another root: another history.
    answering([await headOf(5, `0x${"33".repeat(32)}`, 2_000)]);
    expect(kinds(await bob.audit({ full: true }))).toEqual([{ kind: "rollback", seq: 6, proven: true }]);
    answering([await headOf(7, `0x${"44".repeat(32)}`, 2_000)]);
    expect(kinds(await bob.audit({ full: true }))).toEqual([{ kind: "fork", seq: 7, proven: true }]);
    // A head this device verified nothing at, or that its node did not sign for Bob: not checked.
    answering([{ ...(await headOf(5, `0x${"33".repeat(32)}`, 2_000)), account: `0x${"99".repeat(20)}` }]);
    expect((await bob.audit({ full: true })).problems).toEqual([]);
  });

  describe("a node that lies in its log", () => {
    /** Bob's log of four positions (one of them deleted) on a node behind a proxy; each test rewrites getLog once set up. */
    async function lyingNode(args: string[] = []) {
      const node = await start(args);
      const proxy = await proxyTo(node);
      const alice = createNeutral({ url: node.url, account: generatePrivateKey() });
      const bobKey = generatePrivateKey();
      const bob = createNeutral({ url: proxy.url, domain: node.domain, account: bobKey });
      const bobAddress = await bob.getAddress();
      await bob.ready();
      const one = await alice.send(bobAddress, "one");
      await bob.send(await alice.getAddress(), "two");
      await alice.send(bobAddress, "three");
      await alice.send(bobAddress, "four");
      await bob.deleteMessages([one.id]);
      /** Rewrites each getLog page's positions with `lie`. */
      const lie = (change: (entries: LogPosition[]) => LogPosition[]) => {
        proxy.rewrite = (method, result) => {
          if (method !== "neutralService_getLog") return result;
          const [page] = result as [LogPage];
          return [{ ...page, entries: change(structuredClone(page.entries)) }];
        };
      };
      return { alice, bob, bobAddress, bobKey, lie, proxy, node };
    }
    const kindsOf = (result: AuditReturnType) => result.problems.map(({ kind, seq }) => ({ kind, seq }));

    it("an honest answer through the same proxy has no problem (the baseline of the lies below)", { timeout: 30_000 }, async () => {
      const { bob, lie } = await lyingNode();
      lie((entries) => entries);
      const result = await bob.audit();
      expect(result.problems).toEqual([]);
      expect(result.accounted).toEqual({ message: 3, deleted: 1, expired: 0, retention: 0 });
    });

    it("a message left out of the log's answer is missing at its position", { timeout: 30_000 }, async () => {
      const { bob, lie } = await lyingNode();
      lie((entries) => entries.map((entry) => (entry.seq === 3 ? { ...entry, message: undefined } : entry)) as LogPosition[]);
      expect(kindsOf(await bob.audit())).toEqual([{ kind: "missing", seq: 3 }]);
    });

    it("a message altered (its body, or another message in its place) is altered at its position", { timeout: 30_000 }, async () => {
      const { bob, lie } = await lyingNode();
      lie((entries) => entries.map((entry) => (entry.seq === 4 ? { ...entry, message: { ...entry.message!, message: entry.message!.message.replace(/^../, "ff") } } : entry)));
      expect(kindsOf(await bob.audit())).toEqual([{ kind: "altered", seq: 4 }]);
      lie((entries) => entries.map((entry) => (entry.seq === 4 ? { ...entry, message: entries[2]!.message } : entry)));
      expect(kindsOf(await bob.audit())).toEqual([{ kind: "altered", seq: 4 }]);
    });

    it("a receipt the node binds to another position than its copy's is reordered at the position it names (spec 3.0.0)", { timeout: 30_000 }, async () => {
      const { bob, bobAddress, lie, node } = await lyingNode();
      const nodeKey = Uint8Array.from(Buffer.from(readFileSync(path.join(node.dataDir, "node.key"), "utf8").trim().slice(2), "hex"));
      lie((entries) => entries);
      expect((await bob.audit()).problems).toEqual([]);
      // Position 4 ("four", received) with a receipt the node signed over position 3, which holds "three".
      lie((entries) =>
        entries.map((entry) => {
          if (entry.seq !== 4) return entry;
          const message = entry.message!;
          expect(message.receiver_seq).toBe(4);
          const digest = toHex(hashTypedData(typedData("Message", { from: message.from as Hex, to: message.to as Hex, message: `0x${message.message}`, timestamp: message.timestamp })));
          return { ...entry, message: { ...message, receiver_seq: 3, receiver_receipt: signDigest(logReceiptDigest(digest, 3, "receiver"), nodeKey) } };
        }),
      );
      const { problems } = await bob.audit({ full: true });
      expect(kindsOf({ problems } as AuditReturnType)).toEqual([{ kind: "reordered", seq: 3 }]);
      // The portable proof: the node's receipt over position 3, and its own head holding another leaf there.
      const proof = JSON.parse(JSON.stringify(problems[0]!.proof)) as BrokenPromiseProof;
      expect(verifyProof(proof)).toMatchObject({ valid: true, kind: "broken-promise", node: node.address.toLowerCase(), account: bobAddress.toLowerCase() });
      expect(verifyProof({ ...proof, promise: { ...proof.promise, seq: 4 } })).toMatchObject({ valid: false, reason: expect.stringMatching(/not signed by/) });
      expect(verifyProof({ ...proof, leafHash: proof.leafHash.replace(/.$/, (c) => (c === "0" ? "1" : "0")) })).toMatchObject({ valid: false, reason: expect.stringMatching(/does not lead to the head's root/) });
      expect(verifyProof({ ...proof, head: { ...proof.head, timestamp: proof.head.timestamp + 1 } })).toMatchObject({ valid: false, reason: expect.stringMatching(/head is not signed by/) });
    });

    it("a position left out or repeated is reordered where the log breaks", { timeout: 30_000 }, async () => {
      const { bob, lie } = await lyingNode();
      lie((entries) => entries.filter((entry) => entry.seq !== 2));
      expect(kindsOf(await bob.audit())).toEqual([{ kind: "reordered", seq: 2 }]);
      lie((entries) => [entries[0]!, entries[0]!, ...entries.slice(1)]);
      expect(kindsOf(await bob.audit())).toEqual([{ kind: "reordered", seq: 2 }]);
    });

    it("a reason that does not hold is an unproven removal: the account's deletion of another message, a retention the node does not have, an end not yet come", { timeout: 30_000 }, async () => {
      const { bob, lie } = await lyingNode(["--retention", "0"]); // no retention: it removes nothing
      // Bob's own request for message 1, to pass it off as the reason message 3 is gone.
      let request: LogPosition["removed"];
      lie((entries) => {
        request = entries[0]!.removed;
        return entries;
      });
      expect((await bob.audit({ full: true })).problems).toEqual([]);
      expect(request).toMatchObject({ reason: "deleted" });
      const removed = (reason: (entry: LogPosition) => LogPosition["removed"]) =>
        lie((entries) => entries.map(({ message, ...entry }) => (entry.seq === 3 ? { ...entry, removed: reason({ ...entry, message }) } : { ...entry, message }) as LogPosition));
      removed(() => request);
      expect(kindsOf(await bob.audit({ full: true }))).toEqual([{ kind: "unproven-removal", seq: 3 }]);
      removed(() => ({ reason: "retention" }));
      expect(kindsOf(await bob.audit({ full: true }))).toEqual([{ kind: "unproven-removal", seq: 3 }]);
      // What an expiry keeps, right but for an end an hour away (the leaf no longer matches either way).
      removed(({ message }) => ({
        reason: "expired",
        message: { from: message!.from, to: message!.to, timestamp: message!.timestamp, expires: Date.now() + 3_600_000, messageHash: `0x${"00".repeat(32)}` },
      }));
      expect(kindsOf(await bob.audit({ full: true }))).toEqual([{ kind: "unproven-removal", seq: 3 }]);
    });

    it("a dropped position given the id of a message the account deleted, citing that deletion, is an unproven removal: the request names the deleted copy's leaf", { timeout: 30_000 }, async () => {
      const { bob, lie } = await lyingNode();
      // Position 3 (message three) dropped, passed off as message one, which Bob deleted at position 1.
      lie((entries) => entries.map(({ message, ...entry }) => (entry.seq === 3 ? ({ ...entry, id: entries[0]!.id, removed: entries[0]!.removed } as LogPosition) : { ...entry, message })));
      const { problems } = await bob.audit();
      expect(problems).toMatchObject([{ kind: "unproven-removal", seq: 3, message: "Position 3's deletion request does not name its leaf" }]);
    });

    it("a request signed before spec 2.10.0 (ids only) cited for a position stored after a head signed later than the request's time plus the clock window is an unproven removal", { timeout: 30_000 }, async () => {
      const { alice, bob, bobAddress, bobKey, lie } = await lyingNode(["--clock-skew-ms", "500"]);
      const one = (await bob.client.getLog({})).entries[0]!;
      // A request as clients signed them before 2.10.0: ids only (for a message Bob already deleted, so it deletes nothing).
      const legacy = { account: bobAddress as Hex, ids: [Number(one.id)], timestamp: Date.now() };
      const signature = await toSigner(bobKey).signTypedData(typedData("Deletion", legacy));
      const request = { account: bobAddress, ids: [one.id], timestamp: legacy.timestamp, signature };
      await new Promise((resolve) => setTimeout(resolve, 700)); // past the window
      await alice.send(bobAddress, "five");
      expect((await bob.audit()).problems).toEqual([]); // the device now holds a head of 5 positions, signed after the window
      await alice.send(bobAddress, "six");
      const relabeled = (seq: number) =>
        lie((entries) => entries.map(({ message, ...entry }) => (entry.seq === seq ? ({ ...entry, id: one.id, removed: { reason: "deleted", request } } as LogPosition) : { ...entry, message })));
      relabeled(6);
      expect(kindsOf(await bob.audit())).toEqual([{ kind: "unproven-removal", seq: 6 }]);
      // The same request for a position stored before that head: nothing shows it came after, so it holds.
      relabeled(3);
      expect((await bob.audit({ full: true })).problems).toEqual([]);
    });

    it("a removal by the retention of a message stored after a head this device verified, before the retention could end, is unproven", { timeout: 30_000 }, async () => {
      const { alice, bob, bobAddress, lie } = await lyingNode(["--retention", "1d"]);
      expect((await bob.audit()).problems).toEqual([]); // the device now holds a head of 4 positions
      await alice.send(bobAddress, "five");
      // Every position said to be gone by the retention: positions 1-4 were stored before that head
      // (the retention may have removed them), position 5 after it, less than a day ago.
      lie((entries) => entries.map(({ message: _message, ...entry }) => ({ ...entry, removed: { reason: "retention" } }) as LogPosition));
      expect(kindsOf(await bob.audit({ full: true }))).toEqual([{ kind: "unproven-removal", seq: 5 }]);
    });

    it("a malformed answer is a problem, never an exception: a reason without its fields, a reason the protocol does not have, a leaf hash that is not a hash, a head that does not encode", { timeout: 30_000 }, async () => {
      const { bob, lie, proxy } = await lyingNode();
      lie((entries) => entries.map(({ message, ...entry }) => (entry.seq === 3 ? ({ ...entry, removed: { reason: "deleted" } } as unknown as LogPosition) : { ...entry, message })));
      expect(kindsOf(await bob.audit({ full: true }))).toEqual([{ kind: "unproven-removal", seq: 3 }]);
      // A reason the protocol does not have accounts for nothing.
      lie((entries) => entries.map(({ message, ...entry }) => (entry.seq === 3 ? ({ ...entry, removed: { reason: "lost in transit" } } as unknown as LogPosition) : { ...entry, message })));
      expect(kindsOf(await bob.audit({ full: true }))).toEqual([{ kind: "unproven-removal", seq: 3 }]);
      lie((entries) => entries.map((entry) => (entry.seq === 2 ? { ...entry, leafHash: "0x1234" } : entry)));
      expect(kindsOf(await bob.audit({ full: true }))).toEqual([{ kind: "altered", seq: 2 }]);
      proxy.rewrite = (method, result) => (method === "neutralService_getLog" ? [{ ...(result as [LogPage])[0], head: { ...(result as [LogPage])[0].head, root: "not a root" } }] : result);
      expect(kindsOf(await bob.audit({ full: true }))).toEqual([{ kind: "forged-head", seq: undefined }]);
    });

    it("a log that goes on past its head ends the walk at the head's size, unproven (a node that never says `end` cannot keep the audit walking)", { timeout: 30_000 }, async () => {
      const { bob, proxy } = await lyingNode();
      proxy.rewrite = (method, result) => {
        if (method !== "neutralService_getLog") return result;
        const [page] = result as [LogPage];
        const next = (page.entries.at(-1)?.seq ?? page.head.size) + 1;
        return [{ ...page, entries: [...page.entries, { seq: next, id: "999", role: "received", leafHash: `0x${"ab".repeat(32)}` }], end: false }];
      };
      expect(kindsOf(await bob.audit())).toEqual([
        { kind: "missing", seq: 5 },
        { kind: "unproven", seq: 5 },
      ]);
    });

    it("leaves that do not give the head are unproven; a head smaller than the last audited one is a rollback", { timeout: 30_000 }, async () => {
      const { alice, bob, bobAddress, lie, proxy } = await lyingNode();
      lie((entries) => entries.map((entry) => (entry.seq === 4 ? { ...entry, leafHash: `0x${"00".repeat(32)}` } : entry)));
      // The message no longer gives the position's (forged) leaf either; and the device verified the
      // head of 4 when Bob deleted message one (his request names its position), which these leaves do not give.
      expect(kindsOf(await bob.audit())).toEqual([
        { kind: "altered", seq: 4 },
        { kind: "fork", seq: 4 },
        { kind: "unproven", seq: 4 },
      ]);
      // Audited honestly to 4, then to 5; the node then answers its head of 4 again (as a node
      // restored from a backup would, with what it signed then).
      let older: LogPage["head"] | undefined;
      proxy.rewrite = (method, result) => {
        if (method === "neutralService_getLog") older ??= (result as [LogPage])[0].head;
        return result;
      };
      expect((await bob.audit()).problems).toEqual([]);
      await alice.send(bobAddress, "five");
      expect(await bob.audit()).toMatchObject({ from: 5, to: 5, problems: [] });
      expect(older?.size).toBe(4);
      proxy.rewrite = (method, result) => (method === "neutralService_getLog" ? [{ head: older, entries: [], end: true }] : result);
      expect(kindsOf(await bob.audit())).toEqual([{ kind: "rollback", seq: 5 }]);
    });
  });
});
