// The verifiable mailbox's reads on a real node (in this process: real HTTP, a real SQLite file):
// neutralService_getProof and neutralService_getLog, checked with viem and @neutral/protocol alone,
// as a client would (the node's own tree code is not used to check it).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashTypedData, recoverTypedDataAddress, type Hex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import {
  EIP712_DOMAIN,
  EIP712_TYPES,
  fromHex,
  mailboxLeafHash,
  merkleRoot,
  statedPosition,
  toHex,
  verifyMerkleConsistency,
  verifyMerkleInclusion,
  verifyMerkleMultiproof,
  logEntriesHash,
  logEntryHash,
  logPositionStatement,
  type LogRemovalFields,
  type MailboxRole,
} from "@neutral/protocol";
import { call, post, startNode, type InProcessNode } from "../../testing/index.js";
import { fixtureSigner, fixtureStoredMessage } from "@neutral/protocol/testing";
import { TEST_KEYS, wallet, type TestWallet } from "../../test/wallets.js";

const alice = wallet(TEST_KEYS.alice);
const bob = wallet(TEST_KEYS.bob);

interface Head {
  account: string;
  size: number;
  root: string;
  timestamp: number;
  signature: string;
}
interface Position {
  seq: number;
  id: string;
  role: MailboxRole;
  leafHash: string;
}
interface WireMessage {
  id: string;
  from: string;
  to: string;
  message: string;
  timestamp: number;
  sender_seq?: number;
  receiver_seq?: number;
}

let node: InProcessNode;
const tokens = new Map<TestWallet, string>();
beforeAll(async () => {
  node = await startNode();
  for (const user of [alice, bob]) tokens.set(user, await user.token({ domain: node.domain }));
}, 60_000);
afterAll(() => node.stop());

const rpc = async (user: TestWallet, method: string, params: unknown) => (await call(node.url, method, params, tokens.get(user))).body;
const send = async (from: TestWallet, to: TestWallet, body: string) => (await rpc(from, "neutralService_sendMessage", [await from.sign({ to: to.address, message: body })])).result[0] as WireMessage;

/** Who signed `head`: the EIP-712 `MailboxHead` signature recovered with viem. */
const signerOf = (head: Head) =>
  recoverTypedDataAddress({
    domain: EIP712_DOMAIN,
    types: EIP712_TYPES,
    primaryType: "MailboxHead",
    message: { account: head.account as Hex, size: BigInt(head.size), root: head.root as Hex, timestamp: BigInt(head.timestamp) },
    signature: head.signature as Hex,
  });

type SignedLogPage = { head: Head; entries: (Position & { message?: unknown; removed?: LogRemovalFields })[]; timestamp: number; signature: string };

/**
 * Who signed what a log page from `from` says (`LogPage.signature`): EIP-712 `LogStatement` over the
 * head's digest (viem's), the first position, and each entry's statement (@neutral/protocol's).
 */
const statementSigner = async (page: SignedLogPage, from: number, messages: boolean) => {
  const head = hashTypedData({
    domain: EIP712_DOMAIN,
    types: EIP712_TYPES,
    primaryType: "MailboxHead",
    message: { account: page.head.account as Hex, size: BigInt(page.head.size), root: page.head.root as Hex, timestamp: BigInt(page.head.timestamp) },
  });
  const entries = toHex(logEntriesHash(page.entries.map((entry) => logEntryHash(logPositionStatement(entry, messages))))) as Hex;
  const signer = await recoverTypedDataAddress({
    domain: EIP712_DOMAIN,
    types: EIP712_TYPES,
    primaryType: "LogStatement",
    message: { head, from: BigInt(from), entries, timestamp: BigInt(page.timestamp) },
    signature: page.signature as Hex,
  });
  return signer.toLowerCase();
};

/** The leaf a client computes for its copy of `message` at `seq`. */
function leafOf(account: TestWallet, message: WireMessage, seq: number, role: MailboxRole): string {
  const digest = hashTypedData({
    domain: EIP712_DOMAIN,
    types: EIP712_TYPES,
    primaryType: "Message",
    message: { from: message.from as Hex, to: message.to as Hex, message: `0x${message.message}`, timestamp: BigInt(message.timestamp) }, // the wire ciphertext has no 0x
  });
  return toHex(mailboxLeafHash({ account: account.address, seq, role, peer: role === "received" ? message.from : message.to, digest }));
}

describe("neutralService_getProof and neutralService_getLog", () => {
  it("prove what a read returned: a head the node signed, each copy's leaf in its tree, consistency with an earlier head; the log adds up to the head", { timeout: 60_000 }, async () => {
    const first = await send(alice, bob, "0a01");
    const empty = (await rpc(bob, "neutralService_getProof", [])).result[0] as { head: Head; positions: Position[] };
    expect(empty.positions).toEqual([]);
    expect(empty.head).toMatchObject({ account: bob.address, size: 1 });
    expect((await signerOf(empty.head)).toLowerCase()).toBe(node.address);
    const earlier = empty.head;

    await send(bob, alice, "0b01");
    await send(alice, bob, "0a02");
    const self = await send(bob, bob, "0b02");
    const inbox = (await rpc(bob, "neutralService_getInbox", [{ direction: "all" }, 100])).result[0].data as WireMessage[];
    expect(inbox.map((message) => message.id)).toHaveLength(4);

    const answer = (await rpc(bob, "neutralService_getProof", [inbox.map((message) => message.id), earlier.size])).result[0] as {
      head: Head;
      positions: (Position & { proof: string[] })[];
      consistency: string[];
    };
    const { head } = answer;
    expect((await signerOf(head)).toLowerCase()).toBe(node.address);
    // Bob's copies: alice's first (1), his to alice (2), alice's second (3), his to himself (4 received, 5 sent).
    expect(head.size).toBe(5);
    expect(head.timestamp).toBeGreaterThanOrEqual(earlier.timestamp);
    const root = fromHex(head.root);
    const byId = new Map(inbox.map((message) => [message.id, message]));
    const expectedRoles = new Map([
      [1, "received"],
      [2, "sent"],
      [3, "received"],
      [4, "received"],
      [5, "sent"],
    ]);
    expect(answer.positions.map((position) => position.seq).sort()).toEqual([1, 2, 3, 4, 5]);
    for (const position of answer.positions) {
      expect(position.role).toBe(expectedRoles.get(position.seq));
      expect(position.leafHash).toBe(leafOf(bob, byId.get(position.id)!, position.seq, position.role));
      verifyMerkleInclusion(position.seq - 1, head.size, fromHex(position.leafHash), position.proof.map(fromHex), root);
    }
    verifyMerkleConsistency(earlier.size, head.size, fromHex(earlier.root), root, answer.consistency.map(fromHex));
    expect(answer.positions.filter((position) => position.id === self.id).map((position) => position.role)).toEqual(["received", "sent"]);

    // The log, in pages of 2: every position, the tree over its leaves is the head's.
    const entries: Position[] = [];
    for (let from = 1; ; from += 2) {
      const page = (await rpc(bob, "neutralService_getLog", [from, 2])).result[0] as { head: Head; entries: Position[]; end: boolean };
      expect(page.head).toEqual(head); // unchanged log: the same head, not signed again
      entries.push(...page.entries);
      if (page.end) break;
    }
    expect(entries.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(toHex(merkleRoot(entries.map((entry) => fromHex(entry.leafHash))))).toBe(head.root);
    expect(entries[0]).toEqual({ seq: 1, id: first.id, role: "received", leafHash: leafOf(bob, first, 1, "received") });
  });

  it("a deleted copy keeps its place in the log, with the account's signed request as its reason, and has no proof; another account's messages and unknown ids get none", { timeout: 60_000 }, async () => {
    const carol = wallet(TEST_KEYS.carol);
    tokens.set(carol, await carol.token({ domain: node.domain }));
    const kept = await send(alice, carol, "0c01");
    const gone = await send(alice, carol, "0c02");
    const notCarols = await send(alice, bob, "0c03");
    const deletion = { account: carol.account.address, ids: [BigInt(gone.id)], timestamp: BigInt(Date.now()) };
    const signature = await carol.account.signTypedData({ domain: EIP712_DOMAIN, types: EIP712_TYPES, primaryType: "Deletion", message: deletion });
    const deleted = await rpc(carol, "neutralService_deleteMessages", [{ account: carol.address, ids: [gone.id], timestamp: Number(deletion.timestamp), signature }]);
    expect(deleted.error).toBeUndefined();

    const answer = (await rpc(carol, "neutralService_getProof", [[kept.id, gone.id, notCarols.id, "999999"]])).result[0] as { head: Head; positions: Position[] };
    expect(answer.head.size).toBe(2);
    expect(answer.positions.map((position) => position.id)).toEqual([kept.id]);
    const log = (await rpc(carol, "neutralService_getLog", [])).result[0] as { head: Head; entries: Position[]; end: boolean };
    expect(log.end).toBe(true);
    expect(log.entries.map((entry) => [entry.seq, entry.id])).toEqual([
      [1, kept.id],
      [2, gone.id],
    ]);
    expect(log.entries[1]!.leafHash).toBe(leafOf(carol, gone, 2, "received"));
    expect(toHex(merkleRoot(log.entries.map((entry) => fromHex(entry.leafHash))))).toBe(log.head.root);
    // The deleted position says why: carol's own request, as she signed it (checked with viem alone).
    expect(log.entries[0]).not.toHaveProperty("removed");
    const { removed } = log.entries[1] as Position & { removed?: { reason: string; request: { account: string; ids: string[]; timestamp: number; signature: string } } };
    expect(removed).toEqual({ reason: "deleted", request: { account: carol.address, ids: [gone.id], timestamp: Number(deletion.timestamp), signature } });
    const signer = await recoverTypedDataAddress({
      domain: EIP712_DOMAIN,
      types: EIP712_TYPES,
      primaryType: "Deletion",
      message: { account: removed!.request.account as Hex, ids: removed!.request.ids.map(BigInt), timestamp: BigInt(removed!.request.timestamp) },
      signature: removed!.request.signature as Hex,
    });
    expect(signer.toLowerCase()).toBe(carol.address);
    // The page's statement binds the request it cites: another signature in its place is not what the node signed.
    expect(await statementSigner(log as unknown as SignedLogPage, 1, false)).toBe(node.address);
    const otherRequest = { ...removed!, request: { ...removed!.request, signature: `0x${"11".repeat(65)}` } };
    const cited = { ...(log as unknown as SignedLogPage), entries: log.entries.map((entry, i) => (i === 1 ? { ...entry, removed: otherRequest } : entry)) } as SignedLogPage;
    expect(await statementSigner(cited, 1, false)).not.toBe(node.address);
  });

  it("the log with its messages carries each copy still served as reads serve it, and none of a deleted one", { timeout: 60_000 }, async () => {
    const dave = wallet(generatePrivateKey());
    tokens.set(dave, await dave.token({ domain: node.domain }));
    const received = await send(alice, dave, "0e01");
    const sent = await send(dave, alice, "0e02");
    const gone = await send(alice, dave, "0e03");
    const deletion = { account: dave.account.address, ids: [BigInt(gone.id)], timestamp: BigInt(Date.now()) };
    const signature = await dave.account.signTypedData({ domain: EIP712_DOMAIN, types: EIP712_TYPES, primaryType: "Deletion", message: deletion });
    expect((await rpc(dave, "neutralService_deleteMessages", [{ account: dave.address, ids: [gone.id], timestamp: Number(deletion.timestamp), signature }])).error).toBeUndefined();
    const read = async (direction: string) => (await rpc(dave, "neutralService_getInbox", { inboxFilter: { direction }, limit: 10 })).result[0].data as WireMessage[];
    const [inbox, outbox] = [await read("received"), await read("sent")];
    const log = (await rpc(dave, "neutralService_getLog", { messages: true })).result[0] as { head: Head; entries: (Position & { message?: WireMessage; removed?: unknown })[]; end: boolean; signature: string };
    expect(log.end).toBe(true);
    expect(log.entries.map(({ seq, message, removed }) => ({ seq, message, removed: (removed as { reason?: string } | undefined)?.reason }))).toEqual([
      { seq: 1, message: inbox.find((one) => one.id === received.id), removed: undefined },
      { seq: 2, message: outbox.find((one) => one.id === sent.id), removed: undefined },
      { seq: 3, message: undefined, removed: "deleted" },
    ]);
    // Each message gives its position's leaf; without `messages`, the same positions without them.
    expect(log.entries[0]!.leafHash).toBe(leafOf(dave, log.entries[0]!.message!, 1, "received"));
    expect(log.entries[1]!.leafHash).toBe(leafOf(dave, log.entries[1]!.message!, 2, "sent"));
    const plain = (await rpc(dave, "neutralService_getLog", { messages: false })).result[0] as typeof log;
    // Each page says when the node signed it (spec 3.2.0).
    const { signature: plainSignature, timestamp: plainTime, ...plainPage } = plain as typeof log & { timestamp: number };
    const { signature: logSignature, timestamp: logTime, ...logPage } = log as typeof log & { timestamp: number };
    expect(plainPage).toEqual({ ...logPage, entries: log.entries.map(({ message: _message, ...entry }) => entry) });
    for (const time of [logTime, plainTime]) expect(time).toBeGreaterThanOrEqual(log.head.timestamp);
    // Each page is the node's signed statement of what it says: with messages, three states; without, the copies held.
    expect(await statementSigner(log as unknown as SignedLogPage, 1, true)).toBe(node.address);
    expect(await statementSigner(plain as unknown as SignedLogPage, 1, false)).toBe(node.address);
    expect(plainSignature).not.toBe(logSignature);
    expect(await statementSigner(plain as unknown as SignedLogPage, 1, true)).not.toBe(node.address);
    // A page that said one thing more, or one thing less, is not what the node signed.
    const dropped = { ...log, entries: log.entries.map((entry, i) => (i === 0 ? { ...entry, message: undefined } : entry)) } as unknown as SignedLogPage;
    expect(await statementSigner(dropped, 1, true)).not.toBe(node.address);
    expect(await statementSigner({ ...(log as unknown as SignedLogPage), entries: (log as unknown as SignedLogPage).entries.slice(1) }, 2, true)).not.toBe(node.address);
    // Nor is one said at another time.
    expect(await statementSigner({ ...(log as unknown as SignedLogPage), timestamp: logTime + 1 }, 1, true)).not.toBe(node.address);
    expect((await rpc(dave, "neutralService_getLog", { messages: "yes" })).error).toMatchObject({ code: -32602 });
  });

  it("refuses a `since` past the log, ids and positions that are not well-formed, and a caller without a token", { timeout: 30_000 }, async () => {
    const mallory = wallet(TEST_KEYS.mallory);
    tokens.set(mallory, await mallory.token({ domain: node.domain }));
    const past = await rpc(mallory, "neutralService_getProof", [[], 1]);
    expect(past.error).toEqual({ code: -32602, message: "Invalid params: since (1) is past the log's size (0)", data: { field: "since", size: 0 } });
    const emptyLog = (await rpc(mallory, "neutralService_getLog", [])).result[0] as { head: Head; entries: Position[]; end: boolean };
    expect(emptyLog).toMatchObject({ head: { account: mallory.address, size: 0, root: "0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" }, entries: [], end: true });
    for (const params of [[["01"]], [["x"]], [Array.from({ length: 101 }, () => "1")], [[], -1], [[], 1.5]]) {
      expect((await rpc(mallory, "neutralService_getProof", params)).error, JSON.stringify(params)).toMatchObject({ code: -32602 });
    }
    for (const params of [[0], [1, 0], [1, 1001], ["1"]]) {
      expect((await rpc(mallory, "neutralService_getLog", params)).error, JSON.stringify(params)).toMatchObject({ code: -32602 });
    }
    const anonymous = (await call(node.url, "neutralService_getProof", [])).body;
    expect(anonymous.error).toMatchObject({ code: -32001 });
  });

  it("signs a new head once the log grows, never earlier than the last", { timeout: 30_000 }, async () => {
    const head = async () => ((await rpc(alice, "neutralService_getProof", [])).result[0] as { head: Head }).head;
    const before = await head();
    expect(await head()).toEqual(before);
    await send(bob, alice, "0d01");
    const after = await head();
    expect(after.size).toBe(before.size + 1);
    expect(after.timestamp).toBeGreaterThanOrEqual(before.timestamp);
    expect(after.root).not.toBe(before.root);
  });
});

interface ProvenPage {
  data: WireMessage[];
  end: boolean;
  cursor?: string;
  proof: { head: Head; positions: (Position & { proof: string[] })[]; consistency?: string[]; multiproof?: string[] };
}

/** What a client checks of a compact proof: each copy's leaf from its message, at its position, and the multiproof of them all leading to the head's root. */
function expectCompactProven(account: TestWallet, page: ProvenPage): void {
  const { head, positions, multiproof } = page.proof;
  expect(multiproof).toBeDefined();
  const byId = new Map(page.data.map((message) => [message.id, message]));
  for (const position of positions) expect(position).not.toHaveProperty("proof");
  const leaves = positions.map((position) => ({ index: position.seq - 1, hash: fromHex(leafOf(account, byId.get(position.id)!, position.seq, position.role)) }));
  verifyMerkleMultiproof(head.size, leaves, multiproof!.map(fromHex), fromHex(head.root));
}

/**
 * What a client checks of a compact proof asked with `omitBound` (spec 3.3.0): each of the account's
 * copies on the page at the position `positions` lists for it or, when none is listed, at the one its
 * message states; all of them leading to the head's root through the multiproof. Answers the
 * positions listed and those taken from the messages.
 */
function expectBoundProven(account: TestWallet, page: ProvenPage): { listed: string[]; stated: string[] } {
  const { head, positions, multiproof } = page.proof;
  expect(multiproof).toBeDefined();
  const listed: string[] = [];
  const stated: string[] = [];
  const leaves = page.data.flatMap((message) =>
    [...(message.to === account.address ? (["received"] as const) : []), ...(message.from === account.address ? (["sent"] as const) : [])].map((role) => {
      const position = positions.find((one) => one.id === message.id && one.role === role);
      if (position !== undefined) expect(position).not.toHaveProperty("proof");
      const seq = position?.seq ?? statedPosition(message, role);
      expect(seq, `${message.id}/${role}`).toBeDefined();
      (position === undefined ? stated : listed).push(`${message.id}/${role}`);
      return { index: seq! - 1, hash: fromHex(leafOf(account, message, seq!, role)) };
    }),
  );
  verifyMerkleMultiproof(head.size, leaves, multiproof!.map(fromHex), fromHex(head.root));
  return { listed, stated };
}

/** Every check a client makes of a page that proves itself: the node's head, each copy's leaf at its position, in the head's tree. */
async function expectProven(account: TestWallet, page: ProvenPage, by: InProcessNode = node): Promise<void> {
  const { head, positions } = page.proof;
  expect((await signerOf(head)).toLowerCase()).toBe(by.address);
  expect(head.account).toBe(account.address);
  const byId = new Map(page.data.map((message) => [message.id, message]));
  const copies = page.data.flatMap((message) => [...(message.to === account.address ? ["received"] : []), ...(message.from === account.address ? ["sent"] : [])].map((role) => `${message.id}/${role}`));
  expect(positions.map((position) => `${position.id}/${position.role}`).sort()).toEqual(copies.sort());
  for (const position of positions) {
    expect(position.leafHash).toBe(leafOf(account, byId.get(position.id)!, position.seq, position.role));
    verifyMerkleInclusion(position.seq - 1, head.size, fromHex(position.leafHash), position.proof.map(fromHex), fromHex(head.root));
  }
}

describe("reads that prove themselves (getInbox and getChat with `proof`)", () => {
  it("a page asked with `proof` comes with the node's head, every copy on it proven, and the consistency proof from `since`; without it, no proof", { timeout: 60_000 }, async () => {
    const dave = wallet(generatePrivateKey());
    tokens.set(dave, await dave.token({ domain: node.domain }));
    await send(alice, dave, "0e01");
    const first = (await rpc(dave, "neutralService_getInbox", { proof: {} })).result[0] as ProvenPage;
    await expectProven(dave, first);
    expect(first.proof.head.size).toBe(1);
    expect(first.proof.consistency).toBeUndefined();

    await send(dave, alice, "0e02");
    await send(dave, dave, "0e03");
    const all = (await rpc(dave, "neutralService_getInbox", [{ direction: "all" }, 100, undefined, undefined, { since: first.proof.head.size }])).result[0] as ProvenPage;
    expect(all.data).toHaveLength(3);
    await expectProven(dave, all);
    expect(all.proof.positions).toHaveLength(4); // the message to himself: received and sent
    verifyMerkleConsistency(first.proof.head.size, all.proof.head.size, fromHex(first.proof.head.root), fromHex(all.proof.head.root), all.proof.consistency!.map(fromHex));

    const chat = (await rpc(dave, "neutralService_getChat", { inboxFilter: { chat: alice.address }, proof: { since: 4 } })).result[0] as ProvenPage;
    expect(chat.data).toHaveLength(2);
    await expectProven(dave, chat);
    expect(chat.proof.consistency).toEqual([]);

    const plain = (await rpc(dave, "neutralService_getInbox", [])).result[0] as ProvenPage;
    expect(plain.data).toHaveLength(2);
    expect(plain).not.toHaveProperty("proof");
  });

  it("a page asked with `proof.compact` proves every copy on it with one multiproof: fewer hashes than a proof each, each hash once", { timeout: 60_000 }, async () => {
    const ivan = wallet(generatePrivateKey());
    tokens.set(ivan, await ivan.token({ domain: node.domain }));
    for (let i = 0; i < 24; i++) {
      if (i % 3 === 0) await send(ivan, alice, `10${i.toString(16).padStart(2, "0")}`);
      await send(alice, ivan, `11${i.toString(16).padStart(2, "0")}`);
    }
    await send(ivan, ivan, "1200");
    const compact = (await rpc(ivan, "neutralService_getInbox", { inboxFilter: { direction: "all" }, limit: 20, proof: { compact: true } })).result[0] as ProvenPage;
    const separate = (await rpc(ivan, "neutralService_getInbox", { inboxFilter: { direction: "all" }, limit: 20, proof: {} })).result[0] as ProvenPage;
    expect(compact.data).toEqual(separate.data);
    expect(compact.proof.head).toEqual(separate.proof.head);
    expect(compact.proof.positions).toEqual(separate.proof.positions.map(({ proof: _proof, ...position }) => position));
    expect(compact.proof.positions).toHaveLength(21); // the message to himself: both copies
    expectCompactProven(ivan, compact);
    await expectProven(ivan, separate);
    const hashes = separate.proof.positions.reduce((sum, position) => sum + position.proof.length, 0);
    expect(compact.proof.multiproof!.length).toBeLessThan(hashes / 4);
    expect(new Set(compact.proof.multiproof).size).toBe(compact.proof.multiproof!.length);
    expect(JSON.stringify(compact.proof).length).toBeLessThan(JSON.stringify(separate.proof).length / 2);
    // A position changed, or a hash left out, and the multiproof proves nothing.
    const moved = { ...compact, proof: { ...compact.proof, positions: compact.proof.positions.map((position, i) => (i === 0 ? { ...position, seq: position.seq - 1 } : position)) } };
    expect(() => expectCompactProven(ivan, moved)).toThrow();
    expect(() => expectCompactProven(ivan, { ...compact, proof: { ...compact.proof, multiproof: compact.proof.multiproof!.slice(1) } })).toThrow();

    // getProof answers the same, and an empty page an empty multiproof.
    const ids = compact.data.map((message) => message.id);
    const proof = (await rpc(ivan, "neutralService_getProof", { ids, compact: true })).result[0] as ProvenPage["proof"];
    expect(proof).toEqual(compact.proof);
    const none = (await rpc(ivan, "neutralService_getProof", { ids: ["999999"], compact: true })).result[0] as ProvenPage["proof"];
    expect(none.positions).toEqual([]);
    expect(none.multiproof).toEqual([]);
    for (const bad of [1, "true", null]) {
      expect((await rpc(ivan, "neutralService_getInbox", { proof: { compact: bad } })).error, String(bad)).toMatchObject({ code: -32602, data: { field: "proof.compact" } });
    }
    for (const bad of [1, "true"]) expect((await rpc(ivan, "neutralService_getProof", { ids, compact: bad })).error, String(bad)).toMatchObject({ code: -32602, data: { field: "compact" } });
  });

  it("a page asked with `proof.omitBound` lists only the positions its messages do not state: those it states are proven by the multiproof from the messages alone", { timeout: 60_000 }, async () => {
    const key = generatePrivateKey();
    const lena = wallet(key);
    tokens.set(lena, await lena.token({ domain: node.domain }));
    for (let i = 0; i < 6; i++) await send(i % 2 === 0 ? alice : lena, i % 2 === 0 ? lena : alice, `15${i}0`);
    const self = await send(lena, lena, "1570");
    // A message imported from a former home, stored before spec 3.0.0 there: it states no position.
    const formerHome = fixtureSigner(TEST_KEYS.peer);
    const stored = fixtureStoredMessage(formerHome, fixtureSigner(TEST_KEYS.alice).signMessageFor(lena.address, "1580", Date.now() - 60_000));
    const history = [{ id: "7", message: stored.message, from: stored.from, to: stored.to, signature: stored.signature, sender_receipt: stored.senderReceipt, receiver_receipt: stored.receiverReceipt!, timestamp: stored.timestamp }];
    expect((await rpc(lena, "neutralService_importMessages", [history])).error).toBeUndefined();

    const read = async (proof: object, method = "neutralService_getInbox", inboxFilter: object = { direction: "all" }) =>
      (await rpc(lena, method, { inboxFilter, limit: 20, proof })).result[0] as ProvenPage;
    const bound = await read({ compact: true, omitBound: true });
    const compact = await read({ compact: true });
    expect(bound.data).toEqual(compact.data);
    expect(bound.data).toHaveLength(8);
    expect(bound.proof.head).toEqual(compact.proof.head);
    expect(bound.proof.multiproof).toEqual(compact.proof.multiproof);
    const imported = bound.data.find((message) => message.receiver_seq === undefined)!;
    expect(imported.from).toBe(alice.address);
    // Listed: the imported copy only. Stated: every other copy, both of the message to herself.
    const { listed, stated } = expectBoundProven(lena, bound);
    expect(listed).toEqual([`${imported.id}/received`]);
    expect(stated).toHaveLength(8);
    expect(stated).toEqual(expect.arrayContaining([`${self.id}/received`, `${self.id}/sent`]));
    expect(bound.proof.positions).toEqual(compact.proof.positions.filter((position) => position.id === imported.id));
    expect(JSON.stringify(bound.proof).length).toBeLessThan(JSON.stringify(compact.proof).length * 0.6);
    // A message whose stated position is changed is proven nowhere.
    const moved = { ...bound, data: bound.data.map((message) => (message.id === self.id ? { ...message, receiver_seq: message.receiver_seq! + 1 } : message)) };
    expect(() => expectBoundProven(lena, moved)).toThrow();

    // getChat the same way. Its page holds no message to herself, so its proof is kept: asked again, the
    // same; a request without `omitBound` is not answered with it, nor the other way round.
    const chatRead = (proof: object) => read(proof, "neutralService_getChat", { chat: alice.address });
    const chat = await chatRead({ compact: true, omitBound: true });
    expect(chat.data).toHaveLength(7);
    expect(expectBoundProven(lena, chat).listed).toEqual([`${imported.id}/received`]);
    expect(await chatRead({ compact: true, omitBound: true })).toEqual(chat);
    for (const proof of [{ compact: true }, { compact: true, omitBound: false }]) {
      const full = await chatRead(proof);
      expect(full.proof.positions, JSON.stringify(proof)).toHaveLength(7);
      expectCompactProven(lena, full);
    }
    expect(await chatRead({ compact: true, omitBound: true })).toEqual(chat);

    // Without `compact` there is no multiproof to prove a position left out: refused, naming it.
    for (const proof of [{ omitBound: true }, { compact: false, omitBound: true }]) {
      expect((await rpc(lena, "neutralService_getInbox", { proof })).error, JSON.stringify(proof)).toMatchObject({ code: -32602, data: { field: "proof.omitBound" } });
    }
    expect((await rpc(lena, "neutralService_getInbox", { proof: { compact: true, omitBound: 1 } })).error).toMatchObject({ code: -32602, data: { field: "proof.omitBound" } });
  });

  it("a proof served again while the log does not grow is the same; a message stored into the account by any route (sent, to oneself, imported) makes the next read prove the grown head", { timeout: 60_000 }, async () => {
    const key = generatePrivateKey();
    const kate = wallet(key);
    tokens.set(kate, await kate.token({ domain: node.domain }));
    for (let i = 0; i < 3; i++) await send(alice, kate, `13${i}0`);
    const read = async (proof: object) => (await rpc(kate, "neutralService_getInbox", { limit: 20, proof })).result[0] as ProvenPage;
    const first = await read({ compact: true });
    expectCompactProven(kate, first);
    const again = await read({ compact: true });
    expect(again).toEqual(first);
    // The same page with another form or `since` is another proof.
    const separate = await read({});
    await expectProven(kate, separate);
    expect(separate.proof.head).toEqual(first.proof.head);
    expect((await read({ compact: true, since: 1 })).proof.consistency).toHaveLength(2);

    // Each route grows kate's log (the first two without changing her received page): the next proof holds the new head.
    const grows: [string, () => Promise<unknown>][] = [
      ["sent", () => send(kate, alice, "1400")],
      [
        "imported",
        async () => {
          const formerHome = fixtureSigner(TEST_KEYS.peer);
          const stored = fixtureStoredMessage(formerHome, fixtureSigner(key).signMessageFor(alice.address, "1402", 1767225600000));
          const history = [{ id: "3", message: stored.message, from: stored.from, to: stored.to, signature: stored.signature, sender_receipt: stored.senderReceipt, receiver_receipt: stored.receiverReceipt!, timestamp: stored.timestamp }];
          expect((await rpc(kate, "neutralService_importMessages", [history])).error).toBeUndefined();
        },
      ],
      // Last: a page holding a message to oneself looks its positions up, and is not kept.
      ["to herself, read from the received side", () => send(kate, kate, "1401")],
    ];
    // getChat's pages are kept the same way, under their own request.
    const chat = async () => (await rpc(kate, "neutralService_getChat", { inboxFilter: { chat: alice.address }, proof: { compact: true } })).result[0] as ProvenPage;
    const chatFirst = await chat();
    expect(await chat()).toEqual(chatFirst);
    expect(chatFirst.proof.head).toEqual(first.proof.head);

    let last = first;
    for (const [route, grow] of grows) {
      await read({ compact: true }); // kept again, at the current head
      await grow();
      const next = await read({ compact: true });
      const grew = route.startsWith("to herself") ? 2 : 1;
      expect(next.proof.head.size, route).toBe(last.proof.head.size + grew);
      expectCompactProven(kate, next);
      if (!route.startsWith("to herself")) expect(next.data, route).toEqual(last.data);
      last = next;
    }
    // The chat's kept proof was dropped too: its page proves the grown head.
    const chatAfter = await chat();
    expect(chatAfter.proof.head).toEqual(last.proof.head);
    expectCompactProven(kate, chatAfter);
  });

  it("a page's proof is the same whether its positions come with its rows or are looked up: near the head, far below it, and a message to oneself read from one side", { timeout: 120_000 }, async () => {
    const kim = wallet(generatePrivateKey());
    tokens.set(kim, await kim.token({ domain: node.domain }));
    const self = await send(kim, kim, "1300");
    const sent: WireMessage[] = [];
    for (let i = 0; i < 300; i++) sent.push(await send(alice, kim, `13${(i + 1).toString(16).padStart(4, "0")}`));
    for (const compact of [true, false]) {
      const proof = compact ? { compact: true } : {};
      // The oldest page: its positions are ~300 below the head (looked up); the newest: at the head (with the rows).
      const oldest = (await rpc(kim, "neutralService_getInbox", { inboxFilter: {}, limit: 20, after: "0", proof })).result[0] as ProvenPage;
      const newest = (await rpc(kim, "neutralService_getInbox", { inboxFilter: { direction: "all" }, limit: 20, proof })).result[0] as ProvenPage;
      expect(oldest.data[0]!.id).toBe(self.id);
      expect(newest.data.map((message) => message.id)).toEqual(sent.slice(-20).reverse().map((message) => message.id));
      for (const page of [oldest, newest]) {
        if (compact) expectCompactProven(kim, page);
        else await expectProven(kim, page);
        const ids = page.data.map((message) => message.id);
        const asked = (await rpc(kim, "neutralService_getProof", { ids, ...(compact && { compact: true }) })).result[0] as ProvenPage["proof"];
        expect(page.proof).toEqual(asked);
      }
      // The message to himself, read from the received side only, still has both positions.
      expect(oldest.proof.positions.filter((position) => position.id === self.id).map((position) => [position.seq, position.role])).toEqual([
        [1, "received"],
        [2, "sent"],
      ]);
    }
  });

  it("refuses a `proof.since` past the log (naming proof.since and the size) and a `proof` that is not a ProofRequest", { timeout: 30_000 }, async () => {
    const erin = wallet(generatePrivateKey());
    tokens.set(erin, await erin.token({ domain: node.domain }));
    await send(alice, erin, "0f01");
    const past = await rpc(erin, "neutralService_getInbox", { proof: { since: 2 } });
    expect(past.error).toEqual({ code: -32602, message: "Invalid params: proof.since (2) is past the log's size (1)", data: { field: "proof.since", size: 1 } });
    expect((await rpc(erin, "neutralService_getChat", { inboxFilter: { chat: alice.address }, proof: { since: 2 } })).error).toMatchObject({ code: -32602, data: { field: "proof.since" } });
    for (const proof of [true, { since: -1 }, { since: 1.5 }, { since: "1" }, { until: 1 }]) {
      expect((await rpc(erin, "neutralService_getInbox", { proof })).error, JSON.stringify(proof)).toMatchObject({ code: -32602 });
    }
  });
});

describe("a page's proof within the answer budget (maxResponseBytes)", () => {
  const BUDGET = 4096;
  let small: InProcessNode;
  beforeAll(async () => {
    small = await startNode({ args: ["--max-response-bytes", String(BUDGET)] });
  }, 60_000);
  afterAll(() => small.stop());

  /** Bytes of a page's messages and proof, as the node counts them against the budget (give or take a few commas). */
  const bytesOf = (page: Pick<ProvenPage, "data" | "proof">) => JSON.stringify(page.data).length + JSON.stringify(page.proof).length;

  it("a page stops where its next message and that message's positions would outgrow the budget; walking on proves every message once", { timeout: 60_000 }, async () => {
    const frank = wallet(generatePrivateKey());
    const token = await frank.token({ domain: small.domain });
    const senderToken = await alice.token({ domain: small.domain });
    const ask = async (params: unknown) => (await call(small.url, "neutralService_getInbox", params, token)).body.result[0] as ProvenPage;
    const sent: string[] = [];
    for (let i = 0; i < 12; i++) {
      const signed = await alice.sign({ to: frank.address, message: `${(16 + i).toString(16)}`.padEnd(200, "a") });
      sent.push(((await call(small.url, "neutralService_sendMessage", [signed], senderToken)).body.result[0] as WireMessage).id);
    }
    const pages: ProvenPage[] = [];
    for (let after = "0"; ; ) {
      const page = await ask([{}, 12, after, undefined, {}]);
      expect(page.data.length).toBeGreaterThanOrEqual(1);
      expect(bytesOf(page)).toBeLessThanOrEqual(BUDGET + 16);
      await expectProven(frank, page, small);
      pages.push(page);
      if (page.end) break;
      after = page.data.at(-1)!.id;
    }
    expect(pages.flatMap((page) => page.data.map((message) => message.id))).toEqual(sent);
    expect(pages.length).toBeGreaterThan(1);
    // Each page that stopped early stopped at the budget: one more message, with its position, would not have fit.
    for (let i = 0; i + 1 < pages.length; i++) {
      const next = pages[i + 1]!;
      const grown = { data: [...pages[i]!.data, next.data[0]!], proof: { ...pages[i]!.proof, positions: [...pages[i]!.proof.positions, next.proof.positions[0]!] } };
      expect(bytesOf(grown)).toBeGreaterThan(BUDGET - 16);
    }
    // Without the proof, pages hold more.
    expect((await ask([{}, 12, "0"])).data.length).toBeGreaterThan(pages[0]!.data.length);
  });

  it("a compact proof counts against the budget too: every page within it, walking on proves every message once", { timeout: 60_000 }, async () => {
    const judy = wallet(generatePrivateKey());
    const token = await judy.token({ domain: small.domain });
    const senderToken = await alice.token({ domain: small.domain });
    const sent: string[] = [];
    for (let i = 0; i < 12; i++) {
      const signed = await alice.sign({ to: judy.address, message: `${(16 + i).toString(16)}`.padEnd(200, "a") });
      sent.push(((await call(small.url, "neutralService_sendMessage", [signed], senderToken)).body.result[0] as WireMessage).id);
    }
    const pages: ProvenPage[] = [];
    for (let after = "0"; ; ) {
      const page = (await call(small.url, "neutralService_getInbox", [{}, 12, after, undefined, { compact: true }], token)).body.result[0] as ProvenPage;
      expect(page.data.length).toBeGreaterThanOrEqual(1);
      expect(bytesOf(page)).toBeLessThanOrEqual(BUDGET + 16);
      expectCompactProven(judy, page);
      pages.push(page);
      if (page.end) break;
      after = page.data.at(-1)!.id;
    }
    expect(pages.flatMap((page) => page.data.map((message) => message.id))).toEqual(sent);
    expect(pages.length).toBeGreaterThan(1);
  });

  it("with `omitBound`, a page counts the multiproof's hashes only for the positions its messages state: more fit than with positions listed, each page within the budget, every message proven once", { timeout: 60_000 }, async () => {
    const jane = wallet(generatePrivateKey());
    const token = await jane.token({ domain: small.domain });
    const senderToken = await alice.token({ domain: small.domain });
    const sent: string[] = [];
    for (let i = 0; i < 12; i++) {
      const signed = await alice.sign({ to: jane.address, message: (16 + i).toString(16) });
      sent.push(((await call(small.url, "neutralService_sendMessage", [signed], senderToken)).body.result[0] as WireMessage).id);
    }
    const walk = async (proof: object) => {
      const pages: ProvenPage[] = [];
      for (let after = "0"; ; ) {
        const page = (await call(small.url, "neutralService_getInbox", [{}, 12, after, undefined, proof], token)).body.result[0] as ProvenPage;
        expect(page.data.length).toBeGreaterThanOrEqual(1);
        expect(bytesOf(page)).toBeLessThanOrEqual(BUDGET + 16);
        pages.push(page);
        if (page.end) break;
        after = page.data.at(-1)!.id;
      }
      expect(pages.flatMap((page) => page.data.map((message) => message.id))).toEqual(sent);
      return pages;
    };
    const bound = await walk({ compact: true, omitBound: true });
    for (const page of bound) expect(expectBoundProven(jane, page)).toMatchObject({ listed: [] });
    const listed = await walk({ compact: true });
    expect(bound[0]!.data.length).toBeGreaterThan(listed[0]!.data.length);
    expect(bound.length).toBeLessThan(listed.length);
  });

  it("a log page with its messages stops where the next position would outgrow the budget, at least one on it; walking on reads every position once", { timeout: 60_000 }, async () => {
    const heidi = wallet(generatePrivateKey());
    const token = await heidi.token({ domain: small.domain });
    const senderToken = await alice.token({ domain: small.domain });
    // Bodies of 1,000 and then 5,000 hex digits: about three of the first fit in 4,096 bytes, and a
    // position of the second outgrows it alone.
    for (const body of [..."0123".split("").map((digit) => digit.repeat(1000)), "ef".repeat(2500)]) {
      await call(small.url, "neutralService_sendMessage", [await alice.sign({ to: heidi.address, message: body })], senderToken);
    }
    type LogPageAnswer = { head: Head; entries: (Position & { message?: WireMessage })[]; end: boolean };
    const pages: LogPageAnswer[] = [];
    for (let from = 1; ; ) {
      const page = (await call(small.url, "neutralService_getLog", { from, limit: 100, messages: true }, token)).body.result[0] as LogPageAnswer;
      expect(page.entries.length).toBeGreaterThanOrEqual(1);
      pages.push(page);
      if (page.end) break;
      from = page.entries.at(-1)!.seq + 1;
    }
    expect(pages.flatMap((page) => page.entries.map((entry) => entry.seq))).toEqual([1, 2, 3, 4, 5]);
    expect(pages.every((page) => page.entries.every((entry) => entry.message !== undefined))).toBe(true);
    const bytes = (page: LogPageAnswer) => JSON.stringify(page).length;
    // At the budget: every page but the last position's is within it, and one more position would not have fit.
    for (let i = 0; i + 1 < pages.length; i++) {
      const page = pages[i]!;
      if (page.entries.length > 1) expect(bytes(page)).toBeLessThanOrEqual(BUDGET);
      expect(bytes({ ...page, entries: [...page.entries, pages[i + 1]!.entries[0]!] })).toBeGreaterThan(BUDGET - 16);
    }
    // Just past it: the position that outgrows the budget alone is still served, alone on its page.
    const last = pages.at(-1)!;
    expect(last.entries.map((entry) => entry.seq)).toEqual([5]);
    expect(bytes(last)).toBeGreaterThan(BUDGET);
  });

  it("a kept proof serves its page only where a new one would: after another entry of the batch spent most of the budget, the page is cut the same", { timeout: 60_000 }, async () => {
    const lena = wallet(generatePrivateKey());
    const token = await lena.token({ domain: small.domain });
    const senderToken = await alice.token({ domain: small.domain });
    for (let i = 0; i < 6; i++) {
      await call(small.url, "neutralService_sendMessage", [await alice.sign({ to: lena.address, message: `${(16 + i).toString(16)}`.padEnd(200, "b") })], senderToken);
    }
    const proven = { jsonrpc: "2.0", id: 2, method: "neutralService_getInbox", params: [{}, 3, "0", undefined, { compact: true }] };
    // A plain page of one message first: what is left fits the three messages, not with their proof.
    const batch = async () => {
      const answers = (await post(small.url, [{ jsonrpc: "2.0", id: 1, method: "neutralService_getInbox", params: [{}, 1] }, proven], token)).body as { id: number; result: [ProvenPage] }[];
      return answers.find((answer) => answer.id === 2)!.result[0];
    };
    const alone = (await post(small.url, proven, token)).body.result[0] as ProvenPage;
    expect(alone.data).toHaveLength(3);
    expect((await post(small.url, proven, token)).body.result[0]).toEqual(alone); // kept
    const fromKept = await batch();
    expect(fromKept.data.length).toBeLessThan(3);
    expectCompactProven(lena, fromKept);
    // The log grows (a message lena sends), so the same batch makes the proof anew: the same cut.
    await call(small.url, "neutralService_sendMessage", [await lena.sign({ to: alice.address, message: "1d00" })], token);
    const anew = await batch();
    expect(anew.proof.head.size).toBe(fromKept.proof.head.size + 1);
    expect(anew.data.map((message) => message.id)).toEqual(fromKept.data.map((message) => message.id));
  });

  it("a message that outgrows the budget with its proof is still served, alone on its page", { timeout: 30_000 }, async () => {
    const grace = wallet(generatePrivateKey());
    const token = await grace.token({ domain: small.domain });
    const senderToken = await alice.token({ domain: small.domain });
    for (const body of ["ab".repeat(1900), "cd".repeat(1900)]) {
      await call(small.url, "neutralService_sendMessage", [await alice.sign({ to: grace.address, message: body })], senderToken);
    }
    const page = (await call(small.url, "neutralService_getInbox", [{}, 10, "0", undefined, {}], token)).body.result[0] as ProvenPage;
    expect(page.data).toHaveLength(1);
    expect(page.end).toBe(false);
    expect(bytesOf(page)).toBeGreaterThan(BUDGET);
    await expectProven(grace, page, small);
  });
});
