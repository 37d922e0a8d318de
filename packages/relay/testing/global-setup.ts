// The vitest global setup for an app's tests that start relays (`globalSetup:
// ["@neutral/relay/testing/global-setup"]`): the run's own temp dir, and every relay and cluster a
// test started killed when the run ends or is interrupted. The same one every suite here uses.
export { default } from "@neutral/test-support/global-setup";
