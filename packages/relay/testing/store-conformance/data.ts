// Well-formed test data: accounts, signatures, digests, messages and key bundles, and a call of every store method.
import { randomBytes } from "node:crypto";
import type { AcceptedMessage, MessageStore, StoredKeyBundle } from "@neutral/relay";

/** A realistic timestamp (ms): 2026-01-01T00:02:00Z, as in the interface document's examples. */
export const BASE_TIMESTAMP = 1_767_225_720_000;

export const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** A random address: `0x` + 40 lowercase hex. */
export const randomAddress = (): string => `0x${hex(randomBytes(20))}`;
/** A random 65-byte signature: `0x` + 130 lowercase hex (not a real signature; the store doesn't check). */
export const randomSignature = (): string => `0x${hex(randomBytes(65))}`;
/** A random 32-byte digest. */
export const randomDigest = (): Uint8Array => new Uint8Array(randomBytes(32));

/**
 * Three fresh accounts for one test: on a store that tests share, nothing the other tests stored
 * (messages, key bundles, consent, home records) is theirs.
 */
export const parties = (): { alice: string; bob: string; carol: string } => ({ alice: randomAddress(), bob: randomAddress(), carol: randomAddress() });

let timestampCounter = 0;

/** A well-formed accepted message from `from` to `to`; fresh digest, signature and receipts unless overridden. */
/**
 * The node key the suite gives stores (`useReceiptKey`), whose receipts it checks. A backend whose
 * store commits through a writer made apart (SQLite's `writer` option) gives that writer this key.
 */
export const CONFORMANCE_NODE_KEY: Uint8Array = new Uint8Array(32).fill(0x5e);

let unsignedClock = 1_767_225_600_000;
/** A message without the receipts the node owes (a random signature and digest): a store given the node's key signs them. */
export function unsignedTestMessage(from: string, to: string, extra: Partial<AcceptedMessage> = {}): AcceptedMessage {
  return { from, to, message: hex(randomBytes(12)), timestamp: unsignedClock++, signature: randomSignature(), digest: randomDigest(), ...extra };
}

/** A message with both receipts given (random signatures): the store keeps them and signs none. */
export type TestMessage = AcceptedMessage & { senderReceipt: string };

export function testMessage(from: string, to: string, overrides: Partial<TestMessage> = {}): TestMessage {
  return {
    from,
    to,
    message: hex(randomBytes(1 + Math.floor(Math.random() * 48))),
    timestamp: BASE_TIMESTAMP + timestampCounter++,
    signature: randomSignature(),
    senderReceipt: randomSignature(),
    receiverReceipt: randomSignature(),
    digest: randomDigest(),
    ...overrides,
  };
}

/** A well-formed key bundle of `account` (random key and signature: the store doesn't check them). */
export function testKeyBundle(account: string, timestamp: number, overrides: Partial<StoredKeyBundle> = {}): StoredKeyBundle {
  return { account, key: `0x${hex(randomBytes(32))}`, timestamp, signature: randomSignature(), ...overrides };
}

/** A resend of `message`: same digest and fields, another signature and receipts (ECDSA may sign differently). */
export function resendOf(message: TestMessage): TestMessage {
  return { ...message, digest: new Uint8Array(message.digest), signature: randomSignature(), senderReceipt: randomSignature(), receiverReceipt: randomSignature() };
}

/**
 * A call of every method of the `MessageStore` interface (`close` and the synchronous `useReceiptKey` aside), by name: what a closed store
 * must refuse with `StoreClosedError`. `satisfies` keeps it complete: a method added to the interface
 * and missing here fails to compile.
 */
export function everyStoreCall(store: MessageStore): [string, () => Promise<unknown>][] {
  const owner = randomAddress();
  const calls = {
    append: () => store.append(testMessage(owner, randomAddress())),
    page: () => store.page({ owner, ranges: [{ side: "received" }], order: "desc", limit: 10 }),
    latestPeer: () => store.latestPeer(owner),
    getKeyBundle: () => store.getKeyBundle(owner),
    putKeyBundle: () => store.putKeyBundle(testKeyBundle(owner, 1)),
    putHomeRecord: () => store.putHomeRecord({ account: owner, node: randomAddress(), timestamp: 1, signature: randomSignature() }),
    putHomeRecords: () => store.putHomeRecords([{ account: owner, node: randomAddress(), timestamp: 1, signature: randomSignature() }]),
    getHomeRecord: () => store.getHomeRecord(owner),
    pinPeer: () => store.pinPeer("http://127.0.0.1:1", randomAddress()),
    peerPins: () => store.peerPins(),
    outboxDestinations: () => store.outboxDestinations(),
    outboxEntries: () => store.outboxEntries(randomAddress(), 10),
    expiredOutboxEntries: () => store.expiredOutboxEntries(Date.now(), 10),
    settleDeliveries: () => store.settleDeliveries([{ id: 1, sender: owner, json: "{}" }]),
    redirectOutbox: () => store.redirectOutbox([1], randomAddress()),
    setDestinationState: () => store.setDestinationState(randomAddress(), undefined),
    sentMessage: () => store.sentMessage(owner, 1),
    leadDeliveries: () => store.leadDeliveries(),
    deleteMessages: () => store.deleteMessages(owner, [1]),
    importMessages: () => store.importMessages(owner, []),
    sweepExpired: () => store.sweepExpired(10),
    sweepSenderExpired: () => store.sweepSenderExpired(10, Date.now()),
    putConsent: () => store.putConsent(owner, []),
    consentList: () => store.consentList(owner, undefined, 10),
    consentFor: () => store.consentFor(owner, randomAddress()),
    log: () => store.log(owner, 1, 10),
    logSize: () => store.logSize(owner),
    messageRecord: () => store.messageRecord(1),
    messageIdOf: () => store.messageIdOf(1, `0x${"00".repeat(32)}`),
    putPriorHead: () => store.putPriorHead(owner, randomAddress(), 1, "{}", 16),
    priorHeads: () => store.priorHeads(owner),
    logTiles: () => store.logTiles(owner, 8, 0, 10),
    logLeaves: () => store.logLeaves(owner, 1, 10),
    positions: () => store.positions(owner, [1]),
    migrated: () => store.migrated(),
    footprint: () => store.footprint(),
  } satisfies Record<Exclude<keyof MessageStore, "kind" | "close" | "useReceiptKey">, () => Promise<unknown>>;
  return Object.entries(calls);
}
