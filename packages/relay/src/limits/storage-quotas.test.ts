import { RpcError } from "@neutral/server";
import { describe, expect, it } from "vitest";
import { createStorageQuotas, type QuotaFigures } from "./storage-quotas.js";

const HOUR = 3600;
const OFF: QuotaFigures = { periodSeconds: HOUR, senderMessages: 0, senderBytes: 0, recipientMessages: 0, recipientBytes: 0 };

function setup(figures: Partial<QuotaFigures>, replicas = 1) {
  const clock = { ms: 0 };
  const quotas = createStorageQuotas({ ...OFF, ...figures }, { replicas, now: () => clock.ms });
  if (!quotas) throw new Error("expected quotas");
  return { clock, quotas };
}

function refusal(fn: () => void): RpcError {
  try {
    fn();
  } catch (error) {
    if (error instanceof RpcError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("createStorageQuotas", () => {
  it("is off (undefined) when every quota is 0", () => {
    expect(createStorageQuotas(OFF)).toBeUndefined();
  });

  it("counts messages per sender, refusing with -32029 naming the quota, its limit, period and wait", () => {
    const { clock, quotas } = setup({ senderMessages: 3 });
    for (let i = 0; i < 3; i++) quotas.take("alice", `r${i}`, 10);
    const error = refusal(() => quotas.take("alice", "bob", 10));
    expect(error.code).toBe(-32029);
    expect(error.message).toMatch(/at most 3 messages per 3600 s per sender/);
    expect(error.data).toEqual({ quota: "senderQuotaMessages", limit: 3, periodSeconds: HOUR, retryAfter: 1200 });
    quotas.take("carol", "bob", 10); // another sender is not affected
    clock.ms += 1_200_000; // one message's refill
    quotas.take("alice", "bob", 10);
    expect(refusal(() => quotas.take("alice", "bob", 10)).data).toMatchObject({ quota: "senderQuotaMessages" });
  });

  it("counts bytes, and a refund gives a message that was not stored back", () => {
    const { quotas } = setup({ senderBytes: 1000, recipientBytes: 1500 });
    quotas.take("alice", "bob", 600);
    expect(refusal(() => quotas.take("alice", "bob", 500)).data).toMatchObject({ quota: "senderQuotaBytes", limit: 1000, retryAfter: 360 });
    quotas.refund("alice", "bob", 600); // e.g. it was a resend
    quotas.take("alice", "bob", 1000);
    quotas.take("carol", "bob", 400);
    expect(refusal(() => quotas.take("dave", "bob", 200)).data).toMatchObject({ quota: "recipientQuotaBytes", limit: 1500 });
  });

  it("a refusal by the recipient's quota leaves the sender's untouched", () => {
    const { quotas } = setup({ senderMessages: 2, recipientMessages: 1 });
    quotas.take("alice", "bob", 1);
    expect(refusal(() => quotas.take("alice", "bob", 1)).data).toMatchObject({ quota: "recipientQuotaMessages", limit: 1 });
    quotas.take("alice", "carol", 1); // alice still had one left
    expect(refusal(() => quotas.take("alice", "dave", 1)).data).toMatchObject({ quota: "senderQuotaMessages" });
  });

  it("a replica enforces its share of the node's figure, and reports the node's", () => {
    const { quotas } = setup({ senderMessages: 10 }, 3); // ceil(10 / 3) = 4 here
    for (let i = 0; i < 4; i++) quotas.take("alice", "bob", 1);
    expect(refusal(() => quotas.take("alice", "bob", 1)).data).toMatchObject({ quota: "senderQuotaMessages", limit: 10 });
  });

  it("holds no bucket for a sender whose quota has refilled", () => {
    const { clock, quotas } = setup({ senderMessages: 3600, recipientMessages: 3600 }); // one a second
    for (let i = 0; i < 100; i++) quotas.take(`s${i}`, `r${i}`, 1);
    expect(quotas.tables.senders!.size + quotas.tables.recipients!.size).toBe(200);
    clock.ms += 1000;
    quotas.take("x", "y", 1);
    expect(quotas.tables.senders!.size + quotas.tables.recipients!.size).toBe(2);
  });
});
