// Deletion and retention on a real relay (issue 24): neutralService_deleteMessages with its signed
// request and receipt, and a node whose retention policy stops serving old messages and sweeps them.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { promisify } from "node:util";
import { hashTypedData, recoverTypedDataAddress, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { EIP712_DOMAIN, EIP712_TYPES } from "@neutral/protocol";
import { sendMany } from "../test/live.js";
import { sleep } from "../test/clients.js";
import { TEST_KEYS, wallet, type TestWallet } from "../test/wallets.js";
import { relaysPerTest } from "../test/relays.js";
import { call, type RunningRelay } from "../testing/index.js";

const alice = wallet(TEST_KEYS.alice);
const bob = wallet(TEST_KEYS.bob);

const relayWith = relaysPerTest();

interface Deletion {
  account: string;
  ids: string[];
  timestamp: number;
  signature: string;
}
/** A deletion request signed by `signer` (viem, independent of the relay's code). */
async function signDeletion(signer: TestWallet, ids: string[], timestamp = Date.now()): Promise<Deletion> {
  const message = { account: signer.account.address, ids: ids.map(BigInt), timestamp: BigInt(timestamp) };
  const signature = await signer.account.signTypedData({ domain: EIP712_DOMAIN, types: EIP712_TYPES, primaryType: "Deletion", message });
  return { account: signer.address, ids, timestamp, signature };
}
const deletionDigest = (request: Deletion) =>
  hashTypedData({
    domain: EIP712_DOMAIN,
    types: EIP712_TYPES,
    primaryType: "Deletion",
    message: { account: request.account as Hex, ids: request.ids.map(BigInt), timestamp: BigInt(request.timestamp) },
  });

async function inboxIds(relay: RunningRelay, token: string, direction: "received" | "sent" | "all" = "received"): Promise<string[]> {
  const answer = await call(relay.url, "neutralService_getInbox", [{ direction }, 100], token);
  return (answer.body.result[0] as { data: { id: string }[] }).data.map((message) => message.id).reverse();
}

/** getInbox's ids on a new TCP connection (closed after the answer). */
function inboxOnItsOwnConnection(relay: RunningRelay, token: string): Promise<string[]> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_getInbox", params: [{}, 100] });
  return new Promise((resolve, reject) => {
    const request = http.request(relay.url, { method: "POST", agent: false, headers: { "content-type": "application/json", authorization: `Bearer ${token}` } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve((JSON.parse(text) as { result: [{ data: { id: string }[] }] }).result[0].data.map((message) => message.id)));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}

describe("neutralService_deleteMessages on a real node", () => {
  it("deletes the caller's copies and answers the node's receipt, the same for the same request; the sender's copies stay", { timeout: 60_000 }, async () => {
    const relay = await relayWith();
    const [aliceToken, bobToken] = await Promise.all([alice.token({ domain: relay.domain }), bob.token({ domain: relay.domain })]);
    const ids = await sendMany(relay, alice, aliceToken, bob.address, 3, 1);
    const request = await signDeletion(bob, ids.slice(0, 2));
    const answer = await call(relay.url, "neutralService_deleteMessages", [request], bobToken);
    expect(answer.body.error).toBeUndefined();
    const receipt = answer.body.result[0] as { node: string; account: string; ids: string[]; request: Hex; signature: Hex };
    expect(receipt).toMatchObject({ node: relay.address, account: bob.address, ids: ids.slice(0, 2), request: deletionDigest(request) });
    // Anyone can check who signed it: the node, over DeletionReceipt(node, request).
    const signer = await recoverTypedDataAddress({
      domain: EIP712_DOMAIN,
      types: EIP712_TYPES,
      primaryType: "DeletionReceipt",
      message: { node: relay.address as Hex, request: receipt.request },
      signature: receipt.signature,
    });
    expect(signer.toLowerCase()).toBe(relay.address);
    expect(await inboxIds(relay, bobToken)).toEqual(ids.slice(2));
    expect(await inboxIds(relay, aliceToken, "sent")).toEqual(ids);
    // Sent again (the messages are gone already): the same receipt.
    expect((await call(relay.url, "neutralService_deleteMessages", { request }, bobToken)).body.result).toEqual([receipt]);
  });

  it("keeps the account's request at each position it emptied, written through the primary's writer by a worker (--workers 2)", { timeout: 60_000 }, async () => {
    const relay = await relayWith({ args: ["--workers", "2"] });
    const [aliceToken, bobToken] = await Promise.all([alice.token({ domain: relay.domain }), bob.token({ domain: relay.domain })]);
    const ids = await sendMany(relay, alice, aliceToken, bob.address, 3, 1);
    const request = await signDeletion(bob, [ids[1]!]);
    expect((await call(relay.url, "neutralService_deleteMessages", [request], bobToken)).body.error).toBeUndefined();
    const log = (await call(relay.url, "neutralService_getLog", [], bobToken)).body.result[0] as { entries: { seq: number; id: string; removed?: unknown }[] };
    expect(log.entries.map(({ seq, id, removed }) => ({ seq, id, removed }))).toEqual([
      { seq: 1, id: ids[0], removed: undefined },
      { seq: 2, id: ids[1], removed: { reason: "deleted", request } },
      { seq: 3, id: ids[2], removed: undefined },
    ]);
  });

  it("refuses another account's request, a tampered one, one from the future and too many ids, deleting nothing", { timeout: 60_000 }, async () => {
    const relay = await relayWith();
    const [aliceToken, bobToken] = await Promise.all([alice.token({ domain: relay.domain }), bob.token({ domain: relay.domain })]);
    const ids = await sendMany(relay, alice, aliceToken, bob.address, 2, 1);
    const request = await signDeletion(bob, ids);
    const refused = async (params: unknown, token: string) => (await call(relay.url, "neutralService_deleteMessages", [params], token)).body.error as { code: number; data?: { field?: string } };
    expect(await refused(request, aliceToken)).toMatchObject({ code: -32002, data: { field: "request.account" } });
    expect(await refused({ ...request, ids: [ids[0]] }, bobToken)).toMatchObject({ code: -32003, data: { field: "request.signature" } });
    expect(await refused(await signDeletion(bob, ids, Date.now() + 10 * 60_000), bobToken)).toMatchObject({ code: -32004 });
    // The bound of the schema: 100 ids pass it, 101 do not.
    const hundred = Array.from({ length: 100 }, (_, i) => String(1000 + i));
    expect((await call(relay.url, "neutralService_deleteMessages", [await signDeletion(bob, hundred)], bobToken)).body.error).toBeUndefined();
    expect(await refused(await signDeletion(bob, [...hundred, "2000"]), bobToken)).toMatchObject({ code: -32602 });
    expect(await refused(await signDeletion(bob, [ids[0]!, ids[0]!]), bobToken)).toMatchObject({ code: -32602 });
    expect(await inboxIds(relay, bobToken)).toEqual(ids);
  });
});

describe("a node's retention policy", () => {
  it("reports it in nodeInfo, stops serving a message once that old, and its primary sweeps it", { timeout: 60_000 }, async () => {
    const relay = await relayWith({ args: ["--retention", "2s", "--workers", "2"] });
    const info = (await call(relay.url, "neutralService_nodeInfo", [])).body.result[0] as { limits: { retentionSeconds: number } };
    expect(info.limits.retentionSeconds).toBe(2);
    const [aliceToken, bobToken] = await Promise.all([alice.token({ domain: relay.domain }), bob.token({ domain: relay.domain })]);
    const old = await sendMany(relay, alice, aliceToken, bob.address, 5);
    expect((await inboxIds(relay, bobToken)).sort()).toEqual([...old].sort());
    await sleep(3200); // 2 s, and the floor's step of at most 1 s
    const fresh = await sendMany(relay, alice, aliceToken, bob.address, 1);
    expect(await inboxIds(relay, bobToken, "all")).toEqual(fresh);
    expect(await inboxIds(relay, aliceToken, "all")).toEqual(fresh);
    // The sweep runs every second at this retention; it logs what it deleted.
    const deadline = Date.now() + 10_000;
    const swept = () => relay.logs.filter((log) => log.msg === "retention: deleted expired messages").reduce((sum, log) => sum + (log.swept as number), 0);
    while (swept() < old.length && Date.now() < deadline) await sleep(100);
    expect(swept()).toBe(old.length);
  });
});

describe("a sender-set end (expires)", () => {
  it("is signed as ExpiringMessage, answered and served with the message until it comes, then the message is gone from every mailbox", { timeout: 60_000 }, async () => {
    const relay = await relayWith({ args: ["--workers", "2"] });
    const [aliceToken, bobToken] = await Promise.all([alice.token({ domain: relay.domain }), bob.token({ domain: relay.domain })]);
    const timestamp = Date.now();
    const signed = await alice.sign({ to: bob.address, message: "c0ffee", timestamp, expires: timestamp + 3000 });
    const answer = await call(relay.url, "neutralService_sendMessage", [signed], aliceToken);
    expect(answer.body.error).toBeUndefined();
    const stored = answer.body.result[0] as { id: string; expires: number; sender_receipt: Hex; sender_seq: number };
    expect(stored.expires).toBe(timestamp + 3000);
    // The receipt is over the ExpiringMessage digest (viem's, independent of the relay's encoder).
    const digest = hashTypedData({
      domain: EIP712_DOMAIN,
      types: EIP712_TYPES,
      primaryType: "ExpiringMessage",
      message: { from: alice.address as Hex, to: bob.address as Hex, message: "0xc0ffee", timestamp: BigInt(timestamp), expires: BigInt(timestamp + 3000) },
    });
    const receiptSigner = await recoverTypedDataAddress({ domain: EIP712_DOMAIN, types: EIP712_TYPES, primaryType: "LogReceipt", message: { message: digest, role: "sender", seq: BigInt(stored.sender_seq) }, signature: stored.sender_receipt });
    expect(receiptSigner.toLowerCase()).toBe(relay.address);
    const kept = await sendMany(relay, alice, aliceToken, bob.address, 1);
    expect(await inboxIds(relay, bobToken)).toEqual([stored.id, ...kept]);
    // Read, it carries its end.
    const inbox = (await call(relay.url, "neutralService_getInbox", [{}, 10], bobToken)).body.result[0] as { data: { id: string; expires?: number }[] };
    expect(inbox.data.find((message) => message.id === stored.id)?.expires).toBe(timestamp + 3000);
    // Past its end (and the sweep's 1 s step): in no mailbox, in neither direction; the other stays.
    const deadline = Date.now() + 15_000;
    while ((await inboxIds(relay, bobToken, "all")).length > 1 && Date.now() < deadline) await sleep(200);
    expect(Date.now()).toBeGreaterThanOrEqual(timestamp + 3000);
    expect(await inboxIds(relay, bobToken, "all")).toEqual(kept);
    expect(await inboxIds(relay, aliceToken, "all")).toEqual(kept);
    expect(relay.logs.some((log) => log.msg === "retention: deleted messages past their sender-set end" && log.swept === 1)).toBe(true);
  });

  it("refuses an end the signature does not cover, one not after the timestamp and one already past, storing nothing", { timeout: 60_000 }, async () => {
    const relay = await relayWith();
    const [aliceToken, bobToken] = await Promise.all([alice.token({ domain: relay.domain }), bob.token({ domain: relay.domain })]);
    const timestamp = Date.now();
    const send = async (message: unknown) => (await call(relay.url, "neutralService_sendMessage", [message], aliceToken)).body.error as { code: number; data?: { field?: string } } | undefined;
    // Signed without an end, sent with one (a node extending or adding an end breaks the signature).
    const plain = await alice.sign({ to: bob.address, message: "01", timestamp });
    expect(await send({ ...plain, expires: timestamp + 60_000 })).toMatchObject({ code: -32003, data: { field: "message.signature" } });
    // Signed with one end, sent with another.
    const ending = await alice.sign({ to: bob.address, message: "02", timestamp, expires: timestamp + 60_000 });
    expect(await send({ ...ending, expires: timestamp + 120_000 })).toMatchObject({ code: -32003 });
    // Signed with an end, sent without it.
    const { expires: _dropped, ...withoutEnd } = ending;
    expect(await send(withoutEnd)).toMatchObject({ code: -32003 });
    // Properly signed, but not after the timestamp, or already past.
    expect(await send(await alice.sign({ to: bob.address, message: "03", timestamp, expires: timestamp }))).toMatchObject({ code: -32602, data: { field: "message.expires" } });
    expect(await send(await alice.sign({ to: bob.address, message: "04", timestamp: timestamp - 2000, expires: timestamp - 1000 }))).toMatchObject({ code: -32602, data: { field: "message.expires" } });
    expect(await send({ ...ending, expires: "soon" })).toMatchObject({ code: -32602 });
    expect(await inboxIds(relay, bobToken, "all")).toEqual([]);
    // Just inside: an end 1 ms after the timestamp (and still ahead of the clock) is taken.
    const now = Date.now() + 5000;
    expect(await send(await alice.sign({ to: bob.address, message: "05", timestamp: now, expires: now + 1 }))).toBeUndefined();
  });
});

describe("--sqlite-mmap-mib", () => {
  /** Whether the processes serving requests (the primary's children) map the database file. */
  const workersMapping = async (relay: RunningRelay): Promise<boolean[]> => {
    const { stdout } = await promisify(execFile)("pgrep", ["-P", String(relay.process.pid)]).catch(() => ({ stdout: "" }));
    const workers = stdout.split("\n").filter(Boolean);
    expect(workers.length).toBeGreaterThan(0);
    // The file itself, not its WAL index (neutral.sqlite-shm, mapped by every connection).
    return workers.map((pid) => /\/neutral\.sqlite$/m.test(readFileSync(`/proc/${pid}/maps`, "utf8")));
  };

  it("makes each worker read the database through a memory map; by default none does", { timeout: 60_000 }, async () => {
    for (const [args, mapped] of [
      [["--sqlite-mmap-mib", "64"], true],
      [[], false],
    ] as const) {
      const relay = await relayWith({ args: ["--workers", "2", ...args] });
      const token = await alice.token({ domain: relay.domain });
      // The primary hands connections, not requests, to its workers in turn: each read on a
      // connection of its own, until both workers have read (a kept-alive connection took every
      // read to one worker in a CI run). It hands them only to workers already listening, and a
      // worker still starting on a loaded machine got none of eight connections in another CI run:
      // reads go on, a little apart, for up to 10 s. With the map, both have it.
      const until = Date.now() + 10_000;
      for (let i = 0; i < 8 || (Date.now() < until && !(await workersMapping(relay)).every((one) => one === mapped)); i++) {
        expect(await inboxOnItsOwnConnection(relay, token)).toEqual([]);
        if (i >= 8) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await workersMapping(relay)).toEqual([mapped, mapped]);
      await relay.stop();
    }
  });
});
