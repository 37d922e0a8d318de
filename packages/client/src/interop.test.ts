// The node speaks plain JSON-RPC 2.0: generic clients work against it with nothing from this
// package but a token.
import { startNode, type InProcessNode } from "@neutral/relay/testing";
import { JSONRPCClient } from "json-rpc-2.0";
import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNeutral } from "./neutral.js";
import { privateKeyToAccount, TEST_KEYS } from "../test/wallet.js";

let relay: InProcessNode;
let token: string;
const alice = privateKeyToAccount(TEST_KEYS.alice).address.toLowerCase();
const bob = privateKeyToAccount(TEST_KEYS.bob).address.toLowerCase();
let sentId: string;

beforeAll(async () => {
  relay = await startNode();
  const sdk = createNeutral({ url: relay.url, account: TEST_KEYS.alice });
  await createNeutral({ url: relay.url, account: TEST_KEYS.bob }).ready();
  sentId = (await sdk.send(bob, "interop")).id;
  token = await sdk.token(); // the SDK hands out its token to callers that want one
});

afterAll(async () => {
  await relay?.stop();
});

describe("viem's client.request", () => {
  const client = () => createPublicClient({ transport: http(relay.url, { fetchOptions: { headers: { authorization: `Bearer ${token}` } } }) });

  it("reads the inbox", async () => {
    const result = (await client().request({ method: "neutralService_getInbox" as never, params: [{ direction: "sent" }, 5] as never })) as unknown;
    expect(result).toEqual([{ address: alice, data: [expect.objectContaining({ id: sentId, from: alice, to: bob })], end: true }]);
  });

  it("gets nodeInfo and a key bundle, and sees the node's errors as RPC errors with their code", async () => {
    const [info] = (await client().request({ method: "neutralService_nodeInfo" as never })) as [{ address: string }];
    expect(info.address).toBe(relay.address);
    const [bundle] = (await client().request({ method: "neutralService_getKey" as never, params: [bob] as never })) as [{ account: string }];
    expect(bundle.account).toBe(bob);
    await expect(client().request({ method: "neutralService_getInbox" as never, params: [{}, 0] as never })).rejects.toMatchObject({ code: -32602 });
  });
});

describe("json-rpc-2.0's JSONRPCClient", () => {
  const statuses: number[] = [];
  function jsonRpcClient(): JSONRPCClient {
    const rpc: JSONRPCClient = new JSONRPCClient(async (request) => {
      const response = await fetch(relay.url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(request),
      });
      statuses.push(response.status);
      if (response.status !== 204) rpc.receive(await response.json());
    });
    return rpc;
  }

  it("reads a chat by name params and gets errors with their code", async () => {
    const rpc = jsonRpcClient();
    const [chat] = (await rpc.request("neutralService_getChat", { inboxFilter: { chat: bob }, limit: 1 })) as [{ id: string; data: { id: string }[] }];
    expect(chat.id).toBe(bob);
    expect(chat.data.map((message) => message.id)).toEqual([sentId]);
    await expect(rpc.request("neutralService_getInbox", { inboxFilter: { sender: bob } })).rejects.toMatchObject({ code: -32602 });
  });

  it("batches, and a notification gets no answer (HTTP 204)", async () => {
    const rpc = jsonRpcClient();
    const answers = await rpc.requestAdvanced([
      { jsonrpc: "2.0", id: 1, method: "neutralService_nodeInfo", params: [] },
      { jsonrpc: "2.0", id: 2, method: "neutralService_getInbox", params: [{ direction: "sent" }, 1] },
    ]);
    expect(answers.map((answer) => [answer.id, answer.error?.code, Array.isArray(answer.result)])).toEqual([
      [1, undefined, true],
      [2, undefined, true],
    ]);
    statuses.length = 0;
    rpc.notify("neutralService_nodeInfo", []);
    await expect.poll(() => statuses).toEqual([204]);
  });
});
