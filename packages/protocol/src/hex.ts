import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import type { Hex } from "./generated/eip712.js";

export type { Hex };

/** Bytes of a hex string, with or without 0x. Throws on odd length or a non-hex digit. */
export const fromHex = (hex: string): Uint8Array => hexToBytes(hex.startsWith("0x") || hex.startsWith("0X") ? hex.slice(2) : hex);

/** 0x + lowercase hex. */
export const toHex = (bytes: Uint8Array): Hex => `0x${bytesToHex(bytes)}`;

export const isHex = (value: unknown, bytes?: number): value is Hex =>
  typeof value === "string" && (bytes === undefined ? /^0x(?:[0-9a-fA-F]{2})*$/ : new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`)).test(value);
