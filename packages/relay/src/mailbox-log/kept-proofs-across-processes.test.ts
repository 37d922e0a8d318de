// A proof a process keeps (kept-proofs.ts) is dropped when another process of the node stores into
// the account: the commit's notice reaches every process (the primary's writer to its workers, and
// PostgreSQL's NOTIFY to every replica), and from then on every read proves the grown head. Real
// processes, real HTTP on loopback, a real SQLite file and a real PostgreSQL.
import { generatePrivateKey } from "viem/accounts";
import { afterEach, describe, expect, it } from "vitest";
import { createTestSchema, type TestSchema } from "../../test/postgres.js";
import { TEST_KEYS, wallet, type TestWallet } from "../../test/wallets.js";
import { call, startRelay, type RunningRelay, type StartOptions } from "../../testing/index.js";

const DOMAIN = "relay.neutral.test";
const alice = wallet(TEST_KEYS.alice);

/** How long a commit's notice may take to reach every process on a loaded 2-core machine. */
const NOTICE_MS = 10_000;
/** Reads at once per relay: as many connections, which the primary spreads over its workers. */
const AT_ONCE = 8;

interface ProvenPage {
  data: { id: string }[];
  proof: { head: { size: number } };
}

let running: RunningRelay[] = [];
let schema: TestSchema | undefined;
afterEach(async () => {
  await Promise.all(running.map((relay) => relay.stop()));
  running = [];
  await schema?.drop();
  schema = undefined;
});

async function start(options: StartOptions): Promise<RunningRelay> {
  const relay = await startRelay({ ...options, env: { NEUTRAL_DOMAIN: DOMAIN, ...options.env } });
  running.push(relay);
  return relay;
}

async function send(relay: RunningRelay, from: TestWallet, to: string, message: string): Promise<void> {
  const answer = await call(relay.url, "neutralService_sendMessage", [await from.sign({ to, message })], await from.token({ domain: DOMAIN }));
  expect(answer.body.error, answer.text).toBeUndefined();
}

/** The head sizes `AT_ONCE` reads at once of the account's received page, with a compact proof, prove on each relay. */
async function headSizes(relays: readonly RunningRelay[], token: string): Promise<{ sizes: number[]; pages: string[] }> {
  const answers = await Promise.all(
    relays.flatMap((relay) => Array.from({ length: AT_ONCE }, () => call(relay.url, "neutralService_getInbox", { limit: 20, proof: { compact: true } }, token))),
  );
  const pages = answers.map((answer) => answer.body.result[0] as ProvenPage);
  return { sizes: pages.map((page) => page.proof.head.size), pages: pages.map((page) => page.data.map((message) => message.id).join(",")) };
}

/**
 * Every process keeps the account's proof, the account sends from `writer` (its log grows, its
 * received page does not change), and within the notice's delay every read on `readers` proves the
 * grown head.
 */
async function expectDroppedEverywhere(readers: readonly RunningRelay[], writer: RunningRelay): Promise<void> {
  const user = wallet(generatePrivateKey());
  const token = await user.token({ domain: DOMAIN });
  for (let i = 0; i < 3; i++) await send(writer, alice, user.address, `2${i}00`);
  const before = await headSizes(readers, token);
  expect(new Set(before.sizes)).toEqual(new Set([3]));
  expect((await headSizes(readers, token)).sizes.every((size) => size === 3)).toBe(true); // kept, and served again

  await send(writer, user, alice.address, "2f00");
  const deadline = Date.now() + NOTICE_MS;
  let after = await headSizes(readers, token);
  while (after.sizes.some((size) => size !== 4) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    after = await headSizes(readers, token);
  }
  expect(after.sizes).toEqual(after.sizes.map(() => 4));
  expect(after.pages).toEqual(before.pages);
}

describe("a kept proof across the processes of one node", () => {
  it("two workers on SQLite: a send through either drops the proof both kept", { timeout: 90_000 }, async () => {
    const relay = await start({ workers: 2 });
    await expectDroppedEverywhere([relay], relay);
  });

  it("two PostgreSQL replicas: a send on one drops the proof the other kept", { timeout: 90_000 }, async () => {
    schema = await createTestSchema();
    const env = { NEUTRAL_DATABASE_URL: schema.url };
    const [a, b] = await Promise.all([start({ env }), start({ env })]);
    await expectDroppedEverywhere([a, b], b);
  });
});
