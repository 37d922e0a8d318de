import { describe, expect, it } from "vitest";
import { limitOf, reasonLabel } from "./labels.js";

describe("reasonLabel", () => {
  it.each([
    ["malformed token: expected base64url(SIWE message).0x-signature", "malformed token"],
    ["token expired", "token expired"],
    ['domain "evil.example:8645" is not served', "domain is not served"],
    ["not valid yet (not-before)", "not valid yet"],
    ["bad signature: it does not recover the message's address", "bad signature"],
  ])("keeps the words of %j: %j", (reason, label) => {
    expect(reasonLabel({ reason })).toBe(label);
  });

  it("says unknown without a reason", () => {
    expect(reasonLabel(undefined)).toBe("unknown");
    expect(reasonLabel({ reason: 42 })).toBe("unknown");
    expect(reasonLabel({ reason: "1234: 5678" })).toBe("unknown");
  });

  it("takes at most 32 distinct values; the rest are other", () => {
    const labels = new Set(Array.from({ length: 100 }, (_, i) => reasonLabel({ reason: `reason ${"x".repeat(i + 1)}` })));
    expect(labels.has("other")).toBe(true);
    expect(labels.size).toBeLessThanOrEqual(33);
  });
});

describe("limitOf", () => {
  it("names the quota, else the reason, else the rate limit", () => {
    expect(limitOf({ quota: "senderQuotaMessages", limit: 5, retryAfter: 3 })).toBe("senderQuotaMessages");
    expect(limitOf({ reason: "subscriptions", retryAfter: 1 })).toBe("subscriptions");
    expect(limitOf({ reason: "client memory", retryAfter: 1 })).toBe("client-memory");
    expect(limitOf({ retryAfter: 1 })).toBe("rate");
    expect(limitOf(undefined)).toBe("rate");
  });
});
