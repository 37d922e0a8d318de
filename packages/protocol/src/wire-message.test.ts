import { describe, expect, it } from "vitest";
import { failedMessageJson, isPendingMessageJson, isUndeliveredMessageJson, MAX_REASON_LENGTH, MESSAGE_JSON_ID_HEAD, messageIdOf, messageJson, messageJsonTail, messageJsonWithId, statesPosition } from "./wire-message.js";
import { statedPosition } from "./mailbox-log.js";

const fields = {
  message: "a1b2c3",
  from: `0x${"a".repeat(40)}`,
  to: `0x${"b".repeat(40)}`,
  signature: `0x${"1".repeat(130)}`,
  senderReceipt: `0x${"2".repeat(130)}`,
  receiverReceipt: `0x${"3".repeat(130)}`,
  timestamp: 1767225600000,
};

describe("the wire JSON of a stored message", () => {
  it("is the interface document's object, in its field order, with a decimal string id", () => {
    const json = messageJson(42, fields);
    expect(Object.keys(JSON.parse(json))).toEqual(["id", "message", "from", "to", "signature", "sender_receipt", "receiver_receipt", "timestamp"]);
    expect(JSON.parse(json)).toMatchObject({ id: "42", sender_receipt: fields.senderReceipt, timestamp: fields.timestamp });
  });

  it("splits into the id head and a tail that a store completes with its id", () => {
    expect(messageJsonWithId(9_007_199_254_740_991, messageJsonTail(fields))).toBe(messageJson(9_007_199_254_740_991, fields));
    expect(messageJson(7, fields).startsWith(`${MESSAGE_JSON_ID_HEAD}7"`)).toBe(true);
    for (const id of [1, 10, 123456789]) expect(messageIdOf(messageJson(id, fields))).toBe(id);
  });
});

describe("a message to another node (federation)", () => {
  const { receiverReceipt: _receipt, ...pending } = fields;

  it("bound receipts: each position right after its receipt", () => {
    const json = messageJson(9, { ...fields, senderSeq: 7, receiverSeq: 1 });
    expect(Object.keys(JSON.parse(json))).toEqual(["id", "message", "from", "to", "signature", "sender_receipt", "sender_seq", "receiver_receipt", "receiver_seq", "timestamp"]);
    expect(JSON.parse(json)).toMatchObject({ sender_seq: 7, receiver_seq: 1 });
    // A pending copy binds its sender's position only.
    const pendingJson = messageJson(9, { ...pending, senderSeq: 7, status: "pending" });
    expect(Object.keys(JSON.parse(pendingJson))).toEqual(["id", "message", "from", "to", "signature", "sender_receipt", "sender_seq", "timestamp", "status"]);
    expect(isPendingMessageJson(pendingJson)).toBe(true);
  });

  it("pending: no receiver_receipt, status last", () => {
    const json = messageJson(5, { ...pending, status: "pending" });
    expect(Object.keys(JSON.parse(json))).toEqual(["id", "message", "from", "to", "signature", "sender_receipt", "timestamp", "status"]);
    expect(JSON.parse(json)).toMatchObject({ status: "pending" });
  });

  it("failed: the reason escaped as JSON and cut to its maximum", () => {
    const reason = `refused: "quoted" \\ ${"x".repeat(MAX_REASON_LENGTH)}`;
    const parsed = JSON.parse(messageJson(6, { ...pending, status: "failed", reason })) as { status: string; reason: string };
    expect(parsed.status).toBe("failed");
    expect(parsed.reason).toBe(reason.slice(0, MAX_REASON_LENGTH));
  });

  it("a pending copy's JSON made failed is what messageJson gives for it failed; other JSON is left as it is", () => {
    const pendingJson = messageJson(8, { ...pending, status: "pending" });
    expect(isPendingMessageJson(pendingJson)).toBe(true);
    for (const reason of ["peer gone", `"quoted" \\ ${"y".repeat(MAX_REASON_LENGTH)}`]) {
      expect(failedMessageJson(pendingJson, reason)).toBe(messageJson(8, { ...pending, status: "failed", reason }));
    }
    const delivered = messageJson(8, fields);
    expect(isPendingMessageJson(delivered)).toBe(false);
    expect(failedMessageJson(delivered, "late")).toBe(delivered);
    const failedJson = messageJson(8, { ...pending, status: "failed", reason: "gone" });
    expect(isPendingMessageJson(failedJson)).toBe(false);
    expect(failedMessageJson(failedJson, "again")).toBe(failedJson);
  });

  it("a copy not delivered is a pending or failed one, never a delivered one, whatever its reason says", () => {
    const pendingJson = messageJson(8, { ...pending, status: "pending" });
    expect(isUndeliveredMessageJson(pendingJson)).toBe(true);
    expect(isUndeliveredMessageJson(failedMessageJson(pendingJson, 'the peer said "status":"failed"'))).toBe(true);
    expect(isUndeliveredMessageJson(messageJson(8, { ...pending, status: "failed" }))).toBe(true);
    expect(isUndeliveredMessageJson(messageJson(8, fields))).toBe(false);
  });

  it("delivered: exactly the JSON of a message stored on one node", () => {
    expect(messageJson(7, { ...pending, receiverReceipt: fields.receiverReceipt })).toBe(messageJson(7, fields));
  });
});

describe("the positions a message states (spec 3.3.0's `omitBound`)", () => {
  const { receiverReceipt: _receipt, ...pending } = fields;

  it("each side's position, exactly: not a longer number, not the other side's, not one a failure's reason quotes", () => {
    const json = messageJson(9, { ...fields, senderSeq: 12, receiverSeq: 3 });
    expect([statesPosition(json, "received", 3), statesPosition(json, "sent", 12)]).toEqual([true, true]);
    expect([statesPosition(json, "received", 12), statesPosition(json, "sent", 3), statesPosition(json, "received", 30), statesPosition(json, "sent", 1)]).toEqual([false, false, false, false]);
    const parsed = JSON.parse(json) as Record<string, unknown>;
    expect([statedPosition(parsed, "received"), statedPosition(parsed, "sent")]).toEqual([3, 12]);
    // A message stored before spec 3.0.0 states none.
    const unbound = messageJson(9, fields);
    expect([statesPosition(unbound, "received", 3), statedPosition(JSON.parse(unbound) as Record<string, unknown>, "received")]).toEqual([false, undefined]);
    const failed = messageJson(10, { ...pending, senderSeq: 5, status: "failed", reason: 'peer said "receiver_seq":4, and left' });
    expect([statesPosition(failed, "received", 4), statesPosition(failed, "sent", 5)]).toEqual([false, true]);
  });

  it("a stated position is a whole number from 1", () => {
    for (const receiver_seq of [0, -1, 1.5, "3", null]) expect(statedPosition({ receiver_seq }, "received")).toBeUndefined();
  });
});
