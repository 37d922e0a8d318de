import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { receiptDigest } from "./eip712.js";
import type { Secp256k1 } from "./secp256k1.js";

/** What a send needs checked and signed: the sender's signature over `digest`, and if it holds, both receipts. */
export interface SendCryptoJob {
  /** The EIP-712 digest of the sender's `Message`. */
  digest: Uint8Array;
  /** The sender's 65-byte signature. */
  signature: Uint8Array;
  /** Lowercase 0x address the signature must recover. */
  from: string;
}

export type SendCryptoResult = { valid: false } | { valid: true; senderReceipt: Uint8Array; receiverReceipt: Uint8Array };

/**
 * The secp256k1 work of one send: one recovery and, when it names the sender, two receipt
 * signatures with the node key (protocol.md §6–7).
 */
export interface SendCrypto {
  check(job: SendCryptoJob): Promise<SendCryptoResult>;
  close(): Promise<void>;
}

/** The job done on the calling thread. */
export function runSendCrypto(curve: Secp256k1, nodeKey: Uint8Array, job: SendCryptoJob): SendCryptoResult {
  if (curve.recoverAddress(job.digest, job.signature) !== job.from) return { valid: false };
  return {
    valid: true,
    senderReceipt: curve.sign(receiptDigest(job.digest, "sender"), nodeKey),
    receiverReceipt: curve.sign(receiptDigest(job.digest, "receiver"), nodeKey),
  };
}

/** On the event loop's thread (tests, and the fallback when no thread can start). */
export function inlineSendCrypto(curve: Secp256k1, nodeKey: Uint8Array): SendCrypto {
  return {
    check: async (job) => runSendCrypto(curve, nodeKey, job),
    close: async () => {},
  };
}

interface PendingJob {
  job: SendCryptoJob;
  resolve: (result: SendCryptoResult) => void;
  reject: (error: unknown) => void;
}

/**
 * On a worker thread of its own (`send-crypto-worker.ts`, started at the first send), so that the
 * ~0.2 ms of secp256k1 work per send runs beside the event loop instead of in it: on a machine with
 * a core to spare, parsing, validation and the next requests go on while signatures are checked.
 * Jobs arriving in one event-loop turn travel as one message. If the thread cannot start (its
 * compiled file is missing when running from TypeScript sources) or fails, the jobs it held and
 * every later one run inline: a send never fails for it.
 */
export function threadedSendCrypto(options: { curve: Secp256k1; nodeKey: Uint8Array; onThreadError?: (error: unknown) => void }): SendCrypto {
  const { curve, nodeKey } = options;
  let worker: Worker | undefined;
  let failed = false;
  let closed = false;
  let queued: PendingJob[] = [];
  const inFlight = new Map<number, PendingJob[]>();
  let nextBatch = 0;
  let flushScheduled = false;

  const runInline = (entries: readonly PendingJob[]) => {
    for (const entry of entries) {
      try {
        entry.resolve(runSendCrypto(curve, nodeKey, entry.job));
      } catch (error) {
        entry.reject(error);
      }
    }
  };
  /** The thread failed: what it held runs here, and so does everything after. */
  const giveUp = (error: unknown) => {
    if (!failed) options.onThreadError?.(error);
    failed = true;
    worker = undefined;
    const held = [...inFlight.values()].flat();
    inFlight.clear();
    runInline(held);
  };

  function start(): Worker | undefined {
    if (failed) return undefined;
    const file = new URL("./send-crypto-worker.js", import.meta.url);
    if (!existsSync(fileURLToPath(file))) {
      failed = true;
      return undefined;
    }
    const thread = new Worker(file, { workerData: { nodeKey, implementation: curve.implementation } });
    thread.on("message", ({ batch, results }: { batch: number; results: SendCryptoResult[] }) => {
      const entries = inFlight.get(batch);
      inFlight.delete(batch);
      entries?.forEach((entry, i) => entry.resolve(results[i]!));
      if (inFlight.size === 0) thread.unref(); // an idle thread never keeps the process alive
    });
    thread.on("error", giveUp);
    thread.on("exit", (code) => {
      if (worker === thread && !closed) giveUp(new Error(`the send crypto thread exited (${code})`));
    });
    return thread;
  }

  function flush(): void {
    flushScheduled = false;
    const jobs = queued;
    queued = [];
    if (jobs.length === 0) return;
    worker ??= start();
    if (!worker) return runInline(jobs);
    const batch = nextBatch++;
    inFlight.set(batch, jobs);
    worker.ref();
    worker.postMessage({ batch, jobs: jobs.map((entry) => entry.job) });
  }

  return {
    check(job) {
      return new Promise((resolve, reject) => {
        queued.push({ job, resolve, reject });
        if (!flushScheduled) {
          flushScheduled = true;
          setImmediate(flush);
        }
      });
    },
    async close() {
      closed = true;
      failed = true; // anything after close runs inline
      const thread = worker;
      worker = undefined;
      runInline([...inFlight.values()].flat());
      inFlight.clear();
      if (thread) await thread.terminate();
    },
  };
}
