// For the cluster fixtures (*.fixture.mjs): stored-message fields with random, well-formed signatures,
// receipts and digest, as a store's append takes them. Not real signatures: the fixtures test storage
// and routing, not the crypto.
import { randomBytes } from "node:crypto";

export const randomAddress = () => `0x${randomBytes(20).toString("hex")}`;

/** A message from `from` to `to` (default: a new random address). */
export const randomMessage = (from, to = randomAddress()) => ({
  from,
  to,
  message: randomBytes(16).toString("hex"),
  timestamp: Date.now(),
  signature: `0x${randomBytes(65).toString("hex")}`,
  senderReceipt: `0x${randomBytes(65).toString("hex")}`,
  receiverReceipt: `0x${randomBytes(65).toString("hex")}`,
  digest: new Uint8Array(randomBytes(32)),
});
