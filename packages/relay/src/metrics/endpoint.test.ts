import { describe, expect, it } from "vitest";
import { bearerChecker } from "./endpoint.js";

describe("bearerChecker", () => {
  const authorized = bearerChecker("s3cret-token-0123456789");

  it("accepts exactly Bearer <token>", () => {
    expect(authorized("Bearer s3cret-token-0123456789")).toBe(true);
    expect(authorized("bearer s3cret-token-0123456789")).toBe(true);
  });

  it.each([undefined, "", "Bearer", "Bearer ", "Basic s3cret-token-0123456789", "Bearer s3cret-token-012345678", "Bearer s3cret-token-01234567890", "s3cret-token-0123456789"])(
    "refuses %j",
    (header) => {
      expect(authorized(header)).toBe(false);
    },
  );
});
