// The sends' baseline (run.mjs): the crypto a same-node send cannot skip, in a loop with nothing
// else: the message's EIP-712 digest, the sender recovered from its signature, and the node's two
// receipts signed, with the relay's own native secp256k1 and digests.
//
// Issue 38 divides the relay's sends by this loop "run on as many cores as the relay uses": with
// `--workers N`, N threads run it at once and their rates add up (`cryptoLoopOnCores`). One thread
// alone would halve the baseline of a two-worker relay and double its ratio.
import { randomBytes } from "node:crypto";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { messageDigest, receiptDigest } from "../dist/crypto/eip712.js";
import { loadSecp256k1 } from "../dist/crypto/secp256k1.js";

/** Messages each thread is given to loop over: enough that the digests are not of a few messages again and again, few enough to copy quickly. */
const THREAD_LIST = 5_000;

/** Sends' crypto per second on this thread, over `signedList` (client-signed messages), for `seconds`. */
export function cryptoLoop(signedList, seconds) {
  const native = loadSecp256k1();
  const nodeKey = randomBytes(32);
  let done = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  while (performance.now() < deadline) {
    for (let k = 0; k < 100; k++) {
      const m = signedList[(done + k) % signedList.length];
      const digest = messageDigest({ from: m.from, to: m.to, message: m.message, timestamp: m.timestamp });
      if (!native.recoverAddress(digest, Buffer.from(m.signature.slice(2), "hex"))) throw new Error("bad signature");
      native.sign(receiptDigest(digest, "sender"), nodeKey);
      native.sign(receiptDigest(digest, "receiver"), nodeKey);
    }
    done += 100;
  }
  return done / ((performance.now() - started) / 1000);
}

/**
 * The loop on `cores` threads at once, started together once every thread has loaded: `perSecond`
 * is their rates added up, `each` each thread's. One core runs it on this thread.
 */
export async function cryptoLoopOnCores(signedList, seconds, cores) {
  if (cores <= 1) {
    const rate = cryptoLoop(signedList, seconds);
    return { perSecond: rate, each: [rate] };
  }
  const workers = Array.from({ length: cores }, (_, k) => {
    const list = Array.from({ length: Math.min(THREAD_LIST, signedList.length) }, (_, i) => signedList[(k * THREAD_LIST + i) % signedList.length]);
    return new Worker(new URL(import.meta.url), { workerData: { cryptoLoop: { list, seconds } } });
  });
  const message = (worker) =>
    new Promise((resolve, reject) => {
      const onMessage = (value) => {
        worker.off("error", reject);
        resolve(value);
      };
      worker.once("message", onMessage);
      worker.once("error", reject);
    });
  try {
    await Promise.all(workers.map(message)); // each "ready"
    const rates = workers.map(message);
    for (const worker of workers) worker.postMessage("go");
    const each = await Promise.all(rates);
    return { perSecond: each.reduce((sum, rate) => sum + rate, 0), each };
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

if (!isMainThread && workerData?.cryptoLoop) {
  const { list, seconds } = workerData.cryptoLoop;
  parentPort.once("message", () => parentPort.postMessage(cryptoLoop(list, seconds)));
  parentPort.postMessage("ready");
}
