import { describe, expect, it } from "vitest";
import { newRequestId } from "./request-id.js";

describe("newRequestId", () => {
  it("is 16 base64url characters, unique, and says nothing about the process or the count", () => {
    const ids = Array.from({ length: 5000 }, () => newRequestId()); // crosses several refills of the pool
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Not the old `<pid in base 36>-<count>`, which starts every id so. A random id starts with a
    // given 3 characters once in 262,144 (a 2-character pid and "-"): allow a stray one or two.
    expect(ids.filter((id) => id.startsWith(`${process.pid.toString(36)}-`)).length).toBeLessThanOrEqual(2);
    // Consecutive ids share no prefix beyond chance (a counter or a per-process prefix would).
    const shared = ids.slice(1).filter((id, i) => id.slice(0, 4) === ids[i]!.slice(0, 4)).length;
    expect(shared).toBeLessThan(5);
  });
});
