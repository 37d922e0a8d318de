import { hashTypedData as viemHashTypedData, recoverAddress, sha256, toBytes, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { EIP712_DOMAIN, EIP712_TYPES } from "./eip712.js";
import { deliveryAnswerDigest, encodeNodeAuthorization, nodeRequestBodyDigest, nodeRequestDigest, parseNodeAuthorization } from "./node-request.js";
import { fixtureSigner } from "./testing/signer.js";
import { TEST_KEYS } from "./testing/keys.js";

const peer = fixtureSigner(TEST_KEYS.peer);
const node = fixtureSigner(TEST_KEYS.node);
const body = '{"jsonrpc":"2.0","id":1,"method":"neutralService_lookup","params":[["0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"]]}';
const fields = { origin: peer.address, destination: node.address, method: "neutralService_lookup", timestamp: 1767225600000 };

describe("node-to-node request signatures", () => {
  it("sign viem's EIP-712 digest of NodeRequest over the body's SHA-256", async () => {
    expect(nodeRequestBodyDigest(body)).toBe(sha256(toBytes(body)));
    const expected = viemHashTypedData({
      domain: EIP712_DOMAIN,
      types: { NodeRequest: EIP712_TYPES.NodeRequest },
      primaryType: "NodeRequest",
      message: { ...fields, body: sha256(toBytes(body)), timestamp: BigInt(fields.timestamp) },
    });
    expect(Buffer.from(nodeRequestDigest(fields, body)).toString("hex")).toBe(expected.slice(2));
    const header = peer.nodeAuthorization(node.address, fields.method, body, fields.timestamp);
    const parsed = parseNodeAuthorization(header);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.value).toMatchObject(fields);
    expect((await recoverAddress({ hash: expected, signature: parsed.value.signature as Hex })).toLowerCase()).toBe(peer.address);
  });

  it("round-trip through the header, in any parameter order", () => {
    const auth = { ...fields, signature: `0x${"ab".repeat(65)}` as Hex };
    expect(parseNodeAuthorization(encodeNodeAuthorization(auth))).toEqual({ ok: true, value: auth });
    const shuffled = `NeutralNode signature="${auth.signature}", timestamp="${auth.timestamp}", method="${auth.method}", destination="${auth.destination}", origin="${auth.origin}"`;
    expect(parseNodeAuthorization(shuffled)).toEqual({ ok: true, value: auth });
  });

  it("refuse a malformed header with a reason, never echoing it", () => {
    const good = encodeNodeAuthorization({ ...fields, signature: `0x${"ab".repeat(65)}` });
    const bad = [
      "",
      "Bearer abc",
      "NeutralNode",
      good.replace('origin="', 'origin="0X'),
      good.replace(/origin="0x[0-9a-f]+"/, `origin="${peer.checksumAddress}"`),
      good.replace(', method="neutralService_lookup"', ""),
      `${good}, extra="1"`,
      `${good}, origin="${peer.address}"`,
      good.replace('timestamp="1767225600000"', 'timestamp="-1"'),
      good.replace('timestamp="1767225600000"', `timestamp="${"9".repeat(17)}"`),
      good.replace(/signature="0x[0-9a-f]+"/, 'signature="0x12"'),
      good.replace('method="neutralService_lookup"', 'method="a b"'),
    ];
    for (const header of bad) {
      const parsed = parseNodeAuthorization(header);
      expect(parsed.ok, header).toBe(false);
      if (!parsed.ok) expect(parsed.reason).not.toContain("0x");
    }
  });
});

describe("home records", () => {
  it("are signed Home typed data that viem recovers to the account", async () => {
    const record = fixtureSigner(TEST_KEYS.alice).homeRecord(node.address, 1767225600000);
    const digest = viemHashTypedData({
      domain: EIP712_DOMAIN,
      types: { Home: EIP712_TYPES.Home },
      primaryType: "Home",
      message: { account: record.account, node: record.node, timestamp: BigInt(record.timestamp) },
    });
    expect((await recoverAddress({ hash: digest, signature: record.signature })).toLowerCase()).toBe(record.account);
  });
});

describe("delivery answers", () => {
  it("are signed DeliveryAnswer typed data over the SHA-256 of the message digests and of the outcomes' JSON", async () => {
    const digests = [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)];
    const outcomes = JSON.stringify([{ receiver_receipt: `0x${"ab".repeat(65)}` }, { refused: { code: -32002, message: "no", permanent: true } }]);
    const expected = viemHashTypedData({
      domain: EIP712_DOMAIN,
      types: { DeliveryAnswer: EIP712_TYPES.DeliveryAnswer },
      primaryType: "DeliveryAnswer",
      message: { node: node.address, messages: sha256(new Uint8Array([...digests[0]!, ...digests[1]!])), outcomes: sha256(toBytes(outcomes)) },
    });
    expect(Buffer.from(deliveryAnswerDigest(node.checksumAddress, digests, outcomes)).toString("hex")).toBe(expected.slice(2));
    expect(deliveryAnswerDigest(node.address, digests.slice().reverse(), outcomes)).not.toEqual(deliveryAnswerDigest(node.address, digests, outcomes));
  });
});
