import { isAddress } from "../crypto/ecdsa.js";
import { NeutralError } from "../errors.js";

/** `value` lowercased, or `NeutralError` INVALID_ARGUMENT naming the argument `name`. */
export function checkAddress(value: string, name: string): string {
  if (!isAddress(value)) throw new NeutralError("INVALID_ARGUMENT", `${name} must be 0x followed by 40 hex digits`);
  return value.toLowerCase();
}
