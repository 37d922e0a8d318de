// What hostile clients could do on one node since live delivery, consent and retention (issue 33,
// findings 4, 5 and 8), against real relays on loopback: idle streams from a few addresses cannot
// lock a new address out; strangers cannot spend what the senders an account allowed may store;
// a message the retention sweep deleted does not come back by being sent again.
import net from "node:net";
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { httpFrom, NODE_INFO, sleep } from "../test/clients.js";
import { account, eventually, type TestNode } from "../test/federation.js";
import { relaysPerTest } from "../test/relays.js";
import type { RunningRelay } from "../testing/index.js";

const relayWith = relaysPerTest();
const sockets: net.Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

/** A relay as `account()` addresses a node. */
const nodeOf = (relay: RunningRelay) => ({ url: relay.url, port: Number(new URL(relay.url).port) }) as TestNode;
const newAccount = () => account(`0x${randomBytes(32).toString("hex")}`);

/**
 * Opens a stream from `localAddress` as `user` on a connection of its own, and resolves with the
 * status line's code once the node answers (200: the stream is open and stays so; 429: refused).
 */
function openStream(relay: RunningRelay, localAddress: string, token: string): Promise<{ socket: net.Socket; status: number }> {
  const target = new URL(relay.url);
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "neutralService_subscribe", params: [] });
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: target.hostname, port: Number(target.port), localAddress });
    sockets.push(socket);
    let text = "";
    const timer = setTimeout(() => reject(new Error(`no answer from ${localAddress}`)), 10_000);
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve({ socket, status: Number(match[1]) });
      }
    });
    socket.once("connect", () =>
      socket.write(
        `POST / HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      ),
    );
  });
}

describe("streams and the node's connections", () => {
  it("idle streams from a few addresses hold at most the streams' share (--max-connections less --reserved-connections): a new address is served and subscribes", { timeout: 90_000 }, async () => {
    const relay = await relayWith({ args: ["--max-connections", "60", "--reserved-connections", "40", "--max-connections-per-ip", "0"] });
    const node = nodeOf(relay);
    // 60 streams, as many as the node's connections, from two addresses and eight accounts (8 each at most).
    const users = Array.from({ length: 8 }, newAccount);
    const tokens = users.map((user) => user.signer.bearerToken({ domain: relay.domain, lifetimeMs: 3_600_000 }).token);
    const attempts = [];
    for (let i = 0; i < 60; i++) attempts.push(await openStream(relay, i % 2 === 0 ? "127.0.0.61" : "127.0.0.62", tokens[i % 8]!).catch(() => ({ status: 0 })));
    const held = attempts.filter((attempt) => attempt.status === 200).length;
    expect(held).toBe(20); // the streams' share: 60 - 40
    expect(attempts.filter((attempt) => attempt.status === 429)).toHaveLength(40);
    await sleep(300); // the refused connections are closed by the node
    // A new address: every ordinary request answered, and its stream opens (the most loaded address's oldest goes).
    for (let i = 0; i < 10; i++) expect((await httpFrom(relay.url, "127.0.0.63", { body: NODE_INFO, timeoutMs: 2000 })).status).toBe(200);
    const honest = newAccount();
    expect((await openStream(relay, "127.0.0.63", honest.signer.bearerToken({ domain: relay.domain, lifetimeMs: 3_600_000 }).token)).status).toBe(200);
    expect((await honest.ok<{ data: unknown[] }>(node, "neutralService_getInbox", [{}])).data).toEqual([]);
  });
});

describe("storage quotas under consent", () => {
  it("strangers filling an account's requests folder spend its requests quota, never what the senders it allowed may send", { timeout: 90_000 }, async () => {
    const relay = await relayWith({ args: ["--recipient-quota-messages", "10", "--request-quota-messages", "1"] });
    const node = nodeOf(relay);
    const victim = newAccount();
    const friend = newAccount();
    const policy = { account: victim.signer.address, mode: "allowed-only" as const, timestamp: Date.now() };
    const allowFriend = { account: victim.signer.address, peer: friend.signer.address, state: "allowed" as const, timestamp: Date.now() };
    await victim.ok(node, "neutralService_setConsent", [
      [{ ...allowFriend, signature: victim.signer.signTypedData("Consent", allowFriend) }],
      { ...policy, signature: victim.signer.signTypedData("ConsentPolicy", policy) },
    ]);
    // 12 throwaway keys, one message each: 10 fit the requests folder's quota, then it is full.
    const outcomes = [];
    for (let i = 0; i < 12; i++) {
      const stranger = newAccount();
      const answer = await stranger.call(node, "neutralService_sendMessage", [stranger.signer.signMessageFor(victim.address, "5a")]);
      outcomes.push(answer.body.error?.data?.quota ?? "stored");
    }
    expect(outcomes).toEqual([...Array(10).fill("stored"), "recipientQuotaMessages", "recipientQuotaMessages"]);
    // The friend's 10 all land in the inbox: the requests folder's quota is its own.
    for (let i = 0; i < 10; i++) await friend.send(node, victim.address, `f${i}`);
    const inbox = await victim.ok<{ data: { from: string }[] }>(node, "neutralService_getInbox", [{}, 100]);
    expect(inbox.data.map((message) => message.from)).toEqual(Array(10).fill(friend.address));
    // And the inbox's quota is as full now as the requests folder: an 11th is refused.
    const eleventh = await friend.call(node, "neutralService_sendMessage", [friend.signer.signMessageFor(victim.address, "ff")]);
    expect(eleventh.body.error).toMatchObject({ code: -32029, data: { quota: "recipientQuotaMessages" } });
  });
});

describe("retention", () => {
  it("a message swept while it could still be sent again is answered its original id and not stored again", { timeout: 60_000 }, async () => {
    const relay = await relayWith({ args: ["--retention", "2s"] });
    const node = nodeOf(relay);
    const [sender, recipient] = [newAccount(), newAccount()];
    const signed = sender.signer.signMessageFor(recipient.address, "0b");
    const first = await sender.send(node, recipient.address, "0b", signed.timestamp);
    await eventually("the message swept", () => recipient.mailbox(node), (inbox) => inbox.length === 0, 15_000);
    await sleep(1500); // the sweep's pass done
    const again = await sender.ok<{ id: string }>(node, "neutralService_sendMessage", [signed]);
    expect(again.id).toBe(first.id);
    expect(await recipient.mailbox(node)).toEqual([]);
    expect(await sender.mailbox(node, "sent")).toEqual([]);
  });
});
