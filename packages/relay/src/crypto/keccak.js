// keccak-256 on the node's send path: hash-wasm's WebAssembly keccak once it has compiled
// (milliseconds after this module loads), @noble/hashes' before that; the same bytes. A send hashes
// nine blocks: five in the worker that takes it (the message's EIP-712 digest, four; the signer's
// address, one) and four in the writer that signs its two receipts, the one thread every append
// waits on. A block
// takes ~0.7 µs on WebAssembly here against ~9 µs with @noble/hashes (README, Dependencies). The
// protocol package stays on @noble/hashes, which runs in every browser; the node gives this one
// where a digest is made per send (`logReceiptDigest`). Plain JavaScript, like
// storage/receipt-signer.js, so that the SQLite writer thread runs it from the sources.
import { keccak_256 as nobleKeccak256 } from "@noble/hashes/sha3.js";
import { logReceiptDigest as protocolLogReceiptDigest } from "@neutral/protocol";
import wasmKeccak from "hash-wasm/dist/keccak.umd.min.js";

/** @type {import("hash-wasm").IHasher | undefined} */
let wasm;

/**
 * Settles once `keccak256` runs on WebAssembly ("wasm") or, where it cannot, stays on @noble/hashes ("js").
 * @type {Promise<"wasm" | "js">}
 */
export const keccak256Ready = Promise.resolve()
  .then(() => wasmKeccak.createKeccak(256))
  .then(
    (hasher) => {
      wasm = hasher;
      return /** @type {const} */ ("wasm");
    },
    () => /** @type {const} */ ("js"),
  );

/**
 * keccak-256 of `data`: 32 bytes, a new array.
 * @type {import("@neutral/protocol").Keccak256}
 */
export const keccak256 = (data) => {
  if (wasm === undefined) return nobleKeccak256(data);
  wasm.init();
  wasm.update(data);
  return wasm.digest("binary");
};

/**
 * @neutral/protocol's `logReceiptDigest` hashed with this module's keccak-256: the one the node
 * calls, for every receipt it signs or checks, so that no caller has to remember to pass it.
 * @param {string} digest
 * @param {number} seq
 * @param {import("@neutral/protocol").ReceiptRole} [role]
 * @returns {Uint8Array}
 */
export const logReceiptDigest = (digest, seq, role = "receiver") => protocolLogReceiptDigest(digest, seq, role, keccak256);
