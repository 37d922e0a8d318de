import { afterEach, describe, expect, it } from "vitest";
import { TEST_KEYS, wallet } from "../test-wallets.js";
import { messageDigest, receiptDigest } from "./eip712.js";
import { loadSecp256k1 } from "./secp256k1.js";
import { inlineSendCrypto, threadedSendCrypto, type SendCrypto, type SendCryptoJob } from "./send-crypto.js";

// The thread runs the compiled worker (dist/crypto/send-crypto-worker.js); from these TypeScript
// sources there is none, so the built module is what exercises a real thread.
const built = (await import(new URL("../../dist/crypto/send-crypto.js", import.meta.url).href)) as typeof import("./send-crypto.js");

const curve = loadSecp256k1();
const nodeKey = new Uint8Array(Buffer.from(TEST_KEYS.node.slice(2), "hex"));
const alice = wallet(TEST_KEYS.alice);
const bob = wallet(TEST_KEYS.bob);

async function jobsFor(count: number): Promise<SendCryptoJob[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const signed = await alice.sign({ to: bob.address, message: i.toString(16).padStart(4, "0") });
      const digest = messageDigest(signed);
      // Every third job claims a sender the signature does not recover.
      return { digest, signature: new Uint8Array(Buffer.from(signed.signature.slice(2), "hex")), from: i % 3 === 2 ? bob.address : alice.address };
    }),
  );
}

const opened: SendCrypto[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((crypto) => crypto.close()));
});

describe("send crypto", () => {
  it("on its thread: the same answers as inline, each to its own job, however many arrive at once", async () => {
    const errors: unknown[] = [];
    const threaded = built.threadedSendCrypto({ curve, nodeKey, onThreadError: (error) => errors.push(error) });
    opened.push(threaded);
    const inline = inlineSendCrypto(curve, nodeKey);
    const jobs = await jobsFor(60);
    const [onThread, onCaller] = await Promise.all([Promise.all(jobs.map((job) => threaded.check(job))), Promise.all(jobs.map((job) => inline.check(job)))]);
    expect(onThread).toEqual(onCaller);
    expect(onThread.filter((result) => result.valid)).toHaveLength(40);
    const first = onThread[0]!;
    if (!first.valid) throw new Error("job 0 is valid");
    expect(curve.recoverAddress(receiptDigest(jobs[0]!.digest, "sender"), first.senderReceipt)).toBe(curve.addressOf(nodeKey));
    expect(curve.recoverAddress(receiptDigest(jobs[0]!.digest, "receiver"), first.receiverReceipt)).toBe(curve.addressOf(nodeKey));
    expect(errors).toEqual([]);
  });

  it("without a compiled worker (running from sources) it answers inline", async () => {
    const errors: unknown[] = [];
    const fromSources = threadedSendCrypto({ curve, nodeKey, onThreadError: (error) => errors.push(error) });
    opened.push(fromSources);
    const jobs = await jobsFor(3);
    expect(await Promise.all(jobs.map((job) => fromSources.check(job)))).toEqual(await Promise.all(jobs.map((job) => inlineSendCrypto(curve, nodeKey).check(job))));
    expect(errors).toEqual([]);
  });

  it("a thread that fails hands its jobs to the caller's thread, says so once, and later jobs run inline", async () => {
    const errors: unknown[] = [];
    // A zero key cannot sign: the thread throws on the first valid job and dies.
    const broken = built.threadedSendCrypto({ curve, nodeKey: new Uint8Array(32), onThreadError: (error) => errors.push(error) });
    opened.push(broken);
    const [valid, , invalid] = await jobsFor(3);
    await expect(broken.check(valid!)).rejects.toThrow(); // inline signing with that key fails too, as an error, not a crash
    expect(errors).toHaveLength(1);
    expect(await broken.check(invalid!)).toEqual({ valid: false });
    expect(errors).toHaveLength(1);
  });
});
