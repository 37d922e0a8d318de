// The SQLite store's writer thread (see sqlite-append-writer.ts): its own connection, running each
// batch of appends as one IMMEDIATE transaction and answering once it is committed. Plain
// JavaScript, so that the same file runs as a worker from the TypeScript sources (tests) and from dist/.
import { parentPort, workerData } from "node:worker_threads";
import { openAppendBatches } from "./sqlite-append-batch.js";

const batches = openAppendBatches(workerData);
parentPort.on("message", (batch) => {
  if (batch === "close") {
    try {
      batches.close();
    } finally {
      parentPort.close();
    }
    return;
  }
  let reply;
  try {
    reply = { results: batches.run(batch) };
  } catch (error) {
    reply = { error: { message: error instanceof Error ? error.message : String(error), code: error && error.code } };
  }
  parentPort.postMessage(reply);
});
