// Receipts bound to positions (spec 3.0.0, issue 35) on a SQLite store, in this process: the cost of
// signing a message's two receipts inside the append, on the writer thread, over the positions its
// copies take, against signing them before the append on the event loop (v1 `Receipt`s, what the
// node did before 3.0.0: the same two signatures, in another place). Both runs store the same kind
// of messages through `store.append` with BENCH_RECEIPTS_INFLIGHT (64) appends in flight, for
// BENCH_SECONDS (10) each, in BENCH_ROUNDS (3) interleaved rounds on fresh stores.
// Figures: appends/s bound ÷ before (target ≥ 0.9, issue 35's "sends with the log ÷ without": the
// log now includes the signatures), and the event loop's busy time per append in both (report).
// BENCH_RECEIPTS=0 skips it.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { loadSecp256k1 } from "../dist/crypto/secp256k1.js";
import { receiptDigest } from "../dist/crypto/eip712.js";
import { openSqliteStore } from "../dist/storage/sqlite.js";
import { envInt, fmt, header, log, out as figure, runBench, settings, tempDir, verdict } from "./harness.mjs";
import { medianRound, roundsText } from "./rounds.mjs";

const curve = loadSecp256k1();
const nodeKey = randomBytes(32);
const hex = (bytes) => `0x${Buffer.from(bytes).toString("hex")}`;
const INFLIGHT = envInt("BENCH_RECEIPTS_INFLIGHT", 64);
const ACCOUNTS = 1000;
const accounts = Array.from({ length: ACCOUNTS }, () => hex(randomBytes(20)));

/** A message between two of the bench's accounts (its signature random: the store does not check it). */
function message(i) {
  const digest = randomBytes(32);
  return { from: accounts[i % ACCOUNTS], to: accounts[(i * 7 + 1) % ACCOUNTS], message: randomBytes(100).toString("hex"), timestamp: 1_767_225_600_000 + i, signature: hex(randomBytes(65)), digest };
}

/** Appends for `seconds` with INFLIGHT in flight, each made by `make(i)`; appends/s and the event loop's busy µs per append. */
async function timed(store, make, seconds) {
  let done = 0;
  let next = 0;
  const end = performance.now() + seconds * 1000;
  const before = performance.eventLoopUtilization();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: INFLIGHT }, async () => {
      while (performance.now() < end) {
        await store.append(make(next++));
        done++;
      }
    }),
  );
  const elapsed = performance.now() - started;
  const busy = performance.eventLoopUtilization(before);
  return { perSecond: (done / elapsed) * 1000, busyMicros: (busy.active * 1000) / done };
}

/** One round: a fresh store per path. */
async function round(seconds) {
  const result = {};
  for (const [name, opts, make] of [
    [
      "before",
      {},
      // The event loop signs both receipts (v1), then the writer stores them as given.
      (i) => {
        const m = message(i);
        return { ...m, senderReceipt: hex(curve.sign(receiptDigest(m.digest, "sender"), nodeKey)), receiverReceipt: hex(curve.sign(receiptDigest(m.digest, "receiver"), nodeKey)) };
      },
    ],
    ["bound", { receiptKey: nodeKey }, (i) => message(i)],
  ]) {
    const dir = tempDir(`receipts-${name}`);
    const store = openSqliteStore({ file: path.join(dir, "neutral.sqlite"), synchronous: "normal", ...opts });
    try {
      await timed(store, make, 1); // warm: the writer thread, the statements
      result[name] = await timed(store, make, seconds);
    } finally {
      await store.close();
    }
  }
  return result;
}

await runBench({ name: "receipts", skip: "BENCH_RECEIPTS" }, async () => {
  header("neutral relay receipts bound to positions (SQLite, in process)", `, secp256k1: ${curve.implementation}`);
  const rounds = [];
  for (let r = 0; r < settings.rounds; r++) {
    log(`receipts: round ${r + 1} of ${settings.rounds}`);
    rounds.push(await round(settings.seconds));
  }
  const summary = medianRound(rounds, (run) => run.bound.perSecond / run.before.perSecond);
  const { bound, before } = summary.run;
  figure(`# ${INFLIGHT} appends in flight, ${settings.seconds} s a path a round; event loop busy per append: before ${fmt(before.busyMicros, 1)} µs, bound ${fmt(bound.busyMicros, 1)} µs`);
  verdict({
    name: "appends/s with receipts bound in the writer ÷ signed before on the event loop",
    figure: `${fmt(bound.perSecond)}/s`,
    baseline: `${fmt(before.perSecond)}/s`,
    ratio: summary.ratio,
    target: "≥ 0.9",
    pass: summary.ratio >= 0.9,
    note: roundsText(summary),
  });
});
