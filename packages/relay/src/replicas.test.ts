// Several relay processes on one PostgreSQL database are one service node: one identity, one id
// order that readers can sync forward through, one copy of each message, and no acknowledged
// message lost when a replica dies. Real processes, real HTTP on loopback, a real PostgreSQL.
import { createServer, type AddressInfo } from "node:net";
import { generatePrivateKey } from "viem/accounts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestSchema, type TestSchema } from "../test/postgres.js";
import { call, startRelay, type RunningRelay, type StartOptions } from "../testing/index.js";
import { TEST_KEYS, wallet, type TestWallet } from "../test/wallets.js";

/** The SIWE domain every replica accepts, as behind one load balancer: one token works on all of them. */
const DOMAIN = "relay.neutral.test";

interface Sent {
  id: string;
  from: string;
  to: string;
}

// Each test starts PostgreSQL replicas as processes (two workers each for the walks): on a loaded
// 2-core CI machine the walk test took over 30 s, so every test here has 90 s.
describe("replicas of one PostgreSQL database", { timeout: 90_000 }, () => {
  let schema: TestSchema;
  let running: RunningRelay[] = [];

  const replica = async (options: StartOptions = {}) => {
    const relay = await startRelay({ ...options, env: { NEUTRAL_DATABASE_URL: schema.url, NEUTRAL_DOMAIN: DOMAIN, ...options.env } });
    running.push(relay);
    return relay;
  };
  beforeEach(async () => {
    schema = await createTestSchema();
  });
  afterEach(async () => {
    await Promise.all(running.map((relay) => relay.crash()));
    running = [];
    await schema.drop();
  });

  const tokenOf = (user: TestWallet) => user.token({ domain: DOMAIN });
  const send = async (relay: RunningRelay, user: TestWallet, token: string, to: string, message: string): Promise<Sent> => {
    const answer = await call(relay.url, "neutralService_sendMessage", [await user.sign({ to, message })], token);
    if (answer.body?.error !== undefined || answer.status !== 200) throw new Error(`send failed: ${answer.status} ${answer.text}`);
    return answer.body.result[0] as Sent;
  };
  /** Every id in `owner`'s received inbox, walking forward with `after` from the start. */
  const walkForward = async (relay: RunningRelay, token: string, after = "0", limit = 100) => {
    const ids: string[] = [];
    for (;;) {
      const page = (await call(relay.url, "neutralService_getInbox", [{}, limit, after], token)).body.result[0] as { data: { id: string }[]; end: boolean };
      ids.push(...page.data.map((message) => message.id));
      if (page.data.length > 0) after = page.data[page.data.length - 1]!.id;
      if (page.end) return { ids, after };
    }
  };

  it("replicas started together share one schema, one generated node key and one node address", async () => {
    const [a, b] = await Promise.all([replica(), replica({ workers: 2 })]);
    const generated = [...a.logs, ...b.logs].filter((log) => log.msg === "generated a node key");
    expect(generated).toHaveLength(1);
    expect(a.address).toBe(b.address);
    for (const relay of [a, b]) {
      const info = (await call(relay.url, "neutralService_nodeInfo", [])).body.result[0] as { address: string };
      expect(info.address).toBe(a.address);
      expect(relay.logs.find((log) => log.msg === "listening")).toMatchObject({ storage: "postgres" });
    }
    const { rows } = await schema.query<{ count: string }>("SELECT count(*) AS count FROM node_identity");
    expect(Number(rows[0]!.count)).toBe(1);
    // A message accepted by one replica is read, identical, from the other; its receipts name the one node.
    const alice = wallet(TEST_KEYS.alice);
    const bob = wallet(TEST_KEYS.bob);
    const sent = await send(a, alice, await tokenOf(alice), bob.address, "c0ffee");
    const inbox = (await call(b.url, "neutralService_getInbox", [], await tokenOf(bob))).body.result[0] as { data: unknown[] };
    expect(inbox.data).toEqual([sent]);
    // A later replica finds the key in the database rather than making one.
    const c = await replica();
    expect(c.address).toBe(a.address);
    expect(c.logs.some((log) => log.msg === "generated a node key")).toBe(false);
    expect(await c.stop()).toEqual({ code: 0, signal: null }); // SIGTERM: drains, closes the pool, exits 0
  });

  it("readers walking forward with `after` during concurrent sends on two replicas end with every acknowledged message exactly once", async () => {
    const [a, b] = await Promise.all([replica({ workers: 2 }), replica({ workers: 2 })]);
    const reader = wallet(generatePrivateKey());
    const readerToken = await tokenOf(reader);
    const senders = Array.from({ length: 8 }, () => wallet(generatePrivateKey()));
    const senderTokens = await Promise.all(senders.map(tokenOf));
    const rounds = 20;
    const inFlight = 4;
    const acknowledged: string[] = [];
    let writing = true;

    const writers = senders.map(async (sender, s) => {
      for (let i = 0; i < rounds; i++) {
        // A few sends in flight at once per sender, spread over both replicas.
        const burst = await Promise.all(
          Array.from({ length: inFlight }, (_, k) =>
            send((i + k + s) % 2 === 0 ? a : b, sender, senderTokens[s]!, reader.address, `${s.toString(16).padStart(2, "0")}${i.toString(16).padStart(2, "0")}0${k}`),
          ),
        );
        acknowledged.push(...burst.map((sent) => sent.id));
      }
    });
    // One reader per replica, each syncing forward from its own cursor in small pages the whole time.
    const readFrom = async (relay: RunningRelay) => {
      const seen: string[] = [];
      let after = "0";
      for (;;) {
        const done = !writing; // one full walk after the last acknowledgement
        const walked = await walkForward(relay, readerToken, after, 2);
        seen.push(...walked.ids);
        after = walked.after;
        if (done) return seen;
      }
    };
    const reading = Promise.all([readFrom(a), readFrom(b)]);
    await Promise.all(writers);
    writing = false;
    const [seenOnA, seenOnB] = await reading;

    expect(acknowledged).toHaveLength(senders.length * rounds * inFlight);
    const inOrder = [...acknowledged].sort((x, y) => Number(x) - Number(y));
    expect(seenOnA).toEqual(inOrder); // each once, in id order
    expect(seenOnB).toEqual(inOrder);
  });

  it("the same signed message sent to both replicas at once is stored once", async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    const alice = wallet(TEST_KEYS.alice);
    const bob = wallet(TEST_KEYS.bob);
    const token = await tokenOf(alice);
    for (let i = 0; i < 15; i++) {
      const signed = await alice.sign({ to: bob.address, message: `ab${i.toString(16).padStart(2, "0")}` });
      const [viaA, viaB] = await Promise.all([a, b].map((relay) => call(relay.url, "neutralService_sendMessage", [signed], token)));
      expect(viaA!.body.result).toEqual(viaB!.body.result);
    }
    const { ids } = await walkForward(b, await tokenOf(bob));
    expect(ids).toHaveLength(15);
    const { rows } = await schema.query<{ count: string }>("SELECT count(*) AS count FROM messages");
    expect(Number(rows[0]!.count)).toBe(15);
  });

  it("SIGKILL of one replica under load loses no acknowledged message, and the other keeps serving", async () => {
    const [doomed, survivor] = await Promise.all([replica({ workers: 2 }), replica()]);
    const alice = wallet(TEST_KEYS.alice);
    const bob = wallet(TEST_KEYS.bob);
    const token = await tokenOf(alice);
    const acknowledged = new Set<string>();
    let refused = 0;
    let killed = false;
    const sendTo = async (relay: RunningRelay, i: number) => {
      try {
        acknowledged.add((await send(relay, alice, token, bob.address, i.toString(16).padStart(6, "0"))).id);
      } catch {
        refused++; // the doomed replica died before answering: not acknowledged, so not owed
      }
    };
    const load = (async () => {
      for (let i = 0; i < 300; i += 6) {
        await Promise.all([0, 1, 2, 3].map((k) => sendTo(doomed, i + k)).concat([4, 5].map((k) => sendTo(survivor, i + k))));
        if (!killed && acknowledged.size >= 60) {
          killed = true;
          void doomed.crash();
        }
      }
    })();
    await load;
    expect(killed).toBe(true);
    expect(refused).toBeGreaterThan(0); // sends to the dead replica failed...
    const afterCrash = await send(survivor, alice, token, bob.address, "ffffff"); // ...while the survivor serves
    acknowledged.add(afterCrash.id);

    const { ids } = await walkForward(survivor, await tokenOf(bob));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of acknowledged) expect(ids).toContain(id);
  });

  it("survives losing its database connections: requests in the gap fail as JSON-RPC errors, then it serves again", async () => {
    const name = `neutral_gap_${Date.now()}`;
    const relay = await replica({ env: { NEUTRAL_DATABASE_URL: `${schema.url}&application_name=${name}` } });
    const alice = wallet(TEST_KEYS.alice);
    const bob = wallet(TEST_KEYS.bob);
    const token = await tokenOf(alice);
    await send(relay, alice, token, bob.address, "0a0b");
    const killed = await schema.query<{ killed: boolean }>("SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE application_name = $1", [name]);
    expect(killed.rows.length).toBeGreaterThan(0);
    const answers = await Promise.all(Array.from({ length: 5 }, () => call(relay.url, "neutralService_getInbox", [], token)));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      if (answer.body.error) expect(answer.body.error.code).toBe(-32603); // never a crash, never internals
      if (answer.body.error) expect(JSON.stringify(answer.body.error)).not.toMatch(/terminat|postgres|pg_/i);
    }
    const after = await send(relay, alice, token, bob.address, "0c0d");
    expect(after.from).toBe(alice.address);
    expect(relay.process.exitCode).toBeNull();
  });

  it("refuses to start when the database is unreachable, saying why without the password", async () => {
    const closedPort = `postgres://neutral:hunter2@127.0.0.1:1/neutral`;
    const failed = await startRelay({ env: { NEUTRAL_DATABASE_URL: closedPort } }).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failed).toMatch(/exited \(1\) before listening/);
    expect(failed).toMatch(/could not start/);
    expect(failed).toMatch(/ECONNREFUSED/);
    expect(failed).not.toContain("hunter2");
  });

  it("gives up on a database that accepts connections but never answers, instead of hanging", async () => {
    const silent = createServer(() => {}); // takes the TCP connection, says nothing
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const started = Date.now();
      const failed = await startRelay({ env: { NEUTRAL_DATABASE_URL: `postgres://neutral:hunter2@127.0.0.1:${port}/neutral` }, startTimeoutMs: 25_000 }).then(
        () => undefined,
        (error: Error) => error.message,
      );
      expect(failed).toMatch(/exited \(1\) before listening/);
      expect(failed).toMatch(/timeout/i);
      expect(failed).not.toContain("hunter2");
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      silent.close();
    }
  }, 30_000);

  it("a replica configured with another --node-key than the one kept in the database says so", async () => {
    const first = await replica();
    const other = await replica({ env: { NEUTRAL_NODE_KEY: TEST_KEYS.node } });
    expect(other.address).not.toBe(first.address);
    expect(other.logs.find((log) => log.level === "warn" && String(log.msg).includes("must sign as one node"))).toMatchObject({
      address: other.address,
      databaseAddress: first.address,
    });
    expect(other.stdout()).not.toContain(TEST_KEYS.node.slice(2));
  });
});
