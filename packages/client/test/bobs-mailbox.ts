// Test support (never built nor shipped): Bob's mailbox of three messages on a node, for the tests of
// the verifiable mailbox. He reads through `fetch` (a test's tampering one) with his own head store.
import { memoryHeadStore } from "../src/context.js";
import { generatePrivateKey } from "../src/keys.js";
import { createNeutral, type Neutral } from "../src/neutral.js";
import type { MailboxProof, Message } from "../src/generated/types.js";
import { fromHex, merkleMultiproof, toHex } from "@neutral/protocol";

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

/** The leaf hashes of the account's whole log, as the node keeps them (what a lying node has at hand). */
export async function logLeaves(session: Neutral): Promise<Uint8Array[]> {
  const leaves: Uint8Array[] = [];
  for (let from = 1; ; ) {
    const page = await session.client.getLog({ from, limit: 100 });
    leaves.push(...page.entries.map((entry) => fromHex(entry.leafHash)));
    if (page.end) return leaves;
    from = page.entries.at(-1)!.seq + 1;
  }
}

/**
 * What a lying node that leaves positions out of a proof answers: the positions `drop` names gone,
 * and a compact proof's multiproof made again for the others from the log's `leaves`, so that they
 * still prove themselves; with `stated`, the positions the page's messages state (a proof asked with
 * `omitBound` lists none of them) among the others.
 */
export function leaveOut(proof: MailboxProof, leaves: readonly Uint8Array[], drop: (position: MailboxProof["positions"][number]) => boolean, stated: readonly number[] = []): void {
  proof.positions = proof.positions.filter((position) => !drop(position));
  if (proof.multiproof !== undefined) {
    proof.multiproof = merkleMultiproof(
      leaves.slice(0, proof.head.size),
      [...proof.positions.map((position) => position.seq), ...stated].map((seq) => seq - 1),
    ).map(toHex);
  }
}

/** The positions in `account`'s log that `messages` state themselves (`receiver_seq` of a copy it received, `sender_seq` of one it sent). */
export function statedSeqs(account: string, messages: readonly Message[]): number[] {
  return messages.flatMap((message) => [
    ...(message.to.toLowerCase() === account.toLowerCase() && message.receiver_seq !== undefined ? [message.receiver_seq] : []),
    ...(message.from.toLowerCase() === account.toLowerCase() && message.sender_seq !== undefined ? [message.sender_seq] : []),
  ]);
}
