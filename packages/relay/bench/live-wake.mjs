// What waking a live stream costs, in this process (issue 38's live row, without the HTTP and the
// cluster around it): BENCH_WAKE_STREAMS (10,000) caught-up streams of as many accounts over a SQLite
// store whose writer tells them of its commits, as a node's does; then BENCH_WAKE_MESSAGES (20,000)
// appends to random ones of those accounts, 64 in flight, each waking one stream, whose event is
// taken as the HTTP glue takes it. Two ways, in BENCH_ROUNDS (3) interleaved rounds on fresh stores:
// "told", as the node runs (a commit event carries its message, and a caught-up stream sends it as
// it is), and "read", the same events without the message (what every wake-up did before: the
// stream reads the store from its cursor). Figure: the process's CPU (event loop and writer thread)
// per delivered message, told ÷ read; no target (the live row itself is `live.mjs`'s 1b, end to end).
// BENCH_LIVE_WAKE=0 skips it.
import { randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createLocalCommitFeed, observeCommits } from "../dist/live/commits.js";
import { createSubscriptions } from "../dist/live/subscriptions.js";
import { openSqliteStore, startStoreWriter } from "../dist/storage/sqlite.js";
import { envInt, fmt, header, log, runBench, settings, tempDir, verdict } from "./harness.mjs";
import { medianRound, roundsText } from "./rounds.mjs";

const STREAMS = envInt("BENCH_WAKE_STREAMS", 10_000);
const MESSAGES = envInt("BENCH_WAKE_MESSAGES", 20_000);
const INFLIGHT = 64;
const hex = (bytes) => `0x${randomBytes(bytes).toString("hex")}`;
let timestamp = 1_767_225_600_000;
/** A message as a node stores it, receipts given (the store does not check signatures). */
const message = (from, to) => ({ from, to, message: randomBytes(150).toString("hex"), timestamp: timestamp++, signature: hex(65), senderReceipt: hex(65), receiverReceipt: hex(65), digest: randomBytes(32) });
/** The events as they were before a commit event carried its message. */
const withoutMessages = (events) => events.map((event) => (event.kind === "message" ? { kind: "message", accounts: event.accounts } : event));

/** One way, on a fresh store: CPU µs per delivered message, and messages delivered per second. */
async function run(way) {
  const dir = tempDir("neutral-bench-wake-");
  const file = path.join(dir, "neutral.sqlite");
  const feed = createLocalCommitFeed();
  const writer = observeCommits(startStoreWriter({ file, synchronous: "normal" }), (events) => feed.publish(way === "told" ? events : withoutMessages(events)));
  const store = openSqliteStore({ file, synchronous: "normal", writer });
  const subscriptions = createSubscriptions({ store, feed, limits: { maxSubscriptions: STREAMS, maxSubscriptionsPerAccount: 1 }, maxPageScan: 256, maxReadBytes: 64 * 1024 });
  const abort = new AbortController();
  setMaxListeners(0, abort.signal); // one signal for every stream of the run
  let consumers = [];
  try {
    const owners = Array.from({ length: STREAMS }, () => hex(20));
    let caughtUp = 0;
    let delivered = 0;
    consumers = owners.map(async (owner) => {
      for await (const event of subscriptions.open({ selection: { owner, ranges: [{ side: "received" }] }, client: "127.0.0.1", after: 0, signal: abort.signal })) {
        if (event.method === "neutralService_caughtUp") caughtUp++;
        else if (event.method === "neutralService_message") delivered++;
      }
    });
    while (caughtUp < STREAMS) await new Promise((resolve) => setTimeout(resolve, 10));
    const senders = Array.from({ length: 100 }, () => hex(20));
    const batch = Array.from({ length: MESSAGES }, (_, i) => message(senders[i % senders.length], owners[Math.floor(Math.random() * STREAMS)]));
    const cpu = process.cpuUsage();
    const started = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: INFLIGHT }, async () => {
      while (next < batch.length) await store.append(batch[next++]);
    }));
    while (delivered < MESSAGES) await new Promise((resolve) => setImmediate(resolve));
    const used = process.cpuUsage(cpu);
    const seconds = (performance.now() - started) / 1000;
    return { cpuMicros: (used.user + used.system) / MESSAGES, perSecond: MESSAGES / seconds };
  } finally {
    abort.abort();
    await subscriptions.close();
    await Promise.all(consumers);
    await store.close();
  }
}

await runBench({ name: "live-wake.mjs", skip: "BENCH_LIVE_WAKE" }, async () => {
  header("Live stream wake-ups in process", `; ${fmt(STREAMS)} streams, ${fmt(MESSAGES)} messages a run, ${settings.rounds} rounds`);
  const rounds = [];
  for (let i = 0; i < settings.rounds; i++) {
    // Interleaved, and each way first in every other round.
    const order = i % 2 === 0 ? ["told", "read"] : ["read", "told"];
    const round = {};
    for (const way of order) {
      round[way] = await run(way);
      log(`round ${i + 1}, ${way}: ${fmt(round[way].cpuMicros, 1)} µs CPU per message, ${fmt(round[way].perSecond)} messages/s`);
    }
    rounds.push(round);
  }
  // Lower is better here: with an even count of rounds the lower middle would flatter, so ask for an odd one.
  const summary = medianRound(rounds, (round) => round.told.cpuMicros / round.read.cpuMicros);
  const median = summary.run;
  verdict({
    name: "wake a caught-up stream with the message its commit event carries, CPU per delivered message",
    label: "live wake-up CPU per message, told ÷ read",
    figure: `${fmt(median.told.cpuMicros, 1)} µs (${fmt(median.told.perSecond)} messages/s)`,
    baseline: `the same events without the message, each woken stream reading the store: ${fmt(median.read.cpuMicros, 1)} µs (${fmt(median.read.perSecond)} messages/s)`,
    ratio: roundsText(summary),
    measured: `${fmt(median.told.cpuMicros, 1)} / ${fmt(median.read.cpuMicros, 1)} µs = ${summary.ratio.toFixed(2)}`,
    note: `saved ${fmt(median.read.cpuMicros - median.told.cpuMicros, 1)} µs a wake-up; the process's CPU includes the writer thread's commits, the same in both`,
  });
});
