import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import type { Hex } from "./hex.js";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Whether `value` is 0x + 40 hex digits (any case; the checksum is not checked). */
export const isAddress = (value: unknown): value is Hex => typeof value === "string" && ADDRESS.test(value);

/** The EIP-55 mixed-case form of an address (EIP-4361 requires it in a SIWE message). */
export function checksumAddress(address: string): Hex {
  if (!isAddress(address)) throw new TypeError(`not an address: ${JSON.stringify(address).slice(0, 60)}`);
  const lower = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = "0x";
  for (let i = 0; i < 40; i++) out += parseInt(hash[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  return out as Hex;
}
