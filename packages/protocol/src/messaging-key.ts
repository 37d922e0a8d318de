/**
 * How the reference SDK derives an account's messaging key (openrpc.json, "Key bundles"): the
 * account signs EIP-712 `DeriveMessagingKey`; the key is HKDF-SHA256 over r ‖ s of that signature
 * with this salt and info `v<version>/<counter>`. Clients agree on it so that one account has one
 * messaging key in every client; nodes never see it.
 */
import type { Hex } from "./hex.js";
import type { TypedValues } from "./generated/eip712.js";

export const DERIVATION_NOTICE =
  "Derive my neutralService messaging key. Sign this only in an app you trust with your messages: this signature decrypts them.";
export const DERIVATION_VERSION = 1;
export const DERIVATION_SALT = "neutralService messaging key";

/** The HKDF info of attempt `counter` (0, 1, … while the output is not a valid secp256k1 scalar). */
export const derivationInfo = (counter: number): string => `v${DERIVATION_VERSION}/${counter}`;

/** The `DeriveMessagingKey` values an account signs. */
export const derivationValues = (account: string): TypedValues["DeriveMessagingKey"] => ({
  notice: DERIVATION_NOTICE,
  account: account.toLowerCase() as Hex,
  version: DERIVATION_VERSION,
});
