// Run by src/topology/cluster/writer.test.ts: a primary with two cluster workers that append through it, over
// the built modules (dist/). The primary prints one JSON line with what the workers saw. The primary's
// writer signs the receipts of the messages that come without them, as a relay's does.
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { openSqliteStore, startStoreWriter } from "../dist/storage/sqlite.js";
import { linkToPrimary, linkToWorkers } from "../dist/topology/channel.js";
import { primaryWriter, serveWorkerAppends } from "../dist/topology/cluster/writer.js";
import { randomAddress, randomMessage } from "./fixture-messages.mjs";

const file = process.argv[2];

if (cluster.isPrimary) {
  await openSqliteStore({ file }).close();
  const writer = startStoreWriter({ file, inline: true, checkpointer: false, receiptKey: randomBytes(32) }); // as the relay's primary runs it
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
  // Each append result as it crossed the channel: an id, a JSON, or receipts alone.
  const crossed = [];
  process.on("message", (m) => {
    if (m?.kind === "answer" && m.topic === "append") for (const result of m.body.results) crossed.push(typeof result === "number" ? "id" : "json" in result ? "json" : "receipts");
  });
  const threads = () => readdirSync("/proc/self/task").length;
  const store = openSqliteStore({ file, migrate: false, writer: primaryWriter(linkToPrimary()) });
  const threadsBefore = threads();
  const from = randomAddress();
  const sent = Array.from({ length: 50 }, () => randomMessage(from));
  const first = await Promise.all(sent.map((m) => store.append(m)));
  const again = await Promise.all(sent.slice(0, 5).map((m) => store.append(m)));
  const page = await store.page({ owner: from, ranges: [{ side: "sent" }], order: "desc", limit: 100 });
  // Without receipts: the primary's writer signs them over the copies' positions.
  const unsigned = Array.from({ length: 20 }, () => {
    const { senderReceipt: _s, receiverReceipt: _r, ...fields } = { ...randomMessage(from), message: randomBytes(4096).toString("hex") };
    return fields;
  });
  crossed.length = 0;
  const signed = await Promise.all(unsigned.map((m) => store.append(m)));
  const signedCrossed = crossed.splice(0);
  const signedPage = await store.page({ owner: from, ranges: [{ side: "sent" }], order: "desc", limit: 20 });
  const stored = new Map(signedPage.messages.map((m) => [m.id, m.json]));
  // The worker started no writer thread (nor a checkpointer): its appends went to the primary.
  const threadsAdded = threads() - threadsBefore;
  await store.close();
  const afterClose = await store.append(randomMessage(from)).then(() => "accepted", (error) => `${error.name} ${error.code}`);
  process.send({
    ids: first.map((r) => r.stored.id),
    created: first.every((r) => r.created),
    resent: again.map((r) => ({ id: r.stored.id, created: r.created })),
    read: page.messages.map((m) => m.id),
    signed: {
      crossed: signedCrossed,
      created: signed.every((r) => r.created),
      // What each append answered is what the store holds, byte for byte, with receipts the writer added.
      asStored: signed.every((r) => stored.get(r.stored.id) === r.stored.json),
      withReceipts: signed.every((r) => /"sender_receipt":"0x[0-9a-f]{130}","sender_seq":\d+,"receiver_receipt":"0x[0-9a-f]{130}","receiver_seq":\d+,/.test(r.stored.json)),
    },
    afterClose,
    threadsAdded,
  }, () => process.exit(0));
}
