// Test support (not built): wallets that sign in and sign messages the way a client does, with
// viem as the independent implementation.
import { type Hex } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { EIP712_DOMAIN } from "./crypto/eip712.js";
import { loadSecp256k1, type Secp256k1 } from "./crypto/secp256k1.js";

export const MESSAGE_TYPES = {
  Message: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "message", type: "bytes" },
    { name: "timestamp", type: "uint64" },
  ],
  Receipt: [
    { name: "message", type: "bytes32" },
    { name: "role", type: "string" },
  ],
  KeyBundle: [
    { name: "account", type: "address" },
    { name: "key", type: "bytes32" },
    { name: "timestamp", type: "uint64" },
  ],
} as const;

/** Hardhat's public test keys: well known, never real secrets. */
export const TEST_KEYS = {
  alice: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  bob: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  node: "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  carol: "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
} as const satisfies Record<string, Hex>;

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
  sign(input: SignedMessageInput): Promise<{ from: string; to: string; message: string; timestamp: number; signature: string }>;
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
      const expirationTime = options.expirationTime === null ? undefined : (options.expirationTime ?? new Date(issuedAt.getTime() + 3_600_000));
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
      const signature = await account.signTypedData({
        domain: EIP712_DOMAIN,
        types: MESSAGE_TYPES,
        primaryType: "Message",
        message: { from: message.from as Hex, to: message.to as Hex, message: `0x${message.message}`, timestamp: BigInt(message.timestamp) },
      });
      return { ...message, signature };
    },
    async signKeyBundle(input) {
      const bundle = { account: input.account ?? account.address, key: input.key, timestamp: input.timestamp };
      const signature = await account.signTypedData({
        domain: EIP712_DOMAIN,
        types: MESSAGE_TYPES,
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
