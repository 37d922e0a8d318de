// The storage conformance suite: describeStoreConformance declares every area's tests, each on one store per test or one store per area.
import { describe } from "vitest";
import { consentTests, keyBundleTests, latestPeerTests } from "./accounts.js";
import { appendTests, idempotencyTests } from "./appends.js";
import { cursorTests } from "./cursors.js";
import { deletionTests, importTests } from "./deletion-and-import.js";
import { retentionTests, senderExpiryTests, sweptDigestTests } from "./expiry.js";
import { federationTests } from "./federation.js";
import { maxBytesTests, maxScanTests, sidesAndPeersTests, sinceAndUntilTests } from "./pages.js";
import { positionLifecycleTests, positionTests } from "./positions.js";
import { propertyTests } from "./properties.js";
import { durabilityTests, migratedAndFootprintTests } from "./storage.js";
import { sharedStore, storePerTest, type OpenStore } from "./stores.js";
import { receiptTests } from "./receipts.js";
import { forwardWalkTests } from "./walks.js";

export { BASE_TIMESTAMP, CONFORMANCE_NODE_KEY, everyStoreCall, randomAddress, randomDigest, randomSignature, testKeyBundle, testMessage, unsignedTestMessage, type TestMessage } from "./data.js";
export { expectBoundReceipts } from "./receipts.js";
export type { OpenedStore } from "./stores.js";

/**
 * Declares the conformance suite for one backend: the contract every `MessageStore` backend passes
 * (seeds/README.md §2, §5 and “Signatures and receipts” as the store sees them, and the key
 * directory of `publishKey`/`getKey`). Backend-agnostic: it talks to the store only through the
 * `MessageStore` interface and never assumes how ids are numbered beyond "strictly increasing in
 * acceptance order".
 *
 * Published as `@neutral/relay/testing/store-conformance` (vitest and fast-check are its peers), so
 * that another backend passes the same contract. Usage, from a backend's test file:
 *
 *     import { describeStoreConformance } from "@neutral/relay/testing/store-conformance";
 *
 *     describeStoreConformance("sqlite", async () => {
 *       const dir = mkdtempSync(...);
 *       return {
 *         store: openSqliteStore({ file }),
 *         reopen: async () => openSqliteStore({ file }),
 *         cleanup: async () => rmSync(dir, { recursive: true, force: true }),
 *       };
 *     });
 *
 * `open` must give fresh, empty storage on every call. The suite closes every store it got (from
 * `open` and from `reopen`) before it calls `cleanup`; `reopen` is only called once the previous
 * store is closed.
 *
 * An area whose tests read and write only their own fresh accounts shares one store (`sharedStore`:
 * opened before its first test, closed after its last); an area whose tests read store-wide state
 * or change the store (reopen, close, store options, sweeps) opens one for each test (`storePerTest`).
 */
export function describeStoreConformance(name: string, open: OpenStore): void {
  describe(`MessageStore conformance: ${name}`, () => {
    describe("append", () => appendTests(sharedStore(open)));
    describe("idempotency by digest", () => idempotencyTests(sharedStore(open)));
    describe("sides and peers", () => sidesAndPeersTests(sharedStore(open)));
    describe("since and until", () => sinceAndUntilTests(sharedStore(open)));
    describe("the scan bound of time filters (maxScan)", () => maxScanTests(sharedStore(open)));
    describe("the byte bound (maxBytes)", () => maxBytesTests(sharedStore(open)));
    describe("forward walks while others write (seeds/README.md §5: every message exactly once)", () => forwardWalkTests(sharedStore(open)));
    describe("cursors, order and end", () => cursorTests(sharedStore(open)));
    describe("migrated and footprint (GET /ready, the metrics)", () => migratedAndFootprintTests(storePerTest(open)));
    describe("latestPeer", () => latestPeerTests(sharedStore(open)));
    describe("key bundles", () => keyBundleTests(sharedStore(open)));
    describe("federation", () => federationTests(storePerTest(open)));
    describe("deletion (neutralService_deleteMessages)", () => deletionTests(sharedStore(open)));
    describe("consent and the requests folder", () => consentTests(sharedStore(open)));
    describe("retention (a store opened with retentionMs)", () => retentionTests(storePerTest(open)));
    describe("swept digests (a message swept while it could still arrive again)", () => sweptDigestTests(storePerTest(open)));
    describe("importing an account's history (moving home)", () => importTests(storePerTest(open)));
    describe("sender-set ends (expires)", () => senderExpiryTests(storePerTest(open)));
    describe("durability", () => durabilityTests(storePerTest(open)));
    describe("model-based properties", () => propertyTests(sharedStore(open)));
    describe("mailbox log positions (the verifiable mailbox)", () => positionTests(sharedStore(open)));
    describe("mailbox log positions through imports, sweeps and restarts", () => positionLifecycleTests(storePerTest(open)));
    describe("receipts bound to positions (useReceiptKey)", () => receiptTests(storePerTest(open)));
  });
}
