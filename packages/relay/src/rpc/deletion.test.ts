// neutralService_deleteMessages on a real node (in this process: real HTTP, a real SQLite file): a
// request that names its positions (`leaves`, spec 2.10.0) deletes exactly them, so that the log's
// reason for a position names that position and no other (the verifiable mailbox); a request older
// than the clock window deletes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Hex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { EIP712_DOMAIN, EIP712_TYPES } from "@neutral/protocol";
import { call, startNode, type InProcessNode } from "../../testing/index.js";
import { TEST_KEYS, wallet, type TestWallet } from "../../test/wallets.js";

interface WireMessage {
  id: string;
  from: string;
  to: string;
  message: string;
  timestamp: number;
}
interface Position {
  seq: number;
  id: string;
  role: "received" | "sent";
  leafHash: string;
  removed?: { reason: string; request?: { leaves?: string[]; ids: string[] } };
}

const alice = wallet(TEST_KEYS.alice);
let node: InProcessNode;
beforeAll(async () => {
  node = await startNode();
}, 60_000);
afterAll(() => node.stop());

/** A new account with its token. */
async function account(): Promise<{ user: TestWallet; token: string }> {
  const user = wallet(generatePrivateKey());
  return { user, token: await user.token({ domain: node.domain }) };
}
const rpc = async (token: string, method: string, params: unknown) => (await call(node.url, method, params, token)).body;
const send = async (from: TestWallet, token: string, to: string, body: string) =>
  (await rpc(token, "neutralService_sendMessage", [await from.sign({ to, message: body })])).result[0] as WireMessage & Record<string, unknown>;
const logOf = async (token: string) => ((await rpc(token, "neutralService_getLog", [])).result[0] as { entries: Position[] }).entries;

/** The account's signed request: `PositionedDeletion` with `leaves`, `Deletion` without. */
async function request(user: TestWallet, ids: string[], leaves: string[] | undefined, timestamp = Date.now()) {
  const fields = { account: user.account.address, ids: ids.map(BigInt), timestamp: BigInt(timestamp) };
  const signature =
    leaves === undefined
      ? await user.account.signTypedData({ domain: EIP712_DOMAIN, types: EIP712_TYPES, primaryType: "Deletion", message: fields })
      : await user.account.signTypedData({ domain: EIP712_DOMAIN, types: EIP712_TYPES, primaryType: "PositionedDeletion", message: { ...fields, leaves: leaves as Hex[] } });
  return { account: user.address, ids, ...(leaves !== undefined && { leaves }), timestamp, signature };
}

describe("neutralService_deleteMessages", () => {
  it("a request naming its positions deletes exactly them and is kept as their reason; sent again after the message was imported again, it does not name the new copy", { timeout: 60_000 }, async () => {
    const alices = await alice.token({ domain: node.domain });
    const { user: bob, token } = await account();
    const first = await send(alice, alices, bob.address, "d101");
    const second = await send(alice, alices, bob.address, "d102");
    const [one, two] = await logOf(token);
    const deletion = await request(bob, [first.id], [one!.leafHash]);
    const receipt = await rpc(token, "neutralService_deleteMessages", [deletion]);
    expect(receipt.error).toBeUndefined();
    expect(receipt.result[0]).toMatchObject({ ids: [first.id] });
    const log = await logOf(token);
    expect(log.map(({ seq, id, removed }) => ({ seq, id, reason: removed?.reason }))).toEqual([
      { seq: 1, id: first.id, reason: "deleted" },
      { seq: 2, id: second.id, reason: undefined },
    ]);
    expect(log[0]!.removed!.request).toEqual(deletion);
    expect(log[1]).toEqual(two);

    // Bob imports the message again (his own history): a new position, the same id.
    const imported = await rpc(token, "neutralService_importMessages", [[first]]);
    expect(imported.error).toBeUndefined();
    const again = (await logOf(token))[2]!;
    expect(again).toMatchObject({ seq: 3, id: first.id, role: "received" });
    expect(again.leafHash).not.toBe(one!.leafHash); // the leaf commits to the position
    // The same request, sent again: it names position 1, not 3, and deletes nothing.
    const refused = (await rpc(token, "neutralService_deleteMessages", [deletion])).error;
    expect(refused).toMatchObject({ code: -32602, data: { path: "/leaves", positions: [{ seq: 3, id: first.id, role: "received", leafHash: again.leafHash }] } });
    expect((await logOf(token))[2]).toEqual(again);
    // A request naming position 3 deletes it.
    expect((await rpc(token, "neutralService_deleteMessages", [await request(bob, [first.id], [again.leafHash])])).error).toBeUndefined();
    expect((await logOf(token)).map(({ removed }) => removed?.reason)).toEqual(["deleted", undefined, "deleted"]);
  });

  it("leaves that leave out a copy of the ids are refused with the copies' positions, and nothing is deleted", { timeout: 60_000 }, async () => {
    const { user: carol, token } = await account();
    const toSelf = await send(carol, token, carol.address, "d201"); // two copies: received, then sent
    const log = await logOf(token);
    expect(log.map(({ seq, role }) => [seq, role])).toEqual([
      [1, "received"],
      [2, "sent"],
    ]);
    const refused = (await rpc(token, "neutralService_deleteMessages", [await request(carol, [toSelf.id], [log[0]!.leafHash])])).error;
    expect(refused).toMatchObject({ code: -32602, data: { field: "request.leaves", positions: log.map(({ seq, id, role, leafHash }) => ({ seq, id, role, leafHash })) } });
    expect(await logOf(token)).toEqual(log);
    // Both named (in any order): both go.
    const both = await request(carol, [toSelf.id], [log[1]!.leafHash, log[0]!.leafHash]);
    expect((await rpc(token, "neutralService_deleteMessages", [both])).error).toBeUndefined();
    expect((await logOf(token)).map(({ removed }) => removed?.reason)).toEqual(["deleted", "deleted"]);
    // Empty leaves: a request for ids with no copy here, answered its receipt.
    expect((await rpc(token, "neutralService_deleteMessages", [await request(carol, [toSelf.id], [])])).error).toBeUndefined();
  });

  it("takes up to 200 leaves (100 messages to oneself, two copies each), and refuses 201", { timeout: 60_000 }, async () => {
    const { user: erin, token } = await account();
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) ids.push((await send(erin, token, erin.address, `e${i.toString(16).padStart(3, "0")}`)).id);
    const log = ((await rpc(token, "neutralService_getLog", { limit: 1000 })).result[0] as { entries: Position[] }).entries;
    expect(log).toHaveLength(200);
    const leaves = log.map((entry) => entry.leafHash);
    const tooMany = await request(erin, ids, [...leaves, `0x${"ab".repeat(32)}`]);
    expect((await rpc(token, "neutralService_deleteMessages", [tooMany])).error).toMatchObject({ code: -32602, data: { field: "request.leaves" } });
    expect((await rpc(token, "neutralService_deleteMessages", [await request(erin, ids, leaves)])).error).toBeUndefined();
    expect(((await rpc(token, "neutralService_getLog", { limit: 1000 })).result[0] as { entries: Position[] }).entries.every((entry) => entry.removed !== undefined)).toBe(true);
  });

  it("a request naming ids only, older than the clock window, deletes nothing: refused while one of its messages is here, its receipt once none is; one naming its positions deletes them at any age", { timeout: 60_000 }, async () => {
    const alices = await alice.token({ domain: node.domain });
    const { user: dave, token } = await account();
    const message = await send(alice, alices, dave.address, "d301");
    const [position] = await logOf(token);
    const window = 5 * 60 * 1000; // the node's default clockSkewMs
    const old = await request(dave, [message.id], undefined, Date.now() - window - 2_000);
    const refused = (await rpc(token, "neutralService_deleteMessages", [old])).error;
    expect(refused).toMatchObject({ code: -32004, data: { field: "request.timestamp", clockSkewMs: window } });
    expect(refused.message).toContain("sign a new request");
    expect(await logOf(token)).toEqual([position]);
    // Just inside the window, it deletes.
    const recent = await request(dave, [message.id], undefined, Date.now() - window + 10_000);
    expect((await rpc(token, "neutralService_deleteMessages", [recent])).error).toBeUndefined();
    // Now none of its messages is here: the old request answers its receipt, and changes nothing.
    const receipt = await rpc(token, "neutralService_deleteMessages", [old]);
    expect(receipt.error).toBeUndefined();
    expect(receipt.result[0]).toMatchObject({ account: dave.address, ids: [message.id] });
    expect((await logOf(token))[0]!.removed!.request).toEqual(recent);

    // A year-old request naming its position deletes it.
    const another = await send(alice, alices, dave.address, "d302");
    const second = (await logOf(token))[1]!;
    const named = await request(dave, [another.id], [second.leafHash], Date.now() - 365 * 86_400_000);
    expect((await rpc(token, "neutralService_deleteMessages", [named])).error).toBeUndefined();
    expect((await logOf(token))[1]!.removed!.request).toEqual(named);
  });
});
