// pnpm bench: what checking a page's proof costs the SDK (the verifiable mailbox), per page of 20
// messages of a 1,000-position log, against a baseline measured in the same run: the checks the SDK
// ran on those 20 messages before proofs existed (each message's digest, the sender's signature and
// both receipts recovered). Rounds interleave the two; the figures are the medians of the rounds' p50.
// Runs the built SDK (dist/) against a node in this process (@neutral/relay/testing).
import { performance } from "node:perf_hooks";
import { startNode } from "@neutral/relay/testing";
import { createNeutral, generatePrivateKey, mailboxProblems } from "../dist/index.js";
import { recoverAddress } from "../dist/crypto/ecdsa.js";
import { messageDigest } from "../dist/messages.js";

const MESSAGES = Number(process.env.BENCH_VERIFY_MESSAGES ?? 1_000);
const PAGE = 20;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ITERATIONS = 50;

const node = await startNode();
try {
  // Bob's log: MESSAGES positions (messages from Alice); his page is read with its proof, captured on the wire.
  let captured;
  const capture = async (input, init) => {
    const response = await fetch(input, init);
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    if (body?.method !== "neutralService_getInbox") return response;
    const answer = await response.json();
    captured = answer.result?.[0];
    return new Response(JSON.stringify(answer), { status: response.status, headers: response.headers });
  };
  const alice = createNeutral({ url: node.url, account: generatePrivateKey() });
  const bob = createNeutral({ url: node.url, account: generatePrivateKey(), fetch: capture });
  const bobAddress = (await bob.getAddress()).toLowerCase();
  await bob.ready();
  for (let i = 0; i < MESSAGES; i++) await alice.send(bobAddress, `message ${i}`);
  for await (const page of bob.inbox({ limit: PAGE })) {
    if (page.mailboxProblems.length > 0 || page.messages.some((message) => !message.proven)) throw new Error("the page did not prove itself");
    break;
  }
  if (!captured?.proof) throw new Error("no proven page was captured");
  // The page's proof as the SDK asks it (compact: one multiproof; `omitBound`: no position listed
  // that a message states, spec 3.3.0), and the same page proven with an inclusion proof per
  // position (as a node before spec 3.1.0 answers).
  const check = { account: bobAddress, node: (await bob.nodeInfo()).address.toLowerCase(), proof: captured.proof, messages: captured.data, omitBound: true };
  if (!Array.isArray(check.proof.multiproof) || check.proof.positions.length !== 0) throw new Error("the SDK did not ask the page for a compact proof without the positions its messages state");
  const perPosition = { ...check, proof: await bob.client.getProof({ ids: captured.data.map((message) => message.id) }) };
  if (perPosition.proof.head.size !== check.proof.head.size) throw new Error("the log grew between the two proofs");

  const proofCheck = () => {
    if (mailboxProblems(check).length > 0) throw new Error("the proof failed");
  };
  const perPositionCheck = () => {
    if (mailboxProblems(perPosition).length > 0) throw new Error("the proof failed");
  };
  const messageChecks = () => {
    for (const message of captured.data) {
      const digest = messageDigest(message);
      if (recoverAddress(digest, message.signature) !== message.from) throw new Error("the signature failed");
      recoverAddress(digest, message.sender_receipt);
      recoverAddress(digest, message.receiver_receipt);
    }
  };
  /** p50 and p99 of `ITERATIONS` runs of `fn`, µs. */
  const measure = (fn) => {
    const times = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const start = performance.now();
      fn();
      times.push((performance.now() - start) * 1000);
    }
    times.sort((a, b) => a - b);
    return { p50: times[Math.floor(ITERATIONS / 2)], p99: times[Math.floor(ITERATIONS * 0.99)] };
  };
  const checks = { proof: proofCheck, perPosition: perPositionCheck, base: messageChecks };
  for (const fn of Object.values(checks)) measure(fn); // warm-up
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ["proof", "perPosition", "base"] : ["base", "perPosition", "proof"];
    const result = {};
    for (const which of order) result[which] = measure(checks[which]);
    rounds.push(result);
  }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const proof = median(rounds.map((round) => round.proof.p50));
  const base = median(rounds.map((round) => round.base.p50));
  const proofP99 = median(rounds.map((round) => round.proof.p99));
  const baseP99 = median(rounds.map((round) => round.base.p99));
  const separate = median(rounds.map((round) => round.perPosition.p50));
  const separateP99 = median(rounds.map((round) => round.perPosition.p99));
  const depth = perPosition.proof.positions[0]?.proof.length ?? 0;
  console.log(
    `baseline: the per-message checks of a ${PAGE}-message page (digest, signature, two receipts): p50 ${base.toFixed(0)} µs, p99 ${baseP99.toFixed(0)} µs`,
  );
  console.log(
    `SDK verification of a ${PAGE}-message page with its proof as the SDK asks it, compact and its positions taken from the messages (head signature, ${PAGE} leaves and a multiproof of ${check.proof.multiproof.length} hashes, log of ${check.proof.head.size}): p50 ${proof.toFixed(0)} µs, p99 ${proofP99.toFixed(0)} µs · ${(proof / base).toFixed(2)}× the baseline (median of ${ROUNDS} interleaved rounds of ${ITERATIONS})`,
  );
  console.log(
    `the same page with an inclusion proof per position (${PAGE} of ${depth} hashes, as a node before spec 3.1.0 answers): p50 ${separate.toFixed(0)} µs, p99 ${separateP99.toFixed(0)} µs · ${(separate / base).toFixed(2)}× the baseline`,
  );
} finally {
  await node.stop();
}
