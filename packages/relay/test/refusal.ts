// Test support (not built).
import { RpcError } from "@neutral/server";
import { expect } from "vitest";

/** The refusal `fn` throws: must be RpcError -32001 with a `data.reason`; answers the reason. */
export function refusalOf(fn: () => unknown): string {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, "expected a refusal").toBeInstanceOf(RpcError);
  const error = thrown as RpcError;
  expect(error.code).toBe(-32001);
  const reason = (error.data as { reason?: unknown } | undefined)?.reason;
  expect(typeof reason).toBe("string");
  return reason as string;
}
