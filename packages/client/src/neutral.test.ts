import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { startNode, type InProcessNode } from "@neutral/relay/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toSigner } from "./account.js";
import { signDigest, toHex, type Hex } from "./crypto/ecdsa.js";
import { hashTypedData, typedData } from "@neutral/protocol";
import { NeutralError } from "./errors.js";
import type { KeyBundle, MailboxProof, Message } from "./generated/types.js";
import { deriveMessagingKey, signKeyBundle } from "./messaging-key.js";
import { messageDigest } from "./messages.js";
import { createNeutral, type Neutral } from "./neutral.js";
import { RpcError, RpcTransportError } from "./rpc.js";
import { startTamperingProxy, type TamperingProxy } from "../test/tampering-proxy.js";
import { receiptHashOf } from "../test/receipts.js";
import { privateKeyToAccount, signingProvider, TEST_KEYS, type SigningProvider } from "../test/wallet.js";

let relay: InProcessNode;
let proxy: TamperingProxy;
let alice: Neutral;
let bob: Neutral;
let carol: Neutral;
let carolWallet: SigningProvider;
const aliceAddress = privateKeyToAccount(TEST_KEYS.alice).address.toLowerCase();
const bobAddress = privateKeyToAccount(TEST_KEYS.bob).address.toLowerCase();
const carolAddress = privateKeyToAccount(TEST_KEYS.carol).address.toLowerCase();
const marker = `plaintext-marker-${Math.random().toString(36).slice(2)}`;

beforeAll(async () => {
  relay = await startNode({ args: ["--node-key", TEST_KEYS.node] });
  proxy = await startTamperingProxy(relay.url);
  alice = createNeutral({ url: relay.url, account: TEST_KEYS.alice });
  bob = createNeutral({ url: relay.url, account: privateKeyToAccount(TEST_KEYS.bob) });
  carolWallet = signingProvider(TEST_KEYS.carol);
  carol = createNeutral({ url: relay.url, account: carolWallet, address: carolAddress });
});

afterAll(async () => {
  await proxy?.close();
  await relay?.stop();
});

describe("two accounts exchange messages", () => {
  it("refuses to send to an address that has published no key, with a clear error", async () => {
    const error = await alice.send(bobAddress, "too early").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NeutralError);
    expect(error).toMatchObject({ code: "NO_RECIPIENT_KEY" });
    expect((error as Error).message).toContain(bobAddress);
  });

  it("publishes the account's key bundle on the first call that talks to the node", async () => {
    expect(await alice.keyOf(bobAddress)).toBeUndefined();
    await bob.ready();
    const bundle = await alice.keyOf(bobAddress);
    expect(bundle).toMatchObject({ account: bobAddress });
    expect(bundle!.key).toBe((await deriveMessagingKey(toSigner(TEST_KEYS.bob))).publicKeyHex);
  });

  it("sends encrypted, and the recipient reads the plaintext with every check passed", async () => {
    const sent = await alice.send(bobAddress, `hello bob ✓ ${marker}`);
    expect(sent).toMatchObject({ from: aliceAddress, to: bobAddress, direction: "sent", text: `hello bob ✓ ${marker}`, verified: true, problems: [] });
    expect(sent.raw.message).not.toContain(Buffer.from(marker).toString("hex"));

    const [page] = await collect(bob.inbox({ limit: 5 }));
    const received = page!.messages.find((message) => message.id === sent.id);
    expect(received).toMatchObject({
      from: aliceAddress,
      direction: "received",
      text: `hello bob ✓ ${marker}`,
      verified: true,
      checks: { decrypted: true, signature: true, senderReceipt: true, receiverReceipt: true },
    });
  });

  it("lets the sender read back what it sent, and a chat shows both directions", async () => {
    const reply = await bob.send(aliceAddress, "hi alice");
    const sent = await collect(alice.inbox({ direction: "sent" }).messages());
    expect(sent.map((message) => message.text)).toContain(`hello bob ✓ ${marker}`);
    expect(sent.every((message) => message.verified && message.direction === "sent")).toBe(true);

    const chat = await collect(alice.chat(bobAddress).messages());
    expect(chat.slice(0, 2).map((message) => [message.direction, message.text])).toEqual([
      ["received", "hi alice"],
      ["sent", `hello bob ✓ ${marker}`],
    ]);
    expect(chat[0]!.id).toBe(reply.id);
  });

  it("works with an EIP-1193 wallet that can only sign: one sign-in, one home record, one key derivation, a signature per send", async () => {
    await carol.send(aliceAddress, "from a wallet");
    await carol.send(aliceAddress, "again");
    const messages = await collect(carol.inbox({ direction: "sent" }).messages());
    expect(messages.map((message) => message.text)).toEqual(["again", "from a wallet"]);
    const count = (method: string) => carolWallet.calls.filter((call) => call === method).length;
    expect(count("personal_sign")).toBe(1); // the token is reused
    expect(count("eth_signTypedData_v4")).toBe(5); // home record, key derivation, key bundle, two messages
    expect(carolWallet.calls.filter((call) => !["personal_sign", "eth_signTypedData_v4"].includes(call))).toEqual([]);

    const fromWallet = await collect(alice.inbox({ from: carolAddress }).messages());
    expect(fromWallet.map((message) => [message.text, message.verified])).toEqual([
      ["again", true],
      ["from a wallet", true],
    ]);
  });

  it("a second session of the same account derives the same key and does not republish it", async () => {
    const before = await alice.keyOf(bobAddress);
    const again = createNeutral({ url: relay.url, account: TEST_KEYS.bob });
    const texts = (await collect(again.inbox().messages())).map((message) => message.text);
    expect(texts).toContain(`hello bob ✓ ${marker}`);
    expect(await alice.keyOf(bobAddress)).toEqual(before);
  });

  it("pages through a long inbox, backwards by default and forwards from `after`, each message once", async () => {
    const dave = createNeutral({ url: relay.url, account: TEST_KEYS.mallory });
    await dave.ready();
    const ids: string[] = [];
    for (let i = 0; i < 45; i++) ids.push((await bob.send(await dave.getAddress(), `n${i}`)).id);
    const pages = await collect(dave.inbox({ limit: 20 }));
    expect(pages.map((page) => [page.messages.length, page.end])).toEqual([
      [20, false],
      [20, false],
      [5, true],
    ]);
    const backwards = pages.flatMap((page) => page.messages.map((message) => message.text));
    expect(backwards).toEqual(Array.from({ length: 45 }, (_, i) => `n${44 - i}`));
    const forwards = await collect(dave.inbox({ after: "0", limit: 7 }).messages());
    expect(forwards.map((message) => message.id)).toEqual(ids);
  });

  it("never leaves the plaintext in the node's data dir", () => {
    const files = readdirSync(relay.dataDir).filter((name) => name.startsWith("neutral.sqlite"));
    expect(files).toContain("neutral.sqlite");
    const needles = [Buffer.from(marker), Buffer.from(Buffer.from(marker).toString("hex")), Buffer.from("hello bob")];
    const ciphertextSeen = files.some((name) => readFileSync(path.join(relay.dataDir, name)).includes(Buffer.from(aliceAddress.slice(2))));
    expect(ciphertextSeen).toBe(true); // the files do hold the messages…
    for (const name of files) {
      const bytes = readFileSync(path.join(relay.dataDir, name));
      for (const needle of needles) expect(bytes.includes(needle), `${name} contains ${needle}`).toBe(false); // …but never their text
    }
  });
});

describe("deleting messages", () => {
  it("deletes the account's copy and checks the node's receipt; the sender keeps its copy", async () => {
    const first = await alice.send(carolAddress, "delete me");
    const second = await alice.send(carolAddress, "keep me");
    const receipt = await carol.deleteMessages([first.id]);
    expect(receipt).toMatchObject({ node: relay.address, account: carolAddress, ids: [first.id] });
    const inbox = await collect(carol.inbox({ from: aliceAddress }).messages());
    expect(inbox.map((message) => message.id)).toEqual([second.id]);
    const sent = await collect(alice.inbox({ direction: "sent" }).messages());
    expect(sent.map((message) => message.id)).toEqual(expect.arrayContaining([first.id, second.id]));
  });

  it("refuses bad ids before any call, and a receipt the node did not sign", async () => {
    await expect(bob.deleteMessages([])).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(bob.deleteMessages(["01"])).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(bob.deleteMessages(Array.from({ length: 101 }, (_, i) => String(i + 1)))).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    const viaProxy = createNeutral({ url: proxy.url, account: TEST_KEYS.bob, domain: relay.domain });
    proxy.rewrite = (method, result) =>
      method === "neutralService_deleteMessages" ? [{ ...(result as [{ signature: string }])[0], signature: `0x${"1b".repeat(65)}` }] : result;
    try {
      await expect(viaProxy.deleteMessages(["999999"])).rejects.toMatchObject({ code: "PROTOCOL_ERROR" }); // an id bob has not: nothing of his goes
    } finally {
      proxy.rewrite = undefined;
    }
  });
});

describe("deleting messages: the request names the positions the node proves", () => {
  it("signs the leaves of the copies, proven in the node's head; the log keeps the request as each position's reason", async () => {
    const self = await carol.send(carolAddress, "to myself"); // two copies, two positions
    const receipt = await carol.deleteMessages([self.raw]);
    expect(receipt.ids).toEqual([self.id]);
    const log = await carol.client.getLog({ messages: false, limit: 1000 });
    const gone = log.entries.filter((entry) => entry.id === self.id);
    expect(gone.map((entry) => entry.role)).toEqual(["received", "sent"]);
    for (const entry of gone) {
      expect(entry.removed).toMatchObject({ reason: "deleted", request: { ids: [self.id] } });
      expect(entry.removed!.reason === "deleted" && [...entry.removed!.request.leaves!].sort()).toEqual(gone.map((one) => one.leafHash).sort());
    }
  });

  it("signs nothing when the node's proof of a position does not hold, or a message given whole is not what its position holds", async () => {
    const viaProxy = createNeutral({ url: proxy.url, account: TEST_KEYS.carol, domain: relay.domain });
    const message = await alice.send(carolAddress, "do not sign for another");
    const other = await alice.send(carolAddress, "the position claimed");
    let deletions = 0;
    proxy.rewrite = (method, result) => {
      if (method === "neutralService_deleteMessages") deletions++;
      if (method !== "neutralService_getProof") return result;
      const [proof] = result as [MailboxProof];
      return [{ ...proof, positions: proof.positions.map((position) => ({ ...position, leafHash: `0x${"ab".repeat(32)}` })) }];
    };
    try {
      // A leaf the proof does not lead to the head from.
      await expect(viaProxy.deleteMessages([message.id])).rejects.toMatchObject({ code: "PROTOCOL_ERROR", message: expect.stringContaining("no request was signed") });
      // Another message's position, proven in the head: the message given whole is not what it holds.
      const [real] = (await carol.client.getProof({ ids: [other.id] })).positions;
      proxy.rewrite = (method, result) => {
        if (method === "neutralService_deleteMessages") deletions++;
        if (method !== "neutralService_getProof") return result;
        const [proof] = result as [MailboxProof];
        return [{ ...proof, positions: [{ ...real!, id: message.id }] }];
      };
      await expect(viaProxy.deleteMessages([message.raw])).rejects.toMatchObject({ code: "PROTOCOL_ERROR" });
      expect(deletions).toBe(0);
    } finally {
      proxy.rewrite = undefined;
    }
    // Nothing was deleted.
    const inbox = await collect(carol.inbox({ from: aliceAddress }).messages());
    expect(inbox.map((one) => one.id)).toEqual(expect.arrayContaining([message.id, other.id]));
  });
});

describe("consent", () => {
  it("under allowed-only, a stranger lands in requests; allowing moves later messages to the inbox; blocking refuses them", async () => {
    const dan = createNeutral({ url: relay.url, account: TEST_KEYS.mallory });
    const danAddress = await dan.getAddress();
    await dan.ready();
    const state = await carol.setConsentPolicy("allowed-only");
    expect(state.policy).toMatchObject({ account: carolAddress, mode: "allowed-only" });
    const first = await dan.send(carolAddress, "hello stranger");
    const inboxFrom = async (folder?: "requests") => (await collect(carol.inbox({ from: danAddress, ...(folder && { folder }) }).messages())).map((message) => message.text);
    expect(await inboxFrom()).toEqual([]);
    expect(await inboxFrom("requests")).toEqual(["hello stranger"]);
    expect((await collect(carol.chat(danAddress, { folder: "requests" }).messages()))[0]!.id).toBe(first.id);
    await carol.setConsent(danAddress, "allowed");
    await dan.send(carolAddress, "now allowed");
    expect(await inboxFrom()).toEqual(["now allowed"]);
    await carol.setConsent(danAddress, "blocked");
    await expect(dan.send(carolAddress, "blocked now")).rejects.toMatchObject({ code: -32002 });
    expect(await carol.consent()).toMatchObject({ policy: { mode: "allowed-only" }, records: [{ peer: danAddress, state: "blocked" }], end: true });
    await carol.setConsentPolicy("open");
    await carol.setConsent(danAddress, "none");
    expect((await carol.consent()).records).toEqual([]);
  });
});

describe("what a dishonest node serves is flagged", () => {
  let viaProxy: Neutral;
  beforeAll(() => {
    viaProxy = createNeutral({ url: proxy.url, account: TEST_KEYS.bob, domain: relay.domain });
  });
  const editMessages = (edit: (message: Message) => Message) => (method: string, result: unknown) => {
    if (method !== "neutralService_getInbox") return result;
    const [page] = result as [{ data: Message[] }];
    return [{ ...page, data: page.data.map(edit) }];
  };
  const newest = async () => (await collect(viaProxy.inbox({ from: aliceAddress, limit: 1 })))[0]!.messages[0]!;

  it("passes through an honest node unchanged", async () => {
    proxy.rewrite = undefined;
    expect(await newest()).toMatchObject({ verified: true, text: `hello bob ✓ ${marker}` });
  });

  it("tampered ciphertext: not decrypted, and the sender's signature no longer matches", async () => {
    proxy.rewrite = editMessages((message) => {
      const flipped = (parseInt(message.message.slice(-2), 16) ^ 1).toString(16).padStart(2, "0");
      return { ...message, message: message.message.slice(0, -2) + flipped };
    });
    const message = await newest();
    expect(message.checks).toEqual({ decrypted: false, signature: false, senderReceipt: false, receiverReceipt: false });
    expect(message.text).toBeUndefined();
    expect(message.verified).toBe(false);
    expect(message.problems.join("; ")).toMatch(/does not decrypt/);
  });

  it("a forged sender signature", async () => {
    proxy.rewrite = editMessages((message) => {
      const digest = messageDigest(message)!;
      return { ...message, signature: signDigest(digest, Uint8Array.from(Buffer.from(TEST_KEYS.mallory.slice(2), "hex"))) };
    });
    const message = await newest();
    expect(message.checks).toEqual({ decrypted: true, signature: false, senderReceipt: true, receiverReceipt: true });
    expect(message.verified).toBe(false);
    expect(message.problems).toEqual(["the sender's signature does not match the message"]);
  });

  it("a receipt signed by another node", async () => {
    proxy.rewrite = editMessages((message) => {
      const receipt = receiptHashOf(message, "receiver");
      return { ...message, receiver_receipt: signDigest(receipt, Uint8Array.from(Buffer.from(TEST_KEYS.carol.slice(2), "hex"))) };
    });
    const message = await newest();
    expect(message.checks).toEqual({ decrypted: true, signature: true, senderReceipt: true, receiverReceipt: false });
    expect(message.verified).toBe(false);
  });

  it("accepts that receipt when the other node is trusted", async () => {
    const trusting = createNeutral({ url: proxy.url, account: TEST_KEYS.bob, domain: relay.domain, trustedNodes: [privateKeyToAccount(TEST_KEYS.carol).address] });
    const [page] = await collect(trusting.inbox({ from: aliceAddress, limit: 1 }));
    expect(page!.messages[0]!.checks.receiverReceipt).toBe(true);
  });

  it("a receipt swapped between roles", async () => {
    proxy.rewrite = editMessages((message) => ({ ...message, sender_receipt: message.receiver_receipt! }));
    expect((await newest()).checks).toMatchObject({ senderReceipt: false, receiverReceipt: true });
  });

  it("a key bundle the account did not sign is refused before anything is encrypted to it", async () => {
    const mallory = toSigner(TEST_KEYS.mallory);
    const forged: KeyBundle = { ...(await signKeyBundle(mallory, await deriveMessagingKey(mallory))), account: aliceAddress };
    proxy.rewrite = (method, result) => (method === "neutralService_getKey" ? [forged] : result);
    const sender = createNeutral({ url: proxy.url, account: TEST_KEYS.carol, domain: relay.domain });
    await expect(sender.send(aliceAddress, "secret")).rejects.toMatchObject({ name: "NeutralError", code: "INVALID_KEY_BUNDLE" });

    // Reading, the same forgery leaves alice's messages undecrypted and says why.
    const reader = createNeutral({ url: proxy.url, account: TEST_KEYS.bob, domain: relay.domain });
    const [page] = await collect(reader.inbox({ from: aliceAddress, limit: 1 }));
    const message = page!.messages[0]!;
    expect(message.checks).toEqual({ decrypted: false, signature: true, senderReceipt: true, receiverReceipt: true });
    expect(message.problems).toEqual([`no valid messaging key is published for ${aliceAddress}`]);
    proxy.rewrite = undefined;
  });
});

describe("tokens and errors", () => {
  it("renews the token before it expires", async () => {
    let clock = Date.now();
    const session = createNeutral({ url: relay.url, account: TEST_KEYS.alice, tokenLifetimeMs: 3_600_000, now: () => clock });
    const first = await session.token();
    expect(await session.token()).toBe(first);
    clock += 54 * 60_000;
    expect(await session.token()).toBe(first);
    clock += 2 * 60_000; // 4 minutes left: inside the renewal margin
    expect(await session.token()).not.toBe(first);
  });

  it("signs in again once when the node refuses its token, then reports the refusal with its reason", async () => {
    // A device clock two hours slow: every token looks valid here and is expired at the node.
    const account = privateKeyToAccount(TEST_KEYS.alice);
    let signIns = 0;
    const counting = { ...account, signMessage: (args: { message: string }) => (signIns++, account.signMessage(args)) };
    const slow = createNeutral({ url: relay.url, account: counting, now: () => Date.now() - 2 * 3_600_000 });
    const error = await slow.client.getInbox({ limit: 1 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: -32001, status: 401 });
    expect(signIns).toBe(1); // the raw client does not retry
    const viaSdk = await collect(slow.inbox({ limit: 1 }).messages()).catch((caught: unknown) => caught);
    expect(viaSdk).toBeInstanceOf(RpcError);
    expect(viaSdk).toMatchObject({ code: -32001, data: { reason: expect.stringMatching(/expir/) } });
    expect(signIns).toBe(2); // the refused token, then exactly one fresh sign-in before giving up
  });

  it("carries the JSON-RPC code of the node's refusals", async () => {
    const error = await alice.client.getInbox({ limit: 1000 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32602, status: 200 });
  });

  it("refuses bad arguments before any network call, without echoing secrets", async () => {
    await expect(alice.send("0x1234", "x")).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(alice.send(bobAddress, "")).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(alice.send(bobAddress, "x".repeat(70_000))).rejects.toMatchObject({ code: "MESSAGE_TOO_LARGE" });
    await expect(alice.send(bobAddress, "\ud800 lone surrogate")).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(() => createNeutral({ url: "not a url", account: TEST_KEYS.alice })).toThrow(NeutralError);
    const error = (() => {
      try {
        createNeutral({ url: relay.url, account: `${TEST_KEYS.alice}00` as Hex });
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error?.message).not.toContain(TEST_KEYS.alice.slice(2, 20));
  });

  it("checks a text against the node's own message size limit", async () => {
    const small = await startNode({ args: ["--node-key", TEST_KEYS.node, "--max-message-bytes", "1000"] });
    try {
      const sender = createNeutral({ url: small.url, account: TEST_KEYS.alice });
      await createNeutral({ url: small.url, account: TEST_KEYS.bob }).ready();
      await expect(sender.send(bobAddress, "y".repeat(2000))).rejects.toMatchObject({ code: "MESSAGE_TOO_LARGE" });
      await expect(sender.send(bobAddress, "y".repeat(500))).resolves.toMatchObject({ verified: true });
    } finally {
      await small.stop();
    }
  });

  it("reports an unreachable node, a timeout and an abort as transport errors", async () => {
    const nowhere = createNeutral({ url: "http://127.0.0.1:9", account: TEST_KEYS.alice });
    await expect(nowhere.nodeInfo()).rejects.toBeInstanceOf(RpcTransportError);
    const aborted = new AbortController();
    aborted.abort();
    await expect(alice.send(bobAddress, "never", { signal: aborted.signal })).rejects.toBeInstanceOf(RpcTransportError);
    const messages = await collect(alice.inbox({ limit: 1 }).messages()).catch(() => []);
    expect(messages.every((message) => message.text !== "never")).toBe(true);
  });
});

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe("pages that stop early", () => {
  let bounded: InProcessNode;
  beforeAll(async () => {
    bounded = await startNode({ args: ["--max-page-scan", "101"] });
  }, 60_000);
  afterAll(async () => {
    await bounded?.stop();
  }, 30_000);

  it("walks on from `cursor` past empty pages of a sparse time filter, to the real end", async () => {
    const reader = createNeutral({ url: bounded.url, account: TEST_KEYS.alice });
    const writer = createNeutral({ url: bounded.url, account: TEST_KEYS.bob });
    await reader.ready();
    const sent = [];
    for (let i = 0; i < 120; i++) sent.push(await writer.send(aliceAddress, `note ${i}`));
    const newest = sent.at(-1)!;
    // Only the newest message matches; 119 older ones are examined first when walking forwards.
    const pages = [];
    for await (const page of reader.inbox({ after: "0", since: newest.timestamp, limit: 5 })) pages.push(page);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]!.messages).toEqual([]);
    expect(pages[0]!.end).toBe(false);
    expect(pages.at(-1)!.end).toBe(true);
    const expected = sent.filter((message) => message.timestamp >= newest.timestamp).map((message) => message.id);
    expect(pages.flatMap((page) => page.messages.map((message) => message.id))).toEqual(expected);
  }, 120_000);
});

describe("a sender-set end (expiresIn)", () => {
  it("signs the end with the message; the reader sees it, every check passing; a node that extends or drops it is flagged", async () => {
    const before = Date.now();
    const sent = await alice.send(bobAddress, "gone in a minute", { expiresIn: 60_000 });
    expect(sent.expires).toBe(sent.timestamp + 60_000);
    expect(sent.timestamp).toBeGreaterThanOrEqual(before);
    expect(sent).toMatchObject({ verified: true, problems: [] });
    const received = (await collect(bob.inbox({ from: aliceAddress, limit: 1 })))[0]!.messages[0]!;
    expect(received).toMatchObject({ id: sent.id, expires: sent.expires, text: "gone in a minute", verified: true });
    const viaProxy = createNeutral({ url: proxy.url, account: TEST_KEYS.bob, domain: relay.domain });
    const served = async (edit: (message: Message) => Message) => {
      proxy.rewrite = (method, result) => {
        if (method !== "neutralService_getInbox") return result;
        const [page] = result as [{ data: Message[] }];
        return [{ ...page, data: page.data.map(edit) }];
      };
      try {
        return (await collect(viaProxy.inbox({ from: aliceAddress, limit: 1 })))[0]!.messages[0]!;
      } finally {
        proxy.rewrite = undefined;
      }
    };
    const extended = await served((message) => ({ ...message, expires: message.expires! + 86_400_000 }));
    expect(extended.checks).toMatchObject({ signature: false, senderReceipt: false });
    const { expires: _dropped, ...withoutEnd } = received.raw;
    const dropped = await served(() => withoutEnd);
    expect(dropped.checks).toMatchObject({ signature: false });
  });

  it("refuses an end that is not a positive whole number of ms, before any call", async () => {
    for (const expiresIn of [0, -1, 1.5, Number.NaN]) await expect(alice.send(bobAddress, "x", { expiresIn })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});
