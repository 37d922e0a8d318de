// SHA-256, as the mailbox log's tree and a log page's statement hash with: @noble/hashes' by
// default, which runs anywhere; a node gives a native one (node:crypto), as it hashes many small
// inputs per request.
import { sha256 } from "@noble/hashes/sha2.js";

/** SHA-256 of bytes, or of a text's UTF-8 bytes. */
export type Sha256 = (data: Uint8Array | string) => Uint8Array;

/** @noble/hashes' SHA-256: the default wherever a `Sha256` may be given. */
export const nobleSha256: Sha256 = (data) => sha256(typeof data === "string" ? new TextEncoder().encode(data) : data);
