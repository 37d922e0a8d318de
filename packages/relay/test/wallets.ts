// Test support (not built): wallets that sign in and sign messages the way a client does, with
// viem as the independent implementation of the protocol package's types and keys.
import { type Hex } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { EIP712_DOMAIN, EIP712_TYPES, tokenExpiry } from "@neutral/protocol";
import { TEST_KEYS } from "@neutral/protocol/testing";
import { loadSecp256k1, type Secp256k1 } from "../src/crypto/secp256k1.js";

export { TEST_KEYS };

export interface TokenOptions {
  domain: string;
  /** Default: now. */
  issuedAt?: Date;
  /** Default: one hour after issuedAt; `null` leaves it out. */
  expirationTime?: Date | null;
  notBefore?: Date;
  nonce?: string;
  version?: "1";
  /** Sign with another key than the one the message names. */
  signWith?: PrivateKeyAccount;
  /** Replace the SIWE text after it is built (to forge broken ones). */
  mangle?: (text: string) => string;
}

export interface SignedMessageInput {
  to: string;
  message: string;
  timestamp?: number;
  from?: string;
  /** A sender-set end (ms): signed as `ExpiringMessage`. */
  expires?: number;
}

export interface KeyBundleInput {
  /** 0x + 64 hex: an x-only public key. */
  key: string;
  timestamp: number;
  /** Default: the wallet's own address (checksummed). */
  account?: string;
}

export interface TestWallet {
  account: PrivateKeyAccount;
  /** Lowercase address. */
  address: string;
  token(options: TokenOptions): Promise<string>;
  sign(input: SignedMessageInput): Promise<{ from: string; to: string; message: string; timestamp: number; expires?: number; signature: string }>;
  /** A key bundle signed by this wallet (EIP-712 `KeyBundle`), as `publishKey` takes it. */
  signKeyBundle(input: KeyBundleInput): Promise<{ account: string; key: string; timestamp: number; signature: string }>;
}

/** The x-only public key (0x + 64 lowercase hex) of a secp256k1 secret: a well-formed messaging key. */
export function xOnlyKeyOf(secret: Hex): string {
  return `0x${privateKeyToAccount(secret).publicKey.slice(4, 68)}`;
}

export function wallet(privateKey: Hex): TestWallet {
  const account = privateKeyToAccount(privateKey);
  return {
    account,
    address: account.address.toLowerCase(),
    async token(options) {
      const issuedAt = options.issuedAt ?? new Date();
      const expirationTime = options.expirationTime === null ? undefined : (options.expirationTime ?? new Date(tokenExpiry(issuedAt.getTime())));
      let text = createSiweMessage({
        address: account.address,
        chainId: 1,
        domain: options.domain,
        nonce: options.nonce ?? "abcdef1234567890",
        uri: `http://${options.domain}/`,
        version: options.version ?? "1",
        issuedAt,
        ...(expirationTime && { expirationTime }),
        ...(options.notBefore && { notBefore: options.notBefore }),
      });
      if (options.mangle) text = options.mangle(text);
      const signature = await (options.signWith ?? account).signMessage({ message: text });
      return `${Buffer.from(text, "utf8").toString("base64url")}.${signature}`;
    },
    async sign(input) {
      const message = {
        from: input.from ?? account.address,
        to: input.to,
        message: input.message,
        timestamp: input.timestamp ?? Date.now(),
      };
      const typed = { from: message.from as Hex, to: message.to as Hex, message: `0x${message.message}` as Hex, timestamp: BigInt(message.timestamp) };
      if (input.expires !== undefined) {
        const signature = await account.signTypedData({ domain: EIP712_DOMAIN, types: EIP712_TYPES, primaryType: "ExpiringMessage", message: { ...typed, expires: BigInt(input.expires) } });
        return { ...message, expires: input.expires, signature };
      }
      const signature = await account.signTypedData({ domain: EIP712_DOMAIN, types: EIP712_TYPES, primaryType: "Message", message: typed });
      return { ...message, signature };
    },
    async signKeyBundle(input) {
      const bundle = { account: input.account ?? account.address, key: input.key, timestamp: input.timestamp };
      const signature = await account.signTypedData({
        domain: EIP712_DOMAIN,
        types: EIP712_TYPES,
        primaryType: "KeyBundle",
        message: { account: bundle.account as Hex, key: bundle.key as Hex, timestamp: BigInt(bundle.timestamp) },
      });
      return { ...bundle, signature };
    },
  };
}

/** The loaded curve, with its signature recoveries counted (to check what is verified when). */
export function countingCurve(): { curve: Secp256k1; recoveries: () => number } {
  const base = loadSecp256k1();
  let recoveries = 0;
  const curve: Secp256k1 = {
    implementation: base.implementation,
    sign: (digest, key) => base.sign(digest, key),
    addressOf: (key) => base.addressOf(key),
    recoverAddress(digest, signature) {
      recoveries++;
      return base.recoverAddress(digest, signature);
    },
  };
  return { curve, recoveries: () => recoveries };
}
