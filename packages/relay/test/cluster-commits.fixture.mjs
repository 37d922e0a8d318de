// Run by src/topology/cluster/commits.test.ts: a primary whose one writer's commits are routed to two
// cluster workers (dist/topology/cluster/commits.js), as the relay's primary runs them. Worker 1
// streams some accounts, worker 2 none; the primary appends between the workers' steps and prints one
// JSON line: what each worker heard, per step, and in how many notices.
import cluster from "node:cluster";
import { observeCommits } from "../dist/live/commits.js";
import { openSqliteStore, startStoreWriter } from "../dist/storage/sqlite.js";
import { linkToPrimary, linkToWorkers } from "../dist/topology/channel.js";
import { primaryCommitFeed, routeCommits } from "../dist/topology/cluster/commits.js";
import { randomMessage } from "./fixture-messages.mjs";

const file = process.argv[2];
const [a, b, c, d, x] = ["a", "b", "c", "d", "e"].map((digit) => `0x${digit.repeat(40)}`);
// What each step streams (worker 1; worker 2 streams nothing), then what the primary sends once both are ready.
const STEPS = [
  { stream: [[a, true]], send: [[a, b], [c, d], [c, b]] },
  // a's last stream ends; d is opened twice and closed once: one stream of d is left.
  { stream: [[a, false], [d, true], [d, true], [d, false]], send: [[a, x], [c, d]] },
  // Appended at once: one transaction, told in one notice.
  { stream: [], send: [[b, c], [x, d], [d, a]], together: true },
];

if (cluster.isPrimary) {
  await openSqliteStore({ file }).close();
  const workers = linkToWorkers();
  const commits = routeCommits(workers);
  const writer = observeCommits(startStoreWriter({ file, inline: true, checkpointer: false }), commits.publish);
  const store = openSqliteStore({ file, migrate: false, writer });
  const reports = [];
  const ready = new Set();
  let step = 0;
  const forked = [cluster.fork({ STREAMS: "1" }), cluster.fork({ STREAMS: "0" })];
  for (const worker of forked)
    worker.on("message", async (m) => {
      if (m.report) return void reports.push(m.report);
      if (!m.ready) return;
      ready.add(worker.id);
      if (ready.size < forked.length) return;
      ready.clear();
      const { send, together } = STEPS[step];
      const ids = [];
      if (together) ids.push(...(await Promise.all(send.map(([from, to]) => store.append(randomMessage(from, to))))).map((result) => result.stored.id));
      else for (const [from, to] of send) ids.push((await store.append(randomMessage(from, to))).stored.id);
      step++;
      for (const each of forked) each.send({ sent: ids });
    });
  let exited = 0;
  cluster.on("exit", async () => {
    if (++exited < forked.length) return;
    commits.stop();
    await store.close();
    await writer.close();
    process.stdout.write(`${JSON.stringify(reports)}\n`);
  });
} else {
  const primary = linkToPrimary();
  const feed = primaryCommitFeed(primary);
  const streams = process.env.STREAMS === "1";
  const heard = [];
  let notices = 0;
  feed.subscribe((events) => {
    notices++;
    heard.push(...events.filter((event) => event.kind === "message").map((event) => ({ accounts: event.accounts, id: event.message?.id, json: event.message?.json !== undefined })));
  });
  const steps = [];
  let step = 0;
  // Each step's news goes out in a later turn (the feed reports once a turn); `ready` follows it on the same channel.
  const begin = () => {
    if (streams) for (const [account, streamed] of STEPS[step].stream) feed.streaming(account, streamed);
    setImmediate(() => setImmediate(() => process.send({ ready: true })));
  };
  process.on("message", (m) => {
    if (!Array.isArray(m.sent)) return;
    // Told before the primary's `sent` (observeCommits publishes before the append resolves): here already.
    const wait = () => {
      if (heard.length < m.sent.length) return void setTimeout(wait, 5);
      steps.push({ sent: m.sent, heard: heard.splice(0), notices });
      notices = 0;
      if (++step < STEPS.length) return begin();
      process.send({ report: { streams, steps } }, () => feed.close().then(() => process.exit(0)));
    };
    wait();
  });
  begin();
}
