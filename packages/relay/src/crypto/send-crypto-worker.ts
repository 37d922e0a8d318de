// The send crypto thread (see send-crypto.ts): checks senders' signatures and signs receipts, a
// batch of jobs per message. It holds the node key in its memory, as the main thread does.
import { parentPort, workerData } from "node:worker_threads";
import { loadSecp256k1 } from "./secp256k1.js";
import { runSendCrypto, type SendCryptoJob, type SendCryptoResult } from "./send-crypto.js";

const { nodeKey, implementation } = workerData as { nodeKey: Uint8Array; implementation: string };
// The same implementation as the main thread: the pure-JS one only if that is what it runs.
const curve = loadSecp256k1(implementation === "native libsecp256k1" ? "native" : "js");

parentPort!.on("message", ({ batch, jobs }: { batch: number; jobs: SendCryptoJob[] }) => {
  const results: SendCryptoResult[] = jobs.map((job) => runSendCrypto(curve, nodeKey, job));
  parentPort!.postMessage({ batch, results });
});
