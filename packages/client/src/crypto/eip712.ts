// The EIP-712 typed data of neutralService: the types, the domain, and their digests. The encoder
// covers exactly the field types these structs use; eip712.test.ts checks every digest against
// viem's hashTypedData.
import { keccak_256 } from "@noble/hashes/sha3.js";
import { concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { fromHex, type Hex } from "./ecdsa.js";

/** `{name: "neutralService", version: "1"}`: no chainId, no verifyingContract (protocol.md §6). */
export const EIP712_DOMAIN = { name: "neutralService", version: "1" } as const;

export const EIP712_TYPES = {
  /** The sender's signature over a message (protocol.md §6). */
  Message: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "message", type: "bytes" },
    { name: "timestamp", type: "uint64" },
  ],
  /** A node's receipt for a message digest (protocol.md §7). */
  Receipt: [
    { name: "message", type: "bytes32" },
    { name: "role", type: "string" },
  ],
  /** An account vouching for its messaging public key. */
  KeyBundle: [
    { name: "account", type: "address" },
    { name: "key", type: "bytes32" },
    { name: "timestamp", type: "uint64" },
  ],
  /** What an account signs to derive its messaging key; the signature is the secret. */
  DeriveMessagingKey: [
    { name: "notice", type: "string" },
    { name: "account", type: "address" },
    { name: "version", type: "uint32" },
  ],
} as const;

/** The `EIP712Domain` type `eth_signTypedData_v4` wants listed with the others. */
export const EIP712_DOMAIN_TYPE = [
  { name: "name", type: "string" },
  { name: "version", type: "string" },
] as const;

export type PrimaryType = keyof typeof EIP712_TYPES;

/** Field values, as JSON-friendly JavaScript values (uints as numbers, bytes as 0x hex). */
export interface TypedValues {
  Message: { from: Hex; to: Hex; message: Hex; timestamp: number };
  Receipt: { message: Hex; role: "sender" | "receiver" };
  KeyBundle: { account: Hex; key: Hex; timestamp: number };
  DeriveMessagingKey: { notice: string; account: Hex; version: number };
}

/** A typed-data request in the shape viem's `signTypedData` and `eth_signTypedData_v4` take. */
export interface TypedData<P extends PrimaryType = PrimaryType> {
  domain: typeof EIP712_DOMAIN;
  types: Pick<typeof EIP712_TYPES, P>;
  primaryType: P;
  message: TypedValues[P];
}

export function typedData<P extends PrimaryType>(primaryType: P, message: TypedValues[P]): TypedData<P> {
  const types = { [primaryType]: EIP712_TYPES[primaryType] } as Pick<typeof EIP712_TYPES, P>;
  return { domain: EIP712_DOMAIN, types, primaryType, message };
}

const utf8Hash = (text: string) => keccak_256(utf8ToBytes(text));

function encodeType(name: string, fields: readonly { name: string; type: string }[]): string {
  return `${name}(${fields.map((field) => `${field.type} ${field.name}`).join(",")})`;
}

function uintWord(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not an unsigned integer: ${value}`);
  const word = new Uint8Array(32);
  const view = new DataView(word.buffer);
  view.setUint32(24, Math.floor(value / 2 ** 32));
  view.setUint32(28, value >>> 0);
  return word;
}

function encodeValue(type: string, value: unknown): Uint8Array {
  switch (type) {
    case "address": {
      const word = new Uint8Array(32);
      word.set(fromHex(value as string), 12);
      return word;
    }
    case "bytes32":
      return fromHex(value as string);
    case "bytes":
      return keccak_256(fromHex(value as string));
    case "string":
      return utf8Hash(value as string);
    case "uint32":
    case "uint64":
      return uintWord(value as number);
    default:
      throw new Error(`unsupported EIP-712 field type ${type}`);
  }
}

const DOMAIN_SEPARATOR = keccak_256(
  concatBytes(utf8Hash(encodeType("EIP712Domain", EIP712_DOMAIN_TYPE)), utf8Hash(EIP712_DOMAIN.name), utf8Hash(EIP712_DOMAIN.version)),
);

/** The 32-byte digest a signer signs for `data` (`\x19\x01 ‖ domainSeparator ‖ hashStruct`). */
export function hashTypedData<P extends PrimaryType>(data: Pick<TypedData<P>, "primaryType" | "message">): Uint8Array {
  const fields = EIP712_TYPES[data.primaryType];
  const values = data.message as unknown as Record<string, unknown>;
  const structHash = keccak_256(
    concatBytes(utf8Hash(encodeType(data.primaryType, fields)), ...fields.map((field) => encodeValue(field.type, values[field.name]))),
  );
  return keccak_256(concatBytes(new Uint8Array([0x19, 0x01]), DOMAIN_SEPARATOR, structHash));
}
