// The signing half of the site's script (bundled by build.mjs into dist/sign-in.js): the throwaway
// key and the bearer token (siwe.ts), i.e. secp256k1 and keccak-256, most of the script's weight.
// try-it.js loads it the first time someone signs in, so the first load of the page stays small.
import { bearerToken, describeToken, newPrivateKey } from "./siwe.js";

export interface SignIn {
  bearerToken: typeof bearerToken;
  describeToken: typeof describeToken;
  newPrivateKey: typeof newPrivateKey;
}

declare global {
  interface Window {
    /** Set by sign-in.js when it runs (a classic script: it also runs from file://). */
    neutralDocsSignIn?: SignIn;
  }
}

window.neutralDocsSignIn = { bearerToken, describeToken, newPrivateKey };
