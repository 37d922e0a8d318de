// The digests of the protocol's EIP-712 typed data. The types and the domain are generated from
// openrpc.json's `x-eip712` extension (generated/eip712.ts); this encoder covers exactly the field
// types that extension allows, and eip712.test.ts checks every digest against viem's hashTypedData.
import { keccak_256 } from "@noble/hashes/sha3.js";
import { concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { EIP712_DOMAIN, EIP712_DOMAIN_TYPE, EIP712_TYPES, type PrimaryType, type TypedValues } from "./generated/eip712.js";
import { fromHex } from "./hex.js";

export { EIP712_DOMAIN, EIP712_DOMAIN_TYPE, EIP712_TYPES, type PrimaryType, type TypedValues };

/** A typed-data request in the shape viem's `signTypedData` and `eth_signTypedData_v4` take. */
export interface TypedData<P extends PrimaryType = PrimaryType> {
  domain: typeof EIP712_DOMAIN;
  types: Pick<typeof EIP712_TYPES, P>;
  primaryType: P;
  message: TypedValues[P];
}

/** The typed data of one primary type, ready for a wallet to sign. */
export function typedData<P extends PrimaryType>(primaryType: P, message: TypedValues[P]): TypedData<P> {
  const types = { [primaryType]: EIP712_TYPES[primaryType] } as Pick<typeof EIP712_TYPES, P>;
  return { domain: EIP712_DOMAIN, types, primaryType, message };
}

/** The `eth_signTypedData_v4` form: `EIP712Domain` listed with the primary type. */
export function typedDataV4<P extends PrimaryType>(primaryType: P, message: TypedValues[P]) {
  const data = typedData(primaryType, message);
  return { ...data, types: { EIP712Domain: EIP712_DOMAIN_TYPE, ...data.types } };
}

type Field = { readonly name: string; readonly type: string };

const utf8Hash = (text: string) => keccak_256(utf8ToBytes(text));

/** `Name(type1 name1,type2 name2,…)`: the type's canonical text (no referenced structs exist here). */
export function encodeType(name: string, fields: readonly Field[]): string {
  return `${name}(${fields.map((field) => `${field.type} ${field.name}`).join(",")})`;
}

/** keccak256 of `encodeType`. */
export const typeHash = (primaryType: PrimaryType): Uint8Array => utf8Hash(encodeType(primaryType, EIP712_TYPES[primaryType]));

function uintWord(value: number, bits: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0 || (bits < 53 && value >= 2 ** bits)) throw new RangeError(`not a uint${bits}: ${value}`);
  const word = new Uint8Array(32);
  const view = new DataView(word.buffer);
  view.setUint32(24, Math.floor(value / 2 ** 32));
  view.setUint32(28, value >>> 0);
  return word;
}

function encodeValue(field: Field, value: unknown): Uint8Array {
  if (field.type.endsWith("[]")) {
    // EIP-712: an array is the keccak256 of its elements' encodings, concatenated.
    if (!Array.isArray(value)) throw new TypeError(`${field.name}: ${field.type} takes an array`);
    const element: Field = { name: field.name, type: field.type.slice(0, -2) };
    return keccak_256(concatBytes(...value.map((item: unknown) => encodeValue(element, item))));
  }
  switch (field.type) {
    case "address": {
      const bytes = fromHex(String(value));
      if (bytes.length !== 20) throw new TypeError(`${field.name}: an address is 20 bytes`);
      const word = new Uint8Array(32);
      word.set(bytes, 12);
      return word;
    }
    case "bytes32": {
      const bytes = fromHex(String(value));
      if (bytes.length !== 32) throw new TypeError(`${field.name}: bytes32 is 32 bytes`);
      return bytes;
    }
    case "bytes":
      return keccak_256(fromHex(String(value)));
    case "string":
      return utf8Hash(String(value));
    case "uint32":
      return uintWord(value as number, 32);
    case "uint64":
      return uintWord(value as number, 64);
    default:
      throw new Error(`unsupported EIP-712 field type ${field.type}`);
  }
}

/** `hashStruct(message)` of EIP-712: keccak256(typeHash ‖ encoded fields). */
export function hashStruct<P extends PrimaryType>(primaryType: P, message: TypedValues[P]): Uint8Array {
  return hashStructOf(primaryType, message as unknown as Record<string, unknown>, new Set());
}

function hashStructOf(primaryType: PrimaryType, values: Record<string, unknown>, hashedBytes: ReadonlySet<string>): Uint8Array {
  const fields: readonly Field[] = EIP712_TYPES[primaryType];
  const encoded = fields.map((field) => (field.type === "bytes" && hashedBytes.has(field.name) ? encodeValue({ name: field.name, type: "bytes32" }, values[field.name]) : encodeValue(field, values[field.name])));
  return keccak_256(concatBytes(typeHash(primaryType), ...encoded));
}

/** The domain separator of `EIP712_DOMAIN`. */
export const DOMAIN_SEPARATOR: Uint8Array = keccak_256(
  concatBytes(utf8Hash(encodeType("EIP712Domain", EIP712_DOMAIN_TYPE)), utf8Hash(EIP712_DOMAIN.name), utf8Hash(EIP712_DOMAIN.version)),
);

/** `0x1901`, the EIP-712 prefix of every digest. */
export const EIP712_PREFIX = new Uint8Array([0x19, 0x01]);

/** The 32-byte digest a signer signs: keccak256(`\x19\x01` ‖ domainSeparator ‖ hashStruct). */
export function hashTypedData<P extends PrimaryType>(data: Pick<TypedData<P>, "primaryType" | "message">): Uint8Array {
  return keccak_256(concatBytes(EIP712_PREFIX, DOMAIN_SEPARATOR, hashStruct(data.primaryType, data.message)));
}

/**
 * `hashTypedData` of a message whose `bytes` fields named in `hashed` are given as what EIP-712
 * encodes them as, their keccak-256 (32 bytes, hex): the same digest, without the bytes themselves
 * (a message whose body is gone: @neutral/protocol `expiredMessageDigest`).
 */
export function hashTypedDataWithHashedBytes<P extends PrimaryType>(
  primaryType: P,
  message: { [K in keyof TypedValues[P]]: TypedValues[P][K] extends `0x${string}` ? string : TypedValues[P][K] },
  hashed: readonly (keyof TypedValues[P] & string)[],
): Uint8Array {
  return keccak_256(concatBytes(EIP712_PREFIX, DOMAIN_SEPARATOR, hashStructOf(primaryType, message as unknown as Record<string, unknown>, new Set(hashed))));
}
