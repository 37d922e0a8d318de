// A message's receipt digest as the protocol package computes it, independently of the SDK: a
// `Receipt`, or a `LogReceipt` over the copy's position when the message carries it (spec 3.0.0).
import { hashTypedData, logReceiptDigest, toHex, typedData } from "@neutral/protocol";
import type { Message } from "../src/generated/types.js";
import { messageDigest } from "../src/messages.js";

export function receiptHashOf(message: Message, role: "sender" | "receiver"): Uint8Array {
  const digest = toHex(messageDigest(message)!);
  const seq = role === "sender" ? message.sender_seq : message.receiver_seq;
  return seq === undefined ? hashTypedData(typedData("Receipt", { message: digest, role })) : logReceiptDigest(digest, seq, role);
}
