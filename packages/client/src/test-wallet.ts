// Test support (not built): accounts of all three kinds over the same keys, with viem as the
// independent implementation. The provider is a real EIP-1193 object that can only sign.
import { hashTypedData as viemHashTypedData, type Hex } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import type { Eip1193Provider } from "./account.js";

/** Hardhat's public test keys: well known, never real secrets. */
export const TEST_KEYS = {
  alice: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  bob: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  node: "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  carol: "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  mallory: "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
} as const satisfies Record<string, Hex>;

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
