// The three kinds of account the SDK signs with, behind one small `Signer` interface: a raw
// private key, a viem-style local account, or an EIP-1193 wallet that can only sign.
import { addressOfPrivateKey, checksumAddress, fromHex, isAddress, isPrivateKeyHex, normalizeSignature, personalMessageDigest, signDigest, toHex, type Hex } from "./crypto/ecdsa.js";
import { EIP712_DOMAIN_TYPE, hashTypedData, type PrimaryType, type TypedData } from "@neutral/protocol";
import { NeutralError } from "./errors.js";

/** What the SDK needs from an account: its address and two kinds of signature. */
export interface Signer {
  /** Lowercase 0x address. */
  getAddress(): Promise<string>;
  /** EIP-191 `personal_sign` of a UTF-8 text. */
  signMessage(text: string): Promise<Hex>;
  /** EIP-712 signature. */
  signTypedData<P extends PrimaryType>(data: TypedData<P>): Promise<Hex>;
}

/** The part of a viem `LocalAccount` (e.g. `privateKeyToAccount(…)`) the SDK uses. */
export interface LocalAccountLike {
  readonly address: string;
  signMessage(args: { message: string }): Promise<string>;
  // Loose on purpose: viem's own parameter type is a deep generic; any account taking this shape works.
  signTypedData(args: { domain?: unknown; types?: unknown; primaryType?: unknown; message?: unknown }): Promise<string>;
}

/** An EIP-1193 provider (a browser wallet). Only `personal_sign` and `eth_signTypedData_v4` are needed. */
export interface Eip1193Provider {
  request(args: { method: string; params?: readonly unknown[] | object }): Promise<unknown>;
}

/** A raw private key (0x + 64 hex), a viem-style local account, or an EIP-1193 wallet provider. */
export type AccountSource = Hex | LocalAccountLike | Eip1193Provider;

function checkedSignature(signature: unknown, what: string): Hex {
  const normalized = typeof signature === "string" ? normalizeSignature(signature) : undefined;
  if (normalized === undefined) throw new NeutralError("WALLET_ERROR", `The account returned no valid signature for ${what}`);
  return normalized;
}

/** A signer over a private key held in memory. The key never leaves this closure. */
export function privateKeySigner(privateKey: Hex): Signer {
  if (!isPrivateKeyHex(privateKey)) throw new NeutralError("INVALID_ACCOUNT", "A private key must be 0x followed by 64 hex digits");
  const key = fromHex(privateKey);
  let address: string;
  try {
    address = addressOfPrivateKey(key);
  } catch {
    throw new NeutralError("INVALID_ACCOUNT", "The private key is not a valid secp256k1 key");
  }
  return {
    getAddress: async () => address,
    signMessage: async (text) => signDigest(personalMessageDigest(text), key),
    signTypedData: async (data) => signDigest(hashTypedData(data), key),
  };
}

export function localAccountSigner(account: LocalAccountLike): Signer {
  if (!isAddress(account.address)) throw new NeutralError("INVALID_ACCOUNT", "The account has no valid address");
  const address = account.address.toLowerCase();
  return {
    getAddress: async () => address,
    signMessage: async (text) => checkedSignature(await account.signMessage({ message: text }), "a sign-in message"),
    signTypedData: async (data) => checkedSignature(await account.signTypedData(data), `typed data ${data.primaryType}`),
  };
}

/**
 * A signer over a wallet provider. Without `address`, the wallet is asked once
 * (`eth_requestAccounts`, then `eth_accounts`) and its first account is used.
 */
export function providerSigner(provider: Eip1193Provider, address?: string): Signer {
  if (address !== undefined && !isAddress(address)) throw new NeutralError("INVALID_ACCOUNT", "`address` must be 0x followed by 40 hex digits");
  let resolved: Promise<string> | undefined = address === undefined ? undefined : Promise.resolve(address.toLowerCase());
  const getAddress = () =>
    (resolved ??= (async () => {
      let accounts: unknown;
      try {
        accounts = await provider.request({ method: "eth_requestAccounts" });
      } catch {
        accounts = await provider.request({ method: "eth_accounts" });
      }
      const first = Array.isArray(accounts) ? accounts[0] : undefined;
      if (!isAddress(first)) throw new NeutralError("WALLET_ERROR", "The wallet returned no account; pass `address`");
      return first.toLowerCase();
    })().catch((error: unknown) => {
      resolved = undefined;
      throw error;
    }));
  return {
    getAddress,
    async signMessage(text) {
      const from = await getAddress();
      const hexText = toHex(new TextEncoder().encode(text));
      return checkedSignature(await provider.request({ method: "personal_sign", params: [hexText, checksumAddress(from)] }), "a sign-in message");
    },
    async signTypedData(data) {
      const from = await getAddress();
      const payload = JSON.stringify({ ...data, types: { EIP712Domain: EIP712_DOMAIN_TYPE, ...data.types } });
      return checkedSignature(await provider.request({ method: "eth_signTypedData_v4", params: [checksumAddress(from), payload] }), `typed data ${data.primaryType}`);
    },
  };
}

const isProvider = (value: object): value is Eip1193Provider => typeof (value as { request?: unknown }).request === "function";
const isLocalAccount = (value: object): value is LocalAccountLike =>
  typeof (value as { signTypedData?: unknown }).signTypedData === "function" && typeof (value as { signMessage?: unknown }).signMessage === "function";

/** The signer for any supported account source. */
export function toSigner(account: AccountSource, address?: string): Signer {
  if (typeof account === "string") return privateKeySigner(account);
  if (typeof account === "object" && account !== null) {
    if (isLocalAccount(account)) return localAccountSigner(account);
    if (isProvider(account)) return providerSigner(account, address);
  }
  throw new NeutralError("INVALID_ACCOUNT", "`account` must be a private key, a local account (signMessage, signTypedData) or an EIP-1193 provider");
}
