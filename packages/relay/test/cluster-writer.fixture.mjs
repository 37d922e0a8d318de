// Run by src/topology/cluster/writer.test.ts: a primary with two cluster workers that append through it, over
// the built modules (dist/). The primary prints one JSON line with what the workers saw.
import cluster from "node:cluster";
import { readdirSync } from "node:fs";
import { openSqliteStore, startStoreWriter } from "../dist/storage/sqlite.js";
import { linkToPrimary, linkToWorkers } from "../dist/topology/channel.js";
import { primaryWriter, serveWorkerAppends } from "../dist/topology/cluster/writer.js";
import { randomAddress, randomMessage } from "./fixture-messages.mjs";

const file = process.argv[2];

if (cluster.isPrimary) {
  await openSqliteStore({ file }).close();
  const writer = startStoreWriter({ file, inline: true, checkpointer: false }); // as the relay's primary runs it
  serveWorkerAppends(linkToWorkers(), writer);
  const reports = [];
  for (let i = 0; i < 2; i++) cluster.fork().on("message", (message) => Array.isArray(message.ids) && reports.push(message));
  // Counted, not read off cluster.workers: a worker leaves it only once both its exit and its
  // disconnect have happened, in either order, so the last exit may still find it there.
  let exited = 0;
  cluster.on("exit", async () => {
    if (++exited < 2) return;
    await writer.close();
    process.stdout.write(`${JSON.stringify(reports)}\n`);
  });
} else {
  const threads = () => readdirSync("/proc/self/task").length;
  const store = openSqliteStore({ file, migrate: false, writer: primaryWriter(linkToPrimary()) });
  const threadsBefore = threads();
  const from = randomAddress();
  const sent = Array.from({ length: 50 }, () => randomMessage(from));
  const first = await Promise.all(sent.map((m) => store.append(m)));
  const again = await Promise.all(sent.slice(0, 5).map((m) => store.append(m)));
  const page = await store.page({ owner: from, ranges: [{ side: "sent" }], order: "desc", limit: 100 });
  // The worker started no writer thread (nor a checkpointer): its appends went to the primary.
  const threadsAdded = threads() - threadsBefore;
  await store.close();
  const afterClose = await store.append(randomMessage(from)).then(() => "accepted", (error) => `${error.name} ${error.code}`);
  process.send({
    ids: first.map((r) => r.stored.id),
    created: first.every((r) => r.created),
    resent: again.map((r) => ({ id: r.stored.id, created: r.created })),
    read: page.messages.map((m) => m.id),
    afterClose,
    threadsAdded,
  }, () => process.exit(0));
}
