import { createNeutral, generatePrivateKey } from "@neutral/client";

const url = process.env.NEUTRAL_URL ?? "http://127.0.0.1:8645"; // the relay `pnpm start` runs
const alice = createNeutral({ url, account: generatePrivateKey() });
const bob = createNeutral({ url, account: generatePrivateKey() });

await bob.ready(); // signs Bob in, makes this node his home and publishes his messaging key
await alice.send(await bob.getAddress(), "Hello, Bob!"); // encrypted to Bob, signed by Alice

for await (const message of bob.inbox().messages()) {
  console.log(message.from, message.text, message.verified ? "✓ verified" : message.problems);
}
