// Test support (never built nor shipped): Bob's mailbox of three messages on a node, for the tests of
// the verifiable mailbox. He reads through `fetch` (a test's tampering one) with his own head store.
import { memoryHeadStore } from "../src/context.js";
import { generatePrivateKey } from "../src/keys.js";
import { createNeutral } from "../src/neutral.js";

/** Alice writes to Bob, Bob to Alice and to himself: four positions in Bob's log (a message to oneself is two). */
export async function bobsMailbox(url: string, fetch: typeof globalThis.fetch, options: { verify?: boolean } = {}) {
  const alice = createNeutral({ url, account: generatePrivateKey() });
  const heads = memoryHeadStore();
  const bob = createNeutral({ url, account: generatePrivateKey(), heads, fetch, ...options });
  const bobAddress = await bob.getAddress();
  await bob.ready();
  await alice.send(bobAddress, "one");
  await bob.send(await alice.getAddress(), "two");
  await bob.send(bobAddress, "note");
  const node = (await bob.nodeInfo()).address.toLowerCase();
  return { alice, bob, bobAddress, heads, node };
}
