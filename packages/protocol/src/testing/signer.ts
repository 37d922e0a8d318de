/**
 * A fixture signer: signs what a client signs (EIP-712 typed data, EIP-191 personal messages,
 * bearer tokens) with a private key held in memory. For tests, examples and the docs' worked
 * example only: a real app signs with a wallet.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { checksumAddress } from "../address.js";
import { DEFAULT_SIWE_STATEMENT, encodeBearerToken, newNonce, personalMessageDigest, tokenExpiry } from "../bearer-token.js";
import { hashTypedData, type PrimaryType, type TypedValues } from "../eip712.js";
import { fromHex, toHex, type Hex } from "../hex.js";
import { encodeNodeAuthorization, nodeRequestDigest } from "../node-request.js";
import { buildSiweMessage } from "../siwe.js";
import type { WireMessageFields } from "../wire-message.js";

/** 0x + r ‖ s ‖ v (v = 27 or 28), low s, deterministic (RFC 6979). */
export function signDigest(digest: Uint8Array, privateKey: Hex | Uint8Array): Hex {
  const key = typeof privateKey === "string" ? fromHex(privateKey) : privateKey;
  const recovered = secp256k1.sign(digest, key, { prehash: false, format: "recovered" });
  return `0x${bytesToHex(recovered.subarray(1))}${(27 + recovered[0]!).toString(16)}`;
}

/** The lowercase address that signed `digest`, or undefined for a malformed signature. */
export function recoverDigestSigner(digest: Uint8Array, signature: string): Hex | undefined {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return undefined;
  const bytes = fromHex(signature);
  const recovered = new Uint8Array(65);
  recovered[0] = (bytes[64]! >= 27 ? bytes[64]! - 27 : bytes[64]!) & 1;
  recovered.set(bytes.subarray(0, 64), 1);
  try {
    const publicKey = secp256k1.recoverPublicKey(recovered, digest, { prehash: false });
    return addressOfPublicKey(secp256k1.Point.fromBytes(publicKey).toBytes(false));
  } catch {
    return undefined;
  }
}

const addressOfPublicKey = (uncompressed: Uint8Array): Hex => toHex(keccak_256(uncompressed.subarray(1)).subarray(12));

export interface TokenOptions {
  domain: string;
  /** Default `http://<domain>/`. */
  uri?: string;
  /** Epoch ms; default now. */
  issuedAt?: number;
  /** Default 1 h; capped at 24 h. */
  lifetimeMs?: number;
  nonce?: string;
  statement?: string;
}

export interface SignedToken {
  token: string;
  /** The EIP-4361 text that was signed. */
  message: string;
  signature: Hex;
  expiresAt: number;
}

export interface FixtureSigner {
  /** Lowercase address. */
  readonly address: Hex;
  /** EIP-55 form. */
  readonly checksumAddress: Hex;
  /** The x-only (BIP-340) public key of the private key, 0x + 64 hex: a well-formed messaging key. */
  readonly xOnlyPublicKey: Hex;
  signTypedData<P extends PrimaryType>(primaryType: P, values: TypedValues[P]): Hex;
  /** EIP-191 `personal_sign`. */
  signMessage(text: string): Hex;
  /** A bearer token as the SDK makes one. */
  bearerToken(options: TokenOptions): SignedToken;
  /** A home record naming `node` (federation), as `publishHome` takes it; timestamp default now. */
  homeRecord(node: string, timestamp?: number): { account: Hex; node: Hex; timestamp: number; signature: Hex };
  /**
   * The `Authorization` header of a node-to-node request carrying `body`, this signer being the
   * calling node (`origin`); timestamp default now.
   */
  nodeAuthorization(destination: string, method: string, body: string, timestamp?: number): string;
  /** A message as `sendMessage` takes it: `message` is hex without 0x; timestamp default now. */
  /** A message signed as `Message`, or as `ExpiringMessage` when `expires` is given. */
  signMessageFor(to: string, ciphertextHex: string, timestamp?: number, expires?: number): { from: Hex; to: string; message: string; timestamp: number; expires?: number; signature: Hex };
}

export function fixtureSigner(privateKey: Hex | Uint8Array): FixtureSigner {
  const key = typeof privateKey === "string" ? fromHex(privateKey) : privateKey;
  const address = addressOfPublicKey(secp256k1.getPublicKey(key, false));
  const signer: FixtureSigner = {
    address,
    checksumAddress: checksumAddress(address),
    xOnlyPublicKey: toHex(secp256k1.getPublicKey(key, true).subarray(1)),
    signTypedData: (primaryType, values) => signDigest(hashTypedData({ primaryType, message: values }), key),
    signMessage: (text) => signDigest(personalMessageDigest(text), key),
    bearerToken(options) {
      const issuedAt = options.issuedAt ?? Date.now();
      const message = buildSiweMessage({
        domain: options.domain,
        address,
        uri: options.uri ?? `http://${options.domain}/`,
        statement: options.statement ?? DEFAULT_SIWE_STATEMENT,
        nonce: options.nonce ?? newNonce(),
        issuedAt,
        expiresAt: tokenExpiry(issuedAt, options.lifetimeMs),
      });
      const signature = signer.signMessage(message);
      return { token: encodeBearerToken(message, signature), message, signature, expiresAt: tokenExpiry(issuedAt, options.lifetimeMs) };
    },
    homeRecord(node, timestamp = Date.now()) {
      const record = { account: address, node: node.toLowerCase() as Hex, timestamp };
      return { ...record, signature: signer.signTypedData("Home", record) };
    },
    nodeAuthorization(destination, method, body, timestamp = Date.now()) {
      const fields = { origin: address, destination: destination.toLowerCase() as Hex, method, timestamp };
      return encodeNodeAuthorization({ ...fields, signature: signDigest(nodeRequestDigest(fields, body), key) });
    },
    signMessageFor(to, ciphertextHex, timestamp = Date.now(), expires) {
      const fields = { from: address, to: to as Hex, message: `0x${ciphertextHex}` as Hex, timestamp };
      if (expires !== undefined) return { from: address, to, message: ciphertextHex, timestamp, expires, signature: signer.signTypedData("ExpiringMessage", { ...fields, expires }) };
      return { from: address, to, message: ciphertextHex, timestamp, signature: signer.signTypedData("Message", fields) };
    },
  };
  return signer;
}

/** A stored message as a node would answer it (its end too, if it has one), its receipts signed by `node`: for fixtures. */
export function fixtureStoredMessage(
  node: FixtureSigner,
  signed: { from: string; to: string; message: string; timestamp: number; expires?: number; signature: string },
): WireMessageFields {
  const fields = { from: signed.from as Hex, to: signed.to as Hex, message: `0x${signed.message}` as Hex, timestamp: signed.timestamp };
  const digest = toHex(
    signed.expires === undefined
      ? hashTypedData({ primaryType: "Message", message: fields })
      : hashTypedData({ primaryType: "ExpiringMessage", message: { ...fields, expires: signed.expires } }),
  );
  return {
    message: signed.message.toLowerCase(),
    from: signed.from.toLowerCase(),
    to: signed.to.toLowerCase(),
    signature: signed.signature.toLowerCase(),
    senderReceipt: node.signTypedData("Receipt", { message: digest, role: "sender" }),
    receiverReceipt: node.signTypedData("Receipt", { message: digest, role: "receiver" }),
    timestamp: signed.timestamp,
    ...(signed.expires !== undefined && { expires: signed.expires }),
  };
}

