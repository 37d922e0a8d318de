import type { Hex } from "../hex.js";

/**
 * Hardhat's public test accounts #0–#5: known to everyone, never real secrets. The examples of
 * openrpc.json and seeds/exchanges are signed with alice, bob and node; those of federation with
 * carol, homed at a second node, `peer`, too.
 */
export const TEST_KEYS = {
  alice: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  bob: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  node: "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  carol: "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  mallory: "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
  peer: "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
} as const satisfies Record<string, Hex>;

export type TestKeyName = keyof typeof TEST_KEYS;
