// @neutral/protocol/testing: public test keys and fixture signers, for tests, examples and the
// docs' worked example. Never import this in code that handles a real user's key.
export { TEST_KEYS, type TestKeyName } from "./keys.js";
export { fixtureSigner, fixtureStoredMessage, recoverDigestSigner, signDigest, type FixtureSigner, type SignedToken, type TokenOptions } from "./signer.js";
