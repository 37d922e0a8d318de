// The neutralService methods (seeds/README.md §2, §5, §7 and “Signatures and receipts”) driven in process through the generated
// dispatcher, over a real SQLite store. viem checks signatures and receipts independently.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDispatcher } from "@neutral/server";
import { service, type KeyBundle, type Message as WireMessage } from "@neutral/server/neutral-service";
import { getAddress, hashTypedData, recoverTypedDataAddress, type Hex } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS as SPEC_DEFAULT_LIMITS, EIP712_DOMAIN, EIP712_TYPES } from "@neutral/protocol";
import { fixtureSigner } from "@neutral/protocol/testing";
import { loadSecp256k1 } from "../crypto/secp256k1.js";
import { loadNodeKey } from "../node-key.js";
import { createHandlers, type Limits, type RelayContext } from "./index.js";
import { openSqliteStore } from "../storage/sqlite.js";
import type { MessageStore } from "../storage/store.js";
import { TEST_KEYS, wallet, xOnlyKeyOf, type TestWallet } from "../../test/wallets.js";
import { SOFTWARE } from "../version.js";

const curve = loadSecp256k1();
const NOW = Date.parse("2026-01-01T12:00:00.000Z");
const DEFAULT_LIMITS: Limits = { ...SPEC_DEFAULT_LIMITS };
const DOMAIN = "relay.example:8645";

const alice = wallet(TEST_KEYS.alice);
const bob = wallet(TEST_KEYS.bob);
const carol = wallet(TEST_KEYS.carol);
/** Someone with no history at all. */
const DAVE = "0x00000000000000000000000000000000000da7e0";

interface Page {
  address?: string;
  id?: string;
  data: WireMessage[];
  end: boolean;
}
interface Answer {
  jsonrpc: string;
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

const root = mkdtempSync(path.join(os.tmpdir(), "neutral-service-"));
const stores: MessageStore[] = [];
let internalErrors: unknown[] = [];
afterEach(() => {
  // No client input ever becomes an internal error.
  expect(internalErrors).toEqual([]);
  internalErrors = [];
});
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  rmSync(root, { recursive: true, force: true });
});

let nodes = 0;
function createNode(limits: Partial<Limits> = {}) {
  const dir = path.join(root, `node${++nodes}`);
  mkdirSync(dir);
  const store = openSqliteStore({ file: path.join(dir, "neutral.sqlite"), synchronous: "normal" });
  stores.push(store);
  const nodeKey = loadNodeKey(dir, curve, TEST_KEYS.node);
  const clock = { now: NOW };
  const allLimits = { ...DEFAULT_LIMITS, ...limits };
  const domains = [DOMAIN];
  const handlers = createHandlers({
    store,
    curve,
    nodeKey: nodeKey.privateKey,
    limits: allLimits,
    domains: () => domains,
    software: SOFTWARE,
    delivery: { deliveryWaitMs: 2000, retryPeriodSeconds: 259_200 },
    publicUrl: () => `http://${DOMAIN}`,
    now: () => clock.now,
  });
  const dispatcher = createDispatcher<RelayContext>({ service, handlers, maxBatch: allLimits.maxBatch, onInternalError: (error) => internalErrors.push(error) });
  let nextId = 1;

  /** One call as `auth` (an address; null: anonymous). The answer as plain JSON. */
  async function call(method: string, params: unknown, auth: string | null): Promise<Answer> {
    const id = nextId++;
    const response = await dispatcher.dispatch({ jsonrpc: "2.0", id, method, params }, auth === null ? {} : { auth: { address: auth } });
    const answer = JSON.parse(JSON.stringify(response)) as Answer;
    expect(answer.jsonrpc).toBe("2.0");
    expect(answer.id).toBe(id);
    expect("result" in answer !== "error" in answer).toBe(true);
    return answer;
  }
  /** The payload of a successful call. */
  async function ok<T>(method: string, params: unknown, auth: string | null): Promise<T> {
    const answer = await call(method, params, auth);
    expect(answer.error).toBeUndefined();
    expect(Array.isArray(answer.result) && answer.result.length === 1, "one-element result array").toBe(true);
    return (answer.result as T[])[0]!;
  }
  /** The error of a failed call. */
  async function fails(method: string, params: unknown, auth: string | null): Promise<NonNullable<Answer["error"]>> {
    const answer = await call(method, params, auth);
    expect(answer.result).toBeUndefined();
    return answer.error!;
  }
  /** `who` signs a message at the node's current time (unless given) and sends it as itself. */
  async function send(who: TestWallet, input: { to: string; message: string; timestamp?: number }): Promise<WireMessage> {
    const signed = await who.sign({ ...input, timestamp: input.timestamp ?? clock.now });
    return ok<WireMessage>("neutralService_sendMessage", [signed], who.address);
  }
  return { dispatcher, store, clock, domains, nodeAddress: nodeKey.address, call, ok, fails, send };
}

const ids = (page: Page) => page.data.map((message) => message.id);

describe("neutralService_sendMessage", () => {
  it("stores the message and returns it with an id and both receipts", async () => {
    const node = createNode();
    const signed = await alice.sign({ to: bob.address, message: "deadbeef", timestamp: NOW });
    const stored = await node.ok<WireMessage>("neutralService_sendMessage", { message: signed }, alice.address);
    expect(stored).toEqual({
      id: expect.stringMatching(/^[1-9][0-9]*$/),
      message: "deadbeef",
      from: alice.address,
      to: bob.address,
      signature: signed.signature.toLowerCase(),
      sender_receipt: expect.stringMatching(/^0x[0-9a-f]{130}$/),
      sender_seq: 1,
      receiver_receipt: expect.stringMatching(/^0x[0-9a-f]{130}$/),
      receiver_seq: 1,
      timestamp: NOW,
    });
    expect(Object.keys(stored)).toEqual(["id", "message", "from", "to", "signature", "sender_receipt", "sender_seq", "receiver_receipt", "receiver_seq", "timestamp"]);
    const inbox = await node.ok<Page>("neutralService_getInbox", [], bob.address);
    expect(inbox.data).toEqual([stored]);
  });

  it("signs receipts that viem recovers to the node address (EIP-712 LogReceipt over the Message digest and the copy's position)", async () => {
    const node = createNode();
    expect(node.nodeAddress).toBe("0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc");
    const stored = await node.send(alice, { to: bob.address, message: "0123456789abcdef" });
    const digest = hashTypedData({
      domain: EIP712_DOMAIN,
      types: EIP712_TYPES,
      primaryType: "Message",
      message: { from: stored.from as Hex, to: stored.to as Hex, message: `0x${stored.message}`, timestamp: BigInt(stored.timestamp) },
    });
    const signer = await recoverTypedDataAddress({
      domain: EIP712_DOMAIN,
      types: EIP712_TYPES,
      primaryType: "Message",
      message: { from: stored.from as Hex, to: stored.to as Hex, message: `0x${stored.message}`, timestamp: BigInt(stored.timestamp) },
      signature: stored.signature as Hex,
    });
    expect(signer.toLowerCase()).toBe(alice.address);
    for (const [role, signature, seq] of [
      ["sender", stored.sender_receipt, stored.sender_seq],
      ["receiver", stored.receiver_receipt, stored.receiver_seq],
    ] as const) {
      expect(seq, role).toBe(1);
      const recovered = await recoverTypedDataAddress({
        domain: EIP712_DOMAIN,
        types: EIP712_TYPES,
        primaryType: "LogReceipt",
        message: { message: digest, role, seq: BigInt(seq!) },
        signature: signature as Hex,
      });
      expect(recovered.toLowerCase(), role).toBe(node.nodeAddress);
    }
    expect(stored.sender_receipt).not.toBe(stored.receiver_receipt);
  });

  it("binds each receipt to the position its copy took: the seqs are the log's, a message to oneself takes two", async () => {
    const node = createNode();
    const first = await node.send(alice, { to: bob.address, message: "01" });
    const second = await node.send(bob, { to: alice.address, message: "02" });
    const own = await node.send(alice, { to: alice.address, message: "03" });
    expect([first.sender_seq, first.receiver_seq, second.sender_seq, second.receiver_seq, own.receiver_seq, own.sender_seq]).toEqual([1, 1, 2, 2, 3, 4]);
    type LogPage = { entries: { seq: number; id: string; role: "received" | "sent" }[] };
    const log = await node.ok<LogPage>("neutralService_getLog", { from: 1 }, alice.address);
    expect(log.entries.map(({ seq, id, role }) => [seq, id, role])).toEqual([
      [1, first.id, "sent"],
      [2, second.id, "received"],
      [3, own.id, "received"],
      [4, own.id, "sent"],
    ]);
    // A resend answers the original, its positions and receipts included.
    const again = await node.ok<WireMessage>("neutralService_sendMessage", { message: { from: alice.address, to: bob.address, message: "01", timestamp: first.timestamp, signature: first.signature } }, alice.address);
    expect(again).toEqual(first);
  });

  it("answers lowercase addresses, ciphertext and signature when sent mixed-case", async () => {
    const node = createNode();
    const to = getAddress(bob.address);
    expect(to).not.toBe(bob.address); // really mixed-case
    const signed = await alice.sign({ to, message: "DEADBEEFCafe", timestamp: NOW });
    expect(signed.from).toBe(alice.account.address);
    expect(signed.from).not.toBe(alice.address);
    const stored = await node.ok<WireMessage>(
      "neutralService_sendMessage",
      [{ ...signed, signature: `0x${signed.signature.slice(2).toUpperCase()}` }],
      alice.address,
    );
    expect(stored).toMatchObject({ from: alice.address, to: bob.address, message: "deadbeefcafe", signature: signed.signature.toLowerCase() });
    const inbox = await node.ok<Page>("neutralService_getInbox", [{ from: getAddress(alice.address) }], bob.address);
    expect(inbox.data).toEqual([stored]);
  });

  it("is idempotent: a resend returns the stored original and stores nothing new", async () => {
    const node = createNode();
    const signed = await alice.sign({ to: bob.address, message: "aa", timestamp: NOW });
    const first = await node.ok<WireMessage>("neutralService_sendMessage", [signed], alice.address);
    node.clock.now += 1000;
    const again = await node.ok<WireMessage>("neutralService_sendMessage", [signed], alice.address);
    expect(again).toEqual(first);
    // The same message spelled differently (case) has the same EIP-712 digest: still the original.
    const respelled = { ...signed, to: getAddress(signed.to), message: "AA", signature: `0x${signed.signature.slice(2).toUpperCase()}` };
    expect(await node.ok<WireMessage>("neutralService_sendMessage", [respelled], alice.address)).toEqual(first);
    // Concurrent resends (one group commit) and a batch of them.
    const concurrent = await Promise.all([1, 2, 3].map(() => node.ok<WireMessage>("neutralService_sendMessage", [signed], alice.address)));
    for (const copy of concurrent) expect(copy).toEqual(first);
    const inbox = await node.ok<Page>("neutralService_getInbox", [{ direction: "all" }], bob.address);
    expect(ids(inbox)).toEqual([first.id]);
  });

  it("stores concurrent identical new messages once", async () => {
    const node = createNode();
    const signed = await alice.sign({ to: bob.address, message: "bb", timestamp: NOW });
    const batch = Array.from({ length: 5 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "neutralService_sendMessage", params: [signed] }));
    const answers = JSON.parse(JSON.stringify(await node.dispatcher.dispatch(batch, { auth: { address: alice.address } }))) as Answer[];
    expect(answers).toHaveLength(5);
    const stored = answers.map((answer) => (answer.result as WireMessage[])[0]!.id);
    expect(new Set(stored).size).toBe(1);
    expect(ids(await node.ok<Page>("neutralService_getInbox", [], bob.address))).toEqual([stored[0]]);
  });

  it("gives new messages strictly increasing ids", async () => {
    const node = createNode();
    const stored: WireMessage[] = [];
    for (let i = 0; i < 5; i++) stored.push(await node.send(alice, { to: bob.address, message: `0${i}`, timestamp: NOW + i }));
    const numbers = stored.map((message) => BigInt(message.id));
    for (let i = 1; i < numbers.length; i++) expect(numbers[i]! > numbers[i - 1]!).toBe(true);
  });

  describe("refusals (seeds/README.md “Signatures and receipts”, §7), and their order", () => {
    const node = createNode({ maxMessageBytes: 4 });
    let valid: Awaited<ReturnType<TestWallet["sign"]>>;
    /** Signed by bob, but claims to be from alice: the signature does not recover `from`. */
    let forged: Awaited<ReturnType<TestWallet["sign"]>>;
    beforeAll(async () => {
      valid = await alice.sign({ to: bob.address, message: "01020304", timestamp: NOW });
      forged = await bob.sign({ from: alice.account.address, to: bob.address, message: "01020304", timestamp: NOW });
    });
    afterEach(() => {
      node.clock.now = NOW;
    });
    const send = (message: unknown, auth: string | null = alice.address) => node.fails("neutralService_sendMessage", [message], auth);

    it.each([
      ["empty message", { message: "" }, "message.message"],
      ["odd-length message", { message: "abc" }, "message.message"],
      ["non-hex message", { message: "zz" }, "message.message"],
      ["0x-prefixed message", { message: "0xdead" }, "message.message"],
      ["bad from", { from: "0x1234" }, "message.from"],
      ["bad to", { to: "bob" }, "message.to"],
      ["to with 41 hex digits", { to: `${bob.address}0` }, "message.to"],
      ["short signature", { signature: "0x1234" }, "message.signature"],
      ["string timestamp", { timestamp: String(NOW) }, "message.timestamp"],
      ["negative timestamp", { timestamp: -1 }, "message.timestamp"],
      ["fractional timestamp", { timestamp: NOW + 0.5 }, "message.timestamp"],
      ["unknown member", { subject: "hi" }, "message.subject"],
    ])("-32602: %s (names %s)", async (_name, change, field) => {
      const error = await send({ ...valid, ...change });
      expect(error.code).toBe(-32602);
      expect(error.data?.field).toBe(field);
      expect(error.message).toContain(field);
    });

    it("-32602: a missing member or a missing message", async () => {
      const { signature: _, ...unsigned } = valid;
      expect((await send(unsigned)).data?.field).toBe("message.signature");
      const error = await node.fails("neutralService_sendMessage", [], alice.address);
      expect(error.code).toBe(-32602);
      expect(error.data?.field).toBe("message");
    });

    it("-32005: a message larger than maxMessageBytes (exactly the limit is fine)", async () => {
      const signed = await alice.sign({ to: bob.address, message: "0102030405", timestamp: NOW });
      const error = await send(signed);
      expect(error.code).toBe(-32005);
      expect(error.data).toMatchObject({ field: "message.message", limit: 4 });
      expect((await node.ok<WireMessage>("neutralService_sendMessage", [valid], alice.address)).message).toBe("01020304");
    });

    it("-32002: from is not the caller", async () => {
      const error = await send(valid, bob.address);
      expect(error.code).toBe(-32002);
      expect(error.data?.field).toBe("message.from");
    });

    it("-32004: a timestamp outside ±clockSkewMs of the node's clock (the edges are inside)", async () => {
      const skew = DEFAULT_LIMITS.clockSkewMs;
      for (const now of [NOW + skew + 1, NOW - skew - 1, NOW + 86_400_000]) {
        node.clock.now = now;
        const error = await send(valid);
        expect(error.code).toBe(-32004);
        expect(error.data).toMatchObject({ field: "message.timestamp", now, clockSkewMs: skew });
      }
      for (const now of [NOW + skew, NOW - skew]) {
        node.clock.now = now;
        expect((await node.ok<WireMessage>("neutralService_sendMessage", [valid], alice.address)).timestamp).toBe(NOW);
      }
    });

    it("-32003: signed by another key than from's", async () => {
      const error = await send(forged);
      expect(error.code).toBe(-32003);
      expect(error.data?.field).toBe("message.signature");
    });

    it.each([
      ["message", { message: "01020305" }],
      ["to", { to: carol.address }],
      ["timestamp", { timestamp: NOW + 1 }],
      ["signature's v", {}],
    ])("-32003: tampered %s", async (name, change) => {
      const tampered = { ...valid, ...change };
      if (name === "signature's v") tampered.signature = `${valid.signature.slice(0, -2)}${valid.signature.endsWith("1b") ? "1c" : "1b"}`;
      expect((await send(tampered)).code).toBe(-32003);
    });

    it("-32003: a signature that recovers nothing", async () => {
      expect((await send({ ...valid, signature: `0x${"00".repeat(65)}` })).code).toBe(-32003);
      expect((await send({ ...valid, signature: `0x${"ff".repeat(65)}` })).code).toBe(-32003);
    });

    it("checks in order: params, size, caller, timestamp, signature", async () => {
      const outside = NOW + DEFAULT_LIMITS.clockSkewMs + 1;
      const big = await bob.sign({ from: alice.account.address, to: bob.address, message: "0102030405", timestamp: NOW });
      node.clock.now = outside;
      // Everything wrong, plus invalid hex: -32602.
      expect((await send({ ...big, message: "0102030405zz" }, carol.address)).code).toBe(-32602);
      // Too large, wrong caller, bad timestamp, bad signature: -32005.
      expect((await send(big, carol.address)).code).toBe(-32005);
      // Wrong caller, bad timestamp, bad signature: -32002.
      expect((await send(forged, carol.address)).code).toBe(-32002);
      // Bad timestamp, bad signature: -32004.
      expect((await send(forged)).code).toBe(-32004);
      // Only the signature: -32003.
      node.clock.now = NOW;
      expect((await send(forged)).code).toBe(-32003);
    });

    it("needs a token", async () => {
      expect((await send(valid, null)).code).toBe(-32001);
    });

    it("stores nothing that was refused", async () => {
      const accepted = await node.ok<WireMessage>("neutralService_sendMessage", [valid], alice.address); // idempotent
      await send(forged);
      await send(forged, bob.address);
      await send(forged, carol.address);
      await send({ ...valid, message: "01020305" });
      const mailbox = await node.ok<Page>("neutralService_getInbox", [{ direction: "all" }], alice.address);
      expect(mailbox.data).toEqual([accepted]);
      expect((await node.ok<Page>("neutralService_getInbox", [{ direction: "all" }], bob.address)).data).toEqual([accepted]);
      expect((await node.ok<Page>("neutralService_getInbox", [{ direction: "all" }], carol.address)).data).toEqual([]);
    });
  });
});

describe("neutralService_getInbox and neutralService_getChat", () => {
  const node = createNode();
  // m1 alice→bob, m2 carol→bob, m3 bob→alice, m4 alice→alice, m5 alice→bob, m6 carol→alice.
  const m: WireMessage[] = [];
  const id = (n: number) => m[n - 1]!.id;
  beforeAll(async () => {
    const plan: [TestWallet, TestWallet][] = [
      [alice, bob],
      [carol, bob],
      [bob, alice],
      [alice, alice],
      [alice, bob],
      [carol, alice],
    ];
    for (const [i, [from, to]] of plan.entries()) {
      node.clock.now = NOW + i * 1000;
      m.push(await node.send(from, { to: to.address, message: `0${i + 1}` }));
    }
  });
  const inbox = (who: TestWallet | string, params: unknown = []) => node.ok<Page>("neutralService_getInbox", params, typeof who === "string" ? who : who.address);
  const chat = (who: TestWallet | string, params: unknown = []) => node.ok<Page>("neutralService_getChat", params, typeof who === "string" ? who : who.address);

  it("getInbox: the received messages, newest first, address = the caller", async () => {
    const page = await inbox(bob);
    expect(page.address).toBe(bob.address);
    expect(ids(page)).toEqual([id(5), id(2), id(1)]);
    expect(page.end).toBe(true);
    expect(page.data[0]).toEqual(m[4]);
    expect(await inbox(bob, undefined)).toEqual(page);
    expect(await inbox(bob, { inboxFilter: {} })).toEqual(page);
    expect(await inbox(bob, [null, null])).toEqual(page);
    expect(await inbox(DAVE)).toEqual({ address: DAVE, data: [], end: true });
  });

  it.each([
    ["bob", { from: alice.address }, [5, 1]],
    ["bob", { from: getAddress(alice.address) }, [5, 1]],
    ["bob", { from: carol.address }, [2]],
    ["bob", { from: DAVE }, []],
    ["bob", { direction: "received" }, [5, 2, 1]],
    ["bob", { direction: "sent" }, [3]],
    ["bob", { direction: "all" }, [5, 3, 2, 1]],
    ["bob", { since: NOW + 1000, until: NOW + 4000 }, [2]],
    ["bob", { since: NOW + 4000 }, [5]],
    ["bob", { until: NOW }, []],
    ["bob", { until: NOW + 1 }, [1]],
    ["alice", {}, [6, 4, 3]],
    ["alice", { direction: "all" }, [6, 5, 4, 3, 1]],
    ["alice", { direction: "sent" }, [5, 4, 1]],
    ["alice", { direction: "sent", from: bob.address }, []],
    ["alice", { direction: "all", from: alice.address }, [5, 4, 1]],
    ["alice", { direction: "received", from: alice.address }, [4]],
    ["alice", { direction: "all", from: carol.address, since: NOW + 5000 }, [6]],
    ["carol", { direction: "sent" }, [6, 2]],
  ] as const)("getInbox as %s with %j", async (who, filter, expected) => {
    const caller = { alice, bob, carol }[who];
    expect(ids(await inbox(caller, [filter]))).toEqual(expected.map(id));
    expect(ids(await inbox(caller, { inboxFilter: filter }))).toEqual(expected.map(id));
  });

  it("getInbox: pages backwards with before, forwards with after, and both", async () => {
    const all = { direction: "all" } as const;
    const first = await inbox(bob, [all, 2]);
    expect([ids(first), first.end]).toEqual([[id(5), id(3)], false]);
    const second = await inbox(bob, [all, 2, null, id(3)]);
    expect([ids(second), second.end]).toEqual([[id(2), id(1)], true]);
    const forwards = await inbox(bob, { inboxFilter: all, limit: 2, after: "0" });
    expect([ids(forwards), forwards.end]).toEqual([[id(1), id(2)], false]);
    const onwards = await inbox(bob, { inboxFilter: all, limit: 2, after: id(2) });
    expect([ids(onwards), onwards.end]).toEqual([[id(3), id(5)], true]);
    const between = await inbox(bob, { inboxFilter: all, limit: 1, after: id(1), before: id(5) });
    expect([ids(between), between.end]).toEqual([[id(2)], false]);
    const rest = await inbox(bob, { inboxFilter: all, limit: 5, after: id(2), before: id(5) });
    expect([ids(rest), rest.end]).toEqual([[id(3)], true]);
    // A page exactly as long as what is left ends the walk.
    const exact = await inbox(bob, [{}, 3]);
    expect([ids(exact), exact.end]).toEqual([[id(5), id(2), id(1)], true]);
  });

  it("getInbox: walking with the cursors visits every message once, either way", async () => {
    for (const who of [alice, bob, carol]) {
      const everything = ids(await inbox(who, [{ direction: "all" }, 100]));
      const backwards: string[] = [];
      let before: string | undefined;
      for (;;) {
        const page = await inbox(who, { inboxFilter: { direction: "all" }, limit: 1, ...(before !== undefined && { before }) });
        backwards.push(...ids(page));
        if (page.end) break;
        before = page.data.at(-1)!.id;
      }
      expect(backwards).toEqual(everything);
      const forwards: string[] = [];
      let after = "0";
      for (;;) {
        const page = await inbox(who, { inboxFilter: { direction: "all" }, limit: 2, after });
        forwards.push(...ids(page));
        if (page.end) break;
        after = page.data.at(-1)!.id;
      }
      expect(forwards).toEqual([...everything].reverse());
    }
  });

  it("any well-formed id is a position, up to 19 digits", async () => {
    expect(ids(await inbox(bob, { after: "9999999999999999999" }))).toEqual([]);
    expect(ids(await inbox(bob, { before: "9999999999999999999" }))).toEqual([id(5), id(2), id(1)]);
    expect(ids(await inbox(bob, { before: "9007199254740993" }))).toEqual([id(5), id(2), id(1)]);
    expect(ids(await inbox(bob, { before: "0" }))).toEqual([]);
    expect(ids(await inbox(bob, { after: String(BigInt(id(5)) + 1000n) }))).toEqual([]);
  });

  it.each([
    ["limit 0", [{}, 0], "limit"],
    ["limit 101", [{}, 101], "limit"],
    ["limit as a string", [{}, "20"], "limit"],
    ["limit 2.5", [{}, 2.5], "limit"],
    ["after with a leading zero", { after: "01" }, "after"],
    ["after of 20 digits", { after: "12345678901234567890" }, "after"],
    ["before negative", { before: "-1" }, "before"],
    ["before as a number", { before: 5 }, "before"],
    ["an unknown filter member", [{ chat: bob.address }], "inboxFilter.chat"],
    ["a misspelt filter member", [{ form: bob.address }], "inboxFilter.form"],
    ["a bad direction", [{ direction: "both" }], "inboxFilter.direction"],
    ["a bad from", [{ from: "alice" }], "inboxFilter.from"],
    ["a negative since", [{ since: -1 }], "inboxFilter.since"],
    ["an unknown param", { inboxFilter: {}, page: 2 }, "page"],
    ["a proof that is not a ProofRequest", [{}, 20, "1", "2", "3"], "proof"],
    ["too many positional params", [{}, 20, "1", "2", {}, "3"], "params"],
  ])("getInbox: -32602 for %s, naming %s", async (_name, params, field) => {
    const error = await node.fails("neutralService_getInbox", params, bob.address);
    expect(error.code).toBe(-32602);
    expect(error.data?.field).toBe(field);
  });

  it("getChat: the messages between the caller and the peer, both directions; id = the peer", async () => {
    const page = await chat(alice, [{ chat: bob.address }]);
    expect(page).toEqual({ id: bob.address, data: [m[4], m[2], m[0]], end: true });
    expect(await chat(alice, [{ chat: getAddress(bob.address) }])).toEqual(page);
    const mirror = await chat(bob, { inboxFilter: { chat: alice.address } });
    expect([mirror.id, ids(mirror)]).toEqual([alice.address, ids(page)]);
  });

  it("getChat: with oneself", async () => {
    expect(await chat(alice, [{ chat: alice.address }])).toEqual({ id: alice.address, data: [m[3]], end: true });
  });

  it("getChat: since/until and cursors", async () => {
    expect(ids(await chat(alice, [{ chat: bob.address, since: NOW + 2000 }]))).toEqual([id(5), id(3)]);
    expect(ids(await chat(alice, [{ chat: bob.address, until: NOW + 2000 }]))).toEqual([id(1)]);
    const page = await chat(alice, { inboxFilter: { chat: bob.address }, limit: 1, after: id(1) });
    expect([ids(page), page.end]).toEqual([[id(3)], false]);
    const back = await chat(alice, { inboxFilter: { chat: bob.address }, limit: 1, before: id(5) });
    expect([ids(back), back.end]).toEqual([[id(3)], false]);
  });

  it("getChat: without chat, the most recently active chat", async () => {
    expect(await chat(alice)).toEqual({ id: carol.address, data: [m[5]], end: true }); // m6 carol→alice is alice's newest
    expect((await chat(bob, [{}])).id).toBe(alice.address); // m5 alice→bob
    expect((await chat(carol, { inboxFilter: { since: NOW } })).id).toBe(alice.address); // m6
  });

  it("getChat: without chat and without any history, -32602 naming inboxFilter.chat", async () => {
    const error = await node.fails("neutralService_getChat", [], DAVE);
    expect(error.code).toBe(-32602);
    expect(error.data?.field).toBe("inboxFilter.chat");
    expect(error.message).toContain("inboxFilter.chat");
    expect(await chat(DAVE, [{ chat: alice.address }])).toEqual({ id: alice.address, data: [], end: true });
  });

  it.each([
    ["a getInbox-only member", [{ from: bob.address }], "inboxFilter.from"],
    ["direction", [{ direction: "all" }], "inboxFilter.direction"],
    ["a bad chat", [{ chat: "0x12" }], "inboxFilter.chat"],
    ["limit 0", [{ chat: bob.address }, 0], "limit"],
  ])("getChat: -32602 for %s, naming %s", async (_name, params, field) => {
    const error = await node.fails("neutralService_getChat", params, alice.address);
    expect(error.code).toBe(-32602);
    expect(error.data?.field).toBe(field);
  });

  it("reads need a token", async () => {
    expect((await node.fails("neutralService_getInbox", [], null)).code).toBe(-32001);
    expect((await node.fails("neutralService_getChat", [{ chat: bob.address }], null)).code).toBe(-32001);
  });
});

describe("neutralService_publishKey and neutralService_getKey", () => {
  /** A well-formed messaging key: the x of n·G. */
  const keyOf = (n: number) => xOnlyKeyOf(`0x${n.toString(16).padStart(64, "0")}`);
  const publish = (node: ReturnType<typeof createNode>, bundle: unknown, auth: string | null) => node.ok<KeyBundle>("neutralService_publishKey", [bundle], auth);
  const getKey = (node: ReturnType<typeof createNode>, account: string, auth: string | null = null) => node.ok<KeyBundle | null>("neutralService_getKey", [account], auth);

  it("publishes a bundle and answers it; getKey answers it to anyone, without a token", async () => {
    const node = createNode();
    const bundle = await alice.signKeyBundle({ key: keyOf(3), timestamp: NOW });
    const expected = { account: alice.address, key: keyOf(3), timestamp: NOW, signature: bundle.signature.toLowerCase() };
    const answer = await publish(node, bundle, alice.address);
    expect(answer).toEqual(expected);
    expect(Object.keys(answer)).toEqual(["account", "key", "timestamp", "signature"]);
    expect(await getKey(node, alice.address)).toEqual(expected);
    expect(await getKey(node, alice.address, bob.address)).toEqual(expected);
    expect(await node.ok("neutralService_getKey", { account: alice.address }, null)).toEqual(expected);
    expect(await node.ok("neutralService_publishKey", { bundle }, alice.address)).toEqual(expected);
  });

  it("getKey of an account without a bundle is null, in the one-element array", async () => {
    const node = createNode();
    const answer = await node.call("neutralService_getKey", [DAVE], null);
    expect(answer.result).toEqual([null]);
  });

  it("takes any case and answers lowercase", async () => {
    const node = createNode();
    const key = keyOf(5);
    const bundle = await alice.signKeyBundle({ key: `0x${key.slice(2).toUpperCase()}`, timestamp: NOW });
    expect(bundle.account).toBe(getAddress(alice.address));
    const mixed = { ...bundle, signature: `0x${bundle.signature.slice(2).toUpperCase()}` };
    const expected = { account: alice.address, key, timestamp: NOW, signature: bundle.signature.toLowerCase() };
    expect(await publish(node, mixed, alice.address)).toEqual(expected);
    expect(await getKey(node, getAddress(alice.address))).toEqual(expected);
    expect(await getKey(node, alice.address.toUpperCase().replace("0X", "0x"))).toEqual(expected);
  });

  it("replaces the stored bundle only with one that supersedes it (newer; as new, with the greater signature); otherwise answers the stored one, no error", async () => {
    const node = createNode();
    const first = await publish(node, await alice.signKeyBundle({ key: keyOf(1), timestamp: NOW - 1000 }), alice.address);
    const newer = await publish(node, await alice.signKeyBundle({ key: keyOf(2), timestamp: NOW }), alice.address);
    expect(newer.key).toBe(keyOf(2));
    expect(await getKey(node, alice.address)).toEqual(newer);
    // Older (the first one again, and another): nothing changes.
    expect(await publish(node, await alice.signKeyBundle({ key: keyOf(1), timestamp: NOW - 1000 }), alice.address)).toEqual(newer);
    expect(await publish(node, await alice.signKeyBundle({ key: keyOf(4), timestamp: 0 }), alice.address)).toEqual(newer);
    // Equally old with another key: the greater signature is kept, whichever came first.
    const tie = await alice.signKeyBundle({ key: keyOf(6), timestamp: NOW });
    const kept = tie.signature.toLowerCase() > newer.signature ? { ...newer, key: keyOf(6), signature: tie.signature.toLowerCase() } : newer;
    expect(await publish(node, tie, alice.address)).toEqual(kept);
    expect(await publish(node, await alice.signKeyBundle({ key: keyOf(2), timestamp: NOW }), alice.address)).toEqual(kept);
    expect(first).not.toEqual(newer);
    expect(await getKey(node, alice.address)).toEqual(kept);
    // One millisecond newer wins.
    const newest = await publish(node, await alice.signKeyBundle({ key: keyOf(6), timestamp: NOW + 1 }), alice.address);
    expect(newest.key).toBe(keyOf(6));
    expect(await getKey(node, alice.address)).toEqual(newest);
    // Others are untouched.
    expect(await getKey(node, bob.address)).toBeNull();
  });

  it("accepts a bundle made long ago (bundles are portable), and one up to clockSkewMs in the future", async () => {
    const node = createNode();
    const old = await alice.signKeyBundle({ key: keyOf(7), timestamp: NOW - 400 * 86_400_000 });
    expect((await publish(node, old, alice.address)).timestamp).toBe(old.timestamp);
    const edge = await alice.signKeyBundle({ key: keyOf(8), timestamp: NOW + DEFAULT_LIMITS.clockSkewMs });
    expect((await publish(node, edge, alice.address)).timestamp).toBe(edge.timestamp);
  });

  it("replays the spec's examples: publishKey's two, then getKey's two", async () => {
    const spec = JSON.parse(readFileSync(new URL("../../../../openrpc.json", import.meta.url), "utf8")) as {
      methods: { name: string; examples: { params: { value: unknown }[]; result: { value: unknown } }[] }[];
    };
    const examples = (name: string) => spec.methods.find((m) => m.name === name)!.examples;
    const node = createNode();
    for (const name of ["neutralService_publishKey", "neutralService_getKey"]) {
      expect(examples(name)).toHaveLength(2);
      for (const example of examples(name)) {
        const answer = await node.call(name, example.params.map((p) => p.value), name === "neutralService_publishKey" ? alice.address : null);
        expect(answer.result).toEqual(example.result.value);
      }
    }
  });

  describe("refusals, and their order", () => {
    const node = createNode();
    let valid: Awaited<ReturnType<TestWallet["signKeyBundle"]>>;
    /** Signed by bob, but names alice. */
    let forged: Awaited<ReturnType<TestWallet["signKeyBundle"]>>;
    beforeAll(async () => {
      valid = await alice.signKeyBundle({ key: keyOf(9), timestamp: NOW });
      forged = await bob.signKeyBundle({ account: alice.account.address, key: keyOf(9), timestamp: NOW });
    });
    afterEach(() => {
      node.clock.now = NOW;
    });
    const refuse = (bundle: unknown, auth: string | null = alice.address) => node.fails("neutralService_publishKey", [bundle], auth);

    it.each([
      ["short key", { key: "0x1234" }, "bundle.key"],
      ["key without 0x", { key: "ab".repeat(32) }, "bundle.key"],
      ["33-byte key (a compressed point)", { key: `0x02${"ab".repeat(32)}` }, "bundle.key"],
      ["key off the curve", { key: `0x${"00".repeat(31)}05` }, "bundle.key"],
      ["key ≥ p", { key: `0x${"ff".repeat(32)}` }, "bundle.key"],
      ["bad account", { account: "0x1234" }, "bundle.account"],
      ["short signature", { signature: "0x1234" }, "bundle.signature"],
      ["string timestamp", { timestamp: String(NOW) }, "bundle.timestamp"],
      ["negative timestamp", { timestamp: -1 }, "bundle.timestamp"],
      ["fractional timestamp", { timestamp: NOW + 0.5 }, "bundle.timestamp"],
      ["unknown member", { note: "hi" }, "bundle.note"],
    ])("-32602: %s (names %s)", async (_name, change, field) => {
      const error = await refuse({ ...valid, ...change });
      expect(error.code).toBe(-32602);
      expect(error.data?.field).toBe(field);
      expect(error.message).toContain(field);
    });

    it("-32602: a missing member or a missing bundle; getKey without or with a bad account", async () => {
      const { signature: _, ...unsigned } = valid;
      expect((await refuse(unsigned)).data?.field).toBe("bundle.signature");
      expect((await node.fails("neutralService_publishKey", [], alice.address)).data?.field).toBe("bundle");
      expect((await node.fails("neutralService_getKey", [], null)).data?.field).toBe("account");
      expect((await node.fails("neutralService_getKey", ["0x12"], null)).data?.field).toBe("account");
      expect((await node.fails("neutralService_getKey", { account: alice.address, extra: 1 }, null)).code).toBe(-32602);
    });

    it("-32002: the account is not the caller", async () => {
      const error = await refuse(valid, bob.address);
      expect(error.code).toBe(-32002);
      expect(error.data?.field).toBe("bundle.account");
    });

    it("-32004: a timestamp more than clockSkewMs in the future (the edge is inside; the past is fine)", async () => {
      const skew = DEFAULT_LIMITS.clockSkewMs;
      for (const now of [NOW - skew - 1, NOW - 86_400_000]) {
        node.clock.now = now;
        const error = await refuse(valid);
        expect(error.code).toBe(-32004);
        expect(error.data).toMatchObject({ field: "bundle.timestamp", now, clockSkewMs: skew });
      }
      node.clock.now = NOW - skew;
      expect((await publish(node, valid, alice.address)).timestamp).toBe(NOW);
    });

    it("-32003: signed by another key than the account's", async () => {
      const error = await refuse(forged);
      expect(error.code).toBe(-32003);
      expect(error.data?.field).toBe("bundle.signature");
    });

    it.each([
      ["key", { key: keyOf(10) }],
      ["timestamp", { timestamp: NOW - 1 }],
      ["account", { account: bob.address }],
      ["signature's v", {}],
    ])("-32003: tampered %s", async (name, change) => {
      const tampered = { ...valid, ...change };
      if (name === "signature's v") tampered.signature = `${valid.signature.slice(0, -2)}${valid.signature.endsWith("1b") ? "1c" : "1b"}`;
      expect((await refuse(tampered, name === "account" ? bob.address : alice.address)).code).toBe(-32003);
    });

    it("-32003: a signature that recovers nothing", async () => {
      expect((await refuse({ ...valid, signature: `0x${"00".repeat(65)}` })).code).toBe(-32003);
      expect((await refuse({ ...valid, signature: `0x${"ff".repeat(65)}` })).code).toBe(-32003);
    });

    it("checks in order: params, caller, timestamp, signature", async () => {
      node.clock.now = NOW - DEFAULT_LIMITS.clockSkewMs - 1; // valid and forged are now in the future
      // Everything wrong, plus a key off the curve: -32602.
      expect((await refuse({ ...forged, key: `0x${"00".repeat(31)}05` }, carol.address)).code).toBe(-32602);
      // Wrong caller, future, bad signature: -32002.
      expect((await refuse(forged, carol.address)).code).toBe(-32002);
      // Future, bad signature: -32004.
      expect((await refuse(forged)).code).toBe(-32004);
      // Only the signature: -32003.
      node.clock.now = NOW;
      expect((await refuse(forged)).code).toBe(-32003);
    });

    it("publishing needs a token", async () => {
      expect((await refuse(valid, null)).code).toBe(-32001);
    });

    it("stores nothing that was refused", async () => {
      const fresh = createNode();
      await fresh.fails("neutralService_publishKey", [forged], alice.address);
      await fresh.fails("neutralService_publishKey", [valid], bob.address);
      await fresh.fails("neutralService_publishKey", [{ ...valid, key: keyOf(11) }], alice.address);
      fresh.clock.now = NOW - DEFAULT_LIMITS.clockSkewMs - 1;
      await fresh.fails("neutralService_publishKey", [valid], alice.address);
      expect(await getKey(fresh, alice.address)).toBeNull();
      expect(await getKey(fresh, bob.address)).toBeNull();
    });
  });
});

describe("neutralService_publishHome and neutralService_getHome", () => {
  const aliceSigner = fixtureSigner(TEST_KEYS.alice);
  const bobSigner = fixtureSigner(TEST_KEYS.bob);
  interface Home {
    account: string;
    node: string;
    timestamp: number;
    signature: string;
  }

  it("stores the account's record naming this node; the newest wins; getHome answers it to anyone", async () => {
    const node = createNode();
    const first = await node.ok<Home>("neutralService_publishHome", [aliceSigner.homeRecord(node.nodeAddress, NOW - 1000)], alice.address);
    expect(first).toMatchObject({ account: alice.address, node: node.nodeAddress, timestamp: NOW - 1000 });
    const newer = await node.ok<Home>("neutralService_publishHome", [aliceSigner.homeRecord(node.nodeAddress, NOW)], alice.address);
    expect(await node.ok<Home>("neutralService_publishHome", [aliceSigner.homeRecord(node.nodeAddress, NOW - 2000)], alice.address)).toEqual(newer);
    expect(await node.ok<Home>("neutralService_getHome", [alice.address], null)).toEqual(newer);
    expect(await node.ok<Home | null>("neutralService_getHome", [bob.address], null)).toBeNull();
  });

  describe("refusals, and their order", () => {
    const node = createNode();
    afterEach(() => {
      node.clock.now = NOW;
    });
    const refuse = (record: unknown, auth: string | null = alice.address) => node.fails("neutralService_publishHome", [record], auth);
    const valid = () => aliceSigner.homeRecord(node.nodeAddress, NOW);

    it("-32602: a record naming another node (publish it there)", async () => {
      const error = await refuse(aliceSigner.homeRecord(DAVE, NOW));
      expect(error.code).toBe(-32602);
      expect(error.message).toContain("record.node");
    });

    it("-32002: the account is not the caller", async () => {
      const error = await refuse(valid(), bob.address);
      expect(error.code).toBe(-32002);
      expect(error.data?.field).toBe("record.account");
    });

    it("-32004: a timestamp more than clockSkewMs in the future (the edge is inside; the past is fine)", async () => {
      const skew = DEFAULT_LIMITS.clockSkewMs;
      node.clock.now = NOW - skew - 1;
      const error = await refuse(valid());
      expect(error.code).toBe(-32004);
      expect(error.data).toMatchObject({ field: "record.timestamp", now: NOW - skew - 1, clockSkewMs: skew });
      node.clock.now = NOW - skew;
      expect((await node.ok<Home>("neutralService_publishHome", [valid()], alice.address)).timestamp).toBe(NOW);
      node.clock.now = NOW + 400 * 86_400_000;
      expect((await node.ok<Home>("neutralService_publishHome", [valid()], alice.address)).timestamp).toBe(NOW);
    });

    it("-32003: signed by another key than the account's, or tampered", async () => {
      const forged = { ...bobSigner.homeRecord(node.nodeAddress, NOW), account: alice.address };
      expect(await refuse(forged)).toMatchObject({ code: -32003, data: { field: "record.signature" } });
      expect((await refuse({ ...valid(), timestamp: NOW - 1 })).code).toBe(-32003);
    });

    it("publishing needs a token, and stores nothing that was refused", async () => {
      const fresh = createNode();
      expect((await fresh.fails("neutralService_publishHome", [aliceSigner.homeRecord(fresh.nodeAddress, NOW)], null)).code).toBe(-32001);
      await fresh.fails("neutralService_publishHome", [{ ...bobSigner.homeRecord(fresh.nodeAddress, NOW), account: alice.address }], alice.address);
      fresh.clock.now = NOW - DEFAULT_LIMITS.clockSkewMs - 1;
      await fresh.fails("neutralService_publishHome", [aliceSigner.homeRecord(fresh.nodeAddress, NOW)], alice.address);
      expect(await fresh.ok<Home | null>("neutralService_getHome", [alice.address], null)).toBeNull();
    });
  });
});

describe("neutralService_nodeInfo", () => {
  it("answers the node's address, software, domains and limits, with or without a token", async () => {
    const node = createNode({ maxMessageBytes: 1000, clockSkewMs: 1234 });
    const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    const expected = {
      address: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
      software: "neutral-relay",
      version,
      domains: [DOMAIN],
      limits: { ...DEFAULT_LIMITS, maxMessageBytes: 1000, clockSkewMs: 1234, deliveryWaitMs: 2000, retryPeriodSeconds: 259_200 },
      url: `http://${DOMAIN}`,
      peers: [],
    };
    expect(await node.ok("neutralService_nodeInfo", [], null)).toEqual(expected);
    expect(await node.ok("neutralService_nodeInfo", undefined, alice.address)).toEqual(expected);
    expect(await node.ok("neutralService_nodeInfo", {}, null)).toEqual(expected);
    node.domains.push("second.example");
    expect(await node.ok("neutralService_nodeInfo", [], null)).toMatchObject({ domains: [DOMAIN, "second.example"] });
    expect((await node.fails("neutralService_nodeInfo", [1], null)).code).toBe(-32602);
  });
});
