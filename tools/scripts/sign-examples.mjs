// Prints the signed example messages and key bundles used in openrpc.json examples and seeds/exchanges.
// The keys are the publicly known Hardhat/Anvil test accounts #0..#5 — never real funds or secrets.
// Run: node tools/scripts/sign-examples.mjs
// viem signs (an implementation independent of ours); the domain, the types and the keys are the
// protocol package's.
import { privateKeyToAccount } from "viem/accounts";
import { hashTypedData, sha256, toBytes, toHex } from "viem";
import { EIP712_DOMAIN as domain, EIP712_TYPES as types, mailboxLeafHash } from "@neutral/protocol";
import { TEST_KEYS } from "@neutral/protocol/testing";

const alice = privateKeyToAccount(TEST_KEYS.alice);
const bob = privateKeyToAccount(TEST_KEYS.bob);
const node = privateKeyToAccount(TEST_KEYS.node);

// Each receipt binds its copy's position (spec 3.0.0, `LogReceipt`): sent in this order to a new
// node, each message is its recipient's and its sender's next copy (alice: 1 sent, 2 received, 3 sent).
const drafts = [
  { id: "1", sender: alice, recipient: bob, body: "a1b2c3d4e5f60718", timestamp: 1767225600000, senderSeq: 1, receiverSeq: 1 },
  { id: "2", sender: bob, recipient: alice, body: "0f1e2d3c4b5a6978", timestamp: 1767225660000, senderSeq: 2, receiverSeq: 2 },
  { id: "3", sender: alice, recipient: bob, body: "deadbeefcafef00d", timestamp: 1767225720000, senderSeq: 3, receiverSeq: 3 },
];
/** The node's receipt of a copy at position `seq`. */
const logReceipt = (signer, digest, role, seq) => signer.signTypedData({ domain, types, primaryType: "LogReceipt", message: { message: digest, role, seq: BigInt(seq) } });

const out = [];
for (const d of drafts) {
  const message = { from: d.sender.address, to: d.recipient.address, message: `0x${d.body}`, timestamp: BigInt(d.timestamp) };
  const signature = await d.sender.signTypedData({ domain, types, primaryType: "Message", message });
  const digest = hashTypedData({ domain, types, primaryType: "Message", message });
  out.push({
    id: d.id,
    message: d.body,
    from: d.sender.address.toLowerCase(),
    to: d.recipient.address.toLowerCase(),
    signature,
    sender_receipt: await logReceipt(node, digest, "sender", d.senderSeq),
    sender_seq: d.senderSeq,
    receiver_receipt: await logReceipt(node, digest, "receiver", d.receiverSeq),
    receiver_seq: d.receiverSeq,
    timestamp: d.timestamp,
  });
}
// Messaging keys: x-only secp256k1 public keys (BIP-340 form, as NIP-44 uses). The x coordinates of
// 3·G (the public key of BIP-340's test vector 0) and 2·G: valid points whose secrets are trivial.
const xOnly = (secret) => `0x${privateKeyToAccount(`0x${secret.toString(16).padStart(64, "0")}`).publicKey.slice(4, 68)}`;
const bundleDrafts = [
  { signer: alice, key: xOnly(3), timestamp: 1767225600000 },
  { signer: alice, key: xOnly(2), timestamp: 1767139200000 }, // an older bundle of alice's
];
const keyBundles = [];
for (const d of bundleDrafts) {
  const message = { account: d.signer.address, key: d.key, timestamp: BigInt(d.timestamp) };
  const signature = await d.signer.signTypedData({ domain, types, primaryType: "KeyBundle", message });
  keyBundles.push({ account: d.signer.address.toLowerCase(), key: d.key, timestamp: d.timestamp, signature });
}

// Federation: alice homed at `node`, carol at a second node, `peer`; carol's message to alice as
// `peer` delivers it (her copy is position 1 of her log there), and the receipt `node` answers:
// alice's copy is position RELAYED_RECEIVER_SEQ of her log, after the examples stored before it.
const RELAYED_RECEIVER_SEQ = Number(process.env.RELAYED_RECEIVER_SEQ ?? 4);
const carol = privateKeyToAccount(TEST_KEYS.carol);
const peer = privateKeyToAccount(TEST_KEYS.peer);
const homeDrafts = [
  { signer: alice, node, timestamp: 1767225600000 },
  { signer: carol, node: peer, timestamp: 1767225600000 },
];
const homes = [];
for (const d of homeDrafts) {
  const message = { account: d.signer.address, node: d.node.address, timestamp: BigInt(d.timestamp) };
  const signature = await d.signer.signTypedData({ domain, types, primaryType: "Home", message });
  homes.push({ account: d.signer.address.toLowerCase(), node: d.node.address.toLowerCase(), timestamp: d.timestamp, signature });
}
const relayedDraft = { from: carol.address, to: alice.address, message: "0x0123456789abcdef", timestamp: BigInt(1767225780000) };
const relayedDigest = hashTypedData({ domain, types, primaryType: "Message", message: relayedDraft });
const relayed = {
  from: carol.address.toLowerCase(),
  to: alice.address.toLowerCase(),
  message: "0123456789abcdef",
  timestamp: 1767225780000,
  signature: await carol.signTypedData({ domain, types, primaryType: "Message", message: relayedDraft }),
  sender_receipt: await logReceipt(peer, relayedDigest, "sender", 1),
  sender_seq: 1,
};
const receiverReceipt = await logReceipt(node, relayedDigest, "receiver", RELAYED_RECEIVER_SEQ);
// The answer's signature: over the SHA-256 of the message digests and of the outcomes' JSON.
const outcomes = JSON.stringify([{ receiver_receipt: receiverReceipt, receiver_seq: RELAYED_RECEIVER_SEQ }]);
const answerSignature = await node.signTypedData({
  domain,
  types,
  primaryType: "DeliveryAnswer",
  message: { node: node.address, messages: sha256(relayedDigest), outcomes: sha256(toBytes(outcomes)) },
});

// Retention and deletion: bob deletes message 1 (alice's to him) from his mailbox, naming its
// position (position 1 of his log: its leaf hash, as neutralService_getProof gives it); the node's receipt.
const [first] = drafts;
const firstDigest = hashTypedData({ domain, types, primaryType: "Message", message: { from: first.sender.address, to: first.recipient.address, message: `0x${first.body}`, timestamp: BigInt(first.timestamp) } });
const firstLeaf = toHex(mailboxLeafHash({ account: bob.address, seq: 1, role: "received", peer: alice.address, digest: firstDigest }));
const deletionDraft = { account: bob.address, ids: [1n], leaves: [firstLeaf], timestamp: 1767225840000n };
const deletionDigest = hashTypedData({ domain, types, primaryType: "PositionedDeletion", message: deletionDraft });
const deletion = {
  request: {
    account: bob.address.toLowerCase(),
    ids: ["1"],
    leaves: [firstLeaf],
    timestamp: 1767225840000,
    signature: await bob.signTypedData({ domain, types, primaryType: "PositionedDeletion", message: deletionDraft }),
  },
  receipt: {
    node: node.address.toLowerCase(),
    account: bob.address.toLowerCase(),
    ids: ["1"],
    request: deletionDigest,
    signature: await node.signTypedData({ domain, types, primaryType: "DeletionReceipt", message: { node: node.address, request: deletionDigest } }),
  },
};

// A proven delivery: message 2 (bob's to alice) holds position 2 of alice's log (after 1, message 1,
// sent); the node's promise of it.
const second = drafts[1];
const secondDigest = hashTypedData({ domain, types, primaryType: "Message", message: { from: second.sender.address, to: second.recipient.address, message: `0x${second.body}`, timestamp: BigInt(second.timestamp) } });
const delivered = {
  id: second.id,
  digest: secondDigest,
  timestamp: second.timestamp,
  to: second.recipient.address.toLowerCase(),
  position: { seq: 2, receipt: await node.signTypedData({ domain, types, primaryType: "LogReceipt", message: { message: secondDigest, role: "receiver", seq: 2n } }) },
};

// Consent: bob lets only those he allows reach his inbox, and allows alice.
const consentPolicy = { account: bob.address, mode: "allowed-only", timestamp: 1767225900000n };
const consentRecord = { account: bob.address, peer: alice.address, state: "allowed", timestamp: 1767225900000n };
const consent = {
  policy: {
    account: bob.address.toLowerCase(),
    mode: "allowed-only",
    timestamp: 1767225900000,
    signature: await bob.signTypedData({ domain, types, primaryType: "ConsentPolicy", message: consentPolicy }),
  },
  record: {
    account: bob.address.toLowerCase(),
    peer: alice.address.toLowerCase(),
    state: "allowed",
    timestamp: 1767225900000,
    signature: await bob.signTypedData({ domain, types, primaryType: "Consent", message: consentRecord }),
  },
};

console.log(
  JSON.stringify(
    {
      node: node.address.toLowerCase(),
      peer: peer.address.toLowerCase(),
      alice: alice.address.toLowerCase(),
      bob: bob.address.toLowerCase(),
      carol: carol.address.toLowerCase(),
      messages: out,
      keyBundles,
      homes,
      relayed: { message: relayed, receiver_receipt: receiverReceipt, receiver_seq: RELAYED_RECEIVER_SEQ, answer_signature: answerSignature },
      deletion,
      delivered,
      consent,
    },
    null,
    2,
  ),
);
