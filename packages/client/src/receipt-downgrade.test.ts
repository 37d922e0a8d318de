// A node that stops binding its receipts to positions (spec 3.0.0): a node behind a proxy answers a
// send with its sender receipt as a v1 `Receipt`, without `sender_seq`, signed with the node's own
// key (a valid signature: only the missing position gives it away). After the node has bound the
// receipt of something this session sent, the SDK takes such an answer as a problem.
import { readFileSync } from "node:fs";
import path from "node:path";
import { hashTypedData, toHex, typedData, type Hex } from "@neutral/protocol";
import { signDigest } from "@neutral/protocol/testing";
import { startNode, type InProcessNode } from "@neutral/relay/testing";
import { afterEach, describe, expect, it } from "vitest";
import { startTamperingProxy, type TamperingProxy } from "../test/tampering-proxy.js";
import type { Message } from "./generated/types.js";
import { generatePrivateKey } from "./keys.js";
import { createNeutral } from "./neutral.js";

let running: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.map((one) => one.stop()));
  running = [];
});

async function nodeBehindProxy(): Promise<{ node: InProcessNode; proxy: TamperingProxy; unbind: () => void }> {
  const node = await startNode();
  running.push(node);
  const proxy = await startTamperingProxy(node.url);
  running.push({ stop: () => proxy.close() });
  const nodeKey = Uint8Array.from(Buffer.from(readFileSync(path.join(node.dataDir, "node.key"), "utf8").trim().slice(2), "hex"));
  /** From now on, each send's answer carries its sender receipt unbound: a `Receipt` the node's key signed. */
  const unbind = () => {
    proxy.rewrite = (method, result) => {
      if (method !== "neutralService_sendMessage") return result;
      const [{ sender_seq: _seq, ...message }] = result as [Message];
      const digest = hashTypedData(typedData("Message", { from: message.from as Hex, to: message.to as Hex, message: `0x${message.message}`, timestamp: message.timestamp }));
      return [{ ...message, sender_receipt: signDigest(hashTypedData(typedData("Receipt", { message: toHex(digest), role: "sender" })), nodeKey) }];
    };
  };
  return { node, proxy, unbind };
}

describe("a node that stops binding its receipts", () => {
  it("after binding one of this session's, an unbound sender receipt on a send is a problem; before, nothing tells it from a node before 3.0.0", { timeout: 60_000 }, async () => {
    const { node, proxy, unbind } = await nodeBehindProxy();
    const alice = createNeutral({ url: proxy.url, domain: node.domain, account: generatePrivateKey() });
    const bob = createNeutral({ url: node.url, account: generatePrivateKey() });
    await bob.ready();
    const bobAddress = await bob.getAddress();

    const honest = await alice.send(bobAddress, "bound");
    expect(honest.raw.sender_seq).toBeGreaterThan(0);
    expect(honest).toMatchObject({ verified: true, problems: [] });

    unbind();
    const downgraded = await alice.send(bobAddress, "unbound");
    expect(downgraded.raw.sender_seq).toBeUndefined();
    expect(downgraded.checks.senderReceipt).toBe(false);
    expect(downgraded.verified).toBe(false);
    expect(downgraded.problems).toEqual([expect.stringMatching(/binds no position, though this node bound/)]);

    // A new session whose first send is unbound cannot tell it from a node before spec 3.0.0.
    const fresh = createNeutral({ url: proxy.url, domain: node.domain, account: generatePrivateKey() });
    expect(await fresh.send(bobAddress, "first")).toMatchObject({ verified: true, problems: [] });
  });
});
