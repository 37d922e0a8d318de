// Test support (never built nor shipped): accounts of all three kinds over the same keys, with viem as the
// independent implementation. The provider is a real EIP-1193 object that can only sign.
import { hashTypedData as viemHashTypedData, type Hex } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import type { Eip1193Provider } from "../src/account.js";

/** Hardhat's public test keys (@neutral/protocol/testing): well known, never real secrets. */
export { TEST_KEYS } from "@neutral/protocol/testing";

export interface SigningProvider extends Eip1193Provider {
  /** Every method asked, in order. */
  readonly calls: string[];
}

/**
 * An EIP-1193 wallet that implements only `personal_sign` and `eth_signTypedData_v4` (and
 * `eth_accounts` when `exposeAccounts`), the way a browser wallet answers them.
 */
export function signingProvider(privateKey: Hex, { exposeAccounts = false } = {}): SigningProvider {
  const account = privateKeyToAccount(privateKey);
  const calls: string[] = [];
  return {
    calls,
    async request({ method, params }) {
      calls.push(method);
      const list = Array.isArray(params) ? (params as unknown[]) : [];
      switch (method) {
        case "eth_accounts":
        case "eth_requestAccounts":
          if (!exposeAccounts) throw Object.assign(new Error("Method not supported"), { code: 4200 });
          return [account.address];
        case "personal_sign": {
          const [message, address] = list as [Hex, string];
          if (address.toLowerCase() !== account.address.toLowerCase()) throw Object.assign(new Error("Unknown account"), { code: 4100 });
          return account.signMessage({ message: { raw: message } });
        }
        case "eth_signTypedData_v4": {
          const [address, json] = list as [string, string];
          if (address.toLowerCase() !== account.address.toLowerCase()) throw Object.assign(new Error("Unknown account"), { code: 4100 });
          const { domain, types, primaryType, message } = JSON.parse(json) as Parameters<typeof viemHashTypedData>[0];
          if (!types || !("EIP712Domain" in types)) throw new Error("eth_signTypedData_v4 needs EIP712Domain in types");
          return account.signTypedData({ domain, types, primaryType, message } as Parameters<PrivateKeyAccount["signTypedData"]>[0]);
        }
        default:
          throw Object.assign(new Error(`Method ${method} not supported`), { code: 4200 });
      }
    },
  };
}

export { privateKeyToAccount };
