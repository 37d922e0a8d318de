import { nodeRequestDigest as protocolDigest } from "@neutral/protocol";
import { describe, expect, it } from "vitest";
import { nodeRequestDigest } from "./records.js";

describe("the relay's node request digest (native SHA-256)", () => {
  it("is @neutral/protocol's, for bodies of any size and characters", () => {
    const fields = { origin: `0x${"11".repeat(20)}`, destination: `0x${"22".repeat(20)}`, method: "neutralService_deliver", timestamp: 1767225600000 } as const;
    for (const body of ["", "{}", '{"jsonrpc":"2.0","id":1,"method":"x","params":["ünïcödé ✓"]}', "x".repeat(1 << 20)]) {
      expect(Buffer.from(nodeRequestDigest(fields, body)).toString("hex")).toBe(Buffer.from(protocolDigest(fields, body)).toString("hex"));
    }
  });
});
